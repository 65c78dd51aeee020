#if canImport(Glibc)
import Glibc
#endif

/// Work a server's loop must not wait for (laying out text, decoding an image), done on a thread
/// of its own with a time budget. The loop asks (`submit`) and goes on drawing every other HUD;
/// it is called back, on the worker's thread, once every job it asked for has its output. A job
/// that takes more than `seconds` is given up: its output becomes `overrun(job)` and its thread
/// is left to finish alone while a new one takes the queue; past `overrunsAllowed` such threads,
/// every job is given up at once. A job that ends late keeps its output for the next asker. The
/// last `kept` outputs are kept, looked up by job. Any thread may call it.
package final class BoundedWorker<Job: Hashable & Sendable, Output: Sendable>: @unchecked Sendable {
    /// A job's time budget.
    package let seconds: Double
    /// Threads that may be left running past their budget.
    package static var overrunsAllowed: Int { 4 }

    private let name: String
    private let kept: Int
    private let overrun: @Sendable (Job) -> Output
    /// Makes, on each worker thread as it starts, what does the jobs there (with what that
    /// thread keeps of its own, such as a font map).
    private let makeWorker: @Sendable () -> (Job) -> Output

    private struct State {
        var done: [Job: Output] = [:]
        var doneOrder: [Job] = []
        var queue: [Job] = []
        var waiting: [Job: [@Sendable (Output) -> Void]] = [:]
        /// The live worker's; a worker whose generation is past ends after its job.
        var generation = 0
        var workerStarted = false
        var watchdogStarted = false
        var current: (job: Job, since: Double)?
        var overrunning = 0

        /// The callbacks to call (without the lock) with the output.
        mutating func finish(_ j: Job, _ output: Output, kept: Int) -> [@Sendable () -> Void] {
            if done.updateValue(output, forKey: j) == nil {
                doneOrder.append(j)
                if doneOrder.count > kept { done[doneOrder.removeFirst()] = nil }
            }
            return (waiting.removeValue(forKey: j) ?? []).map { c in { c(output) } }
        }
    }
    private let state = Locked(State())
    private let changed = Condition()

    /// `name` names the worker's threads (`NAME`, `NAME-watch`).
    package init(
        name: String, seconds: Double, kept: Int, overrun: @escaping @Sendable (Job) -> Output,
        makeWorker: @escaping @Sendable () -> (Job) -> Output
    ) {
        self.name = name
        self.seconds = seconds
        self.kept = max(1, kept)
        self.overrun = overrun
        self.makeWorker = makeWorker
    }

    /// The job's output, if done (or given up) and still kept.
    package func output(_ j: Job) -> Output? { state.withLock { $0.done[j] } }

    /// The most recent kept output of a job that `matches`.
    package func latest(where matches: (Job) -> Bool) -> Output? {
        state.withLock { s in s.doneOrder.last(where: matches).flatMap { s.done[$0] } }
    }

    /// Does the jobs not done yet, then calls `done` once with every job's output, on a worker's
    /// thread (on this one, now, when all were done).
    package func submit(_ jobs: [Job], done: @escaping @Sendable ([Job: Output]) -> Void) {
        let outputs = Locked((left: 0, outputs: [Job: Output]()))
        func one(_ j: Job) -> @Sendable (Output) -> Void {
            { o in
                let all = outputs.withLock { s -> [Job: Output]? in
                    s.outputs[j] = o
                    s.left -= 1
                    return s.left == 0 ? s.outputs : nil
                }
                if let all { done(all) }
            }
        }
        // Every count is taken before any job can finish (each finish takes this lock).
        let (added, start, given) = state.withLock { s -> (Int, (worker: Int?, watchdog: Bool), [@Sendable () -> Void]) in
            var added = 0, given: [@Sendable () -> Void] = []
            outputs.withLock { o in for j in Set(jobs) { if let d = s.done[j] { o.outputs[j] = d } } }
            for j in Set(jobs) where s.done[j] == nil {
                added += 1
                outputs.withLock { $0.left += 1 }
                s.waiting[j, default: []].append(one(j))
                if s.overrunning >= Self.overrunsAllowed {
                    given += s.finish(j, overrun(j), kept: kept)
                } else if s.current?.job != j, !s.queue.contains(j) {
                    s.queue.append(j)
                }
            }
            var worker: Int?
            if !s.queue.isEmpty, !s.workerStarted { s.workerStarted = true; worker = s.generation }
            let watchdog = !s.queue.isEmpty && !s.watchdogStarted
            if watchdog { s.watchdogStarted = true }
            return (added, (worker, watchdog), given)
        }
        guard added > 0 else { return done(outputs.withLock { $0.outputs }) }
        changed.signal()
        if let g = start.worker { startWorker(generation: g) }
        if start.watchdog, !DetachedThread.start(name: name + "-watch", { [self] in watch() }) {
            state.withLock { $0.watchdogStarted = false }
        }
        for c in given { c() }
    }

    private func startWorker(generation: Int) {
        if !DetachedThread.start(name: name, { [self] in work(generation: generation) }) {
            // No thread: done here, as if there were no worker.
            state.withLock { $0.workerStarted = false }
            work(generation: generation, once: true)
        }
    }

    /// The worker: one job at a time, for as long as it is the live one.
    private func work(generation: Int, once: Bool = false) {
        let perform = makeWorker()
        while true {
            let next: Job? = state.wait(on: changed, until: { $0.generation != generation || !$0.queue.isEmpty || once }) { s, _ in
                guard s.generation == generation, !s.queue.isEmpty else { return nil }
                let j = s.queue.removeFirst()
                s.current = (j, MonotonicTime.seconds())
                return j
            }
            guard let j = next else { return }
            changed.signal()  // the watchdog times it from now
            let output = perform(j)
            let (callbacks, live) = state.withLock { s -> ([@Sendable () -> Void], Bool) in
                let live = s.generation == generation
                if live { s.current = nil } else { s.overrunning -= 1 }
                return (s.finish(j, output, kept: kept), live)
            }
            changed.signal()
            for c in callbacks { c() }
            if !live { return }
        }
    }

    /// The watchdog: a job past its budget is given up, and a new worker takes the queue.
    private func watch() {
        while true {
            let (j, since) = state.wait(on: changed, until: { $0.current != nil }) { s, _ in s.current! }
            let overran = state.wait(
                on: changed, until: { $0.current?.job != j || $0.current?.since != since },
                deadline: since + seconds
            ) { s, finished -> (callbacks: [@Sendable () -> Void], worker: Int?)? in
                guard !finished else { return nil }
                s.generation += 1
                s.overrunning += 1
                s.current = nil
                var callbacks = s.finish(j, overrun(j), kept: kept)
                if s.overrunning >= Self.overrunsAllowed {
                    for q in s.queue { callbacks += s.finish(q, overrun(q), kept: kept) }
                    s.queue.removeAll()
                    s.workerStarted = false
                    return (callbacks, nil)
                }
                return (callbacks, s.generation)
            }
            guard let overran else { continue }
            changed.signal()
            if let g = overran.worker { startWorker(generation: g) }
            for c in overran.callbacks { c() }
        }
    }
}
