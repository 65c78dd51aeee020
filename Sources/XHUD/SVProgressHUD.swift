import Foundation
import HUDCore

// SVProgressHUD's notification names and user-info key, with its own strings: code that observes
// `Notification.Name(SVProgressHUDDidDisappearNotification)` compiles and works unchanged.

/// Posted when the shared HUD starts to appear (``ProgressHUD/willAppearNotification``).
public let SVProgressHUDWillAppearNotification = "SVProgressHUDWillAppearNotification"
/// Posted when its show animation has ended (``ProgressHUD/didAppearNotification``).
public let SVProgressHUDDidAppearNotification = "SVProgressHUDDidAppearNotification"
/// Posted when it starts to hide (``ProgressHUD/willDisappearNotification``).
public let SVProgressHUDWillDisappearNotification = "SVProgressHUDWillDisappearNotification"
/// Posted once it is hidden (``ProgressHUD/didDisappearNotification``).
public let SVProgressHUDDidDisappearNotification = "SVProgressHUDDidDisappearNotification"
/// Posted on a click on it while it blocks input (``ProgressHUD/didReceiveTouchEventNotification``).
public let SVProgressHUDDidReceiveTouchEventNotification = "SVProgressHUDDidReceiveTouchEventNotification"
/// The key of the status in the notifications' `userInfo`.
public let SVProgressHUDStatusUserInfoKey = "SVProgressHUDStatusUserInfoKey"

/// SVProgressHUD's styles: `.light`, `.dark`, `.custom` (with `setForegroundColor` and
/// `setBackgroundColor`).
public typealias SVProgressHUDStyle = HUDStyle

/// SVProgressHUD's mask types: what covers the screen while the HUD shows.
public enum SVProgressHUDMaskType: Int, Sendable, CaseIterable {
    /// Nothing; input passes through (the default).
    case none = 1
    /// Nothing drawn; input is blocked.
    case clear
    /// Black at 0.4; input is blocked.
    case black
    /// A radial gradient, clear at the centre to black 0.75; input is blocked.
    case gradient
    /// The colour of `setBackgroundLayerColor` (black 0.4 unless set); input is blocked.
    case custom
}

/// SVProgressHUD's spinners.
public enum SVProgressHUDAnimationType: Int, Sendable, CaseIterable {
    /// The flat ring, SVProgressHUD's own (the default).
    case flat
    /// The classic 12-spoke activity indicator.
    case native
}

/// UIKit's `UIOffset`, for SVProgressHUD's `setOffsetFromCenter(_:)`: logical pixels, `vertical`
/// down.
public struct UIOffset: Equatable, Sendable {
    public var horizontal: CGFloat
    public var vertical: CGFloat
    public init(horizontal: CGFloat, vertical: CGFloat) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    public static let zero = UIOffset(horizontal: 0, vertical: 0)
}

/// SVProgressHUD's class methods as its Swift users spell them, on the shared HUD of
/// ``ProgressHUD`` (the same HUD, the same settings, the same notifications):
///
///     SVProgressHUD.setDefaultMaskType(.black)
///     SVProgressHUD.show(withStatus: "Loading")
///     SVProgressHUD.showProgress(0.4, status: "Downloading")
///     SVProgressHUD.showSuccess(withStatus: "Saved")
///     SVProgressHUD.dismiss(withDelay: 1) { print("dismissed") }
///
/// Images are a PNG or SVG file or an icon name of the icon theme instead of a `UIImage`, fonts
/// a Pango font description instead of a `UIFont`, colours a ``HUDColor``. Calls are safe from
/// any thread; completions and notifications arrive as ``HUD/callbackQueue`` says (on the main
/// queue while the program runs it, else on the library's callback thread).
public enum SVProgressHUD {
    // MARK: Notifications

