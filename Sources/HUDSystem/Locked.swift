#if canImport(Glibc)
import Glibc
#endif

/// A value behind a pthread mutex: the one lock of the package (a bus thread and the server's
/// loop, the library's callers and its thread, renderers on several threads). A pthread mutex
/// rather than the standard library's `Mutex`, whose futex-based lock Thread Sanitizer
/// cannot see (its callers' accesses then read as races); the mutex lives on the heap, never
/// in a Swift property that `&` could move.
package final class Locked<Value>: @unchecked Sendable {
    fileprivate let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package convenience init(_ value: Value) { self.init(value, recursive: false) }

    fileprivate init(_ value: Value, recursive: Bool) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked where Value == Void {
    /// A plain lock, for state that lives elsewhere.
    package convenience init() { self.init(()) }

    /// A lock its holder may take again (a call made with it held that takes it too). Only a
    /// plain lock: its `withLock` lends no `inout` access that a nested hold would overlap.
    package static func recursive() -> Locked<Void> { Locked((), recursive: true) }

    /// For a lock held across calls that a closure cannot span; `withLock` wherever it can.
    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for a signal of `condition` with the lock taken by `lock()`: released meanwhile,
    /// held again on return. The caller checks its state again (a wake-up may be spurious).
    package func wait(on condition: Condition) { pthread_cond_wait(condition.cond, mutex) }

    /// No `inout` access to a Void value: Thread Sanitizer places a zero-sized access on the
    /// object's own address and took the mutex's read, before locking, for a race with it.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// A condition of a `Locked` value: a thread waits, holding the lock, until another changes the
/// value and signals (a worker waiting for work, a watchdog for a deadline). Monotonic time.
package final class Condition: @unchecked Sendable {
    fileprivate let cond = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        cond.initialize(to: pthread_cond_t())
        var attr = pthread_condattr_t()
        pthread_condattr_init(&attr)
        pthread_condattr_setclock(&attr, CLOCK_MONOTONIC)
        pthread_cond_init(cond, &attr)
        pthread_condattr_destroy(&attr)
    }

    deinit {
        pthread_cond_destroy(cond)
        cond.deallocate()
    }

    /// Wakes every thread waiting on it (after the value changed, under the lock or not).
    package func signal() { pthread_cond_broadcast(cond) }
}

extension Locked {
    /// Waits, with the lock, until `ready` holds of the value or `deadline` (monotonic seconds)
    /// has passed, then runs `body` with the lock held; `body` is told whether `ready` holds.
    package func wait<R>(
        on condition: Condition, until ready: (Value) -> Bool, deadline: Double? = nil,
        _ body: (inout Value, Bool) throws -> R
    ) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) {
            if let deadline {
                var ts = timespec(tv_sec: Int(deadline), tv_nsec: Int((deadline - deadline.rounded(.down)) * 1e9))
                if pthread_cond_timedwait(condition.cond, mutex, &ts) == ETIMEDOUT { break }
            } else {
                pthread_cond_wait(condition.cond, mutex)
            }
        }
        return try body(&value, ready(value))
    }
}
