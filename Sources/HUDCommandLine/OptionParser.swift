import HUDCore

/// The command line's parser: a table of long options, each with what it sets. It runs for every
/// HUD the server shows (and again with the configuration's settings before the command line),
/// so it is a loop over the arguments and a dictionary look-up each, with no reflection, no
/// metadata to instantiate and no Foundation. `xhud-help` describes the same options for
/// `--help` and the shell completions; a test keeps the two in step.
///
/// As `getopt_long`: `--name VALUE` or `--name=VALUE`; an option that takes a value takes the
/// next argument whatever it looks like; a repeated option's last value wins (so the command
/// line overrides the settings placed before it); `--flag` / `--no-flag` for switches; words
/// that are not options are the verb, then the notification's text; everything after `--` is the
/// command to wrap.
extension HUDOptions {
    public static func parse(_ arguments: [String]) throws(UsageError) -> HUDOptions {
        var o = HUDOptions()
        var positionals = 0
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if a == "--" {
                o.command = Array(arguments[i...])
                break
            }
            guard a.hasPrefix("-"), a.count > 1 else {
                switch positionals {
                case 0: o.verb = a
                case 1: o.message = a
                default: throw UsageError("Unexpected argument '\(a)'")
                }
                positionals += 1
                continue
            }
            guard a.hasPrefix("--") else { throw UsageError("Unknown option '\(a)'") }
            let body = a.dropFirst(2)
            let equals = body.firstIndex(of: "=")
            let name = String(body[..<(equals ?? body.endIndex)])
            let inline = equals.map { String(body[body.index(after: $0)...]) }
            if let option = OptionTable.byName[name] {
                switch option.kind {
                case .value(let set):
                    let value: String
                    if let inline { value = inline } else {
                        guard i < arguments.count else { throw UsageError("Missing value for '--\(name) <\(name)>'") }
                        value = arguments[i]
                        i += 1
                    }
                    try set(&o, value)
                case .flag(let set), .toggle(let set):
                    guard inline == nil else { throw UsageError("'--\(name)' takes no value, got '\(a)'") }
                    set(&o, true)
                }
            } else if name.hasPrefix("no-"), let option = OptionTable.byName[String(name.dropFirst(3))],
                      case .toggle(let set) = option.kind {
                guard inline == nil else { throw UsageError("'--\(name)' takes no value, got '\(a)'") }
                set(&o, false)
            } else {
                throw UsageError("Unknown option '--\(name)'")
            }
        }
        try o.validate()
        return o
    }
}

/// One long option: what it sets in `HUDOptions`.
public struct OptionSpec: Sendable {
    public enum Kind: Sendable {
        /// `--name VALUE`: the setter checks and stores the value.
        case value(@Sendable (inout HUDOptions, String) throws(UsageError) -> Void)
        /// `--name`: sets true.
        case flag(@Sendable (inout HUDOptions, Bool) -> Void)
        /// `--name` / `--no-name`.
        case toggle(@Sendable (inout HUDOptions, Bool) -> Void)
    }
    public let name: String
    public let kind: Kind

    /// How the option is written in help and completions: `--name`, `--name/--no-name`.
    public var spellings: [String] {
        if case .toggle = kind { return ["--\(name)", "--no-\(name)"] }
        return ["--\(name)"]
    }
}

