import HUDCore

extension OptionTable {
    static let wrapping = OptionGroup(
        "Wrapping a command",
        manual: "These apply to `xhud --` *command*; see `WRAPPING A COMMAND`.",
        [
            number(
                "result-time", "Seconds the success or error icon stays after the command ends (default {default}; 0: none).",
                range: Limits.seconds, unit: "seconds", key: .number { _, o in o.resultTime }
            ) { $0.resultTime = $1 }.man("How long the success or error icon stays after the command ends (default {default}; 0: none)."),
            number(
                "kill-timeout", "Seconds between SIGTERM and SIGKILL when cancelled (default {default}).", range: Limits.seconds, unit: "seconds",
                key: .number { _, o in o.killTimeout }
            ) { $0.killTimeout = $1 }.man("The time between `SIGTERM` and `SIGKILL` when the HUD is cancelled (default {default})."),
            toggle(
                "progress-from-output",
                "Read progress from the command's output (the last NN% on a line); the output still passes through untouched.",
                key: .flag { _, o in o.progressFromOutput ?? false }
            ) { $0.progressFromOutput = $1 }.man(
                "Read progress from the command's output: the last `*NN*%` on a line. The output still passes through untouched."),
        ])

    /// No options of its own: the man page says where they are.
    static let notifications = OptionGroup(
        "Notifications",
        manual: """
            The verbs `success`, `error`, `info` and `warning` take the text to show as their next argument. `--wait`, \
            `--min-duration`, `--max-duration` and `--click-through` (under `Timing`) control them.
            """, [])

    static let named = OptionGroup(
        "Named HUDs",
        [
            text("id", "Show or update the HUD with this name on this display.", check: HUDOptions.validateName) { $0.id = $1 }.man(
                value: "name",
                """
                Show or update the HUD with this name on this display. A name is 1 to 64 letters, digits, “`-`”, “`_`” or “`.`”.
                """),
            number("delay", "hide and pop: seconds to wait before hiding.", range: Limits.seconds, unit: "seconds") { $0.delay = $1 }
                .man("`hide` and `pop`: wait this long before hiding."),
            number(
                "linger", "The server: seconds it stays after its last HUD is hidden, to serve the next key press warm (default {default}).",
                range: Limits.seconds, unit: "seconds", key: .number { _, o in o.linger ?? OptionDefaults.linger }
            ) { $0.linger = $1 }.man(
                "How long the display's HUD server stays after its last HUD is hidden, to serve the next key press warm (default {default})."),
            toggle(
                "notifications",
                "xhud server: serve desktop notifications (org.freedesktop.Notifications on the session bus: notify-send) as HUDs.",
                key: .flag { _, o in o.notifications }
            ) { $0.notifications = $1 }.man(
                """
                With `xhud server`: also serve desktop notifications (`org.freedesktop.Notifications` on the session bus, what \
                `notify-send` talks to) as HUDs; see `DESKTOP NOTIFICATIONS`.
                """),
            flag("replace", "xhud server --notifications: take the notification name over from the daemon that has it (dunst, ...).") {
                $0.replace = $1
            }.man(
                """
                With `xhud server --notifications`: take the notification name from the daemon that has it, or, when that daemon \
                does not let it be replaced, have it once that daemon quits.
                """),
            // Tests: the frame the renderer draws for these options written to a PNG.
            text("render-png") { $0.renderPng = $1 },
            // The notification bus: the invocation stands for another program's notification.
            flag("bus-notification") { $0.busNotification = $1 },
            text("bus-app") { $0.busApp = $1 },
            text("bus-category") { $0.busCategory = $1 },
            integer("bus-urgency") { $0.busUrgency = $1 },
        ])
}
