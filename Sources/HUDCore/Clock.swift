#if canImport(Glibc)
import Glibc
#endif

/// Seconds on a monotonic time line. Injected so that the lifecycle is tested in virtual time.
package protocol HUDClock: AnyObject {
    var now: Double { get }
}

/// The system's monotonic clock.
package final class MonotonicClock: HUDClock {
    package init() {}
    package var now: Double { MonotonicClock.seconds() }
    package static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A clock that moves only when told to.
package final class ManualClock: HUDClock {
    package var now: Double
    package init(_ start: Double = 0) { now = start }
    package func advance(by dt: Double) { now += dt }
}
