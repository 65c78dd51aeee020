#if canImport(Glibc)
import Glibc
#endif

/// Seconds on a monotonic time line. Injected so that the lifecycle is tested in virtual time.
public protocol HUDClock: AnyObject {
    var now: Double { get }
}

/// The system's monotonic clock.
public final class MonotonicClock: HUDClock {
    public init() {}
    public var now: Double { MonotonicClock.seconds() }
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A clock that moves only when told to.
public final class ManualClock: HUDClock {
    public var now: Double
    public init(_ start: Double = 0) { now = start }
    public func advance(by dt: Double) { now += dt }
}
