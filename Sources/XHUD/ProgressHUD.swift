import Foundation
import HUDCore
import HUDSystem

/// An SVProgressHUD for X11: one shared HUD, static calls from any thread.
///
///     ProgressHUD.show(status: "Working")
///     ProgressHUD.showProgress(0.4, status: "Downloading")
///     ProgressHUD.showSuccess(status: "Done")      // hides itself after SVProgressHUD's duration
///     ProgressHUD.dismiss(withDelay: 1)
///
/// It covers the monitor under the pointer (`setDefaultParent`), lets input through by default
/// (`setDefaultMaskType(.clear)` blocks it), counts activities like SVProgressHUD (`show` adds
/// one, `popActivity` removes one and dismisses at zero, `dismiss` resets the count), and posts
/// SVProgressHUD's notifications, as ``HUD/callbackQueue`` says, with the status in `userInfo`
/// and the ``HUD`` it happened to as the object. ``SVProgressHUD`` spells the same calls as
/// SVProgressHUD's Swift users do.
public enum ProgressHUD {
    /// Posted when the HUD starts to appear: after the grace time, never for a HUD dismissed
    /// before it appeared.
    public static let willAppearNotification = Notification.Name(SVProgressHUDWillAppearNotification)
    /// Posted when the show animation has ended.
    public static let didAppearNotification = Notification.Name(SVProgressHUDDidAppearNotification)
    /// Posted when the HUD starts to hide (when a delayed dismiss starts, not when it is asked
    /// for; never for one a later show cancelled).
    public static let willDisappearNotification = Notification.Name(SVProgressHUDWillDisappearNotification)
    /// Posted once the HUD is hidden (before the dismiss's completion runs).
    public static let didDisappearNotification = Notification.Name(SVProgressHUDDidDisappearNotification)
    /// Posted on a click on the HUD while it blocks input (a mask other than `.none`).
    public static let didReceiveTouchEventNotification = Notification.Name(SVProgressHUDDidReceiveTouchEventNotification)
    /// The key of the status text in the notifications' `userInfo` (no `userInfo` without a status).
    public static let statusUserInfoKey = SVProgressHUDStatusUserInfoKey

    // MARK: Settings (SVProgressHUD's setDefault... and set...)

