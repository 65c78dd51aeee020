import Foundation
import XHUD

// One way a program runs (or does not run) its main queue, named by the argument, with
// SVProgressHUD's notifications observed and MBProgressHUD's completion and delegate waited
// for. Prints "ok ARRANGEMENT" and exits 0 once every callback it waits for has arrived where it
// should; exits 1 when one arrived in the wrong place. A deadlock never exits: XHUDTests run it
// with a watchdog.
//
//   dispatch-main          observers on .main, calls on the main queue, dispatchMain()
//   dispatch-main-nil      the same with observers on queue nil
//   runloop                observers on .main, calls on the main queue, RunLoop.main.run()
//   main-actor             Task { @MainActor in ... await ... } under dispatchMain()
//   main-actor-runloop     the same under RunLoop.main.run()
//   background             calls from eight threads at once, observers on .main, dispatchMain()
//   blocked-main           the main thread waits on a semaphore for a completion (it never runs
//                          the main queue), observers on .main
//   callback-queue-main    HUD.callbackQueue = .main, observers on .main, dispatchMain()
//   reentrant              observers on .main that call the library back, dispatchMain()

/// True on the main queue, whichever thread runs it (dispatchMain() drains it on a worker thread).
let mainKey = DispatchSpecificKey<Bool>()
DispatchQueue.main.setSpecific(key: mainKey, value: true)
func onMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainKey) == true }

func fail(_ why: String) -> Never {
    print("FAIL \(why)")
    exit(1)
}

/// What arrived, from any thread.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []
    func add(_ name: String) { lock.withLock { names.append(name) } }
    var all: [String] { lock.withLock { names } }
}

let allNames = [
    SVProgressHUD.willAppearNotification, SVProgressHUD.didAppearNotification,
    SVProgressHUD.willDisappearNotification, SVProgressHUD.didDisappearNotification,
]

/// Observes SVProgressHUD's four notifications on `queue`; each must arrive on the main queue
/// when `queue` is .main.
func observe(queue: OperationQueue?, _ log: Log, then: (@Sendable (Notification) -> Void)? = nil) {
    let wantMain = queue === OperationQueue.main
    for name in allNames {
        _ = NotificationCenter.default.addObserver(forName: name, object: nil, queue: queue) { note in
            if wantMain && !onMainQueue() { fail("\(note.name.rawValue) observed off the main queue") }
            log.add(note.name.rawValue)
            then?(note)
        }
    }
}

/// Shows and dismisses the shared HUD and an MBProgressHUD; `done` once both are hidden and every
/// notification of the shared HUD arrived.
func exercise(_ log: Log, mainCallbacks: Bool, _ done: @escaping @Sendable () -> Void) {
    SVProgressHUD.setMinimumDismissTimeInterval(0.2)
    SVProgressHUD.setMaximumDismissTimeInterval(0.3)
    SVProgressHUD.showInfo(withStatus: "Info")
    let mb = MBProgressHUD.showAdded(to: .monitor("primary"), animated: true)
    mb.label.text = "Working"
    mb.completionBlock = {
        if mainCallbacks && !onMainQueue() { fail("completionBlock off the main queue") }
        log.add("mb-completion")
    }
    mb.hide(animated: true, afterDelay: 0.2)
    waitFor(log, ["mb-completion", SVProgressHUDDidDisappearNotification], done)
}

/// Polls (from a thread of its own) until `log` has every name in `names`.
func waitFor(_ log: Log, _ names: [String], _ done: @escaping @Sendable () -> Void) {
    Thread.detachNewThread {
        while !names.allSatisfy(log.all.contains) { usleep(10_000) }
        done()
    }
}

func finish(_ arrangement: String, _ log: Log) -> Never {
    for name in allNames where !log.all.contains(name.rawValue) { fail("no \(name.rawValue)") }
    print("ok \(arrangement)")
    exit(0)
}

let arrangement = CommandLine.arguments.dropFirst().first ?? "dispatch-main"
let log = Log()
switch arrangement {
case "dispatch-main", "dispatch-main-nil", "runloop", "callback-queue-main":
    if arrangement == "callback-queue-main" { HUD.callbackQueue = .main }
    observe(queue: arrangement == "dispatch-main-nil" ? nil : .main, log)
    DispatchQueue.main.async { exercise(log, mainCallbacks: true) { finish(arrangement, log) } }
    if arrangement == "runloop" { RunLoop.main.run() } else { dispatchMain() }
case "main-actor", "main-actor-runloop":
    observe(queue: .main, log)
    Task { @MainActor in
        SVProgressHUD.show(withStatus: "Main actor")
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            SVProgressHUD.dismiss(withDelay: 0.2) {
                if !onMainQueue() { fail("dismiss completion off the main queue") }
                c.resume()
            }
        }
        MainActor.assertIsolated()
        exercise(log, mainCallbacks: true) { finish(arrangement, log) }
    }
    if arrangement == "main-actor-runloop" { RunLoop.main.run() } else { dispatchMain() }
case "background":
    observe(queue: .main, log)
    DispatchQueue.global().async {
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            SVProgressHUD.show(withStatus: "Thread \(i)")
            SVProgressHUD.showProgress(Float(i) / 8, status: "Thread \(i)")
            _ = SVProgressHUD.isVisible()
            let mb = MBProgressHUD.showAdded(to: .geometry("200x200+\(i * 10)+0"), animated: false)
            mb.hide(animated: false)
        }
        exercise(log, mainCallbacks: true) { finish(arrangement, log) }
    }
    dispatchMain()
case "blocked-main":
    observe(queue: .main, log)
    let done = DispatchSemaphore(value: 0)
    SVProgressHUD.showSuccess(withStatus: "Saved")
    SVProgressHUD.dismiss(withDelay: 0.2) { done.signal() }
    if done.wait(timeout: .now() + 10) == .timedOut { fail("the dismiss completion never came while the main thread waited") }
    let mb = MBProgressHUD.showAdded(to: .monitor("primary"), animated: true)
    mb.completionBlock = { done.signal() }
    mb.hide(animated: true)
    if done.wait(timeout: .now() + 10) == .timedOut { fail("the completionBlock never came while the main thread waited") }
    // The .main observers run once the main queue runs.
    waitFor(log, allNames.map(\.rawValue)) { finish(arrangement, log) }
    dispatchMain()
case "reentrant":
    // Each notification calls the library back from its observer on the main queue.
    observe(queue: .main, log) { note in
        switch note.name {
        case SVProgressHUD.didAppearNotification: SVProgressHUD.dismiss(withDelay: 0.1)
        case SVProgressHUD.willDisappearNotification: _ = SVProgressHUD.isVisible()
        case SVProgressHUD.didDisappearNotification:
            let mb = MBProgressHUD.showAdded(to: .monitor("primary"), animated: true)
            mb.completionBlock = { log.add("mb-completion") }
            mb.hide(animated: true, afterDelay: 0.1)
        default: break
        }
    }
    DispatchQueue.main.async {
        SVProgressHUD.show(withStatus: "Reentrant")
        waitFor(log, ["mb-completion"]) { finish(arrangement, log) }
    }
    dispatchMain()
default:
    fail("unknown arrangement \(arrangement)")
}
