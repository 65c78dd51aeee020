import Foundation
import XHUD

// SVProgressHUD's calls, each for a moment, from a background queue while the main queue runs
// its own timer: the HUD never needs the main thread.
let ticks = DispatchSource.makeTimerSource(queue: .main)
var count = 0
ticks.schedule(deadline: .now(), repeating: 0.25)
ticks.setEventHandler { count += 1 }
ticks.resume()

_ = NotificationCenter.default.addObserver(forName: ProgressHUD.didAppearNotification, object: nil, queue: nil) { note in
    print("appeared:", note.userInfo?[ProgressHUD.statusUserInfoKey] ?? "")
}
ProgressHUD.setMinimumDismissTimeInterval(0.8)
DispatchQueue.global().async {
    ProgressHUD.show(status: "Syncing")
    usleep(800_000)
    for p in stride(from: 0.0, through: 1.0, by: 0.05) {
        ProgressHUD.showProgress(p, status: "Downloading \(Int(p * 100))%")
        usleep(40_000)
    }
    ProgressHUD.showSuccess(status: "Downloaded")
    usleep(1_200_000)
    ProgressHUD.showInfo(status: "Three new messages")
    usleep(1_200_000)
    ProgressHUD.dismiss(withDelay: 0.2) {
        // Callbacks run on the main queue when the program runs it, as SVProgressHUD's do.
        MainActor.assumeIsolated {
            print("main-queue timer fired \(count) times while the HUD animated")
            exit(count >= 8 ? 0 : 1)
        }
    }
}
dispatchMain()