    /// Dark or light (SVProgressHUD's `setDefaultStyle:`).
    public static func setDefaultStyle(_ style: HUDStyle) { settings { $0.config.style = style } }
    /// What covers the screen: `.none` (default: input passes through), `.clear`, `.black`,
    /// `.gradient`, `.color(_:)`, `.blur(_:)`.
    public static func setDefaultMaskType(_ mask: HUDMask) { settings { $0.config.mask = mask } }
    /// `.ring` (SVProgressHUD's flat animation) or `.spokes` (its native one).
    public static func setDefaultAnimationType(_ spinner: SpinnerStyle) { settings { $0.config.spinner = spinner } }
    /// Where the shared HUD shows (default: the monitor under the pointer).
    public static func setDefaultParent(_ parent: ParentSpec) { settings { $0.parent = parent } }
    /// Moves the HUD from the centre of its parent.
    public static func setOffsetFromCenter(x: Double, y: Double) { settings { $0.config.offset = Point(x: x, y: y) } }
    /// Back to the centre.
    public static func resetOffsetFromCenter() { settings { $0.config.offset = .zero } }
    /// Seconds before a HUD appears; one dismissed before then never does.
    public static func setGraceTimeInterval(_ seconds: Double) { settings { $0.config.graceTime = seconds } }
    /// The shortest time a success, error, info or image HUD stays (default 5 s).
    public static func setMinimumDismissTimeInterval(_ seconds: Double) { settings { $0.minimumDismiss = seconds } }
    /// The longest time it stays (default: no limit).
    public static func setMaximumDismissTimeInterval(_ seconds: Double) { settings { $0.maximumDismiss = seconds } }
    /// The show animation's length (default 0.15 s).
    public static func setFadeInAnimationDuration(_ seconds: Double) { settings { $0.config.showDuration = seconds } }
    /// The hide animation's length (default 0.15 s).
    public static func setFadeOutAnimationDuration(_ seconds: Double) { settings { $0.config.hideDuration = seconds } }
    /// Colour of the status and indicator.
    public static func setForegroundColor(_ color: HUDColor) { settings { $0.config.contentColor = color } }
    /// Colour of the bezel.
    public static func setBackgroundColor(_ color: HUDColor) { settings { $0.config.bezelColor = color } }
    /// Colour of a `.color(_:)` mask (SVProgressHUD's `.custom` mask type; default black at 0.4).
    public static func setBackgroundLayerColor(_ color: HUDColor) {
        settings {
            $0.backgroundLayerColor = color
            if case .color = $0.config.mask { $0.config.mask = .color(color) }
        }
    }
    /// The bezel's corner radius (default 14, SVProgressHUD's).
    public static func setCornerRadius(_ radius: Double) { settings { $0.config.cornerRadius = radius } }
    /// The smallest size of the bezel (default none).
    public static func setMinimumSize(width: Double, height: Double) { settings { $0.config.minSize = Size(width: width, height: height) } }
    /// Line width of the spinner and the progress ring (default 2).
    public static func setRingThickness(_ width: Double) { settings { $0.config.ringThickness = width } }
    /// Radius of the rings with a status (default 18, SVProgressHUD's).
    public static func setRingRadius(_ radius: Double) { settings { $0.ringRadius = radius } }
    /// Radius of the rings without a status (default 24, SVProgressHUD's).
    public static func setRingNoTextRadius(_ radius: Double) { settings { $0.ringNoTextRadius = radius } }
    /// The status's font, a Pango font description (`Sans Bold 15`; `15px` for pixels).
    public static func setFont(_ font: String) { settings { $0.config.labelFont = font } }
    /// The box the success, error, info, warning and `showImage` images are fitted into
    /// (default 28 x 28, SVProgressHUD's; the image keeps its aspect within the smaller side).
    public static func setImageViewSize(width: Double, height: Double) { settings { $0.config.imageSize = min(width, height) } }
    /// Whether images are drawn in the foreground colour (default true, as SVProgressHUD).
    public static func setShouldTintImages(_ tint: Bool) { settings { $0.config.tintImage = tint } }
    /// The image of `showInfo` instead of the drawn icon: a PNG or SVG file or an icon name of
    /// the icon theme (`dialog-information`); nil: the drawn icon. A name no theme has keeps the
    /// drawn icon, with a warning on stderr.
    public static func setInfoImage(_ image: String?) { setResultImage(image, \.infoImage) }
    /// The image of `showSuccess` (e.g. `emblem-ok-symbolic`).
    public static func setSuccessImage(_ image: String?) { setResultImage(image, \.successImage) }
    /// The image of `showError`.
    public static func setErrorImage(_ image: String?) { setResultImage(image, \.errorImage) }
    /// The image of `showWarning`.
    public static func setWarningImage(_ image: String?) { setResultImage(image, \.warningImage) }
    /// The X display (nil: `$DISPLAY`); applies to the next HUD.
    public static func setDisplay(_ name: String?) { settings { $0.display = name } }

    // MARK: Showing

    /// The spinner, no text; adds an activity.
    public static func show() { show(status: nil) }

    /// The spinner with a status; adds an activity.
    public static func show(status: String?) {
        present(mode: .indeterminate, status: status, progress: nil, activity: true)
    }

    /// A progress ring; adds an activity only at progress 0 (as SVProgressHUD).
    public static func showProgress(_ progress: Double, status: String? = nil) {
        present(mode: .annular, status: status, progress: progress, activity: progress == 0)
    }

    /// Changes the status of the HUD that shows.
    public static func setStatus(_ status: String?) {
        State.shared.withHUD(creating: false) { hud, s in
            hud.modify { c in
                c.label = status ?? ""
                c.ringRadius = ringRadius(for: status, s)
            }
        }
    }

