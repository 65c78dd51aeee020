#if canImport(Glibc)
import Glibc
#endif
import HUDSocket
import HUDSystem

/// The `xhud` command starts lean: it links neither X11, Cairo, Pango nor the argument parser.
/// Every HUD is drawn by the display's server, started here when none runs; this process sends
/// the invocation as it is (the server parses it, once) and stays a thin client for the HUD's
/// life. xhud-host does the rest: help, `--print-config`, `xhud server`, and a private server
/// where no display-wide one can run.
package enum XHUDCommand {
    package static func main() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let own = arguments.prefix { $0 != "--" }  // a wrapped command's arguments are not ours
        let verb = own.first.flatMap(Verb.init(rawValue:))
        let wantsHost =
            verb == .server
            || own.contains {
                ["-h", "--help", "--help-hidden", "--version", "--print-config", "--render-png", "--generate-manual-options"].contains($0)
                    || $0.hasPrefix("--generate-completion-script") || $0.hasPrefix("--render-png=")
            }
        let named = verb?.isNamed == true || own.contains { $0 == "--id" || $0.hasPrefix("--id=") }

        // --backend chooses the server (its socket) and what it draws on: the server started
        // here inherits it.
        if let i = own.lastIndex(where: { $0 == "--backend" || $0.hasPrefix("--backend=") }) {
            let value = own[i].hasPrefix("--backend=") ? String(own[i].dropFirst(10)) : (i + 1 < own.endIndex ? own[i + 1] : "")
            guard value == "x11" || value == "wayland" else {
                Console.error("xhud: --backend must be x11 or wayland\n")
                exit(2)
            }
            setenv("XHUD_BACKEND", value, 1)
        }
        if wantsHost { execHost(arguments) }
        let wraps = arguments.firstIndex(of: "--").map { $0 + 1 < arguments.count } ?? false
        if !wraps, ServerPaths.waylandDisplay == nil, let d = Environment.value("DISPLAY"), let problem = ServerPaths.displayProblem(d) {
            // Refused here, at once: no server could be started for it (a wrapped command runs
            // without a HUD all the same, in the host).
            Console.error("xhud: cannot open display: \(problem)\n")
            exit(3)
        }
        guard let paths = ServerPaths.current() else { execHost(arguments) }  // the host reports the missing display
        // hide, list and pop need no server: without one nothing is showing, unless a server
        // died under named HUDs (its journal is left): the next one would show them again, so
        // one is started now to take over and hear this.
        let quietWithoutServer = verb?.succeedsWithoutServer == true && access(paths.journal, F_OK) != 0
        do {
            if quietWithoutServer { try paths.checkPrivateDirectory() } else { try paths.preparePrivateDirectory() }
        } catch .noServer {
            exit(0)
        } catch {
            execHost(arguments)  // a private server draws the HUD, or the host explains what is wrong with the directory
        }
        let host: (() -> String?)? = quietWithoutServer ? nil : { hostPath() }
        // A cold start: the server (and the font helper) start loading before the request is built.
        let connected = host.flatMap { SessionClient.connectEarly(paths, host: $0) }
        var st = stat()
        let (request, command) = SessionClient.request(
            arguments: arguments, cwd: Environment.currentDirectory, staysConnected: !named,
            stdinIsPipe: fstat(0, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, wantsStats: Environment.isSet("XHUD_STATS"))
        let client = SessionClient(paths: paths, host: host, request: request, command: command, connected: connected)
        switch client.run() {
        case .exit(let status):
            exit(status)
        case .drawItYourself:
            if quietWithoutServer {
                // No server: nothing shows, so there is nothing to hide or list. A server that did not
                // answer may show something: that is not success.
                guard let why = client.answerMissing else { exit(0) }
                Console.error("xhud: the display's HUD server did not answer (\(why)); nothing was done\n")
                exit(3)
            }
            if let why = client.answerMissing {
                // Said once, here: the HUD is drawn by a server of this process's own instead.
                Console.error("xhud: \(why); this HUD is drawn by a process of its own\n")
            }
            execHost(arguments)
        }
    }

    /// xhud-host: `$XHUD_HOST`, next to this executable, or in ../lib/xhud (packaged).
    static func hostPath() -> String? {
        if let path = Environment.value("XHUD_HOST"), access(path, X_OK) == 0 { return path }
        return Environment.companion("xhud-host")
    }

    /// Replaces this process with xhud-host.
    static func execHost(_ arguments: [String]) -> Never {
        Console.flush()
        if let path = hostPath() {
            var argv: [UnsafeMutablePointer<CChar>?] = (["xhud"] + arguments).map { strdup($0) }
            argv.append(nil)
            execv(path, &argv)
        }
        Console.error("xhud: cannot run xhud-host (looked beside this program and in ../lib/xhud; XHUD_HOST names another)\n")
        exit(2)
    }
}
