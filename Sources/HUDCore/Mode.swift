/// What the indicator shows, as MBProgressHUD's `mode`, plus SVProgressHUD's icons.
public enum HUDMode: String, CaseIterable, Sendable {
    case indeterminate  // spinner
    case determinate  // pie
    case annular  // ring
    case bar  // horizontal bar
    case success, error, info, warning
    case custom  // an image
    case text  // no indicator

    /// Modes whose indicator shows `progress`.
    public var showsProgress: Bool { self == .determinate || self == .annular || self == .bar }
    /// Icon and text modes are notifications: click-through by default, as the reference says.
    public var isNotification: Bool {
        switch self {
        case .success, .error, .info, .warning, .text, .custom: return true
        default: return false
        }
    }
    /// Modes whose indicator moves on its own.
    public var isAnimated: Bool { self == .indeterminate }

    /// The mode a word names, on the command line, on stdin, in a configuration file: its own
    /// name, what it draws (`spinner`, `pie`, `ring`) or MBProgressHUD's and SVProgressHUD's name
    /// for it (`annularDeterminate`, `determinate-horizontal-bar`, `customView`, `image`), in any
    /// case, with or without dashes and underscores.
    public init?(named word: String) {
        let key = String(word.lowercased().filter { $0 != "-" && $0 != "_" })
        guard let m = HUDMode.aliases[key] else { return nil }
        self = m
    }

    /// The words `init(named:)` takes besides the modes' own names, as they are documented.
    public static let aliasNames = [
        "spinner", "pie", "ring", "annular-determinate", "determinate-horizontal-bar",
        "horizontal-bar", "custom-view", "image",
    ]

    private static let aliases: [String: HUDMode] = {
        var names = Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })
        let more: [(String, HUDMode)] = [
            ("spinner", .indeterminate), ("pie", .determinate), ("ring", .annular),
            ("annulardeterminate", .annular), ("determinatehorizontalbar", .bar), ("horizontalbar", .bar),
            ("customview", .custom), ("image", .custom),
        ]
        for (k, v) in more { names[k] = v }
        return names
    }()

    /// "indeterminate, determinate, ..., spinner, pie, ring" for messages (MBProgressHUD's
    /// names are taken too; `aliasNames` lists them for the documentation).
    public static var vocabulary: String {
        (allCases.map(\.rawValue) + ["spinner", "pie", "ring"]).joined(separator: ", ")
    }
}

/// The two indeterminate spinners.
public enum SpinnerStyle: String, CaseIterable, Sendable {
    case ring  // SVProgressHUD's flat arc with round caps, rotating once a second, ends breathing
    case spokes  // the classic 12-spoke activity indicator of MBProgressHUD
}

/// Bezel appearance presets.
public enum HUDStyle: String, CaseIterable, Sendable {
    case dark, light, custom
}

/// What is drawn (and whether input is blocked) over the whole parent region.
public enum HUDMask: Equatable, Sendable {
    case none  // nothing drawn, input passes through
    case clear  // nothing drawn, input blocked
    case black  // black at 0.4
    case gradient  // radial: clear at the centre, black 0.75 at radius min(w, h)
    case color(RGBA)
    /// The region blurred behind, then tinted with the colour: MBProgressHUD's background view
    /// with the blur style.
    case blur(RGBA)

    public var blocksInput: Bool { self != .none }
    /// How far a blurring mask blurs the region, logical pixels (iOS's materials: about 20-30 pt).
    public static let blurRadius = 20.0
    /// Whether anything is painted outside the bezel.
    public var paintsBackground: Bool {
        switch self {
        case .none, .clear: return false
        case .color(let c): return c.a > 0
        default: return true
        }
    }

    public static func parse(_ s: String) throws -> HUDMask {
        switch s.lowercased() {
        case "none": return .none
        case "clear": return .clear
        case "black": return .black
        case "gradient": return .gradient
        case "blur": return .blur(RGBA(0, 0, 0, 0))
        default:
            if s.lowercased().hasPrefix("blur:") { return .blur(try RGBA.parse(String(s.dropFirst(5)))) }
            return .color(try RGBA.parse(s))
        }
    }
}

/// Show and hide animations (reference: all 0.3 s, critically damped; `pop` is SVProgressHUD's feel).
public enum HUDAnimation: String, CaseIterable, Sendable {
    case fade
    case zoom  // zoom-in on show, zoom-out on hide
    case zoomIn = "zoom-in"
    case zoomOut = "zoom-out"
    case pop  // 0.15 s fade, scale 1.3 -> 1 on show, 1 -> 1/1.3 on hide
    case none
}
