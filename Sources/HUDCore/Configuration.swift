/// Everything that describes what a HUD looks like and how it times itself.
/// Defaults follow MBProgressHUD (reference: hud-behaviour.md); numbers are logical pixels.
public struct HUDConfiguration: Equatable, Sendable {
    /// Every button's title in the order drawn, left to right: `button`, then `extraButtons`
    /// (empty titles are no buttons).
    package var buttonTitles: [String] { ([button] + extraButtons).filter { !$0.isEmpty } }

    public var mode: HUDMode = .indeterminate
    public var spinner: SpinnerStyle = .ring
    public var label: String = ""
    public var details: String = ""
    public var button: String = ""
    /// More buttons beside `button`, in a row (zenity's `--extra-button`, a notification's
    /// further actions): as many as fit the bezel's widest content; the rest are left out.
    public var extraButtons: [String] = []
    /// Whether label and details are Pango markup (never by default: text is text).
    public var markup: Bool = false

    public var style: HUDStyle = .dark
    /// Label, details, button and indicator colour; nil = the style's (alpha 0.7, as MBProgressHUD).
    public var contentColor: RGBA? = nil
    /// Bezel colour; nil = the style's.
    public var bezelColor: RGBA? = nil
    /// nil = the mode's default: `clear` for spinner and progress, `none` for notifications.
    public var mask: HUDMask? = nil
    public var shadow: Bool = true
    /// Blur radius of what shows through the bezel (0: none): a material, as MBProgressHUD 1.x
    /// and SVProgressHUD 2.x blur by default.
    public var blur: Double = 20

    public var margin: Double = 20
    public var spacing: Double = 4
    public var cornerRadius: Double = 10
    public var minSize: Size = .zero
    public var square: Bool = false
    /// Offset of the bezel from the centre of the parent region; beyond an edge pins it `margin` from it.
    public var offset: Point = .zero
    /// Label and details wrap or ellipsize at this width at most (SVProgressHUD caps its status
    /// at 200 x 300), never at the screen's edge.
    public var maxTextWidth: Double = 300

    /// The fonts, as iOS weighs its text: a semibold label and button, a regular details label,
    /// at MBProgressHUD's sizes. `system-ui` is the desktop's UI font: fontconfig's alias
    /// (Cantarell, Noto Sans UI, ... where installed, else the default sans), or the family the
    /// desktop's settings name, which a server puts in its place.
    public var labelFont: String = "system-ui Semibold 16px"
    public var detailsFont: String = "system-ui 12px"
    public var buttonFont: String = "system-ui Semibold 12px"
    /// The family that stands for the desktop's UI font in a description.
    public static let uiFamily = "system-ui"

    /// A bar's value and a ring's: the label's family, semibold, small.
    package var valueFont: String { Self.families(of: labelFont) + " Semibold 11px" }
    package var ringValueFont: String { Self.families(of: labelFont) + " Semibold 10px" }
    private static func families(of description: String) -> String {
        FontDescription(description)?.families ?? uiFamily
    }

    /// The fonts with the desktop's UI family where a description names `system-ui`.
    public mutating func useUIFamily(_ family: String) {
        for k in [\HUDConfiguration.labelFont, \.detailsFont, \.buttonFont] {
            self[keyPath: k] = Self.replacingUIFamily(self[keyPath: k], with: family)
        }
    }

