#if canImport(Glibc)
import Glibc
#endif

/// The lock a server holds for its whole life (flock: released by the kernel when it dies).
public struct ServerLock {
    public let fd: Int32
    public init?(path: String) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { close(fd); return nil }
        self.fd = fd
    }
}

/// Connects to the display's server, starting one when none answers.
///
/// Whoever takes the server lock binds the socket and hands it, listening, to a new server
/// process (`xhud server` with the socket and the lock as descriptors 3 and 4, found through
/// `XHUD_LISTEN_FD`). The connection that follows is queued on that socket at once: no client
/// polls for a server to come up, and two clients racing start one server between them.
public enum ServerLauncher {
    public static let listenFDVariable = "XHUD_LISTEN_FD"

    /// `host` is the program that serves (xhud-host); without it no server is started. Returns
    /// the connection, and whether this call started the server behind it.
    public static func connect(_ paths: ServerPaths, starting host: String?, timeout: Double = 5) throws(ServerError) -> (fd: Int32, started: Bool) {
        let deadline = UnixSocket.now() + timeout
        var started = 0
        while true {
            switch UnixSocket.connect(paths.socket) {
            case .success(let fd): return (fd, started > 0)
            case .failure(.other(let e)):
                throw .io("cannot connect to \(paths.socket): \(String(cString: strerror(e)))")
            case .failure:
                guard let host, started < 2 else { throw .noServer }
                if let lock = ServerLock(path: paths.lock) {
                    unlink(paths.socket)   // a dead server's: we hold the lock, no live one uses it
                    let listener = try UnixSocket.listen(paths.socket)
                    let ok = spawnServer(host, listener: listener, lock: lock.fd)
                    close(listener)
                    close(lock.fd)
                    guard ok else { unlink(paths.socket); throw .noServer }
                    started += 1
                    continue
                }
                // Another client is starting the server: its socket appears in a moment.
                guard UnixSocket.now() < deadline else { throw .io("no answer from the xhud server at \(paths.socket)") }
                usleep(1000)
            }
        }
    }

    /// fork, setsid, fork, exec: the server belongs to no terminal and to no client (no zombie
    /// of it waits on a long-lived client), holds none of the client's descriptors but the
    /// socket and the lock, and lives in `/`.
    static func spawnServer(_ host: String, listener: Int32, lock: Int32) -> Bool {
        let pid = fork()
        if pid < 0 { return false }
        if pid > 0 {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return status == 0
        }
        setsid()
        if fork() != 0 { _exit(0) }
        let l = fcntl(listener, F_DUPFD, 10), k = fcntl(lock, F_DUPFD, 10)
        guard l >= 0, k >= 0, dup2(l, 3) == 3, dup2(k, 4) == 4 else { _exit(1) }
        let null = open("/dev/null", O_RDWR)
        if null >= 0 { for fd: Int32 in 0...2 { dup2(null, fd) } }
        closeDescriptors(except: [0, 1, 2, 3, 4])
        _ = chdir("/")
        setenv(listenFDVariable, "3", 1)
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("xhud"), strdup("server"), nil]
        execv(host, &argv)
        _exit(127)
    }
}

/// Closes every open descriptor but `keep` (a process that outlives its parent holds nothing of
/// the parent's: `out=$(xhud ...)` would wait for it).
public func closeDescriptors(except keep: Set<Int32>) {
    guard let dir = opendir("/proc/self/fd") else { return }
    var open: [Int32] = []
    while let e = readdir(dir) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name) { open.append(fd) }
    }
    closedir(dir)
    for fd in open where !keep.contains(fd) { close(fd) }
}
