#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor's plain operations, shared by every module that has one.
package enum Descriptor {
    /// Writes all of `bytes` (a short write or EINTR goes on); false on any other error
    /// (EAGAIN too: a non-blocking descriptor that is full is the caller's to wait for).
    /// `op` writes (a socket's is `send` with MSG_NOSIGNAL).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8],
                                using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0, using: op) }
    }

    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer,
                                using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = op(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += n
        }
        return true
    }
}

/// pipe2(O_CLOEXEC) (not exported to Swift without _GNU_SOURCE): no child execs holding it.
package func makePipe(_ fds: inout [Int32], nonBlocking: Bool = false) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    return true
}

/// Closes every open descriptor but `keep` (a process that outlives its parent holds nothing of
/// the parent's: `out=$(xhud ...)` would wait for it).
package func closeDescriptors(except keep: Set<Int32>) {
    guard let dir = opendir("/proc/self/fd") else { return }
    var open: [Int32] = []
    while let e = readdir(dir) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name) { open.append(fd) }
    }
    closedir(dir)
    for fd in open where !keep.contains(fd) { close(fd) }
}
