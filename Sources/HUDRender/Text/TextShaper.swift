import HUDCore
import HUDSystem

/// Lays out, on a thread of its own, the text a server's loop must not wait for: all that Pango
/// lays out (details, markup, other scripts, fallback fonts). The loop asks (`shape`) and goes on
/// drawing every other HUD; told that the text is ready, it measures and draws its recording
/// (`ShapedText`) in microseconds. A layout that takes more than `seconds` is given up: its
/// request is `cut` (the HUD shows its first characters) and the thread is left to finish alone
/// while a new one takes the queue; past `overrunsAllowed` such threads, every request is cut at
/// once. Any thread may call it. The worker's Pango font map is its own (Pango's are per thread).
package final class TextShaper: @unchecked Sendable {
    /// The server's: one thread, one font map, for every HUD.
    package static let shared = TextShaper()

    /// A layout's time budget.
    let seconds: Double
    /// Threads that may be left running past their budget.
    static let overrunsAllowed = 4
    /// Requests kept done (their recordings: a few KB each, up to a few hundred for 16 KB of text).
    static let kept = 64

    package enum Result: Sendable {
        case shaped(ShapedText)
        /// Over the time budget: shown as `HUDText.cut` of it, laid out where it is drawn.
        case cut
    }

    private struct State {
        var done: [TextRequest: Result] = [:]
        var doneOrder: [TextRequest] = []
        var queue: [TextRequest] = []
        var waiting: [TextRequest: [@Sendable () -> Void]] = [:]
        /// The live worker's; a worker whose generation is past ends after its layout.
        var generation = 0
        var workerStarted = false
        var watchdogStarted = false
        var current: (request: TextRequest, since: Double)?
        var overrunning = 0

        mutating func finish(_ r: TextRequest, _ result: Result) -> [@Sendable () -> Void] {
            if done.updateValue(result, forKey: r) == nil {
                doneOrder.append(r)
                if doneOrder.count > TextShaper.kept { done[doneOrder.removeFirst()] = nil }
            }
            return waiting.removeValue(forKey: r) ?? []
        }
    }
    private let state = Locked(State())
    private let changed = Condition()

    /// How a worker lays a request out (tests slow it down).
    private let layOut: @Sendable (PangoText, TextRequest) -> ShapedText

    package init(seconds: Double = 1.0,
                 layOut: @escaping @Sendable (PangoText, TextRequest) -> ShapedText = { $0.shaped($1) }) {
        self.seconds = seconds
        self.layOut = layOut
    }

    /// The request's layout, if done (or given up).
    package func result(_ r: TextRequest) -> Result? { state.withLock { $0.done[r] } }

    /// Lays out the requests not done yet, then calls `done` once, on the shaper's thread (on
    /// this one, now, when all were done).
    package func shape(_ requests: [TextRequest], done: @escaping @Sendable () -> Void) {
        let left = Locked(0)
        let one: @Sendable () -> Void = { if left.withLock({ $0 -= 1; return $0 }) == 0 { done() } }
        // Every count is taken before any layout can finish (each finish takes this lock).
        let (added, start, cut) = state.withLock { s -> (Int, (worker: Int?, watchdog: Bool), [@Sendable () -> Void]) in
            var added = 0, cut: [@Sendable () -> Void] = []
            for r in Set(requests) where s.done[r] == nil {
                added += 1
                left.withLock { $0 += 1 }
                s.waiting[r, default: []].append(one)
                if s.overrunning >= Self.overrunsAllowed {
                    cut += s.finish(r, .cut)
                } else if s.current?.request != r, !s.queue.contains(r) {
                    s.queue.append(r)
                }
            }
            var worker: Int?
            if !s.queue.isEmpty, !s.workerStarted { s.workerStarted = true; worker = s.generation }
            let watchdog = !s.queue.isEmpty && !s.watchdogStarted
            if watchdog { s.watchdogStarted = true }
            return (added, (worker, watchdog), cut)
        }
        guard added > 0 else { return done() }
        changed.signal()
        if let g = start.worker { startWorker(generation: g) }
        if start.watchdog, !DetachedThread.start(name: "xhud-text-watch", { [self] in watch() }) { state.withLock { $0.watchdogStarted = false } }
        for c in cut { c() }
    }

    private func startWorker(generation: Int) {
        if !DetachedThread.start(name: "xhud-text", { [self] in work(generation: generation) }) {
            // No thread: laid out here, as if there were no shaper.
            state.withLock { $0.workerStarted = false }
            work(generation: generation, once: true)
        }
    }

    /// The worker: one layout at a time, for as long as it is the live one.
    private func work(generation: Int, once: Bool = false) {
        let pango = PangoText()
        while true {
            let next: TextRequest? = state.wait(on: changed, until: { $0.generation != generation || !$0.queue.isEmpty || once }) { s, _ in
                guard s.generation == generation, !s.queue.isEmpty else { return nil }
                let r = s.queue.removeFirst()
                s.current = (r, MonotonicClock.seconds())
                return r
            }
            guard let r = next else { return }
            changed.signal()   // the watchdog times it from now
            let shaped = layOut(pango, r)
            let (callbacks, live) = state.withLock { s -> ([@Sendable () -> Void], Bool) in
                let live = s.generation == generation
                if live { s.current = nil } else { s.overrunning -= 1 }
                // Late, it still serves the next HUD that shows this text.
                return (s.finish(r, .shaped(shaped)), live)
            }
            changed.signal()
            for c in callbacks { c() }
            if !live { return }
        }
    }

    /// The watchdog: a layout past its budget is given up, and a new worker takes the queue.
    private func watch() {
        while true {
            let (r, since) = state.wait(on: changed, until: { $0.current != nil }) { s, _ in s.current! }
            let overran = state.wait(on: changed, until: { $0.current?.request != r || $0.current?.since != since },
                                     deadline: since + seconds) { s, finished -> (callbacks: [@Sendable () -> Void], worker: Int?)? in
                guard !finished else { return nil }
                s.generation += 1
                s.overrunning += 1
                s.current = nil
                var callbacks = s.finish(r, .cut)
                if s.overrunning >= Self.overrunsAllowed {
                    for q in s.queue { callbacks += s.finish(q, .cut) }
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
