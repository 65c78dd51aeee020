import Foundation
import HUDCore

// SVProgressHUD 1.x's calls with a mask type (deprecated in 2.0, with these messages), 0.8's
// `dismissWithSuccess:`-style calls (deprecated there), 2.x's border and haptics settings, the
// font as a `UIFont`, the Swift 2 spellings, and the notification names as `Notification.Name`s:
// code written against any of them compiles unchanged.

/// Posted on a click inside the HUD itself (SVProgressHUD's constant, for code that observes it).
/// Not posted yet: a click reaches the library without where it was, so every click on a HUD
/// that blocks input is ``SVProgressHUDDidReceiveTouchEventNotification``.
public let SVProgressHUDDidTouchDownInsideNotification = "SVProgressHUDDidTouchDownInsideNotification"

extension Notification.Name {
    /// ``SVProgressHUDWillAppearNotification``.
    public static let SVProgressHUDWillAppear = ProgressHUD.willAppearNotification
    /// ``SVProgressHUDDidAppearNotification``.
    public static let SVProgressHUDDidAppear = ProgressHUD.didAppearNotification
    /// ``SVProgressHUDWillDisappearNotification``.
    public static let SVProgressHUDWillDisappear = ProgressHUD.willDisappearNotification
    /// ``SVProgressHUDDidDisappearNotification``.
    public static let SVProgressHUDDidDisappear = ProgressHUD.didDisappearNotification
    /// ``SVProgressHUDDidReceiveTouchEventNotification``.
    public static let SVProgressHUDDidReceiveTouchEvent = ProgressHUD.didReceiveTouchEventNotification
    /// ``SVProgressHUDDidTouchDownInsideNotification``.
    public static let SVProgressHUDDidTouchDownInside = Notification.Name(SVProgressHUDDidTouchDownInsideNotification)
}

// Swift 2's capitalised spellings of the mask types.
extension SVProgressHUDMaskType {
    public static let None = none, Clear = clear, Black = black, Gradient = gradient, Custom = custom
}

extension SVProgressHUD {
    /// ``didTouchDownInsideNotification``'s name (not posted yet: see the constant).
    public static let didTouchDownInsideNotification = Notification.Name.SVProgressHUDDidTouchDownInside

    // MARK: 2.x settings

    /// The status's font: `UIFont.systemFont(ofSize: 15)` or a Pango description.
    public static func setFont(_ font: UIFont) { ProgressHUD.setFont(font.fontDescription) }
    /// SVProgressHUD 2.x's bezel border colour: kept (the bezel is drawn without a border here).
    public static func setBorderColor(_ color: HUDColor) { ProgressHUD.settings { $0.borderColor = color } }
    /// SVProgressHUD 2.x's bezel border width: kept (the bezel is drawn without a border here).
    public static func setBorderWidth(_ width: CGFloat) { ProgressHUD.settings { $0.borderWidth = Double(width) } }
    /// Haptic feedback on success, error and info: kept; a desktop has none to give.
    public static func setHapticsEnabled(_ enabled: Bool) { ProgressHUD.settings { $0.hapticsEnabled = enabled } }

    // MARK: 1.x: a mask type for one show (deprecated in 2.0)

    /// Shows with `maskType`, then puts the default mask back, as SVProgressHUD 2.0 does for
    /// these calls (1.x kept it for the HUD that shows).
    static func showing(_ maskType: SVProgressHUDMaskType, _ show: () -> Void) {
        ProgressHUD.State.shared.exclusively {
            var old: HUDMask?
            ProgressHUD.settings { old = $0.config.mask }
            setDefaultMaskType(maskType)
            show()
            ProgressHUD.settings { $0.config.mask = old }
        }
    }