    /// ``ProgressHUD/willAppearNotification``.
    public static let willAppearNotification = ProgressHUD.willAppearNotification
    /// ``ProgressHUD/didAppearNotification``.
    public static let didAppearNotification = ProgressHUD.didAppearNotification
    /// ``ProgressHUD/willDisappearNotification``.
    public static let willDisappearNotification = ProgressHUD.willDisappearNotification
    /// ``ProgressHUD/didDisappearNotification``.
    public static let didDisappearNotification = ProgressHUD.didDisappearNotification
    /// ``ProgressHUD/didReceiveTouchEventNotification``.
    public static let didReceiveTouchEventNotification = ProgressHUD.didReceiveTouchEventNotification
    /// The key of the status in the notifications' `userInfo`.
    public static let statusUserInfoKey = SVProgressHUDStatusUserInfoKey

    // MARK: Customization

    /// `.light`, `.dark` or `.custom`.
    public static func setDefaultStyle(_ style: SVProgressHUDStyle) { ProgressHUD.setDefaultStyle(style) }
    /// What covers the screen while the HUD shows (default `.none`).
    public static func setDefaultMaskType(_ maskType: SVProgressHUDMaskType) {
        switch maskType {
        case .none: ProgressHUD.setDefaultMaskType(.none)
        case .clear: ProgressHUD.setDefaultMaskType(.clear)
        case .black: ProgressHUD.setDefaultMaskType(.black)
        case .gradient: ProgressHUD.setDefaultMaskType(.gradient)
        case .custom: ProgressHUD.settings { $0.config.mask = .color($0.backgroundLayerColor) }
        }
    }
    /// `.flat` (default) or `.native`.
    public static func setDefaultAnimationType(_ type: SVProgressHUDAnimationType) {
        ProgressHUD.setDefaultAnimationType(type == .flat ? .ring : .spokes)
    }
    /// Where the HUD shows (nil: the monitor under the pointer), as SVProgressHUD's container view.
    public static func setContainerView(_ parent: ParentSpec?) { ProgressHUD.setDefaultParent(parent ?? .monitor("pointer")) }
    /// The smallest size of the bezel.
    public static func setMinimumSize(_ size: CGSize) {
        ProgressHUD.setMinimumSize(width: Double(size.width), height: Double(size.height))
    }
    /// Line width of the rings (default 2).
    public static func setRingThickness(_ width: CGFloat) { ProgressHUD.setRingThickness(Double(width)) }
    /// Radius of the rings with a status (default 18).
    public static func setRingRadius(_ radius: CGFloat) { ProgressHUD.setRingRadius(Double(radius)) }
    /// Radius of the rings without a status (default 24).
    public static func setRingNoTextRadius(_ radius: CGFloat) { ProgressHUD.setRingNoTextRadius(Double(radius)) }
    /// The bezel's corner radius (default 14).
    public static func setCornerRadius(_ radius: CGFloat) { ProgressHUD.setCornerRadius(Double(radius)) }
    /// The status's font: a Pango font description such as `Sans Bold 15`.
    public static func setFont(_ font: String) { ProgressHUD.setFont(font) }
    /// Colour of the status and indicator (`.custom` style).
    public static func setForegroundColor(_ color: HUDColor) { ProgressHUD.setForegroundColor(color) }
    /// Colour of the bezel (`.custom` style).
    public static func setBackgroundColor(_ color: HUDColor) { ProgressHUD.setBackgroundColor(color) }
    /// Colour of the `.custom` mask (default black at 0.4).
    public static func setBackgroundLayerColor(_ color: HUDColor) { ProgressHUD.setBackgroundLayerColor(color) }
    /// The box images are fitted into (default 28 x 28).
    public static func setImageViewSize(_ size: CGSize) {
        ProgressHUD.setImageViewSize(width: Double(size.width), height: Double(size.height))
    }
    /// Whether images are drawn in the foreground colour (default true).
    public static func setShouldTintImages(_ shouldTintImages: Bool) { ProgressHUD.setShouldTintImages(shouldTintImages) }
    /// The image of `showInfo`: a PNG or SVG file or an icon name (`dialog-information`).
    public static func setInfoImage(_ image: String) { ProgressHUD.setInfoImage(image) }
    /// The image of `showSuccess` (e.g. `emblem-ok-symbolic`).
    public static func setSuccessImage(_ image: String) { ProgressHUD.setSuccessImage(image) }
    /// The image of `showError`.
    public static func setErrorImage(_ image: String) { ProgressHUD.setErrorImage(image) }
    /// Seconds before the HUD appears; one dismissed before then never does (default 0).
    public static func setGraceTimeInterval(_ interval: TimeInterval) { ProgressHUD.setGraceTimeInterval(interval) }
    /// The shortest time a success, error, info or image HUD stays (default 5 s).
    public static func setMinimumDismissTimeInterval(_ interval: TimeInterval) { ProgressHUD.setMinimumDismissTimeInterval(interval) }
    /// The longest time it stays (default: no limit).
    public static func setMaximumDismissTimeInterval(_ interval: TimeInterval) { ProgressHUD.setMaximumDismissTimeInterval(interval) }
    /// The show animation's length (default 0.15 s).
    public static func setFadeInAnimationDuration(_ duration: TimeInterval) { ProgressHUD.setFadeInAnimationDuration(duration) }
    /// The hide animation's length (default 0.15 s).
    public static func setFadeOutAnimationDuration(_ duration: TimeInterval) { ProgressHUD.setFadeOutAnimationDuration(duration) }
    /// Moves the HUD from the centre of its parent.
    public static func setOffsetFromCenter(_ offset: UIOffset) {
        ProgressHUD.setOffsetFromCenter(x: Double(offset.horizontal), y: Double(offset.vertical))
    }
    /// Back to the centre.
    public static func resetOffsetFromCenter() { ProgressHUD.resetOffsetFromCenter() }

