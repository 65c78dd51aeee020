import HUDCore
import HUDSocket

/// What a command line says, typed: every option of `xhud`, with nil where it was not given
/// (an update of a named HUD changes exactly what it names). Filled by `HUDOptions.parse`;
/// what the options mean (a HUD configuration, a parent region) is the command's business.
public struct HUDOptions: Sendable, Equatable {
    public var verb: String?
    public var message: String?

    public var mode: HUDMode?
    public var label: String?
    public var details: String?
    public var progress: Double?
    public var button: String?
    public var image: String?
    public var imageSize: Double?
    public var tintImage: Bool?
    public var successImage: String?
    public var errorImage: String?
    public var infoImage: String?
    public var warningImage: String?
    public var ringThickness: Double?
    public var ringRadius: Double?
    public var spinner: SpinnerStyle?
    public var showValue: Bool?
    public var alternate: Bool?
    public var alternateColor: String?
    public var markup: Bool?
    public var smooth: Bool?

    public var style: HUDStyle?
    public var bezelColor: String?
    public var contentColor: String?
    public var mask: String?
    public var shadow: Bool?
    public var blur: Double?
    public var margin: Double?
    public var spacing: Double?
    public var cornerRadius: Double?
    public var minSize: String?
    public var square: Bool?
    public var offset: String?
    public var font: String?
    public var detailsFont: String?
    public var maxTextWidth: Double?

    public var theme: String?
    public var config: String?
    public var printConfig = false
    public var iconTheme: String?

    public var animation: HUDAnimation?
    public var fadeIn: Double?
    public var fadeOut: Double?
    public var grace: Double?
    public var minShow: Double?
    public var hideAfter: Double?
    public var wait = false
    public var minDuration: Double = 5
    public var maxDuration: Double?
    public var clickThrough: Bool?

    public var window: String?
    public var monitor: String?
    public var geometry: String?
    public var scale: Double?

    public var resultTime: Double = 1
    public var killTimeout: Double = 5
    public var progressFromOutput: Bool?

    public var id: String?
    public var delay: Double?
    public var linger: Double?
    /// `xhud server`: serve `org.freedesktop.Notifications` on the session bus (`replace`: take
    /// it from the daemon that has it).
    public var notifications: Bool?
    public var replace = false

    /// Tests: the frame the renderer draws for these options written to a PNG instead of shown.
    public var renderPng: String?

    // zenity's --progress dialog and its options, so that its scripts run with the name changed.
    public var zenityProgress = false
    public var text: String?
    public var percentage: Double?
    public var pulsate = false
    public var autoClose = false
    public var autoKill = false
    public var noCancel = false
    public var title: String?
    public var width: Int?
    public var height: Int?
    public var timeRemaining = false
    public var cancelLabel: String?
    public var okLabel: String?
    public var windowIcon: String?
    public var attach: String?
    public var timeout: Double?
    public var extraButton: [String] = []
    public var iconName: String?
    public var display: String?
    public var `class`: String?
    public var name: String?
    public var modal = false
    public var ellipsize = false
    public var noWrap = false
    public var gtkModule: String?

    /// The command to run while the HUD shows (everything after `--`).
    public var command: [String] = []

    public init() {}

    /// The verb, typed (validated: nil only without one).
    public var action: Verb? { verb.flatMap(Verb.init(rawValue:)) }

    /// A notification verb's icon.
    public static func mode(of verb: Verb) -> HUDMode? {
        switch verb {
        case .success: return .success
        case .error: return .error
        case .info: return .info
        case .warning: return .warning
        default: return nil
        }
    }

    /// The mode the invocation asks for: a notification verb, zenity's --pulsate, --mode.
    public var requestedMode: HUDMode? {
        if let a = action, let m = Self.mode(of: a) { return m }
        if pulsate { return .indeterminate }
        if let mode { return mode }
        if zenityProgress || percentage != nil { return .bar }
        return nil
    }

    /// Whether this invocation shows a notification that dismisses itself.
    public var isNotification: Bool {
        if action?.isNotification == true { return true }
        return (requestedMode?.isNotification ?? false) && command.isEmpty
    }

    /// Checks what no single option can: every number against the ranges in `Limits` (past this
    /// point no conversion can trap and no deadline is out of reach), options that exclude each
    /// other, what a verb takes.
    public func validate() throws(UsageError) {
        let seconds: [(String, Double?)] = [("--grace", grace), ("--min-show", minShow), ("--hide-after", hideAfter),
            ("--min-duration", minDuration), ("--max-duration", maxDuration), ("--result-time", resultTime),
            ("--kill-timeout", killTimeout), ("--delay", delay), ("--linger", linger), ("--timeout", timeout),
            ("--fade-in", fadeIn), ("--fade-out", fadeOut)]
        for case let (name, v?) in seconds { try Self.check(name, v, Limits.seconds, unit: " seconds") }
        let others: [(String, Double?, ClosedRange<Double>)] = [("--progress", progress, Limits.progress),
            ("--margin", margin, Limits.margin),
            ("--corner-radius", cornerRadius, Limits.cornerRadius), ("--image-size", imageSize, Limits.imageSize),
            ("--scale", scale, Limits.scale), ("--spacing", spacing, Limits.margin), ("--blur", blur, Limits.blur),
            ("--max-text-width", maxTextWidth, Limits.textWidth),
            ("--ring-thickness", ringThickness, Limits.ringThickness), ("--ring-radius", ringRadius, Limits.ringRadius)]
        for case let (name, v?, range) in others { try Self.check(name, v, range, unit: "") }
        // zenity clamps its percentage; only what is not a number at all is refused.
        if let p = percentage, !p.isFinite { throw UsageError("--percentage must be a number, got \(p)") }
        if let g = geometry, parseGeometry(g) == nil {
            throw UsageError("--geometry must be WxH+X+Y in whole pixels (sizes 1 to 32767, positions -32768 to 32767), got '\(g)'")
        }
        if [window, monitor, geometry].compactMap({ $0 }).count > 1 {
            throw UsageError("give only one of --window, --monitor and --geometry")
        }
        if let v = verb {
            guard let a = Verb(rawValue: v) else {
                throw UsageError("unknown verb '\(v)' (expected \(Verb.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            if !a.isNotification && message != nil { throw UsageError("'\(v)' takes no text") }
            if a.needsID && id == nil { throw UsageError("'\(v)' needs --id NAME") }
            if !command.isEmpty { throw UsageError("'\(v)' cannot wrap a command") }
        }
        if let id { try Self.validateName(id) }
        if id != nil && !command.isEmpty { throw UsageError("--id cannot wrap a command") }
        if mode == .custom && image == nil { throw UsageError("--mode custom needs --image FILE") }
        if image == "" { throw UsageError("--image needs a file (PNG or SVG) or an icon name, got ''") }
    }

    static func check(_ name: String, _ v: Double, _ range: ClosedRange<Double>, unit: String) throws(UsageError) {
        guard v.isFinite, range.contains(v) else {
            throw UsageError("\(name) must be \(Limits.describe(range))\(unit), got \(v)")
        }
    }

    public static func validateName(_ id: String) throws(UsageError) {
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            throw UsageError("--id must be 1-64 letters, digits, '-', '_' or '.'")
        }
    }
}

/// A command line that cannot be run as given (exit status 2), in one line.
public struct UsageError: Error, Equatable, CustomStringConvertible, Sendable {
    public let description: String
    /// At most 1 000 characters: a message that quotes what was given stays readable whatever
    /// its size (a megabyte of option).
    public init(_ description: String) {
        self.description = description.count > 1000 ? String(description.prefix(1000)) + "…" : description
    }
}
