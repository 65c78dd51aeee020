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
        written(fd, bytes, op).error == 0
    }

    /// Writes what fits now (a short write or EINTR goes on): the count written, short when a
    /// non-blocking descriptor is full; -1 on any other error before a byte was written (the
    /// peer gone). `op` as for `writeAll`.
    package static func writeAvailable(
        _ fd: Int32, _ bytes: [UInt8],
        using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }
    ) -> Int {
        bytes.withUnsafeBytes { raw in
            let (count, error) = written(fd, raw, op)
            return error == 0 || error == EAGAIN || error == EWOULDBLOCK || count > 0 ? count : -1
        }
    }

    /// The one write loop: how much of `bytes` went, and the errno that stopped it (0: all of
    /// it). A write of nothing stops it too (EIO), rather than turning forever.
    private static func written(
        _ fd: Int32, _ bytes: UnsafeRawBufferPointer, _ op: (Int32, UnsafeRawPointer, Int) -> Int
    ) -> (count: Int, error: Int32) {
        var off = 0
        while off < bytes.count {
            let n = op(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return (off, n < 0 ? errno : EIO) }
            off += n
        }
        return (off, 0)
    }
}

extension Descriptor {
    /// Reads `fd` to its end, a line at a time: `line` has each (without its newline) as soon as
    /// it is read, and stops the reading by returning false. False if the end has not come
    /// within `seconds` (a writer that hangs), past `limit` bytes, or on an error.
    package static func readLines(_ fd: Int32, limit: Int, within seconds: Double, _ line: ([UInt8]) -> Bool) -> Bool {
        let start = MonotonicTime.seconds()
        var pending: [UInt8] = []
        var total = 0
        var buf = [UInt8](repeating: 0, count: 16384)
        while true {
            let left = seconds - (MonotonicTime.seconds() - start)
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
    // The listing's own descriptor is in it, closed by then: its close fails, harmlessly.
    for fd in Directory.names(at: "/proc/self/fd").compactMap({ Int32($0) }) where !keep.contains(fd) { close(fd) }
}