    // MARK: Showing

    /// The spinner, no status; adds an activity.
    public static func show() { ProgressHUD.show() }
    /// The spinner with a status; adds an activity.
    public static func show(withStatus status: String?) { ProgressHUD.show(status: status) }
    /// The progress ring (0...1); adds an activity at 0.
    public static func showProgress(_ progress: Float) { ProgressHUD.showProgress(Double(progress)) }
    /// The progress ring with a status.
    public static func showProgress(_ progress: Float, status: String?) { ProgressHUD.showProgress(Double(progress), status: status) }
    /// Changes the status of the HUD that shows.
    public static func setStatus(_ status: String?) { ProgressHUD.setStatus(status) }
    /// The info icon (or `setInfoImage`'s) with a status, for ``displayDuration(for:)``.
    public static func showInfo(withStatus status: String?) { ProgressHUD.showInfo(status: status) }
    /// The success icon (or `setSuccessImage`'s) with a status, for ``displayDuration(for:)``.
    public static func showSuccess(withStatus status: String?) { ProgressHUD.showSuccess(status: status) }
    /// The error icon (or `setErrorImage`'s) with a status, for ``displayDuration(for:)``.
    public static func showError(withStatus status: String?) { ProgressHUD.showError(status: status) }
    /// An image (a PNG or SVG file or an icon name) with a status, for ``displayDuration(for:)``.
    public static func showImage(_ image: String, status: String?) { ProgressHUD.showImage(image, status: status) }

    // MARK: Dismissing

    /// Removes an activity; dismisses at zero.
    public static func popActivity() { ProgressHUD.popActivity() }
    /// Dismisses now.
    public static func dismiss() { ProgressHUD.dismiss() }
    /// Dismisses now; `completion` runs once hidden.
    public static func dismiss(completion: (@Sendable () -> Void)?) { ProgressHUD.dismiss(completion: completion) }
    /// Dismisses after `delay` seconds.
    public static func dismiss(withDelay delay: TimeInterval) { ProgressHUD.dismiss(withDelay: delay) }
    /// Dismisses after `delay` seconds; `completion` runs once hidden.
    public static func dismiss(withDelay delay: TimeInterval, completion: (@Sendable () -> Void)?) {
        ProgressHUD.dismiss(withDelay: delay, completion: completion)
    }

    /// Whether the HUD shows (or is about to).
    public static func isVisible() -> Bool { ProgressHUD.isVisible }
    /// SVProgressHUD's `displayDurationForString:`: 0.06 s a character + 0.5 s, within the
    /// minimum and maximum dismiss intervals.
    public static func displayDuration(for string: String?) -> TimeInterval { ProgressHUD.displayDuration(for: string) }
}
