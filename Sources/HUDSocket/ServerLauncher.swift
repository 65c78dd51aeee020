#if canImport(Glibc)
import Glibc
#endif

/// The lock a server holds for its whole life (flock: released by the kernel when it dies).
package struct ServerLock {
    package let fd: Int32
    package init?(path: String) {
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
package enum ServerLauncher {
    package static let listenFDVariable = "XHUD_LISTEN_FD"

    /// `host` is the program that serves (xhud-host); without it no server is started. Returns
    /// the connection, and whether this call started the server behind it.
    package static func connect(_ paths: ServerPaths, starting host: String?, timeout: Double = 5) throws(ServerError) -> (fd: Int32, started: Bool) {
        let deadline = UnixSocket.now() + timeout
        var started = 0
        while true {
            switch UnixSocket.connect(paths.socket) {
            case .success(let fd):
                // The server is this user's, or nothing is sent to it (arguments, the working
                // directory, stdin's lines): a socket in a directory swapped by another user
                // is refused, as the server refuses a client of another user.
                guard UnixSocket.peerUID(fd) == getuid() else {
                    close(fd)
                    throw .unsafeDirectory(paths.directory, "the server answering at \(paths.socket) is another user's")
                }
                return (fd, started > 0)
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

    /// The servers this process started and has not reaped. Owned by the one thread that starts
    /// servers (a client's main thread).
    nonisolated(unsafe) private(set) static var unreaped: [pid_t] = []

    /// Reaps the servers this process started that have exited since: by pid and without
    /// waiting, so that a wrapped command's status is left to its own wait.
    package static func reapExitedServers() {
        unreaped.removeAll { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == pid
        }
    }

    /// posix_spawn (a vfork: nothing of this process is copied) of the server in a session of
    /// its own, holding none of the client's descriptors but the socket and the lock (as 3 and 4),
    /// with /dev/null for 0-2, default signal handling and `/` as its directory. It is this
    /// process's child until this process exits (then init's). Should it die first (killed, and
    /// replaced by this client), it is reaped when the next one is started: a client whose
    /// servers are killed again and again leaves at most one zombie, holding neither the socket
    /// nor the lock.
    static func spawnServer(_ host: String, listener: Int32, lock: Int32) -> Bool {
        reapExitedServers()
        // Above 4 first: dup2 onto 3 and 4 must not overwrite the other one.
        let l = fcntl(listener, F_DUPFD_CLOEXEC, 10), k = fcntl(lock, F_DUPFD_CLOEXEC, 10)
        defer { if l >= 0 { close(l) }; if k >= 0 { close(k) } }
        guard l >= 0, k >= 0 else { return false }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, l, 3)
        posix_spawn_file_actions_adddup2(&actions, k, 4)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        _ = spawnAddCloseFrom(&actions, 5)
        _ = spawnAddChdir(&actions, "/")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all); sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var e = environ
        while let entry = e.pointee {
            if strncmp(entry, listenFDVariable + "=", listenFDVariable.utf8.count + 1) != 0 { environment.append(strdup(entry)) }
            e += 1
        }
        environment.append(strdup(listenFDVariable + "=3"))
        environment.append(nil)
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("xhud"), strdup("server"), nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, host, &actions, &attributes, &argv, &environment) == 0 else { return false }
        unreaped.append(pid)
        return true
    }
}

// glibc's extensions (2.26, 2.34 and 2.29), not in the Glibc module's headers.
private let spawnSetSID: Int32 = 0x80   // POSIX_SPAWN_SETSID, <spawn.h>
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnAddChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
