#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

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
    /// The descriptor (5) of a pipe a new server reads its font matches from (the font helper's
    /// output), when the client started one.
    package static let fontMatchesFDVariable = "XHUD_FONT_MATCHES_FD"

    /// `host` finds the program that serves (xhud-host), asked only when no server answers
    /// (a warm client never looks); without it no server is started. Returns
    /// the connection, and whether this call started the server behind it. `helper`, asked only
    /// when a server is started, may name a program (and its argv) to start just after it, whose
    /// output the server reads its font matches from (started after the server: the other way
    /// round, the server's vfork child was at times placed on the busy helper's CPU and left
    /// queued there for a scheduler tick while the client's CPU idled).
    package static func connect(
        _ paths: ServerPaths, starting host: () -> String?, timeout: Double = 5,
        helper: (String) -> (path: String, arguments: [String])? = { _ in nil }
    ) throws(ServerError) -> (fd: Int32, started: Bool) {
        let deadline = MonotonicTime.seconds() + timeout
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
            case .failure(.other(let e)) where e == EAGAIN:
                throw .io("the display's HUD server does not take connections (stopped, or its queue is full)")
            case .failure(.other(let e)):
                throw .io("cannot connect to \(paths.socket): \(String(cString: strerror(e)))")
            case .failure:
                guard started < 2, let host = host() else { throw .noServer }
                if let lock = ServerLock(path: paths.lock) {
                    unlink(paths.socket)  // a dead server's: we hold the lock, no live one uses it
                    let listener = try UnixSocket.listen(paths.socket)
                    var matches: [Int32] = [-1, -1]
                    let beside = helper(host).flatMap { makePipe(&matches) ? $0 : nil }
                    let ok = spawnServer(host, listener: listener, lock: lock.fd, fontMatches: beside != nil ? matches[0] : nil)
                    if let beside {
                        close(matches[0])
                        if ok { spawnHelper(beside.path, beside.arguments, output: matches[1]) }
                        close(matches[1])
                    }
                    close(listener)
                    close(lock.fd)
                    guard ok else { unlink(paths.socket); throw .noServer }
                    started += 1
                    continue
                }
                // Another client is starting the server: its socket appears in a moment.
                guard MonotonicTime.seconds() < deadline else { throw .io("no answer from the xhud server at \(paths.socket)") }
                usleep(1000)
            }
        }
    }

    /// The servers this process started and has not reaped, and their font helpers. Owned by
    /// the one thread that starts servers (a client's main thread).
    nonisolated(unsafe) private(set) static var unreaped: [pid_t] = []
    nonisolated(unsafe) private(set) static var helpers: [pid_t] = []

    /// Reaps the servers this process started that have exited since: by pid and without
    /// waiting, so that a wrapped command's status is left to its own wait.
    package static func reapExitedServers() {
        unreaped.removeAll(where: reaped)
        _ = reapHelpers()
    }

    /// Reaps the font helpers that have exited: whether any is left. A helper lives a few
    /// milliseconds; a client whose HUD stays up reaps it then rather than keep a zombie.
    package static func reapHelpers() -> Bool {
        helpers.removeAll(where: reaped)
        return !helpers.isEmpty
    }

    private static func reaped(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    /// posix_spawn (a vfork: nothing of this process is copied) of the server in a session of
    /// its own, holding none of the client's descriptors but the socket and the lock (as 3 and 4)
    /// and the font matches' pipe (as 5) if given, with /dev/null for 0-2, default signal
    /// handling and `/` as its directory. It is this process's child until this process exits
    /// (then init's). Should it die first (killed, and replaced by this client), it is reaped when
    /// the next one is started: a client whose servers are killed again and again leaves at most
    /// one zombie, holding neither the socket nor the lock.
    static func spawnServer(_ host: String, listener: Int32, lock: Int32, fontMatches: Int32? = nil) -> Bool {
        reapExitedServers()
        // Above 5 first: dup2 onto 3, 4 and 5 must not overwrite another of them.
        let l = fcntl(listener, F_DUPFD_CLOEXEC, 10), k = fcntl(lock, F_DUPFD_CLOEXEC, 10)
        let m = fontMatches.map { fcntl($0, F_DUPFD_CLOEXEC, 10) } ?? -1
        defer { for fd in [l, k, m] where fd >= 0 { close(fd) } }
        guard l >= 0, k >= 0 else { return false }
        var environment: [String] = []
        var e = environ
        while let entry = e.pointee {
            let ours = [listenFDVariable, fontMatchesFDVariable].contains { strncmp(entry, $0 + "=", $0.utf8.count + 1) == 0 }
            if !ours { environment.append(String(cString: entry)) }
            e += 1
        }
        environment.append(listenFDVariable + "=3")
        if m >= 0 { environment.append(fontMatchesFDVariable + "=5") }
        let pid = spawnInOwnSession(host, ["xhud", "server"], environment: environment) { actions in
            posix_spawn_file_actions_adddup2(&actions, l, 3)
            posix_spawn_file_actions_adddup2(&actions, k, 4)
            if m >= 0 { posix_spawn_file_actions_adddup2(&actions, m, 5) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDWR, 0)
            posix_spawn_file_actions_adddup2(&actions, 0, 1)
            posix_spawn_file_actions_adddup2(&actions, 0, 2)
            _ = spawnAddCloseFrom(&actions, m >= 0 ? 6 : 5)
            _ = spawnAddChdir(&actions, "/")
        }
        guard let pid else { return false }
        unreaped.append(pid)
        return true
    }

    /// Starts `path` with `arguments` (argv[0] first) beside the server just started, `output`
    /// its standard output, with /dev/null for its input and errors and none of this process's
    /// other descriptors, in a session of its own. Reaped as a started server is. A helper that
    /// cannot start leaves the server to do without.
    static func spawnHelper(_ path: String, _ arguments: [String], output: Int32) {
        var environment: [String] = []
        var e = environ
        while let entry = e.pointee { environment.append(String(cString: entry)); e += 1 }
        if let pid = spawnInOwnSession(
            path, arguments, environment: environment,
            files: { actions in
                posix_spawn_file_actions_adddup2(&actions, output, 1)
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
                _ = spawnAddCloseFrom(&actions, 3)
            })
        {
            helpers.append(pid)
        }
    }

    /// posix_spawn in a session of its own, with default signal handling and no signal blocked;
    /// `files` sets up its descriptors. The child's pid, to be reaped.
    private static func spawnInOwnSession(
        _ path: String, _ arguments: [String], environment: [String],
        files: (inout posix_spawn_file_actions_t) -> Void
    ) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t(), none = sigset_t()
        sigfillset(&all); sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(spawnSetSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        return posix_spawn(&pid, path, &actions, &attributes, &argv, &envp) == 0 ? pid : nil
    }
}

extension ServerLauncher {
    /// A server's side: the font matches' pipe its client handed it (`fontMatchesFDVariable`),
    /// taken once: the variable is removed, so no child of the server reads a descriptor of
    /// that number, and the descriptor is closed on exec.
    package static func takeFontMatches() -> Int32? {
        guard let value = Environment.raw(fontMatchesFDVariable) else { return nil }
        unsetenv(fontMatchesFDVariable)
        guard let fd = Int32(value), fd > 2, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else { return nil }
        return fd
    }
}

// glibc's extensions (2.26, 2.34 and 2.29), not in the Glibc module's headers.
private let spawnSetSID: Int32 = 0x80  // POSIX_SPAWN_SETSID, <spawn.h>
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnAddChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>) -> Int32
