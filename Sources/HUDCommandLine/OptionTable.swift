import HUDSystem
import HUDCore
import HUDSettings
import HUDSocket

/// Every long option, once: its kind, help, completion, configuration key and how it applies
/// to a HUD (`OptionSpec`), grouped by subject as `--help` and the man page list them.
package enum OptionTable {
    private static func text(
        _ name: String, _ help: String = "", completion: OptionSpec.Completion = .none, key: SettingSpec? = nil,
        hud: OptionSpec.Applier? = nil, _ set: @escaping @Sendable (inout HUDOptions, String) -> Void
    ) -> OptionSpec {
        OptionSpec(name: name, kind: .value { o, v throws(UsageError) in set(&o, v) }, help: help, completion: completion, setting: key, hud: hud)
    }

    private static func number(
        _ name: String, _ help: String = "", key: SettingSpec? = nil, hud: OptionSpec.Applier? = nil,
        _ set: @escaping @Sendable (inout HUDOptions, Double) -> Void
    ) -> OptionSpec {
        OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                // Swift's own reading of a Double: "1e3", "inf" and "nan" are numbers (ranges are
                // checked in `validate`), "12px" and "" are not.
                guard let d = Double(v) else { throw invalid(v, name) }
                set(&o, d)
            }, help: help, setting: key, hud: hud)
    }

    private static func integer(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, Int) -> Void) -> OptionSpec {
        OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                guard let n = Int(v) else { throw invalid(v, name) }
                set(&o, n)
            })
    }

    private static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ type: E.Type, _ help: String, key: SettingSpec? = nil, hud: OptionSpec.Applier? = nil,
        _ set: @escaping @Sendable (inout HUDOptions, E) -> Void
    ) -> OptionSpec where E.RawValue == String {
        OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                guard let e = E(rawValue: v) else {
                    throw UsageError("\(invalid(v, name)). Please provide one of \(E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")).")
                }
                set(&o, e)
            }, help: help, completion: .choices(E.allCases.map(\.rawValue)), setting: key, hud: hud)
    }

    /// The value is quoted up to 80 characters: a message stays a line whatever was given.
    private static func invalid(_ value: String, _ name: String) -> UsageError {
        let shown = value.count > 80 ? String(value.prefix(80)) + "… (\(value.utf8.count) bytes)" : value
        return UsageError("The value '\(shown)' is invalid for '--\(name) <\(name)>'")
    }

    private static func flag(_ name: String, _ help: String = "", _ set: @escaping @Sendable (inout HUDOptions, Bool) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .flag(set), help: help)
    }

    private static func toggle(
        _ name: String, _ help: String, key: SettingSpec? = nil, hud: OptionSpec.Applier? = nil,
        _ set: @escaping @Sendable (inout HUDOptions, Bool) -> Void
    ) -> OptionSpec {
        OptionSpec(name: name, kind: .toggle(set), help: help, setting: key, hud: hud)
    }

    /// How an option that names one property of the HUD applies to it: its value, when given,
    /// becomes the property.
    private static func sets<V>(
        _ field: WritableKeyPath<HUDOptions, V?> & Sendable,
        _ property: WritableKeyPath<HUDConfiguration, V> & Sendable
    ) -> OptionSpec.Applier {
        { o, c in if let v = o[keyPath: field] { c[keyPath: property] = v } }
    }

    private static func sets<V>(
        _ field: WritableKeyPath<HUDOptions, V?> & Sendable,
        _ property: WritableKeyPath<HUDConfiguration, V?> & Sendable
    ) -> OptionSpec.Applier {
        { o, c in if let v = o[keyPath: field] { c[keyPath: property] = v } }
    }

    static let images = OptionSpec.Completion.files(["png", "svg", "svgz", "jpg", "jpeg", "gif", "bmp", "webp"])

    /// Every option, in the order of `--help`.
    package static let all: [OptionSpec] = groups.flatMap(\.options)

    /// The options by subject, as `--help` and the man page list them.
    package static let groups: [(title: String, options: [OptionSpec])] = [
        (
            "Content",
            [
                OptionSpec(
                    name: "mode",
                    kind: .value { o, v throws(UsageError) in
                        guard let m = HUDMode(named: v) else {
                            throw UsageError(
                                "\(invalid(v, "mode")). Please provide one of \(HUDMode.vocabulary), or MBProgressHUD's name (annular-determinate, determinate-horizontal-bar, custom-view)."
                            )
                        }
                        o.mode = m
                    },
                    help:
                        "indeterminate (spinner) | determinate (pie) | annular (ring: progress) | bar | success | error | info | warning | custom (--image) | text; MBProgressHUD's names too, also in camelCase",
                    completion: .choices(HUDMode.allCases.map(\.rawValue) + HUDMode.aliasNames), setting: .text { c, _ in c.mode.rawValue }),
                text("label", "The single-line label (ellipsized when too long).", key: .text { c, _ in c.label }) { $0.label = $1 },
                text("details", "The multi-line details label.", key: .text { c, _ in c.details }, hud: sets(\.details, \.details)) {
                    $0.details = $1
                },
                number("progress", "Progress 0...1 for determinate, annular and bar.") { $0.progress = $1 },
                text("button", "A button with this title; clicking it cancels (exit 1).", key: .text { c, _ in c.button }) { $0.button = $1 },
                text(
                    "image",
                    "Image for --mode custom: a PNG, SVG, JPEG, GIF, BMP or WebP file, or an icon name from the icon theme (dialog-information).",
                    completion: images, key: .text { c, _ in c.image }
                ) { $0.image = $1 },
                number(
                    "image-size", "Size in pixels of the box the image is fitted into (default 37).", key: .number { c, _ in c.imageSize },
                    hud: sets(\.imageSize, \.imageSize)
                ) { $0.imageSize = $1 },
                toggle(
                    "tint-image", "Tint the image with the content colour.", key: .flag { c, _ in c.tintImage }, hud: sets(\.tintImage, \.tintImage)
                ) { $0.tintImage = $1 },
                text(
                    "success-image", "An image or icon name drawn instead of the success icon (SVProgressHUD's setSuccessImage).",
                    completion: images, key: .text { c, _ in c.successImage }
                ) { $0.successImage = $1 },
                text("error-image", "An image or icon name drawn instead of the error icon.", completion: images, key: .text { c, _ in c.errorImage })
                { $0.errorImage = $1 },
                text("info-image", "An image or icon name drawn instead of the info icon.", completion: images, key: .text { c, _ in c.infoImage }) {
                    $0.infoImage = $1
                },
                text(
                    "warning-image", "An image or icon name drawn instead of the warning icon.", completion: images,
                    key: .text { c, _ in c.warningImage }
                ) { $0.warningImage = $1 },
                choice(
                    "spinner", SpinnerStyle.self, "ring (SVProgressHUD) | spokes (classic activity indicator)",
                    key: .text { c, _ in c.spinner.rawValue }, hud: sets(\.spinner, \.spinner)
                ) { $0.spinner = $1 },
                number(
                    "ring-thickness", "Line width of the spinner's ring and the progress ring, 0.5-64 (default 2; SVProgressHUD's ringThickness).",
                    key: .number { c, _ in c.ringThickness }, hud: sets(\.ringThickness, \.ringThickness)
                ) { $0.ringThickness = $1 },
                number(
                    "ring-radius", "Radius of those rings, 1-256 (default: the indicator's own; SVProgressHUD's ringRadius).",
                    key: .number { c, _ in c.ringRadius }, hud: sets(\.ringRadius, \.ringRadius)
                ) { $0.ringRadius = $1 },
                toggle(
                    "show-value", "Show the value (45%) beside a bar or inside a ring.", key: .flag { c, _ in c.showValue },
                    hud: sets(\.showValue, \.showValue)
                ) { $0.showValue = $1 },
                toggle("alternate", "The bar's alternate state (e.g. muted), drawn in --alternate-color.", hud: sets(\.alternate, \.alternate)) {
                    $0.alternate = $1
                },
                text("alternate-color", "Colour of the alternate state (default: a muted red).", key: .text { c, _ in c.alternateColor.description })
                { $0.alternateColor = $1 },
                toggle("markup", "Interpret label and details as Pango markup (otherwise only zenity's --text is).", key: .flag { c, _ in c.markup })
                { $0.markup = $1 },
                toggle(
                    "smooth", "Ease progress changes over 0.2 s (default: each value is on screen exactly in the next frame).",
                    key: .flag { _, o in o.smooth ?? false }
                ) { $0.smooth = $1 },
            ]
        ),
        (
            "Appearance",
            [
                choice("style", HUDStyle.self, "dark | light | custom", key: .text { c, _ in c.style.rawValue }, hud: sets(\.style, \.style)) {
                    $0.style = $1
                },
                text(
                    "bezel-color", "Bezel colour: #RRGGBB[AA], rgba(r,g,b,a), a name, NAME/ALPHA.",
                    key: .text { c, _ in c.effectiveBezelColor.description }
                ) { $0.bezelColor = $1 },
                text("content-color", "Colour of label, details, button and indicator.", key: .text { c, _ in c.effectiveContentColor.description }) {
                    $0.contentColor = $1
                },
                text(
                    "mask",
                    "none (click-through) | clear (blocks input) | black | gradient | COLOR | blur | blur:COLOR (blurred, tinted). Default: clear for spinner and progress, none for notifications.",
                    key: .text { c, _ in c.effectiveMask.settingText }
                ) { $0.mask = $1 },
                toggle("shadow", "A drop shadow under the bezel (default on).", key: .flag { c, _ in c.shadow }, hud: sets(\.shadow, \.shadow)) {
                    $0.shadow = $1
                },
                number(
                    "blur", "Blur radius of what shows through the bezel, in pixels (default 20, a material like iOS's; 0: none).",
                    key: .number { c, _ in c.blur }, hud: sets(\.blur, \.blur)
                ) { $0.blur = $1 },
                number(
                    "margin", "Margin around the content and from the region's edges (default 20).", key: .number { c, _ in c.margin },
                    hud: sets(\.margin, \.margin)
                ) { $0.margin = $1 },
                number(
                    "spacing", "Space between the indicator, label, details and button (default 4).", key: .number { c, _ in c.spacing },
                    hud: sets(\.spacing, \.spacing)
                ) { $0.spacing = $1 },
                number(
                    "corner-radius", "Corner radius of the bezel (default 10).", key: .number { c, _ in c.cornerRadius },
                    hud: sets(\.cornerRadius, \.cornerRadius)
                ) { $0.cornerRadius = $1 },
                text("min-size", "Minimum bezel size, WxH.", key: .pair("x") { c, _ in [c.minSize.width, c.minSize.height] }) { $0.minSize = $1 },
                toggle("square", "Make the bezel square when it fits.", key: .flag { c, _ in c.square }, hud: sets(\.square, \.square)) {
                    $0.square = $1
                },
                choice(
                    "position", HUDPosition.self,
                    "Where the bezel sits: center (default), an edge or a corner (notifications from other programs: top-right); --offset moves it from there.",
                    key: .text { _, o in (o.position ?? .center).rawValue }
                ) { $0.position = $1 },
                text(
                    "offset", "Offset of the bezel from the centre, X,Y; a huge value pins it to that edge.",
                    key: .pair(",") { c, _ in [c.offset.x, c.offset.y] }
                ) { $0.offset = $1 },
                text(
                    "font", "Font of the label (Pango description, e.g. 'Sans Bold 16px'; system-ui: the desktop's).",
                    key: .text { c, _ in c.labelFont }, hud: sets(\.font, \.labelFont)
                ) { $0.font = $1 },
                text("details-font", "Font of the details label.", key: .text { c, _ in c.detailsFont }, hud: sets(\.detailsFont, \.detailsFont)) {
                    $0.detailsFont = $1
                },
                number(
                    "max-text-width", "Widest the label and details may be before they wrap or are ellipsized (default 300).",
                    key: .number { c, _ in c.maxTextWidth }, hud: sets(\.maxTextWidth, \.maxTextWidth)
                ) { $0.maxTextWidth = $1 },
            ]
        ),
        (
            "Configuration",
            [
                text("theme", "A theme: sv-dark, sv-light, mb-classic, osd, or a theme file (see --print-config).", key: .text { _, o in o.theme }) {
                    $0.theme = $1
                },
                text(
                    "config", "Read this configuration file instead of $XDG_CONFIG_HOME/xhud/config.toml.",
                    completion: .files(["toml"])
                ) { $0.config = $1 },
                flag("print-config", "Print the effective configuration, and where each value comes from, then exit.") { $0.printConfig = $1 },
                text(
                    "icon-theme", "Icon theme for --image NAME (default: GTK's gtk-icon-theme-name, then hicolor).",
                    key: .text { _, o in o.iconTheme ?? IconTheme.userTheme ?? "hicolor" }
                ) { $0.iconTheme = $1 },
            ]
        ),
        (
            "Timing",
            [
                choice(
                    "animation", HUDAnimation.self, "fade | zoom | zoom-in | zoom-out | pop | none", key: .text { c, _ in c.animation.rawValue },
                    hud: sets(\.animation, \.animation)
                ) { $0.animation = $1 },
                number(
                    "fade-in", "Seconds the show animation takes (default: the animation's own, 0.3; pop 0.15).",
                    key: .number { c, _ in c.showDuration }, hud: sets(\.fadeIn, \.showDuration)
                ) { $0.fadeIn = $1 },
                number(
                    "fade-out", "Seconds the hide animation takes (default as --fade-in).", key: .number { c, _ in c.hideDuration },
                    hud: sets(\.fadeOut, \.hideDuration)
                ) { $0.fadeOut = $1 },
                number(
                    "grace", "Seconds to wait before showing; a HUD hidden before then never appears (default 0; 0.5 when wrapping).",
                    key: .number { c, o in o.grace ?? (o.command.isEmpty ? c.graceTime : 0.5) }, hud: sets(\.grace, \.graceTime)
                ) { $0.grace = $1 },
                number(
                    "min-show", "Once shown, stay at least this many seconds (default 0; 0.5 when wrapping).",
                    key: .number { c, o in o.minShow ?? (o.command.isEmpty ? c.minShowTime : 0.5) }, hud: sets(\.minShow, \.minShowTime)
                ) { $0.minShow = $1 },
                number("hide-after", "Hide after this many seconds.", key: .number { _, o in o.hideAfter }) { $0.hideAfter = $1 },
                flag("wait", "Notifications: wait until the HUD is hidden instead of returning at once.") { $0.wait = $1 },
                choice(
                    "urgency", NotificationUrgency.self,
                    "Notifications from other programs (a [rule.NAME]'s): their urgency instead of their own; critical ones never expire.",
                    key: .text { _, o in o.urgency?.rawValue ?? "normal" }
                ) { $0.urgency = $1 },
                toggle(
                    "skip", "Notifications from other programs (a [rule.NAME]'s): not shown, straight to the history.",
                    key: .flag { _, o in o.skip ?? false }
                ) { $0.skip = $1 },
                number(
                    "min-duration", "Notifications: shortest display time (default 5; SVProgressHUD's minimumDismissTimeInterval).",
                    key: .number { _, o in o.minDuration }
                ) { $0.minDuration = $1 },
                number("max-duration", "Notifications: longest display time.", key: .number { _, o in o.maxDuration }) { $0.maxDuration = $1 },
                toggle(
                    "click-through", "Let clicks pass through a notification instead of dismissing it.",
                    key: .flag { _, o in o.clickThrough ?? false }
                ) { $0.clickThrough = $1 },
            ]
        ),
        (
            "Parent region",
            [
                text("window", "Parent window: ID | active | pointer | root. The HUD follows it and ends with it.") { $0.window = $1 },
                text(
                    "monitor", "Parent monitor: pointer | focused | primary | NAME | INDEX (default: pointer).",
                    key: .text { _, o in o.monitor ?? "pointer" }
                ) { $0.monitor = $1 },
                text("geometry", "Parent region WxH+X+Y in screen pixels.") { $0.geometry = $1 },
                number("scale", "Scale factor (default: Xft.dpi / 96).", key: .number { _, o in o.scale }) { $0.scale = $1 },
                choice(
                    "backend", DisplayBackend.self,
                    "x11 | wayland (default: Wayland where WAYLAND_DISPLAY is set and the compositor has layer-shell, else X11)."
                ) { $0.backend = $1 },
            ]
        ),
        (
            "Wrapping a command",
            [
                number(
                    "result-time", "Seconds the success or error icon stays after the command ends (default 1; 0: none).",
                    key: .number { _, o in o.resultTime }
                ) { $0.resultTime = $1 },
                number("kill-timeout", "Seconds between SIGTERM and SIGKILL when cancelled (default 5).", key: .number { _, o in o.killTimeout }) {
                    $0.killTimeout = $1
                },
                toggle(
                    "progress-from-output",
                    "Read progress from the command's output (the last NN% on a line); the output still passes through untouched.",
                    key: .flag { _, o in o.progressFromOutput ?? false }
                ) { $0.progressFromOutput = $1 },
            ]
        ),
        (
            "Named HUDs",
            [
                text("id", "Show or update the HUD with this name on this display.") { $0.id = $1 },
                number("delay", "hide and pop: seconds to wait before hiding.") { $0.delay = $1 },
                number(
                    "linger", "The server: seconds it stays after its last HUD is hidden, to serve the next key press warm (default 10).",
                    key: .number { _, o in o.linger ?? 10 }
                ) { $0.linger = $1 },
                toggle(
                    "notifications",
                    "xhud server: serve desktop notifications (org.freedesktop.Notifications on the session bus: notify-send) as HUDs.",
                    key: .flag { _, o in o.notifications }
                ) { $0.notifications = $1 },
                flag("replace", "xhud server --notifications: take the notification name over from the daemon that has it (dunst, ...).") {
                    $0.replace = $1
                },
                // Tests: the frame the renderer draws for these options written to a PNG.
                text("render-png") { $0.renderPng = $1 },
                // The notification bus: the invocation stands for another program's notification.
                flag("bus-notification") { $0.busNotification = $1 },
                text("bus-app") { $0.busApp = $1 },
                text("bus-category") { $0.busCategory = $1 },
                integer("bus-urgency") { $0.busUrgency = $1 },
            ]
        ),
        // zenity's options: those it honours, and its other general options, accepted and
        // ignored (hidden) so that its scripts run with the name changed.
        (
            "Zenity compatibility",
            [
                flag("progress-dialog") { $0.zenityProgress = $1 },
                text("text", "The label, Pango markup as in zenity (--no-markup: plain text).") { $0.text = $1 },
                number("percentage", "Initial percentage 0-100 (clamped, as zenity does).") { $0.percentage = $1 },
                flag("pulsate", "The spinner.") { $0.pulsate = $1 },
                flag("auto-close", "Hide and exit 0 when the percentage reaches 100.") { $0.autoClose = $1 },
                flag("auto-kill", "On cancel, also kill the parent process.") { $0.autoKill = $1 },
                flag("no-cancel", "No Cancel button (zenity --progress shows one by default).") { $0.noCancel = $1 },
                text("title") { $0.title = $1 },
                integer("width") { $0.width = $1 },
                integer("height") { $0.height = $1 },
                flag("time-remaining") { $0.timeRemaining = $1 },
                text("cancel-label", "The Cancel button's title.") { $0.cancelLabel = $1 },
                text("ok-label") { $0.okLabel = $1 },
                text("window-icon") { $0.windowIcon = $1 },
                text("attach", "The parent window (an X window ID), as --window.") { $0.attach = $1 },
                number("timeout", "Hide after this many seconds and exit 5.") { $0.timeout = $1 },
                text("extra-button", "Another button beside the first (repeatable): its title is printed and the exit is 1.") {
                    $0.extraButton.append($1)
                },
                text("icon-name") { $0.iconName = $1 },
                text("display") { $0.display = $1 },
                text("class") { $0.class = $1 },
                text("name") { $0.name = $1 },
                flag("modal") { $0.modal = $1 },
                flag("ellipsize") { $0.ellipsize = $1 },
                flag("no-wrap") { $0.noWrap = $1 },
                text("gtk-module", "Accepted and ignored.") { $0.gtkModule = $1 },
            ]
        ),
    ]

    package static let byName: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
