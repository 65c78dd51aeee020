import Foundation
import HUDSystem
import HUDCore
import HUDEngine
import HUDRender

/// MBProgressHUD's class methods: show a HUD over a parent, find and hide the top one.
extension HUD {
    /// Creates a HUD over `parent` and shows it: MBProgressHUD's `showHUDAddedTo:animated:`.
    @discardableResult
    public static func show(over parent: ParentSpec = .monitor("pointer"), animated: Bool = true, display: String? = nil) throws -> HUD {
        let hud = try HUD(over: parent, display: display)
        hud.show(animated: animated)
        return hud
    }

    /// The top-most HUD over `parent` that is not being hidden: MBProgressHUD's `HUDForView:`.
    public static func hud(over parent: ParentSpec) -> HUD? {
        Registry.top(over: parent)
    }

    /// Hides the top-most HUD over `parent`; false when there was none: `hideHUDForView:animated:`.
    @discardableResult
    public static func hide(over parent: ParentSpec, animated: Bool = true) -> Bool {
        guard let hud = hud(over: parent) else { return false }
        hud.hide(animated: animated)
        return true
    }
}
