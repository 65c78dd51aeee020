import Foundation
import HUDSystem

/// Delivers the library's callbacks (completions, button actions, notifications).
///
/// With `HUD.callbackQueue` set, on that queue. Unset (the default), on the main queue while the
/// program runs it (`dispatchMain()`, `RunLoop.main`, top-level `await`, an XCTest wait), as
/// UIKit's are; when the main queue does not take a callback within `patience` (its thread
/// sleeps, computes, or runs another toolkit's loop that never drains it), the callback runs on
/// the library's callback thread instead, so that none is lost. Either way one at a time, in the
/// order they were sent, never two at once.
enum Callbacks {
    /// How long a callback waits for the main queue before it runs on the callback thread.
    static let patience = 0.1

    private static let queue = DispatchQueue(label: "xhud.callbacks")
    private static let lock = Locked()
    /// The main queue left the last callback waiting and has not run anything of ours since:
    /// later ones do not wait for it again (a sleeping main thread costs one wait, not one each).
    nonisolated(unsafe) private static var mainStalled = false

    static func send(_ work: @escaping @Sendable () -> Void) {
        if let q = HUD.callbackQueue {
            // The main queue through its OperationQueue, as the default delivery (see `onMain`).
            if q.label == DispatchQueue.main.label { onMain(work) } else { q.async(execute: work) }
        } else {
            queue.async { deliver(work) }
        }
    }

    /// Runs `work` on the main queue as an operation of `OperationQueue.main`, never as a bare
    /// block: inside it `OperationQueue.current` is `.main`, so NotificationCenter runs an observer
    /// added with `queue: .main` inline. Posted from a bare main-queue block (which is what
    /// `dispatchMain()` and the main actor run, on a worker thread where `current` is nil),
    /// Foundation adds the observer as an operation of the main queue and waits for it there: on
    /// the queue that is waiting, for good.
    private static func onMain(_ work: @escaping @Sendable () -> Void) {
        OperationQueue.main.addOperation(work)
    }

    // MARK: Notifications

    /// Serial: SVProgressHUD's notifications are posted in the order they happened.
    private static let notifications = DispatchQueue(label: "xhud.notifications")
    /// Posts not yet returned (owned by `lock`).
    nonisolated(unsafe) private static var postsPending = 0

    /// Posts a notification from a callback. On the main queue (the callbacks' usual place) at
    /// once. Elsewhere (a set `callbackQueue`, or the callback thread while the main queue does
    /// not run) on a thread of its own, waited for `patience` at most: an observer on `.main`
    /// makes Foundation's post wait for the main queue, and a callback thread that waited with
    /// it would hold back the completions that a blocked main thread may be waiting for.
    static func notify(_ post: @escaping @Sendable () -> Void) {
        if OperationQueue.current === OperationQueue.main { post(); return }
        let behind = lock.withLock {
            postsPending += 1
            return postsPending > 1
        }
        let done = DispatchSemaphore(value: 0)
        notifications.async {
            post()
            lock.withLock { postsPending -= 1 }
            done.signal()
        }
        // Behind a post that is stuck on the main queue: waiting would cost `patience` each time.
        if !behind { _ = done.wait(timeout: .now() + patience) }
    }

    private static var stalled: Bool {
        get { lock.withLock { mainStalled } }
        set { lock.withLock { mainStalled = newValue } }
    }

    /// On the callback thread, one callback at a time.
    private static func deliver(_ work: @escaping @Sendable () -> Void) {
        if stalled { work(); return }
        let job = Job(work)
        onMain { job.runOnMain() }
        guard job.done.wait(timeout: .now() + patience) == .timedOut else { return }
        if job.claim() {
            stalled = true
            work()
        } else {
            // The main queue took it just now: the next callback waits until it has run.
            job.done.wait()
        }
    }

    /// One callback, run exactly once: by the main queue or by the callback thread, whichever
    /// claims it first.
    private final class Job: @unchecked Sendable {
        let work: @Sendable () -> Void
        let done = DispatchSemaphore(value: 0)
        private let lock = Locked()
        private var claimed = false

        init(_ work: @escaping @Sendable () -> Void) { self.work = work }

        func claim() -> Bool {
            lock.withLock {
                if claimed { return false }
                claimed = true
                return true
            }
        }

        func runOnMain() {
            // Whatever the job's fate, the main queue runs again: later callbacks try it first.
            Callbacks.stalled = false
            guard claim() else { return }
            work()
            done.signal()
        }
    }
}
