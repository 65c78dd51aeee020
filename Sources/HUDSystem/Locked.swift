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

    package init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
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

    /// For a lock held across calls that a closure cannot span; `withLock` wherever it can.
    package func lock() { pthread_mutex_lock(mutex) }
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// No `inout` access to a Void value: Thread Sanitizer places a zero-sized access on the
    /// object's own address and took the mutex's read, before locking, for a race with it.
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
