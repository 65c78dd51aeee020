import HUDCore
import HUDSystem
import HUDSocket

/// What a command line says, typed: every option of `xhud`, with nil where it was not given
/// (an update of a named HUD changes exactly what it names). Filled by `HUDOptions.parse`;
/// what the options mean (a HUD configuration, a parent region) is the command's business.
package struct HUDOptions: Sendable, Equatable {
    /// The verb (`success`, `hide`, `server`, ...); nil for a HUD of the options alone.
    package var verb: Verb?
    package var message: String?
    /// `notifications action ACTION`: the action's key or label.
    package var argument: String?

    package var mode: HUDMode?
    package var label: String?
    package var details: String?
    package var progress: Double?
    package var button: String?
    package var image: String?
    package var imageSize: Double?
    package var tintImage: Bool?
    package var successImage: String?
    package var errorImage: String?
    package var infoImage: String?
    package var warningImage: String?
    package var ringThickness: Double?
    package var ringRadius: Double?
    package var spinner: SpinnerStyle?
    package var showValue: Bool?
    package var alternate: Bool?
    package var alternateColor: String?
    package var markup: Bool?
    package var smooth: Bool?

    package var style: HUDStyle?
    package var bezelColor: String?
    package var contentColor: String?
    package var mask: String?
    package var shadow: Bool?
    package var blur: Double?
    package var margin: Double?
    package var spacing: Double?
    package var cornerRadius: Double?
    package var minSize: String?
    package var square: Bool?
    package var offset: String?
    package var font: String?
    package var detailsFont: String?
    /// The desktop's UI font family, drawn where a font names `system-ui`: the server's, never
    /// an option.
    package var uiFamily: String?
    package var maxTextWidth: Double?

    package var theme: String?
    package var config: String?
    package var printConfig = false
    package var iconTheme: String?

    package var animation: HUDAnimation?
    package var fadeIn: Double?
    package var fadeOut: Double?
    package var grace: Double?
    package var minShow: Double?
    package var hideAfter: Double?
    package var wait = false
    package var minDuration = OptionDefaults.minDuration
    package var maxDuration: Double?
    package var clickThrough: Bool?

    package var position: HUDPosition?
    /// The invocation stands for a notification of another program (`xhud server
    /// --notifications`): a corner of the screen by default, dunst's 10 s, gone at its timeout.
    package var busNotification = false
    /// The notification's application, category and urgency (0-2), which rules match.
    package var busApp: String?
    package var busCategory: String?
    package var busUrgency: Int?
    /// A rule's: the notification goes to the history unseen.
    package var skip: Bool?
    /// A rule's: the notification's urgency instead of its own.
    package var urgency: NotificationUrgency?

    package var window: String?
    package var monitor: String?
    /// The display to draw on: chosen by the client (`XHUD_BACKEND` for the server it starts).
    package var backend: DisplayBackend?
    package var geometry: String?
    package var scale: Double?

    package var resultTime = OptionDefaults.resultTime
    package var killTimeout = OptionDefaults.killTimeout
    package var progressFromOutput: Bool?

    package var id: String?
    package var delay: Double?
    package var linger: Double?
    /// `xhud server`: serve `org.freedesktop.Notifications` on the session bus (`replace`: take
    /// it from the daemon that has it).
    package var notifications: Bool?
    package var replace = false

    /// Tests: the frame the renderer draws for these options written to a PNG instead of shown.
    package var renderPng: String?

    // zenity's --progress dialog and the options of it that xhud reads (the others are taken
    // and ignored: `OptionSpec.Kind.ignored`), so that its scripts run with the name changed.
    package var zenityProgress = false
    package var text: String?
    package var percentage: Double?
    package var pulsate = false
    package var autoClose = false
    package var autoKill = false
    package var noCancel = false
    package var timeRemaining = false
    package var cancelLabel: String?
    package var attach: String?
    package var timeout: Double?
    package var extraButton: [String] = []

    /// What rules match of another program's notification (`Rule.matchable`).
    package var notificationFacts: [String: String]? {
        guard busNotification else { return nil }
        var f = [
            "app-name": busApp ?? "", "summary": HUDConfiguration.plainText(ofMarkup: label ?? ""),
            "body": HUDConfiguration.plainText(ofMarkup: details ?? ""),
            "urgency": NotificationUrgency(level: busUrgency ?? 1).rawValue,
        ]
        if let c = busCategory { f["category"] = c }
        return f
    }

    /// stdin is read as `zenity --progress` reads it: the invocation is spelled as zenity's
    /// (its `--progress`, or an option only its progress dialog has).
    package var readsZenityInput: Bool {
        zenityProgress || percentage != nil || pulsate || autoClose || autoKill || noCancel || timeRemaining || text != nil
    }

    /// The command to run while the HUD shows (everything after `--`).
    package var command: [String] = []

    package init() {}

    /// A notification verb's icon.
    package static func mode(of verb: Verb) -> HUDMode? {
        switch verb {
        case .success: return .success
        case .error: return .error
        case .info: return .info
        case .warning: return .warning
        default: return nil
        }
    }

    /// The mode the invocation asks for: a notification verb, zenity's --pulsate, --mode.
    package var requestedMode: HUDMode? {
        if let a = verb, let m = Self.mode(of: a) { return m }
        if pulsate { return .indeterminate }
        if let mode { return mode }
        if zenityProgress || percentage != nil { return .bar }
        return nil
    }

    /// Whether this invocation shows a notification that dismisses itself.
    package var isNotification: Bool {
        if verb?.isNotification == true { return true }
        return (requestedMode?.isNotification ?? false) && command.isEmpty
    }

    /// Checks what no single option can (each checks its own value as it parses it): options
    /// that exclude each other, what a verb takes.
    package func validate() throws(UsageError) {
        if [window, monitor, geometry].compactMap({ $0 }).count > 1 {
            throw UsageError("give only one of --window, --monitor and --geometry")
        }
        if let v = verb {
            if argument != nil && !(v == .notifications && message == "action") {
                throw UsageError("Unexpected argument '\(argument!)'")
            }
            if v == .notifications {
                guard let m = message, Verb.notificationCommands.contains(m) else {
                    let words = Verb.notificationCommands
                    throw UsageError(
                        "'notifications' needs one of \(words.joined(separator: ", "))"
                            + (message.map { ", got '\($0)'" + Suggestion.hint(for: $0, among: words) } ?? ""))
                }
            } else if !v.isNotification && message != nil {
                throw UsageError("'\(v.rawValue)' takes no text")
            }
            if v.isNotification && !hasText && id == nil {
                throw UsageError("'\(v.rawValue)' needs a text to show, e.g. xhud \(v.rawValue) \"Saved\" (or --label, --details)")
            }
            if v.needsID && id == nil { throw UsageError("'\(v.rawValue)' needs --id NAME") }
            if !command.isEmpty { throw UsageError("'\(v.rawValue)' cannot wrap a command") }
        }
        if id != nil && !command.isEmpty { throw UsageError("--id cannot wrap a command") }
        if mode == .custom && image == nil { throw UsageError("--mode custom needs --image FILE") }
        if mode == .text && !hasText && id == nil && command.isEmpty { throw UsageError("--mode text needs a text: --label or --details") }
    }

    /// Some text to show: a notification's, --label, --details or zenity's --text.
    var hasText: Bool { [message, label, details, text].contains { !($0 ?? "").isEmpty } }

    package static func validateName(_ id: String) throws(UsageError) {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw UsageError("--id must be 1-64 letters, digits, '-', '_' or '.'")
        }
    }
}

/// A command line that cannot be run as given (exit status 2), in one line.
package struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    package let description: String
    /// At most 1 000 characters: a message that quotes what was given stays readable whatever
    /// its size (a megabyte of option).
    package init(_ description: String) {
        self.description = description.count > 1000 ? String(description.prefix(1000)) + "…" : description
    }
}

/// A notification's urgency, as the specification names its levels.
/// `--backend`.
package enum DisplayBackend: String, CaseIterable, Sendable {
    case x11, wayland
}

package enum NotificationUrgency: String, CaseIterable, Sendable {
    case low, normal, critical
    package init(level: Int) { self = level <= 0 ? .low : level >= 2 ? .critical : .normal }
}
