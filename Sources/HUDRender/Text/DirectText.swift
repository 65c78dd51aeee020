#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CDirectText
import HUDCore

/// Text that Pango is not needed for: a line of plain text in one script, all of it in the font
/// its description matches, that fits its width. Shaped with HarfBuzz and drawn with Cairo as
/// Pango would (CDirectText.h), so the pixels are Pango's (the golden images and the
/// comparison tests hold both to that), without loading Pango and its 17 libraries or
/// waiting for its first layout. Everything else is nil here and Pango's (`HUDText`).
final class DirectText {
    struct Line {
        let font: OpaquePointer
        var shaped: xhud_direct_line
        /// Pango's logical rectangle in Pango units (1/1024 pixel): where the line starts in a
        /// layout of the request's width (centred), its width, its ascent and descent.
        let offset: Int32, width: Int32, ascent: Int32, descent: Int32

        /// The logical rectangle in whole pixels, as pango_layout_get_pixel_extents rounds it.
        var pixelX: Int32 { offset >> 10 }
        var pixelWidth: Int32 { ((offset + width + 1023) >> 10) - pixelX }
        var pixelHeight: Int32 { (ascent + descent + 1023) >> 10 }
    }

    /// Per request: the shaped line, or nil when Pango must draw it.
    private var lines: [TextRequest: Line?] = [:]

    deinit {
        for case var l? in lines.values { xhud_direct_line_free(&l.shaped) }
    }

    /// The line for a request, or nil when it is Pango's.
    func line(for r: TextRequest) -> Line? {
        if let known = lines[r] { return known }
        if lines.count > 64 {  // a label that changes every frame must not grow the cache
            for case var l? in lines.values { xhud_direct_line_free(&l.shaped) }
            lines.removeAll()
        }
        let made = make(r)
        lines[r] = made
        return made
    }

    private func make(_ r: TextRequest) -> Line? {
        guard DirectText.isPlain(r), let font = DirectFonts.font(r.font) else { return nil }
        for scalar in r.text.unicodeScalars where xhud_direct_font_covers(font, scalar.value) == 0 { return nil }
        var shaped = xhud_direct_line()
        let utf8 = Array(r.text.utf8)
        guard
            utf8.withUnsafeBufferPointer({ b in
                b.withMemoryRebound(to: CChar.self) { xhud_direct_shape(font, $0.baseAddress, Int32(b.count), &shaped) }
            }) != 0
        else { return nil }
        // The layout's width as PangoText sets it; a line wider than that Pango ellipsizes.
        let layoutWidth = Int32(saturating: max(1, r.maxWidth) * 1024)
        guard shaped.width <= layoutWidth else {
            xhud_direct_line_free(&shaped)
            return nil
        }
        // Centred as Pango centres a line: on a whole pixel when both widths are whole pixels.
        var offset = (layoutWidth - shaped.width) / 2
        if (layoutWidth | shaped.width) & 1023 == 0 { offset = (offset + 512) & ~1023 }
        var ascent: Int32 = 0, descent: Int32 = 0
        xhud_direct_font_extents(font, &ascent, &descent)
        let line = Line(font: font, shaped: shaped, offset: offset, width: shaped.width, ascent: ascent, descent: descent)
        if let maxHeight = r.maxHeight, !r.singleLine, Double(line.pixelHeight) > maxHeight {
            xhud_direct_line_free(&shaped)
            return nil  // a multi-line text cut at its height: Pango's
        }
        return line
    }

    func size(_ line: Line, _ r: TextRequest) -> Size {
        var height = Double(line.pixelHeight)
        if let maxHeight = r.maxHeight { height = min(height, maxHeight) }
        return Size(width: Double(line.pixelWidth), height: height)
    }

    /// Draws as PangoText draws: the logical box centred in the rectangle, its top at the
    /// rectangle's top, the baseline the font's ascent below it.
    func draw(_ line: Line, in rect: Rect, cr: OpaquePointer) {
        let dx = rect.x + (rect.width - Double(line.pixelWidth)) / 2 - Double(line.pixelX)
        var shaped = line.shaped
        xhud_direct_show(cr, line.font, &shaped, dx + Double(line.offset) / 1024, rect.y + Double(line.ascent) / 1024)
    }

    /// One line of plain text in one script that needs no shaping beyond kerning and ligatures:
    /// no markup, no line breaks or control characters, no right-to-left or combining text, no
    /// emoji; no space at either end (where Pango's line ends differ).
    static func isPlain(_ r: TextRequest) -> Bool {
        let text = r.text
        guard !text.isEmpty, text.utf8.count <= 1024 else { return false }
        if r.markup && (text.contains("<") || text.contains("&")) { return false }
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
            first.value != 0x20, last.value != 0x20
        else { return false }
        var script: UInt8 = 0  // 1 Latin, 2 Greek, 3 Cyrillic: one of them at most
        for s in text.unicodeScalars {
            let v = s.value
            var letterScript: UInt8 = 0
            switch v {
            case 0x20...0x7E:
                if (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) { letterScript = 1 }
            case 0xA0...0x24F where v != 0xAD:
                if v >= 0xC0 && v != 0xD7 && v != 0xF7 { letterScript = 1 }
            case 0x1E00...0x1EFF: letterScript = 1
            case 0x370...0x3FF where v >= 0x386: letterScript = 2
            case 0x400...0x482, 0x48A...0x4FF: letterScript = 3
            case 0x2010...0x2027, 0x2030...0x205E, 0x20A0...0x20C0, 0x2100...0x214F, 0x2190...0x21FF, 0x2200...0x22FF:
                break
            default:
                return false
            }
            if letterScript != 0 {
                if script != 0 && script != letterScript { return false }
                script = letterScript
            }
        }
        return true
    }
}
