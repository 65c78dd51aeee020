#if canImport(Glibc)
import Glibc
import HUDSystem
#endif

/// Unix stream sockets: only what a client and the server need.
package enum UnixSocket {
    package enum ConnectFailure: Error, Equatable {
        case absent  // no socket file: no server
        case refused  // a socket file nobody listens on: a server that died
        case other(Int32)
    }

    /// Connects within `timeout` seconds: a server that does not accept (stopped) with its
    /// backlog full would otherwise hold the caller in connect(2) for as long as it is stopped.
    package static func connect(_ path: String, timeout: Double = 1) -> Result<Int32, ConnectFailure> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(.other(errno)) }
        // A blocking AF_UNIX connect waits for room in the backlog up to the send timeout.
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let r = withAddress(path) { Glibc.connect(fd, $0, $1) }
        var none = timeval()
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &none, socklen_t(MemoryLayout<timeval>.size))
        if r == 0 { return .success(fd) }
        let e = errno
        close(fd)
        switch e {
        case ENOENT: return .failure(.absent)
        case ECONNREFUSED: return .failure(.refused)
        default: return .failure(.other(e))
        }
    }

    /// Binds and listens on `path` (which must not exist), readable only by the user.
    package static func listen(_ path: String) throws(ServerError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .io("socket: \(String(cString: strerror(errno)))") }
        let old = umask(0o177)
        let r = withAddress(path) { bind(fd, $0, $1) }
        umask(old)
        guard r == 0, Glibc.listen(fd, 64) == 0 else {
            let e = errno
            close(fd)
            throw .io("cannot listen on \(path): \(String(cString: strerror(e)))")
        }
        return fd
    }

    /// The uid of the process at the other end (SO_PEERCRED: pid, uid, gid as three ints).
    package static func peerUID(_ fd: Int32) -> uid_t? {
        var cred: (Int32, UInt32, UInt32) = (0, 0, 0)
        var len = socklen_t(MemoryLayout.size(ofValue: cred))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 else { return nil }
        return cred.1
    }

    private static func withAddress<R>(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path) - 1
        if path.utf8.count > capacity, let slash = path.lastIndex(of: "/") {
            // A deep home directory makes a path longer than sun_path: reach the socket through
            // the directory's descriptor instead (/proc/self/fd/N/name), never a cut path.
            let dir = open(String(path[..<slash]), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if dir >= 0 {
                defer { close(dir) }
                let short = "/proc/self/fd/\(dir)/" + path[path.index(after: slash)...]
                if short.utf8.count <= capacity { return withAddress(short, body) }
            }
        }
        let bytes = Array(path.utf8.prefix(capacity))
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// Sends what fits now without waiting: the count sent (0 when the buffer is full), -1 on
    /// an error (the peer gone).
    package static func sendNonBlocking(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        Descriptor.writeAvailable(fd, bytes) { send($0, $1, $2, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        Descriptor.writeAll(fd, bytes) { send($0, $1, $2, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads one frame with `tag`, waiting at most `timeout` seconds in all; nil on EOF, timeout
    /// or a frame that breaks the rules (tag, length limit).
    package static func readFrame(_ fd: Int32, tag: [UInt8], timeout: Double) throws(ServerError) -> [UInt8] {
        let deadline = MonotonicTime.seconds() + timeout
        var buf = [UInt8]()
        var want = 8
        var chunk = [UInt8](repeating: 0, count: 8192)
        while buf.count < want {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, min(3_600_000, (deadline - MonotonicTime.seconds()) * 1000)))
            let r = poll(&p, 1, left)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { throw .io("timed out waiting for the xhud server") }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(8192, want - buf.count), 0) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw .closed }
            buf += chunk[0..<n]
            if buf.count == 8 && want == 8 { want = try Wire.frameLength(header: buf, tag: tag) }
        }
        return buf
    }
}

/// The client side: send one request, wait for its reply.
package enum ServerClient {
    package static func send(_ request: Wire.Request, to path: String, timeout: Double = 5) throws(ServerError) -> Wire.Reply {
        let fd: Int32
        switch UnixSocket.connect(path) {
        case .success(let f): fd = f
        case .failure(.absent), .failure(.refused): throw .noServer
        case .failure(.other(let e)): throw .io("cannot connect to \(path): \(String(cString: strerror(e)))")
        }
        defer { close(fd) }
        guard UnixSocket.writeAll(fd, request.encoded()) else { throw .noServer }
        let bytes: [UInt8]
        do { bytes = try UnixSocket.readFrame(fd, tag: Wire.replyTag, timeout: timeout) } catch .closed { throw .noServer }  // a server on its way out: the next one will answer
        return try Wire.Reply.decode(bytes)
    }
}
