#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that may take its time and must not hold up a loop (a bus, a
/// file read): detached, it ends with its work. The work is `@Sendable`: what it takes from the
/// thread that starts it is checked by the compiler.
package enum DetachedThread {
    /// Runs `work` on a new thread; false, and `work` not run, when no thread could be made.
    @discardableResult
    package static func start(_ work: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(&thread, nil, { p in
            Unmanaged<Work>.fromOpaque(p!).takeRetainedValue().run()
            return nil
        }, box)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private final class Work: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
