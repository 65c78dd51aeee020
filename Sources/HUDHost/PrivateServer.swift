#if canImport(Glibc)
import Glibc
#endif
import HUDClient
import HUDCommandLine
import HUDRender
import HUDService
import HUDSocket
import HUDSystem

/// A HUD where no display-wide server can run (a runtime directory others can write, a server
/// that cannot start): this process forks a server of its own (`HUDServer.runPrivate`), joined
/// by a socket pair, and is its client exactly as `xhud` is the display's server's. One
/// implementation of every HUD's behaviour, whichever server draws it.
enum PrivateServer {
    static func run(arguments: [String]) -> Int32 {
        let own = arguments.prefix { $0 != "--" }
        let named = own.first.flatMap(Verb.init(rawValue:))?.isNamed == true || own.contains { $0 == "--id" || $0.hasPrefix("--id=") }
        var st = stat()
        let (request, command) = SessionClient.request(
            arguments: arguments, cwd: Environment.currentDirectory, staysConnected: !named,
            stdinIsPipe: fstat(0, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, wantsStats: Environment.isSet("XHUD_STATS"))
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return fail("socketpair: \(String(cString: strerror(errno)))", Status.usage)
        }
        Console.flush()
        FontWarmup.join()  // no thread of this process is half-way through loading fonts in the child
        let pid = fork()
        if pid < 0 { return fail("fork: \(String(cString: strerror(errno)))", Status.usage) }
        if pid == 0 {
            close(pair[0])
            // Out of the terminal's process group (Ctrl-C is the client's to turn into a hide),
            // and off the caller's pipes (a named HUD outlives its client).
            setsid()
            detachStandardStreams()
            exit(X11Server.runPrivate(connection: pair[1], silentWithoutDisplay: !command.isEmpty))
        }
        close(pair[1])
        let client = SessionClient(connection: pair[0], request: request, command: command)
        switch client.run() {
        case .exit(let status):
            return status
        case .drawItYourself:
            // No HUD can show: a wrapped command runs all the same, its output and status untouched.
            guard !command.isEmpty else { return fail("the HUD's server ended before it answered", Status.noDisplay) }
            signal(SIGPIPE, SIG_IGN)
            let killTimeout = (try? HUDOptions.parse(arguments))?.killTimeout ?? HUDOptions().killTimeout
            return CommandRunner(command: command, scansOutput: false, killTimeout: killTimeout, hud: client).run()
        }
    }
}
