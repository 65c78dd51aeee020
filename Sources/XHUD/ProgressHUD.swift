import Foundation
import HUDCore
import HUDX11

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
/// SVProgressHUD's notifications on `HUD.callbackQueue` with the status in `userInfo`.
public enum ProgressHUD {
    /// Posted when the HUD starts to appear (after the grace time), with the status.
    public static let willAppearNotification = Notification.Name("ProgressHUDWillAppear")
    /// Posted when the show animation has ended.
    public static let didAppearNotification = Notification.Name("ProgressHUDDidAppear")
    /// Posted when the HUD starts to hide.
    public static let willDisappearNotification = Notification.Name("ProgressHUDWillDisappear")
    /// Posted once the HUD is hidden.
    public static let didDisappearNotification = Notification.Name("ProgressHUDDidDisappear")
    /// Posted on a click on the HUD while it blocks input (a mask other than `.none`).
    public static let didReceiveTouchEventNotification = Notification.Name("ProgressHUDDidReceiveTouchEvent")
    /// The key of the status text in the notifications' `userInfo`.
    public static let statusUserInfoKey = "ProgressHUDStatusUserInfoKey"

    // MARK: Settings (SVProgressHUD's setDefault...)

    /// Dark or light (SVProgressHUD's `setDefaultStyle:`).
    public static func setDefaultStyle(_ style: HUDStyle) { settings { $0.config.style = style } }
    /// What covers the screen: `.none` (default: input passes through), `.clear`, `.black`, `.gradient`.
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
    public static func setFadeInAnimationDuration(_ seconds: Double) { settings { $0.fadeIn = seconds } }
    /// The hide animation's length (default 0.15 s).
    public static func setFadeOutAnimationDuration(_ seconds: Double) { settings { $0.fadeOut = seconds } }
    /// Colour of the status and indicator.
    public static func setForegroundColor(_ color: HUDColor) { settings { $0.config.contentColor = color } }
    /// Colour of the bezel.
    public static func setBackgroundColor(_ color: HUDColor) { settings { $0.config.bezelColor = color } }
    /// The bezel's corner radius (default 14, SVProgressHUD's).
    public static func setCornerRadius(_ radius: Double) { settings { $0.config.cornerRadius = radius } }
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
        State.shared.withHUD { hud, _ in hud.label = status ?? "" }
    }

    /// The success icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showSuccess(status: String? = nil) { showResult(.success, status: status) }
    /// The error icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showError(status: String? = nil) { showResult(.error, status: status) }
    /// The info icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showInfo(status: String? = nil) { showResult(.info, status: status) }
    /// The warning icon with a status; hides itself after ``displayDuration(for:)``.
    public static func showWarning(status: String? = nil) { showResult(.warning, status: status) }

    /// A PNG image with a status, for SVProgressHUD's display duration.
    public static func showImage(_ path: String, status: String? = nil) {
        State.shared.withHUD { hud, s in
            hud.customImage = path
            configure(hud, mode: .custom, status: status, settings: s)
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
            if s.activity == 0 { dismiss(hud, delay: 0, completion: nil) }
        }
    }

    /// Dismisses now (and resets the activity count).
    public static func dismiss() { dismiss(withDelay: 0, completion: nil) }

    /// Dismisses now; `completion` runs once hidden.
    public static func dismiss(completion: (@Sendable () -> Void)?) { dismiss(withDelay: 0, completion: completion) }

    /// Dismisses after `delay` seconds; `completion` runs on `HUD.callbackQueue` once hidden.
    public static func dismiss(withDelay delay: Double, completion: (@Sendable () -> Void)? = nil) {
        var found = false
        State.shared.withHUD(creating: false) { hud, s in
            found = true
            s.activity = 0
            dismiss(hud, delay: delay, completion: completion)
        }
        if !found, let completion { HUD.callbackQueue.async { completion() } }
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

    private static func settings(_ body: (inout State.Settings) -> Void) { State.shared.settings(body) }

    private static func present(mode: HUDMode, status: String?, progress: Double?, activity: Bool) {
        State.shared.withHUD { hud, s in
            configure(hud, mode: mode, status: status, settings: s)
            if let progress { hud.progress = progress }
            if activity { s.activity += 1 }
            if !hud.isVisible { post(willAppearNotification, status) }
            hud.show(animated: true)
        }
    }

    private static func showResult(_ mode: HUDMode, status: String?) {
        State.shared.withHUD { hud, s in
            configure(hud, mode: mode, status: status, settings: s)
            if !hud.isVisible { post(willAppearNotification, status) }
            hud.show(animated: true)
            s.activity = 0
            dismissAfterDisplayDuration(hud, status: status, settings: s)
        }
    }

    private static func configure(_ hud: HUD, mode: HUDMode, status: String?, settings s: State.Settings) {
        var c = s.config
        c.mode = mode
        c.label = status ?? ""
        c.imagePath = mode == .custom ? hud.customImage : nil
        c.progress = hud.progress
        c.animation = .pop
        hud.configuration = c
        hud.fadeDurations = (s.fadeIn, s.fadeOut)
    }

    private static func dismissAfterDisplayDuration(_ hud: HUD, status: String?, settings s: State.Settings) {
        let d = HUDCore.displayDuration(for: status ?? "", minimum: s.minimumDismiss, maximum: s.maximumDismiss)
        dismiss(hud, delay: d, completion: nil)
    }

    private static func dismiss(_ hud: HUD, delay: Double, completion: (@Sendable () -> Void)?) {
        let status = hud.label
        hud.completion = {
            post(didDisappearNotification, status)
            completion?()
        }
        if delay > 0 {
            HUD.callbackQueue.asyncAfter(deadline: .now() + delay) { if hud.isVisible { post(willDisappearNotification, status) } }
        } else if hud.isVisible {
            post(willDisappearNotification, status)
        }
        hud.hide(animated: true, afterDelay: delay)
    }

    static func post(_ name: Notification.Name, _ status: String?) {
        let info: [String: String]? = status.map { [statusUserInfoKey: $0] }
        HUD.callbackQueue.async { NotificationCenter.default.post(name: name, object: nil, userInfo: info) }
    }

    /// The shared HUD and SVProgressHUD's settings, behind one lock.
    final class State: @unchecked Sendable {
        static let shared = State()
        struct Settings {
            var config: HUDConfiguration = {
                var c = HUDConfiguration()
                c.mask = HUDMask.none       // SVProgressHUD's default: input passes through
                c.cornerRadius = 14         // SVProgressHUD's
                return c
            }()
            var parent: ParentSpec = .monitor("pointer")
            var display: String?
            var minimumDismiss = 5.0
            var maximumDismiss = Double.infinity
            var fadeIn = 0.15
            var fadeOut = 0.15
            var activity = 0
        }
        private let lock = NSRecursiveLock()
        private var s = Settings()
        private var hud: HUD?

        func settings(_ body: (inout Settings) -> Void) {
            lock.lock(); defer { lock.unlock() }
            body(&s)
        }

        /// Runs `body` with the shared HUD (made on first use, again after a display change).
        func withHUD(creating: Bool = true, _ body: (HUD, inout Settings) -> Void) {
            lock.lock(); defer { lock.unlock() }
            if hud == nil || (creating && hud!.parent != s.parent) {
                guard creating else { return }
                do {
                    let h = try HUD(over: s.parent, display: s.display)
                    h.removeFromParentOnHide = false
                    h.onAppear = { status in ProgressHUD.post(ProgressHUD.didAppearNotification, status) }
                    h.onTouch = { status in ProgressHUD.post(ProgressHUD.didReceiveTouchEventNotification, status) }
                    hud = h
                } catch {
                    fputs("ProgressHUD: \(error)\n", stderr)
                    return
                }
            }
            body(hud!, &s)
        }
    }
}
