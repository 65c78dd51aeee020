import Foundation

/// UIKit's `UIFont` as a value: a Pango font description (`system-ui Semibold 16px`), which is
/// what the HUDs draw with. iOS points are pixels at scale 1 (the HUD scales them with the
/// display), so `UIFont.boldSystemFont(ofSize: 16)` is `system-ui Bold 16px`. The system font is
/// `system-ui`: the desktop's UI font (fontconfig's alias, or the family the desktop's settings
/// name). A string literal is a font description: `label.font = "Serif 14px"`.
public struct UIFont: Equatable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The Pango font description.
    public let fontDescription: String
    /// The size given, iOS points (nil for a description given as text).
    public let pointSize: CGFloat?

    /// A Pango font description as it is (`Sans Bold 15`, `DejaVu Serif Italic 12px`).
    public init(description: String) {
        fontDescription = description
        pointSize = nil
    }

    public init(stringLiteral value: String) { self.init(description: value) }

    /// A family (or a family and style words, `DejaVu Sans Bold`) at `size` points.
    public init?(name: String, size: CGFloat) {
        guard !name.isEmpty, size > 0, size.isFinite else { return nil }
        self.init(name, size)
    }

    private init(_ words: String, _ size: CGFloat) {
        fontDescription = "\(words) \(Self.format(size))px"
        pointSize = size
    }

    public var description: String { fontDescription }

    /// UIKit's weights, by their Pango names.
    public struct Weight: Hashable, Sendable {
        let word: String
        public static let ultraLight = Weight(word: "Ultra-Light"), thin = Weight(word: "Thin"), light = Weight(word: "Light")
        public static let regular = Weight(word: ""), medium = Weight(word: "Medium"), semibold = Weight(word: "Semi-Bold")
        public static let bold = Weight(word: "Bold"), heavy = Weight(word: "Heavy"), black = Weight(word: "Ultra-Heavy")
    }

    /// The system font: the desktop's UI font.
    public static func systemFont(ofSize size: CGFloat) -> UIFont { UIFont("system-ui", size) }
    /// The system font at a weight.
    public static func systemFont(ofSize size: CGFloat, weight: Weight) -> UIFont {
        UIFont(weight.word.isEmpty ? "system-ui" : "system-ui \(weight.word)", size)
    }
    /// The bold system font (MBProgressHUD's own label and details font; a HUD's default label
    /// is semibold, as iOS's own HUDs are).
    public static func boldSystemFont(ofSize size: CGFloat) -> UIFont { UIFont("system-ui Bold", size) }
    /// The italic system font.
    public static func italicSystemFont(ofSize size: CGFloat) -> UIFont { UIFont("system-ui Italic", size) }

    /// The same font at another size.
    public func withSize(_ size: CGFloat) -> UIFont {
        var words = fontDescription.split(separator: " ")
        if let last = words.last, last.allSatisfy({ $0.isNumber || $0 == "." || $0 == "p" || $0 == "x" }) { words.removeLast() }
        return UIFont(words.isEmpty ? "system-ui" : words.joined(separator: " "), size)
    }

    private static func format(_ size: CGFloat) -> String {
        size == size.rounded() ? String(Int(size)) : String(Double(size))
    }
}
