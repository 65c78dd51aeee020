import HUDCore

extension OptionTable {
    /// zenity's options: those it honours, and its other general options, accepted and ignored
    /// (hidden) so that its scripts run with the name changed.
    static let zenity = OptionGroup(
        "Zenity compatibility",
        manual: """
            These make `zenity --progress` scripts work with the program name changed. `--progress` without a number after it is \
            zenity's progress dialog: a bar, with a `Cancel` button unless `--no-cancel`. Its `--time-remaining` is accepted and, \
            as the dialog's other options do, has standard input read as zenity reads it (see `THE STDIN PROTOCOL`).
            """,
        [
            flag("progress-dialog") { $0.zenityProgress = $1 },
            text("text", "The label, Pango markup as in zenity (--no-markup: plain text).") { $0.text = $1 }
                .man(value: "text", "The label, Pango markup as in zenity (`--no-markup`: as written)."),
            // zenity clamps its percentage: no range, only what is not a number is refused.
            number("percentage", "Initial percentage 0-100 (clamped, as zenity does).") { $0.percentage = $1 }
                .man(value: "percent", "The initial percentage; a value outside 0 to 100 is clamped, as zenity does."),
            flag("pulsate", "The spinner.") { $0.pulsate = $1 }.man("A spinner instead of a bar."),
            flag("auto-close", "Hide and exit 0 when the percentage reaches 100.") { $0.autoClose = $1 },
            flag("auto-kill", "On cancel, also kill the parent process.") { $0.autoKill = $1 }
                .man("On cancel, also send `SIGHUP` to the parent process."),
            flag("no-cancel", "No Cancel button (zenity --progress shows one by default).") { $0.noCancel = $1 }.man("No `Cancel` button."),
            ignored("title", takesValue: true),
            ignored("width", takesValue: true),
            ignored("height", takesValue: true),
            // Read: like the dialog's other options, it has stdin read as zenity reads it.
            flag("time-remaining") { $0.timeRemaining = $1 },
            text("cancel-label", "The Cancel button's title.") { $0.cancelLabel = $1 }.man(value: "title", "The `Cancel` button's title."),
            ignored("ok-label", takesValue: true),
            ignored("window-icon", takesValue: true),
            text("attach", "The parent window (an X window ID), as --window.") { $0.attach = $1 }
                .man(value: "window", "The parent window, an X window id, as `--window`."),
            number("timeout", "Hide after this many seconds and exit 5.", range: Limits.seconds, unit: "seconds") { $0.timeout = $1 },
            text("extra-button", "Another button beside the first (repeatable): its title is printed and the exit is 1.") {
                $0.extraButton.append($1)
            }.man(
                value: "title",
                """
                Another button, in a row beside the first (repeatable, as zenity's): clicking it prints its title on standard output \
                and exits 1. As many show as fit the text's width, in order; an empty title takes a named HUD's extra buttons away.
                """),
            ignored("icon-name", takesValue: true),
            ignored("display", takesValue: true),
            ignored("class", takesValue: true),
            ignored("name", takesValue: true),
            ignored("modal", takesValue: false),
            ignored("ellipsize", takesValue: false),
            ignored("no-wrap", takesValue: false),
            ignored("gtk-module", takesValue: true, "Accepted and ignored."),
        ])
}