    /// The success icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showSuccess(status: String? = nil) { showResult(.success, status: status) }
    /// The error icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showError(status: String? = nil) { showResult(.error, status: status) }
    /// The info icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showInfo(status: String? = nil) { showResult(.info, status: status) }
    /// The warning icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showWarning(status: String? = nil) { showResult(.warning, status: status) }

    /// An image (a PNG or SVG file, or an icon name) with a status, for SVProgressHUD's display
    /// duration.
    public static func showImage(_ image: String, status: String? = nil) {
        State.shared.withHUD { hud, s in
            let box = s.config.imageSize
            let path = ImageNames.resolve(image, box: box)?.path
            if path == nil { Console.error("ProgressHUD: \(ImageNames.notFound(image))\n") }
            configure(hud, mode: path == nil ? .text : .custom, status: status, image: path, settings: s)
            hud.show(animated: true)
            s.activity = 0
            dismissAfterDisplayDuration(hud, status: status, settings: s)
        }
    }

    // MARK: Dismissing

    /// Removes an activity; dismisses at zero.
    public static func popActivity() {
        State.shared.withHUD(creating: false) { hud, s in
            s.activity = max(0, s.activity - 1)
            if s.activity == 0 { hud.hide(animated: true, afterDelay: 0, completion: nil) }
        }
    }

    /// Dismisses now (and resets the activity count).
    public static func dismiss() { dismiss(withDelay: 0, completion: nil) }

    /// Dismisses now; `completion` runs once hidden.
    public static func dismiss(completion: (@Sendable () -> Void)?) { dismiss(withDelay: 0, completion: completion) }

    /// Dismisses after `delay` seconds (a show before then cancels it); `completion` runs once
    /// hidden, as ``HUD/callbackQueue`` says.
    public static func dismiss(withDelay delay: Double, completion: (@Sendable () -> Void)? = nil) {
        var found = false
        State.shared.withHUD(creating: false) { hud, s in
            found = true
            s.activity = 0
            hud.hide(animated: true, afterDelay: delay, completion: completion)
        }
        if !found, let completion { Callbacks.send(completion) }
    }

    /// Whether the shared HUD shows (or is about to).
    public static var isVisible: Bool {
        var v = false
        State.shared.withHUD(creating: false) { hud, _ in v = hud.isVisible }
        return v
    }

    // MARK: Internals

    /// SVProgressHUD's `displayDurationForString:` with the current bounds.
    public static func displayDuration(for status: String?) -> Double {
        var d = 0.0
        settings { s in d = HUDCore.displayDuration(for: status ?? "", minimum: s.minimumDismiss, maximum: s.maximumDismiss) }
        return d
    }

    static func settings(_ body: (inout State.Settings) -> Void) { State.shared.settings(body) }

    private static func setResultImage(_ image: String?, _ field: WritableKeyPath<HUDConfiguration, String?>) {
        var box = 0.0
        settings { box = $0.config.imageSize }
        var path: String?
        if let image {
            path = ImageNames.resolve(image, box: box)?.path
            if path == nil { Console.error("ProgressHUD: \(ImageNames.notFound(image)); the drawn icon stays\n") }
        }
        settings { $0.config[keyPath: field] = path }
    }

    private static func ringRadius(for status: String?, _ s: State.Settings) -> Double? {
        (status ?? "").isEmpty ? s.ringNoTextRadius : s.ringRadius
    }

    private static func present(mode: HUDMode, status: String?, progress: Double?, activity: Bool) {
        State.shared.withHUD { hud, s in
            configure(hud, mode: mode, status: status, image: nil, settings: s, progress: progress)
            if activity { s.activity += 1 }
            hud.show(animated: true)
        }
    }

    private static func showResult(_ mode: HUDMode, status: String?) {
        State.shared.withHUD { hud, s in
            configure(hud, mode: mode, status: status, image: nil, settings: s)
            hud.show(animated: true)
            s.activity = 0
            dismissAfterDisplayDuration(hud, status: status, settings: s)
        }
    }

