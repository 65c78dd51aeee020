#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDSocket
import HUDSystem

/// Runs a wrapped command: forwards signals, reaps only its own children, and terminates the
/// command's tree when the HUD says `cancel`.
///
/// Signals: SIGTERM and SIGHUP are passed on to the command. SIGINT is passed on when a process
/// sent it (`kill -INT`); a terminal's Ctrl-C already reached the whole foreground process group,
/// the command included, and is not sent twice. xhud then exits with the command's status.
///
/// SIGKILL of xhud cannot be caught: the command runs on (as with a shell killed under it), its
/// output keeps flowing (with `--progress-from-output` a separate copier process holds the
/// pipes, not xhud), and its exit status goes to no one.
package struct CommandRunner {
    let command: [String]
    let scansOutput: Bool
    let killTimeout: Double
    let hud: HUDLink

    package init(command: [String], scansOutput: Bool, killTimeout: Double, hud: HUDLink) {
        self.command = command; self.scansOutput = scansOutput; self.killTimeout = killTimeout; self.hud = hud
    }

    /// Runs the command to its end; returns its status (1 when the user cancelled it).
    package func run() -> Int32 {
        let events = SignalPipe(for: [SIGCHLD, SIGINT, SIGTERM, SIGHUP])
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1], meterPipe: [Int32] = [-1, -1]
        let scan = scansOutput
        if scan { _ = makePipe(&outPipe); _ = makePipe(&errPipe); _ = makePipe(&meterPipe) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if scan {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, s) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let err = posix_spawnp(&child, command[0], &actions, &attr, &argv, environ)
        if scan { close(outPipe[1]); close(errPipe[1]) }
        if err != 0 {
            if scan { close(outPipe[0]); close(errPipe[0]); close(meterPipe[0]); close(meterPipe[1]) }
            let failure = Self.spawnFailure(command[0], err)
            hud.commandEnded(failure.status)
            Console.error(failure.message)
            return failure.status
        }
        // The command's output goes through a process of its own, which lives until the output
        // ends: whatever happens to this one, nothing the command writes is lost. It tells this
        // process the percentages it sees, which go on to the HUD (wherever it is by then).
        var copier: pid_t = -1
        var meter: Int32 = -1
        var meterLines = LineBuffer(limit: 256)
        if scan {
            copier = OutputCopier.start(from: [(outPipe[0], 1), (errPipe[0], 2)], progressTo: meterPipe[1])
            close(outPipe[0]); close(errPipe[0]); close(meterPipe[1])
            meter = meterPipe[0]
        }

        var status: Int32? = nil
        var cancelled = false
        var killAt: Double? = nil
        var tree: [pid_t] = []
        var drainUntil: Double? = nil
        while true {
            if status != nil && (copier <= 0 || now() > drainUntil!) {
                // The command has ended: what is left of its tree after a cancel goes now.
                if killAt != nil { for p in tree where p != child && kill(p, 0) == 0 { kill(p, SIGKILL) } }
                break
            }
            var fds = [
                pollfd(fd: events.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: hud.fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: meter, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: Int32 = -1
            for at in [killAt, drainUntil, hud.wakeAt] {
                if let at { timeout = min(timeout < 0 ? .max : timeout, Int32(saturatingMilliseconds: at - now())) }
            }
            if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR { break }
            if fds[0].revents != 0 {
                for s in events.drain() where status == nil {
                    if s.signal == SIGTERM || s.signal == SIGHUP || (s.signal == SIGINT && s.fromProcess) { kill(child, s.signal) }
                }
                // Only our own children are reaped, each by its pid: the command's status is
                // never taken by a wait for another.
                var ws: Int32 = 0
                if status == nil, waitpid(child, &ws, WNOHANG) == child {
                    status = exitStatus(ws)
                    // Output a background grandchild holds open is not waited for.
                    drainUntil = now() + 0.2
                }
                if copier > 0, waitpid(copier, nil, WNOHANG) == copier { copier = -1 }
                _ = ServerLauncher.reapHelpers()  // a font helper's end is a SIGCHLD too
            }
            let woken = hud.wakeAt.map { now() >= $0 } ?? false
            if fds[1].revents != 0 || woken, hud.readCancelled(), status == nil, !cancelled {
                cancelled = true
                tree = [child] + descendants(of: child)
                for p in tree { kill(p, SIGTERM) }
                killAt = now() + (hud.killTimeout ?? killTimeout)
            }
            if fds[2].revents != 0 {
                var b = [UInt8](repeating: 0, count: 512)
                let n = read(meter, &b, b.count)
                if n > 0 {
                    let got = b.withUnsafeBytes { meterLines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                    for l in got where status == nil { hud.send(l.line) }
                } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                    close(meter); meter = -1
                }
            }
            if let k = killAt, now() >= k {
                // Whatever of the command's tree ignored SIGTERM (a shell's children included).
                for p in tree where p == child ? status == nil : kill(p, 0) == 0 { kill(p, SIGKILL) }
                killAt = nil
            }
        }
        if meter >= 0 { close(meter) }
        let code = status ?? 1
        hud.commandEnded(code)
        return cancelled ? 1 : code
    }
    /// What a shell says and returns when it cannot run a command: 127 when there is no such
    /// command (however long its name), 126 when there is one that cannot be executed.
    package static func spawnFailure(_ name: String, _ err: Int32) -> (status: Int32, message: String) {
        let shown = name.utf8.count > 200 ? String(decoding: name.utf8.prefix(200), as: UTF8.self) + "… (\(name.utf8.count) bytes)" : name
        let quoted = "'\(shown.escapingControlCharacters)'"
        switch err {
        case ENOENT where !name.contains("/"):
            return (127, "xhud: cannot run \(quoted): command not found\n")
        case ENOENT, ENAMETOOLONG, ENOTDIR:
            return (127, "xhud: cannot run \(quoted): \(String(cString: strerror(err)))\n")
        default:
            return (126, "xhud: cannot execute \(quoted): \(String(cString: strerror(err)))\n")
        }
    }

    /// The command's descendants, from /proc (a cancelled `make` takes its compilers with it).
    private func descendants(of root: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for name in Directory.names(at: "/proc") {
            guard let pid = pid_t(name), let f = fopen("/proc/\(name)/stat", "r") else { continue }
            var line = [CChar](repeating: 0, count: 512)
            if fgets(&line, 512, f) != nil {
                // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
                let text = String(nulTerminated: line)
                if let close = text.lastIndex(of: ")") {
                    let fields = text[text.index(after: close)...].split(separator: " ")
                    if fields.count > 1, let ppid = pid_t(fields[1]) { parents[pid] = ppid }
                }
            }
            fclose(f)
        }
        var out: [pid_t] = []
        var frontier: Set<pid_t> = [root]
        while !frontier.isEmpty {
            let next = parents.filter { frontier.contains($0.value) }.map(\.key)
            out += next
            frontier = Set(next)
        }
        return out
    }

    private func exitStatus(_ ws: Int32) -> Int32 {
        let sig = ws & 0x7f
        return sig == 0 ? (ws >> 8) & 0xff : 128 + sig
    }

    private func now() -> Double { MonotonicTime.seconds() }
}