public enum OptionTable {
    private static func text(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, String) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .value { o, v throws(UsageError) in set(&o, v) })
    }

    private static func number(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, Double) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .value { o, v throws(UsageError) in
            // Swift's own reading of a Double: "1e3", "inf" and "nan" are numbers (ranges are
            // checked in `validate`), "12px" and "" are not.
            guard let d = Double(v) else { throw invalid(v, name) }
            set(&o, d)
        })
    }

    private static func integer(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, Int) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .value { o, v throws(UsageError) in
            guard let n = Int(v) else { throw invalid(v, name) }
            set(&o, n)
        })
    }

    private static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ type: E.Type, _ set: @escaping @Sendable (inout HUDOptions, E) -> Void
    ) -> OptionSpec where E.RawValue == String {
        OptionSpec(name: name, kind: .value { o, v throws(UsageError) in
            guard let e = E(rawValue: v) else {
                throw UsageError("\(invalid(v, name)). Please provide one of \(E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")).")
            }
            set(&o, e)
        })
    }

    /// The value is quoted up to 80 characters: a message stays a line whatever was given.
    private static func invalid(_ value: String, _ name: String) -> UsageError {
        let shown = value.count > 80 ? String(value.prefix(80)) + "… (\(value.utf8.count) bytes)" : value
        return UsageError("The value '\(shown)' is invalid for '--\(name) <\(name)>'")
    }

    private static func flag(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, Bool) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .flag(set))
    }

    private static func toggle(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, Bool) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .toggle(set))
    }

    /// Every option, in the order of `--help`.
    public static let all: [OptionSpec] = [
        OptionSpec(name: "mode", kind: .value { o, v throws(UsageError) in
            guard let m = HUDMode(named: v) else {
                throw UsageError("\(invalid(v, "mode")). Please provide one of \(HUDMode.vocabulary), or MBProgressHUD's name (annular-determinate, determinate-horizontal-bar, custom-view).")
            }
            o.mode = m
        }),
        text("label") { $0.label = $1 },
        text("details") { $0.details = $1 },
        number("progress") { $0.progress = $1 },
        text("button") { $0.button = $1 },
        text("image") { $0.image = $1 },
        number("image-size") { $0.imageSize = $1 },
        toggle("tint-image") { $0.tintImage = $1 },
        text("success-image") { $0.successImage = $1 },
        text("error-image") { $0.errorImage = $1 },
        text("info-image") { $0.infoImage = $1 },
        text("warning-image") { $0.warningImage = $1 },
        choice("spinner", SpinnerStyle.self) { $0.spinner = $1 },
        number("ring-thickness") { $0.ringThickness = $1 },
        number("ring-radius") { $0.ringRadius = $1 },
        toggle("show-value") { $0.showValue = $1 },
        toggle("alternate") { $0.alternate = $1 },
        text("alternate-color") { $0.alternateColor = $1 },
        toggle("markup") { $0.markup = $1 },
        toggle("smooth") { $0.smooth = $1 },

        choice("style", HUDStyle.self) { $0.style = $1 },
        text("bezel-color") { $0.bezelColor = $1 },
        text("content-color") { $0.contentColor = $1 },
        text("mask") { $0.mask = $1 },
        toggle("shadow") { $0.shadow = $1 },
        number("blur") { $0.blur = $1 },
        number("margin") { $0.margin = $1 },
        number("spacing") { $0.spacing = $1 },
        number("corner-radius") { $0.cornerRadius = $1 },
        text("min-size") { $0.minSize = $1 },
        toggle("square") { $0.square = $1 },
        text("offset") { $0.offset = $1 },
        text("font") { $0.font = $1 },
        text("details-font") { $0.detailsFont = $1 },
        number("max-text-width") { $0.maxTextWidth = $1 },

        text("theme") { $0.theme = $1 },
        text("config") { $0.config = $1 },
        flag("print-config") { $0.printConfig = $1 },
        text("icon-theme") { $0.iconTheme = $1 },

        choice("animation", HUDAnimation.self) { $0.animation = $1 },
        number("fade-in") { $0.fadeIn = $1 },
        number("fade-out") { $0.fadeOut = $1 },
        number("grace") { $0.grace = $1 },
        number("min-show") { $0.minShow = $1 },
        number("hide-after") { $0.hideAfter = $1 },
        flag("wait") { $0.wait = $1 },
        number("min-duration") { $0.minDuration = $1 },
        number("max-duration") { $0.maxDuration = $1 },
        toggle("click-through") { $0.clickThrough = $1 },

        text("window") { $0.window = $1 },
        text("monitor") { $0.monitor = $1 },
        text("geometry") { $0.geometry = $1 },
        number("scale") { $0.scale = $1 },

        number("result-time") { $0.resultTime = $1 },
        number("kill-timeout") { $0.killTimeout = $1 },
        toggle("progress-from-output") { $0.progressFromOutput = $1 },

        text("id") { $0.id = $1 },
        number("delay") { $0.delay = $1 },
        number("linger") { $0.linger = $1 },
        toggle("notifications") { $0.notifications = $1 },
        flag("replace") { $0.replace = $1 },

        text("render-png") { $0.renderPng = $1 },

        flag("progress-dialog") { $0.zenityProgress = $1 },
        text("text") { $0.text = $1 },
        number("percentage") { $0.percentage = $1 },
        flag("pulsate") { $0.pulsate = $1 },
        flag("auto-close") { $0.autoClose = $1 },
        flag("auto-kill") { $0.autoKill = $1 },
        flag("no-cancel") { $0.noCancel = $1 },
        text("title") { $0.title = $1 },
        integer("width") { $0.width = $1 },
        integer("height") { $0.height = $1 },
        flag("time-remaining") { $0.timeRemaining = $1 },
        text("cancel-label") { $0.cancelLabel = $1 },
        text("ok-label") { $0.okLabel = $1 },
        text("window-icon") { $0.windowIcon = $1 },
        text("attach") { $0.attach = $1 },
        number("timeout") { $0.timeout = $1 },
        text("extra-button") { $0.extraButton.append($1) },
        text("icon-name") { $0.iconName = $1 },
        text("display") { $0.display = $1 },
        text("class") { $0.class = $1 },
        text("name") { $0.name = $1 },
        flag("modal") { $0.modal = $1 },
        flag("ellipsize") { $0.ellipsize = $1 },
        flag("no-wrap") { $0.noWrap = $1 },
        text("gtk-module") { $0.gtkModule = $1 },
    ]

    static let byName: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })
}
