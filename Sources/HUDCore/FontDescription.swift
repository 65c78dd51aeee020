/// A Pango font description ("Sans Bold 16px", "DejaVu Serif, Serif Italic 12") read the way
/// Pango reads it: from the end, a size, then style words, and what is left is the family list.
/// Only what DirectText draws exactly is read; anything else (variants, gravities, variations,
/// no size) is nil, and Pango reads it.
package struct FontDescription: Equatable {
    package var families: String
    /// OpenType weight: 400 regular, 700 bold.
    package var weight: Double = 400
    /// fontconfig's slant: 0 roman, 100 italic, 110 oblique.
    package var slant: Int32 = 0
    /// fontconfig's width: 100 normal.
    package var width: Int32 = 100
    /// The size in pixels at Pango's default 96 dpi.
    package var pixelSize: Double

    package static let dpi = 96.0

    /// The fonts a HUD draws with unless told otherwise: the ones a server keeps matched, and
    /// the font helper matches for a server that has none kept.
    package static var defaults: [String] {
        let d = HUDConfiguration()
        return [d.labelFont, d.detailsFont, d.buttonFont, LayoutMetrics.valueFont, LayoutMetrics.ringValueFont]
    }

    private static let weights: [String: Double] = [
        "thin": 100, "ultra-light": 200, "ultralight": 200, "extra-light": 200, "extralight": 200,
        "light": 300, "semi-light": 350, "semilight": 350, "demi-light": 350, "demilight": 350,
        "book": 380, "regular": 400, "medium": 500, "semi-bold": 600, "semibold": 600,
        "demi-bold": 600, "demibold": 600, "bold": 700, "ultra-bold": 800, "ultrabold": 800,
        "extra-bold": 800, "extrabold": 800, "heavy": 900, "black": 900, "ultra-heavy": 1000,
        "ultraheavy": 1000, "extra-heavy": 1000, "extraheavy": 1000, "ultra-black": 1000,
        "ultrablack": 1000, "extra-black": 1000, "extrablack": 1000,
    ]
    private static let slants: [String: Int32] = ["roman": 0, "italic": 100, "oblique": 110]
    private static let widths: [String: Int32] = [
        "ultra-condensed": 50, "extra-condensed": 63, "condensed": 75, "semi-condensed": 87,
        "semi-expanded": 113, "expanded": 125, "extra-expanded": 150, "ultra-expanded": 200,
    ]
    /// Pango's other style words: a description that ends with one is Pango's to read.
    private static let pangoOnly: Set<String> = [
        "small-caps", "all-small-caps", "petite-caps", "all-petite-caps", "unicase", "title-caps",
        "not-rotated", "south", "upside-down", "north", "rotated-left", "east", "rotated-right", "west",
    ]

    package init?(_ text: String) {
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let last = words.last, let size = FontDescription.size(last) else { return nil }
        words.removeLast()
        pixelSize = size
        families = ""
        var weightSeen = false, slantSeen = false, widthSeen = false
        while let w = words.last {
            let word = w.lowercased()
            if word == "normal" {
            } else if let v = FontDescription.weights[word] {
                if weightSeen { return nil }   // Pango takes the last one read; keep to the plain case
                weight = v; weightSeen = true
            } else if let v = FontDescription.slants[word] {
                if slantSeen { return nil }
                slant = v; slantSeen = true
            } else if let v = FontDescription.widths[word] {
                if widthSeen { return nil }
                width = v; widthSeen = true
            } else if FontDescription.pangoOnly.contains(word) || word.hasPrefix("@") || word.hasPrefix("#") {
                return nil
            } else {
                break
            }
            words.removeLast()
        }
        // Pango's list: names between commas, trimmed, the empty ones dropped.
        let family = words.joined(separator: " ").split(separator: ",")
            .map { $0.trimmingCharacters(in: " ") }.filter { !$0.isEmpty }.joined(separator: ",")
        guard !family.isEmpty, !family.contains("@"), !family.contains("#") else { return nil }
        families = family
    }

    /// "16px" in pixels; "12" or "10.5" in points, as Pango keeps them (whole 1/1024 points),
    /// at 96 dpi. Beyond the limit (or negative), the limit, as PangoText draws it.
    private static func size(_ word: String) -> Double? {
        let absolute = word.hasSuffix("px")
        let number = absolute ? String(word.dropLast(2)) : word
        guard let v = Double(number), v.isFinite, v > 0, number.first?.isNumber == true else { return nil }
        let units = (v * 1024).rounded()
        let limit = Double(Limits.fontPixels)
        let pixels = absolute ? units / 1024 : units * dpi / 72 / 1024
        guard units <= Double(Int32.max) else { return limit }
        return absolute ? min(pixels, limit) : (units > limit * 1024 ? limit : pixels)
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        var s = self
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