    private static func configure(
        _ hud: HUD, mode: HUDMode, status: String?, image: String?, settings s: State.Settings,
        progress: Double? = nil
    ) {
        var c = s.config
        c.mode = mode
        c.label = status ?? ""
        c.image = image
        c.progress = progress.map { $0.isNaN ? 0 : min(1, max(0, $0)) } ?? hud.progress
        c.animation = .pop
        c.ringRadius = ringRadius(for: status, s)
        hud.configuration = c
    }

    private static func dismissAfterDisplayDuration(_ hud: HUD, status: String?, settings s: State.Settings) {
        let d = HUDCore.displayDuration(for: status ?? "", minimum: s.minimumDismiss, maximum: s.maximumDismiss)
        hud.hide(animated: true, afterDelay: d, completion: nil)
    }

    /// Posts a notification for `hud` (on the callback queue already; see `Callbacks.notify`).
    static func post(_ name: Notification.Name, _ status: String, for hud: HUD) {
        Callbacks.notify {
            let info: [String: String]? = status.isEmpty ? nil : [statusUserInfoKey: status]
            NotificationCenter.default.post(name: name, object: hud, userInfo: info)
        }
    }

    static func notification(for event: HUDEvent) -> Notification.Name {
        switch event {
        case .willAppear: return willAppearNotification
        case .didAppear: return didAppearNotification
        case .willDisappear: return willDisappearNotification
        case .didDisappear: return didDisappearNotification
        }
    }

    /// The shared HUD and SVProgressHUD's settings, behind one lock.
    final class State: @unchecked Sendable {
        static let shared = State()
        struct Settings {
            var config: HUDConfiguration = {
                // SVProgressHUD's defaults, where they differ from MBProgressHUD's.
                var c = HUDConfiguration()
                c.mask = HUDMask.none  // input passes through
                c.cornerRadius = 14
                c.imageSize = 28
                c.tintImage = true
                c.showDuration = 0.15
                c.hideDuration = 0.15
                return c
            }()
            var parent: ParentSpec = .monitor("pointer")
            var display: String?
            var minimumDismiss = 5.0
            var maximumDismiss = Double.infinity
            var ringRadius: Double? = 18
            var ringNoTextRadius: Double? = 24
            var backgroundLayerColor = HUDColor(0, 0, 0, 0.4)
            var activity = 0
            /// SVProgressHUD 2.x's border and haptics: kept, not drawn or felt (see SVProgressHUD+Legacy).
            var borderColor: HUDColor?
            var borderWidth = 0.0
            var hapticsEnabled = false
        }
        /// Recursive: `exclusively`'s body calls `settings` and `withHUD`.
        private let lock = Locked<Void>.recursive()
        private var s = Settings()
        private var hud: HUD?

        /// Runs `body` with the settings and the shared HUD held: no other thread's call comes between.
        func exclusively(_ body: () -> Void) {
            lock.lock(); defer { lock.unlock() }
            body()
        }

        func settings(_ body: (inout Settings) -> Void) {
            lock.lock(); defer { lock.unlock() }
            body(&s)
        }

        /// Runs `body` with the shared HUD (made on first use, again after a display change).
        func withHUD(creating: Bool = true, _ body: (HUD, inout Settings) -> Void) {
            lock.lock(); defer { lock.unlock() }
            if hud == nil || (creating && hud!.parent != s.parent) {
                guard creating else { return }
                // One shared HUD: the one over the old parent goes (and tells it).
                if let old = hud {
                    old.removeFromParentOnHide = true
                    old.hide(animated: true)
                }
                hud = nil
                do {
                    let h = try HUD(over: s.parent, display: s.display)
                    h.removeFromParentOnHide = false
                    h.onEvent = { hud, event, status in ProgressHUD.post(ProgressHUD.notification(for: event), status, for: hud) }
                    h.onTouch = { [weak h] status in
                        if let h { ProgressHUD.post(ProgressHUD.didReceiveTouchEventNotification, status, for: h) }
                    }
                    hud = h
                } catch {
                    Console.error("ProgressHUD: \(error)\n")
                    return
                }
            }
            body(hud!, &s)
        }

        /// The shared HUD, if one was made (tests).
        var current: HUD? { lock.lock(); defer { lock.unlock() }; return hud }
    }
}
