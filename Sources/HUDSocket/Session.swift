/// A HUD that lives as long as its client (plain, fed on stdin, wrapping a command): after the
/// reply, the connection carries lines both ways until one side ends it.
///
/// Client to server: the HUD's input lines as they are (never a NUL in them: the client's
/// line reader removes it), and control lines, which start with a NUL so that no input line
/// can spell one. Server to client: `cancel`, `warn TEXT`, `done STATUS [kill-parent]`.
/// A connection closed without `end`, `exit` or `signal` means the client is gone: its HUD goes
/// at once.
package enum Session {
    /// The client's part, decided by the server (which parsed the options): read stdin, run the
    /// wrapped command, scan its output for percentages, how long a cancelled command has.
    package struct Plan: Equatable, Sendable {
        package var readsStdin = false
        package var wraps = false
        package var scansOutput = false
        /// Seconds between SIGTERM and SIGKILL when nothing says otherwise (`--kill-timeout`).
        package static let defaultKillTimeout = 5.0
        package var killTimeout = defaultKillTimeout
        package init(readsStdin: Bool = false, wraps: Bool = false, scansOutput: Bool = false, killTimeout: Double = defaultKillTimeout) {
            self.readsStdin = readsStdin; self.wraps = wraps; self.scansOutput = scansOutput; self.killTimeout = killTimeout
        }
        package var encoded: String {
            "stdin=\(readsStdin ? 1 : 0) wrap=\(wraps ? 1 : 0) scan=\(scansOutput ? 1 : 0) kill=\(killTimeout)"
        }
        package init?(decoding s: String) {
            for word in s.split(separator: " ") {
                let kv = word.split(separator: "=", maxSplits: 1)
                guard kv.count == 2 else { return nil }
                switch kv[0] {
                case "stdin": readsStdin = kv[1] == "1"
                case "wrap": wraps = kv[1] == "1"
                case "scan": scansOutput = kv[1] == "1"
                case "kill": guard let t = Double(kv[1]), t >= 0 else { return nil }; killTimeout = t
                default: break  // a newer server's: ignored
                }
            }
        }
    }

    /// What a client says besides input lines.
    package enum Control: Equatable, Sendable {
        /// The input ended (stdin's end of file): finish the HUD as its input asks.
        case end
        /// The client was told to stop (SIGINT, SIGTERM): dismiss the HUD now, animated.
        case quit
        /// The wrapped command exited with this status, or was ended by this signal: show the
        /// result. The client may leave after this; its HUD finishes on its own.
        case exit(Int32)
        case signal(Int32)

        package var line: [UInt8] {
            let text: String
            switch self {
            case .end: text = "end"
            case .quit: text = "quit"
            case .exit(let n): text = "exit \(n)"
            case .signal(let n): text = "signal \(n)"
            }
            return [0] + Array(text.utf8) + [10]
        }

        /// A control line, without its NUL and newline.
        package init?(_ text: String) {
            let words = text.split(separator: " ")
            switch (words.first, words.count) {
            case ("end"?, 1): self = .end
            case ("quit"?, 1): self = .quit
            case ("exit"?, 2): guard let n = Int32(words[1]) else { return nil }; self = .exit(n)
            case ("signal"?, 2): guard let n = Int32(words[1]) else { return nil }; self = .signal(n)
            default: return nil
            }
        }
    }

    /// What the server says.
    package enum Event: Equatable, Sendable {
        /// The user cancelled (button, Escape): a wrapped command is ended.
        case cancel
        /// A line for the client's stderr (a bad input line, named with its number).
        case warn(String)
        /// A line for the client's stdout (the title of the extra button clicked, as zenity prints it).
        case say(String)
        /// The HUD is gone: the client exits with this status (zenity's --auto-kill: after
        /// sending SIGHUP to its parent).
        case done(Int32, killParent: Bool)

        package var line: [UInt8] {
            switch self {
            case .cancel: return Array("cancel\n".utf8)
            case .warn(let s): return Array(("warn " + s.filter { $0 != "\n" && $0 != "\0" }).utf8) + [10]
            case .say(let s): return Array(("say " + s.filter { $0 != "\n" && $0 != "\0" }).utf8) + [10]
            case .done(let n, let k): return Array("done \(n)\(k ? " kill-parent" : "")\n".utf8)
            }
        }

        package init?(_ text: String) {
            if text == "cancel" { self = .cancel; return }
            if text.hasPrefix("warn ") { self = .warn(String(text.dropFirst(5))); return }
            if text.hasPrefix("say ") { self = .say(String(text.dropFirst(4))); return }
            let words = text.split(separator: " ")
            guard words.count >= 2, words[0] == "done", let n = Int32(words[1]) else { return nil }
            self = .done(n, killParent: words.count == 3 && words[2] == "kill-parent")
        }
    }
}
