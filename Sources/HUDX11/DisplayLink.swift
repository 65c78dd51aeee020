import HUDCore

/// Frame deadlines at the monitor's refresh rate on absolute times, like CVDisplayLink's,
/// kept by the loop itself: while it runs, the loop sleeps until the next deadline (one wake-up
/// a frame, no thread waking it through a pipe); while stopped, nothing wakes for it at all.
/// Owned by the loop's thread.
struct DisplayLink {
    let period: Double
    private(set) var isRunning = false
    /// When the next tick is due (monotonic seconds), while running.
    private(set) var deadline = 0.0
    private(set) var ticks = 0

    init(hz: Double) { period = 1 / max(1, hz) }

    /// When the last tick fired.
    private var fired = -Double.infinity

    /// The first tick comes at once, or a period after the last one if that is later: a link
    /// stopped and started again within a frame keeps its pace (a frame drawn a moment ago is
    /// not followed by one a fraction of a period later, nor by a wasted tick).
    mutating func start(now: Double) {
        guard !isRunning else { return }
        isRunning = true
        deadline = max(now, fired + period)
    }

    mutating func stop() { isRunning = false }

    /// Whether a tick is due at `now`; when one is, the next deadline is set. Absolute deadlines
    /// do not drift; a late tick skips missed frames instead of bursting.
    mutating func fire(now: Double) -> Bool {
        guard isRunning, now >= deadline else { return false }
        ticks += 1
        fired = now
        deadline += period
        if deadline <= now { deadline += ((now - deadline) / period).rounded(.down) * period + period }
        return true
    }
}
