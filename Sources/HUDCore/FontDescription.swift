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
        return [d.labelFont, d.detailsFont, d.buttonFont, d.valueFont, d.ringValueFont]
    }

    // Pango's style words, compared in turn rather than hashed: a dictionary of them is built,
    // and its types' metadata made, on the way to a first start's first frame.
    private static func weight(named word: String) -> Double? {
        switch word {
        case "thin": 100
        case "ultra-light", "ultralight", "extra-light", "extralight": 200
        case "light": 300
        case "semi-light", "semilight", "demi-light", "demilight": 350
        case "book": 380
        case "regular": 400
        case "medium": 500
        case "semi-bold", "semibold", "demi-bold", "demibold": 600
        case "bold": 700
        case "ultra-bold", "ultrabold", "extra-bold", "extrabold": 800
        case "heavy", "black": 900
        case "ultra-heavy", "ultraheavy", "extra-heavy", "extraheavy", "ultra-black", "ultrablack", "extra-black",
            "extrablack":
            1000
        default: nil
        }
    }

    private static func slant(named word: String) -> Int32? {
        switch word {
        case "roman": 0
        case "italic": 100
        case "oblique": 110
        default: nil
        }
    }

    private static func width(named word: String) -> Int32? {
        switch word {
        case "ultra-condensed": 50
        case "extra-condensed": 63
        case "condensed": 75
        case "semi-condensed": 87
        case "semi-expanded": 113
        case "expanded": 125
        case "extra-expanded": 150
        case "ultra-expanded": 200
        default: nil
        }
    }

    /// Pango's other style words: a description that ends with one is Pango's to read.
    private static func isPangoOnly(_ word: String) -> Bool {
        switch word {
        case "small-caps", "all-small-caps", "petite-caps", "all-petite-caps", "unicase", "title-caps",
            "not-rotated", "south", "upside-down", "north", "rotated-left", "east", "rotated-right", "west":
            true
        default: false
        }
    }

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
            } else if let v = FontDescription.weight(named: word) {
                if weightSeen { return nil }  // Pango takes the last one read; keep to the plain case
                weight = v; weightSeen = true
            } else if let v = FontDescription.slant(named: word) {
                if slantSeen { return nil }
                slant = v; slantSeen = true
            } else if let v = FontDescription.width(named: word) {
                if widthSeen { return nil }
                width = v; widthSeen = true
            } else if FontDescription.isPangoOnly(word) || word.hasPrefix("@") || word.hasPrefix("#") {
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
