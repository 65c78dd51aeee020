import Foundation
import XHUD

/// MBProgressHUD 0.9.2's header (kept, deprecated, by 1.0 and 1.1), as Swift 2 and 3 code calls it.
enum MB09: HeaderVersion {
    static let name = "mb-0.9"

    @available(*, deprecated, message: "calls MBProgressHUD 0.9's deprecated API on purpose")
    static func run() {
        let view: ParentSpec = .geometry("400x300+50+50")
        let hud = MBProgressHUD.showHUDAddedTo(view, animated: true)
        expect(MBProgressHUD.HUDForView(view) === hud, "HUDForView finds the HUD")
        hud.mode = MBProgressHUDModeAnnularDeterminate
        expect(hud.mode == .annularDeterminate && hud.mode == .AnnularDeterminate, "mode constants")
        hud.animationType = MBProgressHUDAnimationZoomIn
        expect(hud.hud?.animation == .zoomIn, "animationType")
        hud.labelText = "Loading"
        hud.detailsLabelText = "file 1 of 3"
        hud.labelFont = UIFont.boldSystemFont(ofSize: 18)
        hud.detailsLabelFont = UIFont.systemFont(ofSize: 12)
        hud.labelColor = HUDColor(red: 1, green: 1, blue: 1, alpha: 1)
        hud.detailsLabelColor = HUDColor(red: 1, green: 1, blue: 1, alpha: 1)
        hud.activityIndicatorColor = HUDColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        expect(hud.hud?.label == "Loading" && hud.label.text == "Loading", "labelText is the label")
        expect(hud.hud?.details == "file 1 of 3", "detailsLabelText is the details label")
        expect(hud.hud?.labelFont == "system-ui Bold 18px", "labelFont, got \(hud.hud?.labelFont ?? "-")")
        expect(hud.hud?.detailsFont == "system-ui 12px", "detailsLabelFont")
        expect(hud.hud?.contentColor == HUDColor(1, 0.5, 0, 1), "activityIndicatorColor is the content colour")
        hud.color = HUDColor(red: 0.2, green: 0, blue: 0, alpha: 0.9)
        expect(hud.hud?.bezelColor == HUDColor(0.2, 0, 0, 0.9) && hud.hud?.blur == 0, "color: a flat bezel of that colour")
        hud.opacity = 0.5
        expect(hud.hud?.bezelColor == HUDColor(0.2, 0, 0, 0.5) && hud.opacity == 0.5, "opacity: the bezel's alpha")
        hud.dimBackground = true
        expect(hud.hud?.mask == .gradient && hud.dimBackground, "dimBackground: the radial gradient")
        hud.cornerRadius = 10
        hud.square = true
        hud.xOffset = 12
        hud.yOffset = -30
        hud.margin = 16
        hud.minSize = CGSize(width: 140, height: 100)
        hud.graceTime = 0
        hud.minShowTime = 0.1
        hud.taskInProgress = true
        hud.progress = 0.4
        hud.removeFromSuperViewOnHide = true
        expect(hud.hud?.cornerRadius == 10 && hud.hud?.isSquare == true, "cornerRadius, square")
        expect(hud.hud?.offset.x == 12 && hud.hud?.offset.y == -30, "xOffset, yOffset")
        expect(hud.hud?.margin == 16 && hud.hud?.minSize.width == 140, "margin, minSize")
        expect(abs((hud.hud?.progress ?? 0) - 0.4) < 1e-6 && hud.taskInProgress, "progress, taskInProgress")
        hud.customView = "dialog-information"
        hud.mode = MBProgressHUDModeCustomView

        // hide:afterDelay:, then completionBlock and the delegate, in that order.
        final class Delegate: MBProgressHUDDelegate, @unchecked Sendable {
            let done: DispatchSemaphore
            init(_ d: DispatchSemaphore) { done = d }
            func hudWasHidden(_ hud: MBProgressHUD) { done.signal() }
        }
        let done = DispatchSemaphore(value: 0)
        let delegate = Delegate(done)
        hud.delegate = delegate
        hud.completionBlock = { done.signal() }
        hud.hide(true, afterDelay: 0.1)
        waitFor(done, "completionBlock and hudWasHidden after hide:afterDelay:", count: 2)

        // show:/hide: on a HUD made with initWithWindow:.
        let windowHUD = MBProgressHUD(window: .monitor("primary"))
        windowHUD.show(true)
        expect(windowHUD.hud?.isVisible == true, "show: shows")
        windowHUD.completionBlock = { done.signal() }
        windowHUD.hide(true)
        waitFor(done, "completionBlock after hide:")

        // Several HUDs over one view: allHUDsForView:, hideAllHUDsForView:animated:.
        let a = MBProgressHUD.showHUDAddedTo(view, animated: false)
        let b = MBProgressHUD.showHUDAddedTo(view, animated: false)
        let all = MBProgressHUD.allHUDsForView(view)
        expect(all.count == 2 && all[0] === a && all[1] === b, "allHUDsForView: both, in order")
        expect(MBProgressHUD.allHUDs(for: view).count == 2, "allHUDs(for:)")
        expect(MBProgressHUD.hideAllHUDsForView(view, animated: false) == 2, "hideAllHUDsForView: hid two")
        expect(MBProgressHUD.hideAllHUDs(for: view, animated: false) == 0 || MBProgressHUD.HUDForView(view) == nil, "none left")
        expect(!MBProgressHUD.hideHUDForView(view, animated: true), "hideHUDForView: with none")

        // showAnimated:whileExecutingBlock:, in each spelling; the completion once hidden.
        let ran = DispatchSemaphore(value: 0)
        let worker = MBProgressHUD(view: view)
        worker.showAnimated(
            true,
            whileExecutingBlock: {
                usleep(100_000); ran.signal()
            }, completionBlock: { done.signal() })
        waitFor(ran, "the block of showAnimated:whileExecutingBlock:")
        waitFor(done, "the completion of showAnimated:whileExecutingBlock:completionBlock:")
        let queue = DispatchQueue(label: "example.work")
        MBProgressHUD(view: view).show(animated: true, whileExecuting: { ran.signal() }, onQueue: queue, completionBlock: { done.signal() })
        waitFor(ran, "the block of show(animated:whileExecuting:onQueue:completionBlock:)")
        waitFor(done, "its completion")
        MBProgressHUD(view: view).show(animated: false, whileExecuting: { ran.signal() }, on: queue)
        waitFor(ran, "the block of show(animated:whileExecuting:on:)")
    }
}