    /// `description` with its leading `system-ui` family (alone or first of a list) replaced.
    public static func replacingUIFamily(_ description: String, with family: String) -> String {
        guard description.hasPrefix(uiFamily) else { return description }
        let rest = description.dropFirst(uiFamily.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "," else { return description }
        return family + rest
    }

    /// Progress 0...1 for determinate, annular and bar.
    public var progress: Double = 0
    /// Draws the value ("45%") beside a bar or inside a ring.
    public var showValue: Bool = false
    /// Alternate state for bars (xob's `!`), e.g. muted: another colour.
    public var alternate: Bool = false
    public var alternateColor: RGBA = RGBA(1, 0.27, 0.23)

    /// Custom image (PNG) for `.custom`, fitted into `imageSize`.
    public var image: String? = nil
    public var imageSize: Double = 37
    public var tintImage: Bool = false
    /// Images that replace the drawn success, error, info and warning icons (SVProgressHUD's
    /// `setSuccessImage:` ...): a PNG or SVG file or an icon name, fitted into `imageSize`.
    public var successImage: String? = nil
    public var errorImage: String? = nil
    public var infoImage: String? = nil
    public var warningImage: String? = nil

    /// Line width of the spinner's ring and the progress ring (SVProgressHUD's `ringThickness`, 2).
    public var ringThickness: Double = 2
    /// Radius of the spinner's ring and the progress ring to the middle of the line; nil: the
    /// indicator's own (MBProgressHUD's 37 px view). SVProgressHUD: 18 with a status, 24 without.
    public var ringRadius: Double? = nil

    public var animation: HUDAnimation = .fade
    public var graceTime: Double = 0
    public var minShowTime: Double = 0
    /// Lengths of the show and hide animations; nil: the animation's own (0.3 s, `pop` 0.15 s).
    public var showDuration: Double? = nil
    public var hideDuration: Double? = nil

    public init() {}

    /// The image that replaces the mode's drawn icon, if one was set.
    public var resultImage: String? {
        switch mode {
        case .success: return successImage
        case .error: return errorImage
        case .info: return infoImage
        case .warning: return warningImage
        default: return nil
        }
    }

    public var effectiveMask: HUDMask { mask ?? (mode.isNotification ? .none : .clear) }

    /// What the HUD says in words, as a window's name and a screen reader give it: the label,
    /// else the details' first line, else what its icon means; markup taken out.
    public var spokenText: String {
        var text = label.isEmpty ? String(details.split(separator: "\n", maxSplits: 1).first ?? "") : label
        if markup { text = HUDConfiguration.plainText(ofMarkup: text) }
        if text.isEmpty, mode.isNotification { text = mode.rawValue.prefix(1).uppercased() + mode.rawValue.dropFirst() }
        return String(text.prefix(256))
    }

    /// Pango markup's text: tags dropped, the five entities read. By hand, character by
    /// character: the standard library's `replacing` would link the regex engine into the thin
    /// client (a megabyte of code).
    /// Marks a link's text in markup, before and after it (U+2060 WORD JOINER: drawn as
    /// nothing, no break): a click finds which link it is on by counting them.
    package static let linkMark: Unicode.Scalar = "\u{2060}"

    public static func plainText(ofMarkup s: String) -> String {
        let entities: [String: Character] = ["lt": "<", "gt": ">", "quot": "\"", "apos": "'", "amp": "&"]
        var out = "", inTag = false
        var entity: String?
        for ch in s {
            if inTag { if ch == ">" { inTag = false }; continue }
            if var e = entity {
                if ch == ";", let c = entities[e] { out.append(c); entity = nil; continue }
                if ch.isLetter && e.count < 5 { e.append(ch); entity = e; continue }
                out += "&" + e
                entity = nil
            }
            if ch == "<" { inTag = true } else if ch == "&" { entity = "" } else if ch != Character(linkMark) { out.append(ch) }
        }
        if let e = entity { out += "&" + e }
        return out
    }

    public var effectiveContentColor: RGBA {
        if let c = contentColor { return c }
        switch style {
        case .light: return RGBA(0, 0, 0, 0.7)
        default: return RGBA(1, 1, 1, 0.9)
        }
    }

    /// The bezel's fill where what is behind it is blurred (by this process without a
    /// compositor, or by a compositor that blurs): the style's colour a little lighter than a
    /// flat bezel's, as iOS's materials are; a colour of the user's own as given.
    public var materialBezelColor: RGBA {
        if bezelColor != nil || blur <= 0 { return effectiveBezelColor }
        switch style {
        case .light: return RGBA(0.95, 0.95, 0.95, 0.87)
        default: return RGBA(0.1, 0.1, 0.1, 0.79)
        }
    }

    /// The bezel's fill where a blur was asked for and nothing blurs (a compositor that ignores
    /// the request): a little denser than the material so that text behind
    /// competes less, and within 10 levels of it over any page, so that the same HUD is one
    /// material under every compositor. A theme's or the user's colour keeps its hue and rises
    /// to that density too (`--blur 0` keeps a translucent colour as given).
    public var unblurredBezelColor: RGBA {
        if blur <= 0 { return effectiveBezelColor }
        if let c = bezelColor { return RGBA(c.r, c.g, c.b, max(c.a, HUDConfiguration.unblurredFill)) }
        switch style {
        case .light: return RGBA(0.95, 0.95, 0.95, 0.9)
        default: return RGBA(0.1, 0.1, 0.1, HUDConfiguration.unblurredFill)
        }
    }
    public static let unblurredFill = 0.81

    /// A fill where what lies beneath is not known (a copy of the screen gone out of date):
    /// nearly opaque, so that nothing untrue shows through.
    public static let opaqueFill = 0.96

    public var effectiveBezelColor: RGBA {
        if let c = bezelColor { return c }
        switch style {
        case .light: return RGBA(0.95, 0.95, 0.95, 0.9)
        default: return RGBA(0.1, 0.1, 0.1, 0.82)
        }
    }
}
