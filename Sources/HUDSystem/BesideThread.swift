#if canImport(Glibc)
import Glibc
#endif
import CSched

/// Keeps a helper thread off the CPU of the thread that started it, until that thread waits
/// for its work. A thread that sleeps on the X server (a round trip) wakes on the CPU it ran on;
/// with a helper busy there, Linux's scheduler (EEVDF: the running thread keeps its slice) leaves
/// it queued behind the helper for a millisecond or two while the other CPU idles. Kept off that
/// CPU, the helper uses the time the starter spends waiting and never holds it up; once the
/// starter waits for it, it may run anywhere. Nothing is kept off on a single CPU.
package final class BesideThread: Sendable {
    /// 0: not placed yet; > 0: the helper's thread id while kept off; -1: released (any CPU).
    private let state = Locked<pid_t>(0)
    private let starterCPU: Int32

    /// Call on the starting thread, before the helper starts.
    package init() { starterCPU = xhud_sched_cpu_among_several() }

    /// Call first thing on the helper thread.
    package func keepOff() {
        guard starterCPU >= 0 else { return }
        state.withLock { s in
            if s == 0 { s = xhud_sched_keep_off(starterCPU) }
        }
    }

    /// Lets the helper run on any CPU (the starter is about to wait for it). Any thread.
    package func release() {
        state.withLock { s in
            if s > 0 { xhud_sched_release(s) }
            s = -1
        }
    }
}
