#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the system's monotonic clock (CLOCK_MONOTONIC): deadlines, timeouts and
/// measurements that a change of the wall clock must not move.
package enum MonotonicTime {
    package static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
