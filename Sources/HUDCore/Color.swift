/// A colour with straight (not premultiplied) alpha, each component 0...1.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r: Double, g: Double, b: Double, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public func withAlpha(_ a: Double) -> RGBA { RGBA(r, g, b, a) }
    /// Every component within 0...1 (NaN is 0).
    public var clamped: RGBA {
        let u = Limits.progress
        return RGBA(u.clamp(r), u.clamp(g), u.clamp(b), u.clamp(a))
    }
    public static let black = RGBA(0, 0, 0)
    public static let white = RGBA(1, 1, 1)
    public static let clear = RGBA(0, 0, 0, 0)

    public var description: String {
        func h(_ v: Double) -> String {
            let n = Int((Limits.progress.clamp(v) * 255).rounded())
            let s = String(n, radix: 16)
            return n < 16 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + h(a)
    }

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case invalid(String)
        public var description: String {
            switch self {
            case .invalid(let s):
                return "unknown colour '\(s)': use #RGB, #RRGGBB, #RRGGBBAA, rgba(R,G,B,A) or a name such as white, black, red"
            }
        }
    }

    static let names: [String: RGBA] = [
        "black": RGBA(0, 0, 0), "white": RGBA(1, 1, 1), "clear": .clear, "transparent": .clear,
        "red": RGBA(1, 0.23, 0.19), "green": RGBA(0.2, 0.78, 0.35), "blue": RGBA(0, 0.48, 1),
        "orange": RGBA(1, 0.58, 0), "yellow": RGBA(1, 0.8, 0), "gray": RGBA(0.56, 0.56, 0.58),
        "grey": RGBA(0.56, 0.56, 0.58), "purple": RGBA(0.69, 0.32, 0.87), "pink": RGBA(1, 0.18, 0.33),
        "teal": RGBA(0.19, 0.69, 0.78),
    ]

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, `rgb(r,g,b)`, `rgba(r,g,b,a)` (r,g,b 0-255, a 0-1)
    /// and a few names, optionally followed by `/alpha` (e.g. `black/0.4`).
    public static func parse(_ text: String) throws -> RGBA {
        var s = text.trimmingSpaces().lowercased()
        var alphaOverride: Double? = nil
        if let slash = s.lastIndex(of: "/") {
            guard let a = Double(s[s.index(after: slash)...]), a >= 0, a <= 1 else { throw ParseError.invalid(text) }
            alphaOverride = a
            s = String(s[..<slash])
        }
        var colour: RGBA
        if let named = names[s] {
            colour = named
        } else if s.hasPrefix("#") {
            let hex = Array(s.dropFirst())
            let digits = hex.compactMap { $0.isASCII ? $0.hexDigitValue : nil }
            guard digits.count == hex.count else { throw ParseError.invalid(text) }
            switch digits.count {
            case 3, 4:
                let v = digits.map { Double($0 * 17) / 255 }
                colour = RGBA(v[0], v[1], v[2], digits.count == 4 ? v[3] : 1)
            case 6, 8:
                var v: [Double] = []
                for i in stride(from: 0, to: digits.count, by: 2) { v.append(Double(digits[i] * 16 + digits[i + 1]) / 255) }
                colour = RGBA(v[0], v[1], v[2], digits.count == 8 ? v[3] : 1)
            default: throw ParseError.invalid(text)
            }
        } else if (s.hasPrefix("rgb(") || s.hasPrefix("rgba(")) && s.hasSuffix(")") {
            let inner = s[s.index(after: s.firstIndex(of: "(")!)..<s.index(before: s.endIndex)]
            let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard parts.count == 3 || parts.count == 4 else { throw ParseError.invalid(text) }
            let n = parts.map { Double($0) }
            guard n.allSatisfy({ $0 != nil }) else { throw ParseError.invalid(text) }
            let c = n.map { $0! }
            guard c[0...2].allSatisfy({ $0 >= 0 && $0 <= 255 }) else { throw ParseError.invalid(text) }
            let a = c.count == 4 ? c[3] : 1
            guard a >= 0 && a <= 1 else { throw ParseError.invalid(text) }
            colour = RGBA(c[0] / 255, c[1] / 255, c[2] / 255, a)
        } else {
            throw ParseError.invalid(text)
        }
        if let a = alphaOverride { colour.a = a }
        return colour
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\n" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\n" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
