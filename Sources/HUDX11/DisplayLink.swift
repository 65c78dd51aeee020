#if canImport(Glibc)
import Glibc
#endif
import HUDCore

/// A thread that ticks at the monitor's refresh rate on absolute deadlines, like CVDisplayLink.
/// While stopped it sleeps on a condition: no wake-ups at all when nothing moves.
public final class DisplayLink: @unchecked Sendable {
    public let period: Double
    private let onTick: @Sendable (Double) -> Void
    private var mutex = pthread_mutex_t()
    private var cond = pthread_cond_t()
    private var running = false
    private var quit = false
    private var thread: pthread_t?
    public private(set) var ticks = 0

    /// `onTick` runs on the display link's thread with the tick's deadline (monotonic seconds).
    public init(hz: Double, onTick: @escaping @Sendable (Double) -> Void) {
        period = 1 / max(1, hz)
        self.onTick = onTick
        pthread_mutex_init(&mutex, nil)
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(&cond, &attr)
        pthread_condattr_destroy(&attr)
        let box = Unmanaged.passRetained(self).toOpaque()
        var t = pthread_t()
        pthread_create(&t, nil, { arg in
            let link = Unmanaged<DisplayLink>.fromOpaque(arg!).takeRetainedValue()
            link.loop()
            return nil
        }, box)
        thread = t
    }

    public var isRunning: Bool {
        pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }
        return running
    }

    public func start() {
        pthread_mutex_lock(&mutex)
        if !running { running = true; pthread_cond_signal(&cond) }
        pthread_mutex_unlock(&mutex)
    }

    public func stop() {
        pthread_mutex_lock(&mutex)
        running = false
        pthread_mutex_unlock(&mutex)
    }

    /// Ends the thread (the link cannot be started again).
    public func invalidate() {
        pthread_mutex_lock(&mutex)
        quit = true
        pthread_cond_signal(&cond)
        pthread_mutex_unlock(&mutex)
        if let t = thread { pthread_join(t, nil); thread = nil }
    }

    private func loop() {
        var deadline = 0.0
        pthread_mutex_lock(&mutex)
        while !quit {
            if !running {
                pthread_cond_wait(&cond, &mutex)
                deadline = MonotonicClock.seconds()   // the first tick comes at once
                continue
            }
            pthread_mutex_unlock(&mutex)
            var ts = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
            while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
            onTick(deadline)
            ticks += 1
            // Absolute deadlines do not drift; a late tick skips missed frames instead of bursting.
            let now = MonotonicClock.seconds()
            deadline += period
            if deadline < now { deadline += ((now - deadline) / period).rounded(.up) * period }
            pthread_mutex_lock(&mutex)
        }
        pthread_mutex_unlock(&mutex)
    }
}
