import Foundation
import XHUD

/// MBProgressHUD 1.x's header (1.0.0 to 1.2.0), as Swift code calls it.
enum MB1x: HeaderVersion {
    static let name = "mb-1.x"

    static func run() {
        let view: ParentSpec = .geometry("500x400+0+0")
        let hud = MBProgressHUD.showAdded(to: view, animated: true)
        expect(MBProgressHUD.forView(view) === hud, "forView")
        hud.mode = .determinateHorizontalBar
        hud.animationType = .zoom
        hud.label.text = "Uploading"
        hud.label.font = UIFont.systemFont(ofSize: 16, weight: .semibold)
        hud.label.textColor = HUDColor(white: 1, alpha: 0.9)
        hud.detailsLabel.text = "1 MB of 4"
        hud.detailsLabel.font = "Sans 11px"
        hud.button.setTitle("Cancel", for: .normal)
        hud.button.addTarget(for: .touchUpInside) {}
        hud.contentColor = HUDColor(red: 0, green: 0.5, blue: 1, alpha: 1)
        hud.bezelView.style = .solidColor
        hud.bezelView.color = HUDColor(white: 0.1, alpha: 0.8)
        hud.backgroundView.style = MBProgressHUDBackgroundStyleSolidColor
        hud.backgroundView.color = HUDColor(white: 0, alpha: 0.1)
        hud.offset = CGPoint(x: 0, y: MBProgressMaxOffset)
        hud.margin = 10
        hud.minSize = CGSize(width: 150, height: 100)
        hud.isSquare = false
        hud.graceTime = 0
        hud.minShowTime = 0
        hud.removeFromSuperViewOnHide = true
        hud.isUserInteractionEnabled = true
        hud.progress = 0.25
        let progress = Progress(totalUnitCount: 4)
        hud.progressObject = progress
        progress.completedUnitCount = 1
        expect(hud.hud?.mode == .bar && hud.hud?.animation == .zoom, "mode, animationType")
        expect(hud.hud?.labelFont == "system-ui Semi-Bold 16px", "label.font, got \(hud.hud?.labelFont ?? "-")")
        expect(hud.hud?.detailsFont == "Sans 11px" && hud.hud?.button == "Cancel", "detailsLabel.font, button")
        expect(hud.hud?.contentColor == HUDColor(0, 0.5, 1, 1), "contentColor")
        expect(hud.hud?.bezelColor == HUDColor(0.1, 0.1, 0.1, 0.8) && hud.hud?.blur == 0, "bezelView")
        expect(hud.hud?.mask == .color(HUDColor(0, 0, 0, 0.1)), "backgroundView dims")
        expect(hud.hud?.offset.y == 1_000_000 && hud.offset.y == MBProgressMaxOffset, "MBProgressMaxOffset")
        expect(hud.hud?.progressObject === progress, "progressObject")

        let done = DispatchSemaphore(value: 0)
        hud.completionBlock = { done.signal() }
        expect(MBProgressHUD.hide(for: view, animated: true), "hide(for:animated:)")
        waitFor(done, "completionBlock after hide(for:animated:)")

        let again = MBProgressHUD(view: view)
        again.mode = .text
        again.label.text = "Saved"
        again.show(animated: true)
        again.completionBlock = { done.signal() }
        again.hide(animated: true, afterDelay: 0.1)
        waitFor(done, "completionBlock after hide(animated:afterDelay:)")
    }
}
