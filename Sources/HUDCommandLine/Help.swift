#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDSocket
import HUDSystem

/// `xhud --help`, `--help-hidden` and `--version`, formatted from `OptionTable` (the table the
/// parser runs on, so help cannot list an option the parser does not take): the overview, the
/// subjects a user looks for, the usage, the arguments and the options by group, each option's
/// help wrapped beside it at the terminal's width (`$COLUMNS`, else the terminal's, else 80).
package enum HelpText {
    package static let version = "0.1.0"

    package static let overview = "Show a progress HUD (MBProgressHUD / SVProgressHUD style) over an X11 desktop."

    package static let usage = [
        "xhud [options]                        until SIGTERM, --hide-after, end of stdin",
        "xhud [options] -- COMMAND [ARGS...]   a HUD while COMMAND runs",
        "xhud success|error|info|warning TEXT  a notification that hides itself",
        "xhud --id NAME [options]              show or update the named HUD NAME",
        "xhud hide|push|pop --id NAME          named HUDs; xhud list: the names shown",
        "xhud server                           the display's HUD server, in the foreground",
        "xhud notifications count|history|...  the notification daemon's queue, as dunstctl",
    ]

    /// The positional arguments: name and help.
    package static let arguments: [(name: String, help: String)] = [
        (
            "verb",
            "success | error | info | warning (then TEXT), hide | list | push | pop, server, or notifications (then count, history, history-pop, close, close-all, action [ACTION], context, pause, resume, toggle or is-paused)."
        ),
        ("text", "The notification's text (quote it when it has spaces)."),
        ("command", "A command to run while the HUD shows (after --)."),
    ]

    /// Options that are the help's own, listed last.
    package static let general: [(synopsis: String, help: String)] = [
        ("--version", "Show the version."),
        ("-h, --help", "Show help information (--help-hidden: with the options xhud takes and ignores)."),
    ]

    private static func t(_ v: Double) -> String { OptionDefaults.text(v) }

    /// The subjects, already wrapped (to 72 columns); the defaults they state are the code's.
    package static let discussion = """
        PROGRESS ON STDIN (when stdin is a pipe or a FIFO; one command a line)
          42  42%          a percentage (zenity), clamped to 0-100
          # TEXT           the label (zenity)
          pulsate:true     the spinner (zenity); pulsate:false: a ring
          label=TEXT       details=TEXT (\\n is a newline)
          progress=0.42    progress=42%         mode=bar (any --mode)
          button=TITLE     (empty: no button)   alternate=true|false
          show  hide  hide=SECONDS  done (exit 0)  cancel (exit 1)
          success[=TEXT]  error[=TEXT]  info[=TEXT]  warning[=TEXT]
                           show the icon, hide after a while, exit 0
        Other lines are ignored with a warning. End of input hides the HUD.
        zenity --progress scripts work with the name changed: --progress (with
        no value), --text (Pango markup, as in zenity), --percentage,
        --pulsate, --auto-close, --auto-kill, --no-cancel, --cancel-label,
        --attach and --timeout (exit 5) are honoured; zenity's other options
        (--title, --width, --gtk-module, ...) are accepted and ignored.
        With any of them stdin is read exactly as zenity reads it: a line
        starting with a digit is a percentage (all its digits, as zenity:
        "100 files to go" is 100), "#TEXT" the text, "pulsate:BOOL"; every
        other line, the words above included, is ignored without a word.

        WRAPPING A COMMAND
        The command's stdin, stdout, stderr and exit status pass through
        untouched, with or without a display. The HUD appears after --grace
        (\(t(OptionDefaults.wrappingGrace)) s), stays at least --min-show (\(t(OptionDefaults.wrappingMinShow)) s), then shows a success or
        error icon for --result-time. Cancel (--button TITLE, or Escape while
        the HUD blocks input) sends SIGTERM to the command and its children,
        SIGKILL after --kill-timeout, and exits 1.

        NOTIFICATIONS
        xhud success|error|info|warning TEXT, and --mode text|custom, return
        at once (the HUD lives on) unless --wait, and hide after SVProgressHUD's
        duration: 0.06 s a character + 0.5 s, at least --min-duration (\(t(OptionDefaults.minDuration)) s),
        at most --max-duration; or after --hide-after. A click dismisses an
        icon notification; text-only ones let clicks through. The display's
        HUD server shows them, stacked with other notifications and named HUDs.

        NAMED HUDS (keybindings)
        xhud --id NAME ... shows NAME, or updates it in place when it is
        showing on this display, and returns at once; only the options given
        change. It hides --hide-after (\(t(OptionDefaults.namedHideAfter)) s) after the last update. push and
        pop count activities: the HUD stays while the count is above zero.
        Several names stack top to bottom in the order they appeared, centred
        as a group. `xhud server` runs the display's server in the foreground
        (for autostart: it stays when no HUD shows); otherwise the first
        invocation starts one, which exits --linger seconds after its last HUD.
        `xhud server --notifications` (or notifications = true in the
        configuration) also shows desktop notifications (notify-send) as HUDs;
        --replace takes them over from another notification daemon.

        CONFIGURATION
        $XDG_CONFIG_HOME/xhud/config.toml (then $XDG_CONFIG_DIRS) sets the
        default of any option of look, timing and place by its long name
        (ring-thickness, success-image, fade-in, mask = "blur", ...; not
        --progress, --window, --id or zenity's); [notification], [wrap] and
        [id.NAME] sections apply to those HUDs. --theme NAME loads a file of the
        same keys (sv-dark, sv-light, mb-classic, osd). --print-config shows the
        effective value of every key and where it comes from.

        EXIT STATUS
          0      done: the HUD was shown and hidden, or its input ended
          1      cancelled: the button, Escape, `cancel` on stdin (as zenity)
          2      usage error: unknown flag, bad number, unknown colour,
                 unreadable image, unknown window or monitor
          3      no X display: DISPLAY unset or the connection was refused;
                 or no room for another HUD on its monitor
          5      zenity's --timeout ran out
          N      wrapping: the command's status (128+N: killed by signal N)
          128+N  ended by signal N other than SIGINT/SIGTERM
        """

    /// The whole help, for a terminal `width` columns wide.
    package static func message(includeHidden: Bool = false, width: Int = terminalWidth()) -> String {
        // A line as wide as the terminal would wrap in some of them: one column is left free.
        let width = max(width, 40) - 1
        var out = "OVERVIEW: " + wrap(overview, width: width, indent: 0, firstIndent: 10).dropFirst(10) + "\n\n"
        out += discussion + "\n\n"
        out += "USAGE: " + usage.joined(separator: "\n       ") + "\n\n"
        out += "ARGUMENTS:\n"
        // The help beside its option, or under it on a narrow terminal.
        let column = width >= 60 ? 26 : 6
        func entry(_ left: String, _ help: String) -> String { Self.entry(left, help, width: width, column: column) }
        for a in arguments { out += entry("<\(a.name)>", a.help) }
        out += "\nOPTIONS:\n"
        for (k, group) in OptionTable.groups.enumerated() {
            let options = group.options.filter { includeHidden || !$0.isHidden }
            guard !options.isEmpty else { continue }
            if k > 0 { out += "\n" }
            out += " " + group.title + ":\n"
            for o in options { out += entry(o.synopsis, helpLine(o)) }
        }
        out += "\n General:\n"
        for g in general { out += entry(g.synopsis, g.help) }
        return out
    }

    /// An option's help as listed: its text, and the words its value may be.
    static func helpLine(_ o: OptionSpec) -> String {
        if case .choices(let words) = o.completion { return o.helpText + " (values: " + words.joined(separator: ", ") + ")" }
        return o.helpText
    }

    /// The option after two spaces, its help from `column` on: on the same line when the
    /// option leaves two spaces before it, else on the next.
    static func entry(_ left: String, _ help: String, width: Int, column: Int) -> String {
        let label = "  " + left
        let body = wrap(help, width: width, indent: column, firstIndent: column)
        if label.count + 2 <= column {
            return label + String(repeating: " ", count: column - label.count) + body.dropFirst(column) + "\n"
        }
        return label + "\n" + body + "\n"
    }

    /// `text`'s words filled into lines of at most `width` columns, each indented; a word longer
    /// than a line has a line of its own.
    static func wrap(_ text: String, width: Int, indent: Int, firstIndent: Int) -> String {
        var lines: [String] = []
        var line = String(repeating: " ", count: firstIndent)
        var empty = true
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if !empty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: indent)
                empty = true
            }
            line += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// `$COLUMNS`, else the terminal's width on stdout, else 80.
    package static func terminalWidth() -> Int {
        if let c = Environment.value("COLUMNS"), let n = Int(c), n > 0 { return n }
        var ws = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 { return Int(ws.ws_col) }
        return 80
    }
}
