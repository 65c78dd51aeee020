#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Wakes the event loop from another thread; repeated wakes coalesce.
///
/// No wake can be lost: `drain` empties the pipe *before* it clears `pending`. A wake that comes
/// while the pipe is read finds `pending` still set and writes nothing, but the loop handles
/// everything that wakes stand for (posted work) after `drain` returns, so it is seen; a wake
/// after `pending` is cleared writes a byte, so the next poll returns at once.
package final class WakePipe: @unchecked Sendable {
    package let readFD: Int32, writeFD: Int32
    private let pending = Atomic<Bool>(false)

    package init() {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]; writeFD = fds[1]
    }

    deinit { close(readFD); close(writeFD) }

    package func wake() {
        if pending.exchange(true, ordering: .acquiringAndReleasing) { return }
        var b: UInt8 = 1
        _ = write(writeFD, &b, 1)
    }

    /// Call before handling what the wakes stand for, never after.
    package func drain() {
        var buf = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buf, 64) > 0 {}
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
