import Foundation
import XHUD

/// SVProgressHUD 2.x's header (2.0 to 2.3.1), as Swift code calls it.
enum SV2x: HeaderVersion {
    static let name = "sv-2.x"

    static func run() {
        let names: [Notification.Name] = [
            SVProgressHUD.willAppearNotification, SVProgressHUD.didAppearNotification,
            SVProgressHUD.willDisappearNotification, SVProgressHUD.didDisappearNotification,
        ]
        let posted = Posted(names)
        defer { posted.stop() }
        expect(Notification.Name.SVProgressHUDDidAppear.rawValue == SVProgressHUDDidAppearNotification, "notification names")
        expect(Notification.Name.SVProgressHUDDidReceiveTouchEvent == SVProgressHUD.didReceiveTouchEventNotification, "touch event name")
        expect(Notification.Name.SVProgressHUDDidTouchDownInside.rawValue == SVProgressHUDDidTouchDownInsideNotification, "touch down name")
        SVProgressHUD.setDefaultStyle(.dark)
        SVProgressHUD.setDefaultMaskType(.custom)
        SVProgressHUD.setDefaultAnimationType(.flat)
        SVProgressHUD.setContainerView(nil)
        SVProgressHUD.setMinimumSize(CGSize(width: 100, height: 100))
        SVProgressHUD.setRingThickness(2)
        SVProgressHUD.setRingRadius(18)
        SVProgressHUD.setRingNoTextRadius(24)
        SVProgressHUD.setCornerRadius(14)
        SVProgressHUD.setBorderColor(HUDColor(white: 1, alpha: 0.1))
        SVProgressHUD.setBorderWidth(1)
        SVProgressHUD.setFont(UIFont.preferredSubheadline)
        SVProgressHUD.setFont("Sans Bold 15")
        SVProgressHUD.setForegroundColor(HUDColor(white: 1, alpha: 1))
        SVProgressHUD.setBackgroundColor(HUDColor(white: 0, alpha: 0.8))
        SVProgressHUD.setBackgroundLayerColor(HUDColor(white: 0, alpha: 0.4))
        SVProgressHUD.setImageViewSize(CGSize(width: 28, height: 28))
        SVProgressHUD.setShouldTintImages(true)
        SVProgressHUD.setGraceTimeInterval(0)
        SVProgressHUD.setMinimumDismissTimeInterval(0.2)
        SVProgressHUD.setMaximumDismissTimeInterval(0.4)
        SVProgressHUD.setFadeInAnimationDuration(0.15)
        SVProgressHUD.setFadeOutAnimationDuration(0.15)
        SVProgressHUD.setHapticsEnabled(true)
        SVProgressHUD.setOffsetFromCenter(UIOffset(horizontal: 0, vertical: 0))
        expect(SVProgressHUD.displayDuration(for: "Hi") == 0.4, "displayDuration(for:): 0.62 s, bounded by the maximum")

        let done = DispatchSemaphore(value: 0)
        SVProgressHUD.show()
        SVProgressHUD.show(withStatus: "Working")
        posted.wait(SVProgressHUDDidAppearNotification, "Working")
        SVProgressHUD.showProgress(0)
        SVProgressHUD.showProgress(0.6, status: "Copying")
        SVProgressHUD.setStatus("Copying more")
        // Three activities (show, show(withStatus:), showProgress(0)): the third pop dismisses.
        SVProgressHUD.popActivity()
        SVProgressHUD.popActivity()
        expect(SVProgressHUD.isVisible(), "one activity left")
        SVProgressHUD.popActivity()
        posted.wait(SVProgressHUDDidDisappearNotification, "Copying more")
        SVProgressHUD.show(withStatus: "Again")
        SVProgressHUD.dismiss(completion: { done.signal() })
        waitFor(done, "dismiss(completion:)")
        SVProgressHUD.show(withStatus: "Delayed")
        SVProgressHUD.dismiss(withDelay: 0.1)
        posted.wait(SVProgressHUDDidDisappearNotification, "Delayed")
        SVProgressHUD.show(withStatus: "Delayed with completion")
        SVProgressHUD.dismiss(withDelay: 0.1, completion: { done.signal() })
        waitFor(done, "dismiss(withDelay:completion:)")
        SVProgressHUD.showInfo(withStatus: "Info")
        posted.wait(SVProgressHUDDidDisappearNotification, "Info")
        SVProgressHUD.showSuccess(withStatus: "Saved")
        posted.wait(SVProgressHUDDidDisappearNotification, "Saved")
        SVProgressHUD.showError(withStatus: "Failed")
        posted.wait(SVProgressHUDDidDisappearNotification, "Failed")
        SVProgressHUD.showImage("dialog-information", status: "Image")
        posted.wait(SVProgressHUDDidDisappearNotification, "Image")
        expect(
            posted.has(SVProgressHUDWillAppearNotification, "Image") && posted.has(SVProgressHUDWillDisappearNotification, "Image"),
            "will-appear and will-disappear with the status")
        expect(!SVProgressHUD.isVisible(), "hidden at the end")
    }
}

extension UIFont {
    /// What SVProgressHUD 2.x uses by default, `preferredFont(forTextStyle: .subheadline)`: 15 pt.
    static var preferredSubheadline: UIFont { .systemFont(ofSize: 15) }
}