    @available(*, deprecated, message: "Use show and setDefaultMaskType: instead.")
    public static func show(maskType: SVProgressHUDMaskType) { showing(maskType) { show() } }
    /// `showWithMaskType:` as Swift 3 spelled it.
    @available(*, deprecated, message: "Use show and setDefaultMaskType: instead.")
    public static func show(with maskType: SVProgressHUDMaskType) { showing(maskType) { show() } }
    @available(*, deprecated, message: "Use showWithStatus: and setDefaultMaskType: instead.")
    public static func show(withStatus status: String?, maskType: SVProgressHUDMaskType) { showing(maskType) { show(withStatus: status) } }
    @available(*, deprecated, message: "Use showProgress: and setDefaultMaskType: instead.")
    public static func showProgress(_ progress: Float, maskType: SVProgressHUDMaskType) { showing(maskType) { showProgress(progress) } }
    @available(*, deprecated, message: "Use showProgress:status: and setDefaultMaskType: instead.")
    public static func showProgress(_ progress: Float, status: String?, maskType: SVProgressHUDMaskType) {
        showing(maskType) { showProgress(progress, status: status) }
    }
    @available(*, deprecated, message: "Use showInfoWithStatus: and setDefaultMaskType: instead.")
    public static func showInfo(withStatus status: String?, maskType: SVProgressHUDMaskType) { showing(maskType) { showInfo(withStatus: status) } }
    @available(*, deprecated, message: "Use showSuccessWithStatus: and setDefaultMaskType: instead.")
    public static func showSuccess(withStatus status: String?, maskType: SVProgressHUDMaskType) {
        showing(maskType) { showSuccess(withStatus: status) }
    }
    @available(*, deprecated, message: "Use showErrorWithStatus: and setDefaultMaskType: instead.")
    public static func showError(withStatus status: String?, maskType: SVProgressHUDMaskType) { showing(maskType) { showError(withStatus: status) } }
    @available(*, deprecated, message: "Use showImage:status: and setDefaultMaskType: instead.")
    public static func showImage(_ image: String, status: String?, maskType: SVProgressHUDMaskType) {
        showing(maskType) { showImage(image, status: status) }
    }

    // MARK: 0.8: dismissing with a result (deprecated there)

    /// Shows the success icon with `status`, dismissed after `delay` (default: its display duration).
    @available(*, deprecated, message: "Use showSuccessWithStatus: instead.")
    public static func dismiss(withSuccess status: String?, afterDelay delay: TimeInterval? = nil) { result(.success, status, delay) }
    /// Shows the error icon with `status`, dismissed after `delay` (default: its display duration).
    @available(*, deprecated, message: "Use showErrorWithStatus: instead.")
    public static func dismiss(withError status: String?, afterDelay delay: TimeInterval? = nil) { result(.error, status, delay) }
    @available(*, deprecated, message: "Use showSuccessWithStatus: instead.")
    public static func dismissWithSuccess(_ status: String?, afterDelay delay: TimeInterval? = nil) { result(.success, status, delay) }
    @available(*, deprecated, message: "Use showErrorWithStatus: instead.")
    public static func dismissWithError(_ status: String?, afterDelay delay: TimeInterval? = nil) { result(.error, status, delay) }

    private static func result(_ mode: HUDMode, _ status: String?, _ delay: TimeInterval?) {
        ProgressHUD.State.shared.exclusively {
            if mode == .success { showSuccess(withStatus: status) } else { showError(withStatus: status) }
            if let delay { dismiss(withDelay: delay) }
        }
    }

    // MARK: Swift 2 spellings (deprecated where 2.0 deprecated the call)

    public static func showWithStatus(_ status: String?) { show(withStatus: status) }
    public static func showInfoWithStatus(_ status: String?) { showInfo(withStatus: status) }
    public static func showSuccessWithStatus(_ status: String?) { showSuccess(withStatus: status) }
    public static func showErrorWithStatus(_ status: String?) { showError(withStatus: status) }
    @available(*, deprecated, message: "Use show and setDefaultMaskType: instead.")
    public static func showWithMaskType(_ maskType: SVProgressHUDMaskType) { showing(maskType) { show() } }
    @available(*, deprecated, message: "Use showWithStatus: and setDefaultMaskType: instead.")
    public static func showWithStatus(_ status: String?, maskType: SVProgressHUDMaskType) { showing(maskType) { show(withStatus: status) } }
    public static func dismissWithDelay(_ delay: TimeInterval) { dismiss(withDelay: delay) }
    public static func dismissWithCompletion(_ completion: (@Sendable () -> Void)?) { dismiss(completion: completion) }
}
