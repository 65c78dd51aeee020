import HUDCore

/// A renderer's text: each request drawn by DirectText when it can (the same pixels, without
/// Pango), by Pango otherwise. The choice is the request's own, never the history's: the same
/// label is always drawn the same way, and Pango is loaded only by the first text that needs it.
///
/// With a `shaper` (a server's HUDs), what Pango lays out is laid out on the shaper's thread:
/// a request it has not done measures as nothing and is listed in `missing`; the caller has
/// the shaper do those, draws nothing meanwhile, and lays out again once they are done.
package final class HUDText: TextMeasurer {
    private let direct = DirectText()
    /// Pango's layouts, for the text DirectText leaves to it (and for tests that look inside).
    package let pango = PangoText()
    package var shaper: TextShaper?
    /// Requests measured that the shaper has not done (`takeMissing`).
    private var missing: [TextRequest] = []

    package init() {}

    package func measure(_ request: TextRequest) -> Size {
        guard !request.text.isEmpty else { return .zero }
        if let line = direct.line(for: request) { return direct.size(line, request) }
        guard let shaper else { return pango.measure(request) }
        switch shaper.result(request) {
        case .shaped(let s)?: return s.size
        case .cut?: return pango.measure(Self.cut(request))
        case nil:
            if !missing.contains(request) { missing.append(request) }
            return .zero
        }
    }

    package func draw(_ request: TextRequest, in rect: Rect, cr: OpaquePointer) {
        guard !request.text.isEmpty else { return }
        if let line = direct.line(for: request) { return direct.draw(line, in: rect, cr: cr) }
        switch shaper?.result(request) {
        // Colour glyphs (emoji) are drawn by Pango here, in their colours: a recording keeps
        // text as a mask (silhouettes), and Cairo 1.16 replays only the last of a run of them.
        case .shaped(let s)?: if request.text.hasColourGlyphs { pango.draw(request, in: rect, cr: cr) } else { s.draw(in: rect, cr: cr) }
        case .cut?: pango.draw(Self.cut(request), in: rect, cr: cr)
        case nil: pango.draw(request, in: rect, cr: cr)  // Pango's here, as without a shaper
        }
    }

    /// Which span between two `marker`s of a markup request lies under `p` (`PangoText.markedSpan`);
    /// nil for plain text, which has none.
    package func markedSpan(at p: Point, of request: TextRequest, in rect: Rect, marker: Unicode.Scalar) -> Int? {
        request.markup ? pango.markedSpan(at: p, of: request, in: rect, marker: marker) : nil
    }

    /// The requests measured since the last call that the shaper has yet to lay out.
    package func takeMissing() -> [TextRequest] {
        defer { missing = [] }
        return missing
    }

    /// Whether DirectText draws the request (tests compare it with Pango).
    package func isDirect(_ request: TextRequest) -> Bool { direct.line(for: request) != nil }

    /// What a request over the shaper's time budget shows: its first characters, cut.
    static func cut(_ r: TextRequest) -> TextRequest {
        var c = r
        // Markup cut anywhere could end inside a tag: its text alone is cut.
        c.text = String((r.markup ? plainText(r.text) : r.text).prefix(200)) + "…"
        c.markup = false
        return c
    }

    /// Markup's text without its tags, its entities read (`&amp;` `&lt;` `&gt;` `&quot;`
    /// `&apos;` `&#N;` `&#xN;`).
    static func plainText(_ markup: String) -> String {
        var out = "", i = markup.startIndex
        while i < markup.endIndex {
            let ch = markup[i]
            if ch == "<", let close = markup[i...].firstIndex(of: ">") {
                i = markup.index(after: close)
                continue
            }
            if ch == "&", let semi = markup[i...].prefix(12).firstIndex(of: ";") {
                let name = markup[markup.index(after: i)..<semi]
                let named: [Substring: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
                var decoded = named[name]
                if decoded == nil, name.hasPrefix("#") {
                    let digits = name.dropFirst()
                    let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                    decoded = value.flatMap(Unicode.Scalar.init).map(Character.init)
                }
                if let decoded { out.append(decoded); i = markup.index(after: semi); continue }
            }
            out.append(ch)
            i = markup.index(after: i)
        }
        return out
    }
}

extension String {
    /// Whether the text has characters that fonts draw in colour: emoji presentation, or text
    /// asking for it with U+FE0F.
    package var hasColourGlyphs: Bool {
        unicodeScalars.contains { $0.value == 0xFE0F || ($0.value >= 0x2300 && $0.properties.isEmojiPresentation) }
    }
}
