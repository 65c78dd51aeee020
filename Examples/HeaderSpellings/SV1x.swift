import Foundation
import XHUD

/// SVProgressHUD 1.1.3's header, as Swift code calls it (its mask-type calls deprecated in 2.0),
/// and 0.8's dismissWithSuccess: family.
enum SV1x: HeaderVersion {
    static let name = "sv-1.x"

    @available(*, deprecated, message: "calls SVProgressHUD 1.x's deprecated API on purpose")
    static func run() {
        let posted = Posted([.SVProgressHUDWillAppear, .SVProgressHUDDidAppear, .SVProgressHUDWillDisappear, .SVProgressHUDDidDisappear])
        defer { posted.stop() }
        SVProgressHUD.setMinimumDismissTimeInterval(0.2)
        SVProgressHUD.setMaximumDismissTimeInterval(0.4)
        SVProgressHUD.setBackgroundColor(HUDColor(white: 1, alpha: 1))
        SVProgressHUD.setForegroundColor(HUDColor(white: 0, alpha: 1))
        SVProgressHUD.setRingThickness(4)
        SVProgressHUD.setFont(UIFont.systemFont(ofSize: 15))
        SVProgressHUD.setInfoImage("dialog-information")
        SVProgressHUD.setSuccessImage("emblem-ok-symbolic")
        SVProgressHUD.setErrorImage("dialog-error")
        SVProgressHUD.setDefaultMaskType(.none)
        SVProgressHUD.setOffsetFromCenter(UIOffset(horizontal: 0, vertical: 20))
        SVProgressHUD.resetOffsetFromCenter()

        SVProgressHUD.show(maskType: .black)
        SVProgressHUD.show(with: .clear)
        SVProgressHUD.showWithMaskType(.Gradient)
        SVProgressHUD.show(withStatus: "Loading", maskType: .black)
        posted.wait(SVProgressHUDDidAppearNotification, "Loading")
        expect(SVProgressHUD.isVisible(), "show(withStatus:maskType:) shows")
        SVProgressHUD.showWithStatus("Swift 2", maskType: .Clear)
        SVProgressHUD.showProgress(0.2, maskType: .clear)
        SVProgressHUD.showProgress(0.5, status: "Half", maskType: .gradient)
        SVProgressHUD.setStatus("Half way")
        SVProgressHUD.popActivity()
        SVProgressHUD.dismiss()
        posted.wait(SVProgressHUDDidDisappearNotification, "Half way")

        SVProgressHUD.showInfo(withStatus: "Info", maskType: .none)
        posted.wait(SVProgressHUDDidDisappearNotification, "Info")
        SVProgressHUD.showSuccess(withStatus: "Saved", maskType: .black)
        posted.wait(SVProgressHUDDidDisappearNotification, "Saved")
        SVProgressHUD.showError(withStatus: "Failed", maskType: .black)
        posted.wait(SVProgressHUDDidDisappearNotification, "Failed")
        SVProgressHUD.showImage("dialog-warning", status: "Image", maskType: .none)
        posted.wait(SVProgressHUDDidDisappearNotification, "Image")
        SVProgressHUD.showSuccessWithStatus("Swift 2 success")
        posted.wait(SVProgressHUDDidDisappearNotification, "Swift 2 success")

        SVProgressHUD.dismiss(withSuccess: "Done")
        posted.wait(SVProgressHUDDidDisappearNotification, "Done")
        SVProgressHUD.dismiss(withError: "Oops", afterDelay: 0.1)
        posted.wait(SVProgressHUDDidDisappearNotification, "Oops")
        SVProgressHUD.dismissWithSuccess("Old", afterDelay: 0.1)
        posted.wait(SVProgressHUDDidDisappearNotification, "Old")
        expect(!SVProgressHUD.isVisible(), "hidden at the end")
    }
}
