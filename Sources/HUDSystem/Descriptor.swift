#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor's plain operations, shared by every module that has one.
package enum Descriptor {
    /// Writes all of `bytes` (a short write or EINTR goes on); false on any other error
    /// (EAGAIN too: a non-blocking descriptor that is full is the caller's to wait for).
    /// `op` writes (a socket's is `send` with MSG_NOSIGNAL).
    package static func writeAll(
        _ fd: Int32, _ bytes: [UInt8],
        using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }
    ) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0, using: op) }
    }

    package static func writeAll(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer,
        using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }
    ) -> Bool {
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

extension Descriptor {
    /// Reads `fd` to its end, a line at a time: `line` has each (without its newline) as soon as
    /// it is read, and stops the reading by returning false. False if the end has not come
    /// within `seconds` (a writer that hangs), past `limit` bytes, or on an error.
    package static func readLines(_ fd: Int32, limit: Int, within seconds: Double, _ line: ([UInt8]) -> Bool) -> Bool {
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pending: [UInt8] = []
        var total = 0
        var buf = [UInt8](repeating: 0, count: 16384)
        while true {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = seconds - (Double(now.tv_sec - start.tv_sec) + Double(now.tv_nsec - start.tv_nsec) / 1e9)
            guard left > 0 else { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, Int32((left * 1000).rounded(.up)))
            if r < 0 { if errno == EINTR { continue }; return false }
            if r == 0 { continue }
            let n = read(fd, &buf, buf.count)
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue }; return false }
            if n == 0 { return pending.isEmpty || line(pending) }
            total += n
            guard total <= limit else { return false }
            pending += buf[0..<n]
            while let newline = pending.firstIndex(of: 10) {
                guard line(Array(pending[..<newline])) else { return false }
                pending.removeSubrange(...newline)
            }
        }
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
