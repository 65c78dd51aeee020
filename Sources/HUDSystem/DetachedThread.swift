#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for work that may take its time and must not hold up a loop (a bus, a
/// file read): detached, it ends with its work. The work is `@Sendable`: what it takes from the
/// thread that starts it is checked by the compiler.
package enum DetachedThread {
    /// Runs `work` on a new thread; false, and `work` not run, when no thread could be made.
    /// `name` (at most 15 bytes) is what `ps -L` and /proc show for it.
    @discardableResult
    package static func start(name: String? = nil, _ work: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Work(name: name, work)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { p in
                let work = Unmanaged<Work>.fromOpaque(p!).takeRetainedValue()
                if let name = work.name { DetachedThread.nameThisThread(name) }
                work.run()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    /// The kernel's name of the calling thread (what /proc and `ps -L` show): its first 15 bytes.
    private static func nameThisThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private final class Work: Sendable {
        let name: String?
        let run: @Sendable () -> Void
        init(name: String?, _ run: @escaping @Sendable () -> Void) { self.name = name; self.run = run }
    }
}
