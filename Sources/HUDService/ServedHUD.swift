import HUDCore
import HUDEngine
import HUDX11

/// A HUD as the server drives it: shown, updated, hidden, told what the user did. The X11
/// backend's is `X11HUD`; the server's tests use HUDs on a recording backend.
package protocol ServedHUD: StackableHUD {
    var isVisible: Bool { get }
    var framesDrawn: Int { get }
    /// Its monitor's refresh rate.
    var refreshRate: Double { get }
    var smooth: Bool { get set }
    var onButton: (() -> Void)? { get set }
    var onExtraButton: ((Int) -> Void)? { get set }
    var onEscape: (() -> Void)? { get set }
    var onClick: (() -> Void)? { get set }
    /// The link under the click `onClick` is called for (`HUDController.clickedLink`).
    var clickedLink: Int? { get }
    var onHidden: (() -> Void)? { get set }
    var onChange: (() -> Void)? { get set }
    /// The window it covers went away.
    var onParentGone: (() -> Void)? { get set }
    func show(animated: Bool)
    func hide(animated: Bool, afterDelay delay: Double, completion: (() -> Void)?)
    func dismiss(animated: Bool, completion: (() -> Void)?)
    func update(_ change: (inout HUDConfiguration) -> Void)
    /// Takes it off its loop and destroys its window.
    func dispose()
}

extension ServedHUD {
    func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (() -> Void)? = nil) {
        hide(animated: animated, afterDelay: delay, completion: completion)
    }
    func dismiss(animated: Bool = true, completion: (() -> Void)? = nil) { dismiss(animated: animated, completion: completion) }
}

/// The display a server draws on, and the loop it runs on: where its HUDs are made.
package protocol ServerDisplay: AnyObject, SendableMetatype {
    associatedtype HUD: ServedHUD
    var loop: any HUDEventLoop { get }
    /// The desktop's `Xft.dpi`, when it sets one.
    var dpi: Double? { get }
    /// A HUD over `parent`, on `loop`, not shown yet.
    func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> HUD
    /// A text property of the root window (`AT_SPI_BUS`).
    func rootString(_ name: String) -> String?
}

extension X11HUD: ServedHUD {}

/// The X11 display and its loop.
package final class X11ServerDisplay: ServerDisplay {
    package let hudLoop: HUDLoop
    package var loop: any HUDEventLoop { hudLoop }
    package var display: X11Display { hudLoop.display }

    package init(_ loop: HUDLoop) { hudLoop = loop }

    package var dpi: Double? { display.xftDPI }
    package func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> X11HUD {
        try X11HUD(loop: hudLoop, configuration: configuration, parent: parent, scale: scale)
    }
    package func rootString(_ name: String) -> String? { display.rootString(name) }
}
