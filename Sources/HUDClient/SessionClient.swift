#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDSocket
import HUDSystem

/// The thin client of a HUD that the display's server draws: it sends the invocation, then
/// stays for the HUD's life, forwarding stdin's lines or running the wrapped command, and exits
/// with the status the HUD ends with. It loads no X11, Cairo or Pango, and parses no options:
/// the server parses them once and answers with the client's part (`Session.Plan`).
///
/// The server may die (SIGKILL, a crash): the client starts another and shows its HUD again
/// with the state its lines built (`ReplayState`); a wrapped command never notices.
package final class SessionClient: HUDLink {
    package enum Outcome: Equatable {
        case exit(Int32)
        /// No server can run here (or none answers): draw the HUD in this process instead.
        case drawItYourself
    }

    /// The display's server; nil with a private server's connection.
    let paths: ServerPaths?
    /// The program that serves, to start a server, looked for when one must be started (a
    /// server that answers spares the client its search); nil: only an existing one is asked.
    private let findHost: (() -> String?)?
    private lazy var host: String? = findHost?()
    /// A connection to a server of this client's own, used for the first request only: when that
    /// server dies no other takes its place (the HUD goes; a wrapped command carries on).
    private var privateConnection: Int32?
    let request: Wire.Request
    /// The wrapped command: the client's own business, never sent (the request carries only
    /// its first word, so that the server knows there is one).
    let command: [String]
    package internal(set) var fd: Int32 = -1
    private var events = LineBuffer(limit: 64 * 1024)
    var state = ReplayState()
    private var inputEnded = false
    private var quitting = false

    /// A connection made before the request was built (`connectEarly`), for the first request.
    private var earlyConnection: (fd: Int32, started: Bool)?

    /// How long a server that took the connection has to answer; past that the client goes on
    /// without it (a stopped server, one out of descriptors). A server this client has just
    /// started answers in milliseconds, but gets longer on a loaded machine.
    static let answerTime: Double = 1
    static let startedAnswerTime: Double = 3
    /// A wrapped command starts when the server's answer comes or after this long, whichever is
    /// first: the command is the user's, the HUD the extra. (Waiting for the answer at all lets
    /// a usage error stop the command, and the configuration's `progress-from-output` apply.)
    static let commandGrace: Double = 0.25

    /// A wrapped command's request whose answer has not come: the connection (`fd` meanwhile,
    /// carrying nothing else until the answer), what of the answer came, and when it is given up.
    var awaiting: (bytes: [UInt8], deadline: Double, started: Bool)?
    var planKillTimeout: Double?
    /// The command started before the answer said whether to scan its output.
    var scanning = false
    /// The answer asked for the command's output to be scanned (`--progress-from-output`).
    var planScans = false

    package init(
        paths: ServerPaths, host: (() -> String?)?, request: Wire.Request, command: [String] = [],
        connected: (fd: Int32, started: Bool)? = nil
    ) {
        self.paths = paths; findHost = host; self.request = request; self.command = command
        earlyConnection = connected
    }

    /// Connects to the display's server now, starting it (and the font helper beside it) when
    /// none answers, so that a new server loads while this client builds its request; the
    /// first request goes on this connection. Nothing on failure: `run` tries again and reports.
    package static func connectEarly(_ paths: ServerPaths, host: () -> String?) -> (fd: Int32, started: Bool)? {
        try? ServerLauncher.connect(paths, starting: host, helper: FontHelper.beside)
    }

    /// A client of a server of its own at the other end of `connection` (a socket pair).
    package init(connection: Int32, request: Wire.Request, command: [String] = []) {
        paths = nil; findHost = nil; privateConnection = connection; self.request = request; self.command = command
    }

    /// The request for `arguments`: a wrapped command is left out but for its first word,
    /// whatever its length (600 file names, megabytes of arguments); `command` is what it was.
    package static func request(
        arguments: [String], cwd: String, staysConnected: Bool, stdinIsPipe: Bool,
        wantsStats: Bool
    ) -> (request: Wire.Request, command: [String]) {
        var sent = arguments, command: [String] = []
        if let dashes = arguments.firstIndex(of: "--") {
            command = Array(arguments[(dashes + 1)...])
            // The server needs to know only that there is a command: a first word of megabytes
            // is cut (it fails to run here, with a shell's status, not as a request too large).
            sent = Array(arguments[...dashes]) + command.prefix(1).map { String(decoding: $0.utf8.prefix(256), as: UTF8.self) }
        }
        return (
            Wire.Request(
                cwd: cwd, arguments: sent, staysConnected: staysConnected, stdinIsPipe: stdinIsPipe,
                wantsStats: wantsStats), command
        )
    }

    package func run() -> Outcome {
        if !command.isEmpty, paths != nil { return runWrapped() }
        // Not an optional reply: an Optional of it has the runtime build Optional's metadata,
        // a seventh of a warm client's instructions.
        let reply: Wire.Reply
        do { reply = try ask(request) } catch { return .drawItYourself }
        if !reply.output.isEmpty { Console.output(reply.output) }
        if !reply.error.isEmpty { Console.error(reply.error) }
        guard let plan = reply.plan else { return .exit(reply.status) }
        Console.flush()
        if plan.wraps, !command.isEmpty {
            signal(SIGPIPE, SIG_IGN)
            return .exit(CommandRunner(command: command, scansOutput: plan.scansOutput, killTimeout: plan.killTimeout, hud: self).run())
        }
        return .exit(attend(readingStdin: plan.readsStdin))
    }

    // MARK: Asking

    /// No server answered (`answerMissing` says why when one took the connection).
    struct NoAnswer: Error {}

    /// Sends `request` and reads the reply; throws when no server answers. A server that closes
    /// the connection unanswered was on its way out: the next one is asked.
    private func ask(_ request: Wire.Request) throws(NoAnswer) -> Wire.Reply {
        for _ in 0..<3 {
            let (fd, started) = try send(request)
            let isPrivate = paths == nil
            do {
                // A private server is this process's own child: it is waited for as long as it takes.
                let time = isPrivate ? 3600 : started ? Self.startedAnswerTime : Self.answerTime
                let reply = try Wire.Reply.decode(UnixSocket.readFrame(fd, tag: Wire.replyTag, timeout: time))
                if reply.plan != nil { self.fd = fd } else { close(fd) }
                if reply.plan == nil, reply.status == Wire.Reply.unavailable {
                    // A server that cannot take another client (out of descriptors): it said why.
                    answerMissing = Self.trimmed(reply.error)
                    break
                }
                return reply
            } catch .closed {
                close(fd)
                if started { throw NoAnswer() }  // the server this client started could not run (no display)
            } catch .io {
                close(fd)
                answerMissing = Self.noAnswer(started: started)
                throw NoAnswer()
            } catch {
                close(fd)
                answerMissing = "\(error)"
                throw NoAnswer()
            }
        }
        throw NoAnswer()
    }

    /// A connection with `request` sent on it, and whether this call started its server.
    func send(_ request: Wire.Request) throws(NoAnswer) -> (fd: Int32, started: Bool) {
        for _ in 0..<3 {
            let fd: Int32, started: Bool
            if let c = privateConnection {
                (fd, started) = (c, true)
                privateConnection = nil
            } else if let c = earlyConnection {
                (fd, started) = c
                earlyConnection = nil
            } else if let paths {
                do {
                    (fd, started) = try ServerLauncher.connect(paths, starting: { host }, timeout: Self.answerTime, helper: FontHelper.beside)
                } catch .io(let why) { answerMissing = why; throw NoAnswer() } catch { throw NoAnswer() }
            } else {
                throw NoAnswer()
            }
            if UnixSocket.writeAll(fd, request.encoded()) { return (fd, started) }
            close(fd)
            if started { throw NoAnswer() }
        }
        throw NoAnswer()
    }

    static func noAnswer(started: Bool) -> String {
        let t = started ? startedAnswerTime : answerTime
        return "the display's HUD server did not answer within \(t == t.rounded() ? String(Int(t)) : String(t)) s"
    }

    static func trimmed(_ message: String) -> String {
        var m = Substring(message)
        if m.hasPrefix("xhud: ") { m = m.dropFirst(6) }
        while m.last == "\n" { m = m.dropLast() }
        return String(m)
    }

    /// Why a server that took the connection gave no answer (busy past the reply's time, a reply
    /// that broke the rules); nil when none ran or it answered. `hide`, `list` and `pop` must
    /// say so rather than report success.
    package internal(set) var answerMissing: String?

    /// The server died under the HUD: a new one shows it again as the lines left it.
    func resume() -> Bool {
        if fd >= 0 { close(fd); fd = -1 }
        // The server that died may be this client's child: reaped now, whoever starts the next.
        ServerLauncher.reapExitedServers()
        events = LineBuffer(limit: 64 * 1024)
        var again = request
        again.resumes = true
        do { guard try ask(again).plan != nil else { return false } } catch { return false }
        ServerLauncher.reapExitedServers()  // one that had not quite exited a moment ago
        for line in state.lines { write(Array(line.utf8) + [10]) }
        if inputEnded { write(Session.Control.end.line) }
        if quitting { write(Session.Control.quit.line) }
        return true
    }

    func write(_ bytes: [UInt8]) {
        guard fd >= 0, awaiting == nil else { return }
        _ = UnixSocket.writeAll(fd, bytes)  // a failure shows as the end of the server's lines
    }

    /// `done` says whether a cancel came before it: a late client reads both at once, and the
    /// cancel must still end the command.
    enum Heard: Equatable { case nothing, cancel, done(Int32, killParent: Bool, cancelled: Bool), gone }

    /// What the server said since the last call (its warnings go to stderr at once).
    func listen() -> Heard {
        var buf = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buf, buf.count, 0)
        if n < 0 && (errno == EINTR || errno == EAGAIN) { return .nothing }
        guard n > 0 else { return .gone }
        var cancelled = false
        for l in buf.withUnsafeBytes({ events.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) {
            switch Session.Event(l.line) {
            case .warn(let s)?: Console.error(s + "\n")
            case .say(let s)?: Console.output(s + "\n"); Console.flush()
            case .cancel?: cancelled = true
            case .done(let status, let k)?: return .done(status, killParent: k, cancelled: cancelled)
            case nil: break
            }
        }
        return cancelled ? .cancel : .nothing
    }

    // MARK: A HUD without a command

    /// Until the HUD ends: stdin's lines go to the server; SIGINT and SIGTERM dismiss the HUD
    /// (exit 0; SIGHUP: 129), a second signal does not wait for the animation.
    private func attend(readingStdin: Bool) -> Int32 {
        let signals = SignalPipe(for: [SIGINT, SIGTERM, SIGHUP])
        var reading = readingStdin
        var lines = LineBuffer()
        var lineNumber = 0
        var signalled: Int32?
        var deadline: Double?
        if reading { _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK) }
        func forward(_ l: LineBuffer.Line) {
            lineNumber += 1
            // What was wrong with a line's bytes is said here, where the bytes were; the server
            // names what was wrong with its meaning.
            if let problem = l.byteProblem(limit: lines.limit) { Console.error("xhud: stdin line \(lineNumber): \(problem)\n") }
            state.record(l.line)
            write(Array(l.line.utf8) + [10])
        }
        while true {
            var fds = [
                pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: reading ? 0 : -1, events: Int16(POLLIN), revents: 0),
            ]
            var timeout = deadline.map { Int32(saturatingMilliseconds: $0 - MonotonicTime.seconds()) } ?? -1
            // A font helper started beside the server: reaped once it ends (a few milliseconds),
            // and no timeout at all after that.
            if ServerLauncher.reapHelpers() { timeout = timeout < 0 ? 20 : min(timeout, 20) }
            if poll(&fds, 3, timeout) < 0 && errno != EINTR { return 1 }
            if let d = deadline, MonotonicTime.seconds() >= d { return signalled ?? 0 }
            if fds[0].revents != 0 {
                for s in signals.drain() {
                    if signalled != nil { return signalled! }
                    signalled = (s.signal == SIGINT || s.signal == SIGTERM) ? 0 : 128 + s.signal
                    quitting = true
                    write(Session.Control.quit.line)
                    deadline = MonotonicTime.seconds() + 2  // the animation, with room to spare on a busy machine
                }
            }
            if fds[1].revents != 0 {
                switch listen() {
                case .nothing, .cancel: break
                case .done(let status, let killParent, _):
                    if killParent { kill(getppid(), SIGHUP) }  // zenity --auto-kill
                    return signalled ?? status
                case .gone:
                    if signalled != nil { return signalled! }
                    guard resume() else {
                        Console.error("xhud: the display's HUD server went away and no other could start\n")
                        return 3
                    }
                }
            }
            if fds[2].revents != 0 {
                var buf = [UInt8](repeating: 0, count: 65536)
                let n = read(0, &buf, buf.count)
                if n > 0 {
                    for l in buf.withUnsafeBytes({ lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) { forward(l) }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    if let l = lines.finish() { forward(l) }
                    reading = false
                    inputEnded = true
                    write(Session.Control.end.line)
                }
            }
        }
    }
}
