/// The valid range of every number xhud takes, in one place. The command line, stdin, the socket
/// and the library check a number once, where it enters: the command refuses a value outside its
/// range (exit 2, naming the range); the library clamps. Past that point the code may convert
/// without checking, and the conversions below still never trap.
package enum Limits {
    /// Seconds: grace, min show, hide after, durations, result time, kill timeout, delay, linger.
    /// A day is longer than any HUD needs to wait, and keeps every deadline a finite number.
    package static let seconds: ClosedRange<Double> = 0...86_400
    /// Logical pixels: margin and corner radius.
    package static let margin: ClosedRange<Double> = 0...500
    package static let cornerRadius: ClosedRange<Double> = 0...500
    /// Logical pixels of the box a custom image is fitted into.
    package static let imageSize: ClosedRange<Double> = 1...512
    /// Each side of `--min-size`, logical pixels.
    package static let minSide: ClosedRange<Double> = 0...4_096
    /// An offset beyond an edge pins the bezel to it (MBProgressHUD uses 1e6 for that), so
    /// larger values are clamped to this, not refused.
    package static let offset: ClosedRange<Double> = -1_000_000...1_000_000
    package static let scale: ClosedRange<Double> = 0.5...8
    /// Blur radius, logical pixels (0: none).
    package static let blur: ClosedRange<Double> = 0...64
    /// The rings' line width and radius, logical pixels.
    package static let ringThickness: ClosedRange<Double> = 0.5...64
    package static let ringRadius: ClosedRange<Double> = 1...256
    /// The widest label and details, logical pixels.
    package static let textWidth: ClosedRange<Double> = 40...4_096
    package static let progress: ClosedRange<Double> = 0...1
    package static let percentage: ClosedRange<Double> = 0...100
    /// X11 coordinates are 16-bit: a parent region lies within them.
    package static let coordinate: ClosedRange<Int> = -32_768...32_767
    package static let extent: ClosedRange<Int> = 1...32_767
    /// Bytes of a label and a button's title, and of the details: far more than a HUD shows,
    /// and bounded so that no text takes long to shape.
    package static let labelBytes = 4_096
    package static let detailsBytes = 16_384
    /// Combining marks on one character (Zalgo text, or one letter and 30 000 accents): shaping
    /// and drawing stack them all; more than this are dropped.
    package static let marksPerCharacter = 16

    /// `s` within `maxBytes` (cut at a character) with at most `marksPerCharacter` marks on each
    /// character; `s` itself when it is within both, which is checked without copying.
    package static func text(_ s: String, maxBytes: Int) -> String {
        var marks = 0
        var fits = s.utf8.count <= maxBytes
        if fits {
            for u in s.unicodeScalars {
                if u.properties.isGraphemeExtend { marks += 1; if marks > marksPerCharacter { fits = false; break } } else { marks = 0 }
            }
        }
        if fits { return s }
        var out = String.UnicodeScalarView()
        var bytes = 0
        marks = 0
        for u in s.unicodeScalars {
            if u.properties.isGraphemeExtend {
                marks += 1
                if marks > marksPerCharacter { continue }
            } else {
                marks = 0
            }
            bytes += UTF8.width(u)
            if bytes > maxBytes { break }
            out.append(u)
        }
        return String(out)
    }

    /// Font sizes above this (px) are drawn at this size: text never outgrows a screen.
    package static let fontPixels: Double = 400

    /// "between 0 and 86400" for messages.
    package static func describe(_ r: ClosedRange<Double>) -> String { "between \(format(r.lowerBound)) and \(format(r.upperBound))" }

    /// "0.5", "86400": a bound as messages and the help write it.
    package static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}

extension ClosedRange where Bound == Double {
    /// `v` within the range; NaN becomes the lower bound.
    package func clamp(_ v: Double) -> Double {
        guard !v.isNaN else { return lowerBound }
        return Swift.min(upperBound, Swift.max(lowerBound, v))
    }
}

extension BinaryInteger where Self: FixedWidthInteger {
    /// The nearest representable value (NaN is 0): a conversion that cannot trap, for values
    /// that reach C calls (pixel sizes, coordinates, timeouts).
    @inlinable package init(saturating v: Double) {
        if v.isNaN { self = 0; return }
        if v <= Double(Self.min) { self = Self.min; return }
        if v >= Double(Self.max) { self = Self.max; return }
        self.init(v)
    }
}

extension Int32 {
    /// A poll(2) timeout for `seconds` from now, rounded up, never negative; never traps.
    package init(saturatingMilliseconds seconds: Double) {
        self.init(saturating: Swift.max(0, (seconds * 1000).rounded(.up)))
    }
}

extension HUDConfiguration {
    /// Every number within its range: what the library applies to whatever a caller set, and
    /// what a backend may rely on.
    package var clamped: HUDConfiguration {
        var c = self
        c.progress = Limits.progress.clamp(c.progress)
        c.margin = Limits.margin.clamp(c.margin)
        c.spacing = Limits.margin.clamp(c.spacing)
        c.cornerRadius = Limits.cornerRadius.clamp(c.cornerRadius)
        c.imageSize = Limits.imageSize.clamp(c.imageSize)
        c.blur = Limits.blur.clamp(c.blur)
        c.maxTextWidth = Limits.textWidth.clamp(c.maxTextWidth)
        c.minSize = Size(width: Limits.minSide.clamp(c.minSize.width), height: Limits.minSide.clamp(c.minSize.height))
        c.offset = Point(x: Limits.offset.clamp(c.offset.x), y: Limits.offset.clamp(c.offset.y))
        c.graceTime = Limits.seconds.clamp(c.graceTime)
        c.minShowTime = Limits.seconds.clamp(c.minShowTime)
        c.showDuration = c.showDuration.map { Limits.seconds.clamp($0) }
        c.hideDuration = c.hideDuration.map { Limits.seconds.clamp($0) }
        c.ringThickness = Limits.ringThickness.clamp(c.ringThickness)
        c.ringRadius = c.ringRadius.map { Limits.ringRadius.clamp($0) }
        c.label = Limits.text(c.label, maxBytes: Limits.labelBytes)
        c.details = Limits.text(c.details, maxBytes: Limits.detailsBytes)
        c.button = Limits.text(c.button, maxBytes: Limits.labelBytes)
        c.contentColor = c.contentColor?.clamped
        c.bezelColor = c.bezelColor?.clamped
        c.alternateColor = c.alternateColor.clamped
        return c
    }
}
