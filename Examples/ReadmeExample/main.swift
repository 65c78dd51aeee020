import Foundation
import XHUD

// MBProgressHUD: HUDs over a parent region (a monitor, a window, a rectangle)
let parent: ParentSpec = .monitor("pointer")
let hud: HUD
do { hud = try HUD.show(over: parent, animated: true) }  // showHUDAddedTo:animated:
catch { print("no HUD: \(error)"); exit(3) }  // no X display, an unknown monitor
hud.mode = .annular
hud.label = "Loading"
hud.details = "Fetching packages"
hud.graceTime = 0.2
hud.minShowTime = 0.5
hud.animation = .zoom
hud.mask = .clear
hud.button = "Cancel"
hud.onButton = { hud.hide(animated: true) }
hud.completion = { print("hidden") }  // completionBlock
DispatchQueue.concurrentPerform(iterations: 4) { _ in  // any thread, concurrently
    for step in 0...100 { hud.progress = Double(step) / 100; usleep(2_000) }
}
precondition(HUD.hud(over: parent) === hud)  // HUDForView:
hud.hide(animated: true, afterDelay: 0.3)

let work = Progress(totalUnitCount: 10)
guard let bar = try? HUD.show(over: parent, animated: true) else { exit(3) }
bar.mode = .bar
bar.progressObject = work  // polled by the display link every frame
work.completedUnitCount = 10
_ = HUD.hide(over: parent, animated: true)  // hideHUDForView:animated:, the top one
// From async code, `hide(animated:)` returns once the HUD is hidden (top-level code would pick
// the one that returns at once: hence the function).
func hideAndWait(_ hud: HUD) async throws { try await hud.hide(animated: true) }
try await hideAndWait(bar)  // returns once it is hidden

// SVProgressHUD: one shared HUD, static calls from any thread
_ = NotificationCenter.default.addObserver(forName: ProgressHUD.didDisappearNotification, object: nil, queue: nil) { _ in print("gone") }
ProgressHUD.setDefaultMaskType(.clear)
ProgressHUD.setMinimumDismissTimeInterval(1)
ProgressHUD.show(status: "Working")
ProgressHUD.showProgress(0.4, status: "Downloading")
ProgressHUD.showSuccess(status: "Done")  // hides itself after SV's duration
ProgressHUD.showError(status: "Failed")
ProgressHUD.showInfo(status: "Note")
print(ProgressHUD.isVisible)
ProgressHUD.dismiss(withDelay: 1) { print("dismissed") }
try await Task.sleep(nanoseconds: 3_000_000_000)  // the main queue stays free: "dismissed" and "gone" print
