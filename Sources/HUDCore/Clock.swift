import HUDSystem

/// Seconds on a monotonic time line. Injected so that the lifecycle is tested in virtual time.
package protocol HUDClock: AnyObject {
    var now: Double { get }
}

/// The system's monotonic clock (HUDSystem's `MonotonicTime`), as a HUD's lifecycle reads it.
package final class MonotonicClock: HUDClock {
    package init() {}
    package var now: Double { MonotonicTime.seconds() }
}

/// A clock that moves only when told to.
package final class ManualClock: HUDClock {
    package var now: Double
    package init(_ start: Double = 0) { now = start }
    package func advance(by dt: Double) { now += dt }
}
