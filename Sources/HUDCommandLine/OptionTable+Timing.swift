import HUDCore

extension OptionTable {
    static let timing = OptionGroup(
        "Timing",
        [
            choice(
                "animation", HUDAnimation.self, "fade | zoom | zoom-in | zoom-out | pop | none", key: .text { c, _ in c.animation.rawValue },
                hud: sets(\.animation, \.animation)
            ) { $0.animation = $1 }.man(value: "animation", "`fade`, `zoom`, `zoom-in`, `zoom-out`, `pop` or `none`; by default `{default}`."),
            number(
                "fade-in",
                "Seconds the show animation takes (default: the animation's own, \(seconds(HUDAnimation.fade.duration)); pop \(seconds(HUDAnimation.pop.duration))).",
                range: Limits.seconds,
                unit: "seconds", key: .number { c, _ in c.showDuration }, hud: sets(\.fadeIn, \.showDuration)
            ) { $0.fadeIn = $1 }.man(""),
            number(
                "fade-out", "Seconds the hide animation takes (default as --fade-in).", range: Limits.seconds, unit: "seconds",
                key: .number { c, _ in c.hideDuration }, hud: sets(\.fadeOut, \.hideDuration)
            ) { $0.fadeOut = $1 }.man(
                """
                The length of the show and of the hide animation (default: the animation's own, \
                \(seconds(HUDAnimation.fade.duration)) seconds, `pop` \(seconds(HUDAnimation.pop.duration)); SVProgressHUD's fade-in \
                and fade-out durations).
                """),
            number(
                "grace",
                "Seconds to wait before showing; a HUD hidden before then never appears (default {default}; \(seconds(OptionDefaults.wrappingGrace)) when wrapping).",
                range: Limits.seconds, unit: "seconds",
                key: .number { c, o in o.grace ?? (o.command.isEmpty ? c.graceTime : OptionDefaults.wrappingGrace) },
                hud: sets(\.grace, \.graceTime)
            ) { $0.grace = $1 }.man(
                """
                Wait this long before showing; a HUD hidden before then never appears (default {default}; \
                \(seconds(OptionDefaults.wrappingGrace)) when wrapping a command).
                """),
            number(
                "min-show",
                "Once shown, stay at least this many seconds (default {default}; \(seconds(OptionDefaults.wrappingMinShow)) when wrapping).",
                range: Limits.seconds, unit: "seconds",
                key: .number { c, o in o.minShow ?? (o.command.isEmpty ? c.minShowTime : OptionDefaults.wrappingMinShow) },
                hud: sets(\.minShow, \.minShowTime)
            ) { $0.minShow = $1 }.man(
                "Once shown, stay at least this long (default {default}; \(seconds(OptionDefaults.wrappingMinShow)) when wrapping a command)."),
            number("hide-after", "Hide after this many seconds.", range: Limits.seconds, unit: "seconds", key: .number { _, o in o.hideAfter }) {
                $0.hideAfter = $1
            }.man(
                """
                Hide after this many seconds. For a named HUD, the time after its last update (default \
                \(seconds(OptionDefaults.namedHideAfter))).
                """),
            flag("wait", "Notifications: wait until the HUD is hidden instead of returning at once.") { $0.wait = $1 },
            choice(
                "urgency", NotificationUrgency.self,
                "Notifications from other programs (a [rule.NAME]'s): their urgency instead of their own; critical ones never expire.",
                key: .text { _, o in o.urgency?.rawValue ?? "normal" }
            ) { $0.urgency = $1 }.man(
                value: "`low`|`normal`|`critical`",
                """
                For notifications from other programs, usually set by a `[rule.*name*]` section: the urgency they are shown with \
                instead of their own; `critical` ones show the warning icon and stay until closed.
                """),
            toggle(
                "skip", "Notifications from other programs (a [rule.NAME]'s): not shown, straight to the history.",
                key: .flag { _, o in o.skip ?? false }
            ) { $0.skip = $1 }.man(
                """
                For notifications from other programs, usually set by a `[rule.*name*]` section: not shown, but kept in the \
                history (closed with reason 4).
                """),
            number(
                "min-duration", "Notifications: shortest display time (default {default}; SVProgressHUD's minimumDismissTimeInterval).",
                range: Limits.seconds, unit: "seconds", key: .number { _, o in o.minDuration }
            ) { $0.minDuration = $1 }.man("Notifications: the shortest display time (default {default})."),
            number(
                "max-duration", "Notifications: longest display time.", range: Limits.seconds, unit: "seconds",
                key: .number { _, o in o.maxDuration }
            ) { $0.maxDuration = $1 }.man("Notifications: the longest display time (default: no limit)."),
            toggle(
                "click-through", "Let clicks pass through a notification instead of dismissing it.",
                key: .flag { _, o in o.clickThrough ?? false }
            ) { $0.clickThrough = $1 },
        ])
}
