import CCairo
import CPango
import HUDCore

/// Pango text (what DirectText leaves: markup, other scripts, fallback fonts, wrapping),
/// measured and drawn with the same settings so that what layout measured is what is drawn.
/// Layouts are cached by request: a spinner frame re-lays out no text.
package final class PangoText: TextMeasurer {
    /// Made at the first text, not with the object: what shows no text loads no Pango and waits
    /// for no fonts.
    private var madeContext: OpaquePointer?
    private var context: OpaquePointer {
        if let c = madeContext { return c }
        let c = PangoText.makeContext()
        madeContext = c
        return c
    }
    private var layouts: [TextRequest: OpaquePointer] = [:]
    private var fonts: [String: OpaquePointer] = [:]

    package init() {}

    private static func makeContext() -> OpaquePointer {
        // Pango's libraries load here (unless a server up before anyone asks loaded them),
        // for the first text DirectText cannot draw.
        _ = xhud_pango_load()
        FontWarmup.waitForConfiguration()
        let context = pango_font_map_create_context(pango_cairo_font_map_get_default())!
        configure(context)
        return context
    }

    /// Unhinted metrics: sizes do not depend on the scale or the surface they are drawn on.
    /// The context also takes an image surface's own font options (its rounding of glyph
    /// positions), as `draw` does for the image surfaces HUDs are drawn into: text is measured
    /// with the font set it is drawn with, and the first HUD loads one font set, not two.
    private static func configure(_ context: OpaquePointer) {
        let options = PangoText.fontOptions()
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let cr = cairo_create(surface)
        pango_cairo_update_context(cr, context)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// The options every HUD's text is drawn with, Pango's and DirectText's alike (their pixels
    /// are the same only while these are): the caller destroys them.
    static func fontOptions() -> OpaquePointer {
        let options = cairo_font_options_create()!
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        return options
    }

    deinit {
        for l in layouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
        for f in fonts.values { pango_font_description_free(f) }
        if let c = madeContext { g_object_unref(UnsafeMutableRawPointer(c)) }
    }

    package func measure(_ request: TextRequest) -> Size {
        guard !request.text.isEmpty else { return .zero }
        let (_, logical) = extents(layout(for: request))
        var height = Double(logical.height)
        if let maxHeight = request.maxHeight { height = min(height, maxHeight) }
        return Size(width: Double(logical.width), height: height)
    }

    /// Draws the text so that its logical box starts at the rectangle's origin, centred in it.
    package func draw(_ request: TextRequest, in rect: Rect, cr: OpaquePointer) {
        guard !request.text.isEmpty else { return }
        let layout = layout(for: request)
        pango_cairo_update_context(cr, context)
        pango_layout_context_changed(layout)
        let (_, logical) = extents(layout)
        let dx = rect.x + (rect.width - Double(logical.width)) / 2 - Double(logical.x)
        cairo_move_to(cr, dx, rect.y - Double(logical.y))
        pango_cairo_show_layout(cr, layout)
    }

    /// Which marked span of the text lies under `p` (the rectangle `draw` drew the request
    /// in): spans are runs between two `marker` characters, counted from 0; nil off the text
    /// or outside every span. A notification's links are marked so (a click opens the one
    /// under it).
    package func markedSpan(at p: Point, of request: TextRequest, in rect: Rect, marker: Unicode.Scalar) -> Int? {
        guard !request.text.isEmpty else { return nil }
        let layout = layout(for: request)
        let (_, logical) = extents(layout)
        let x = p.x - (rect.x + (rect.width - Double(logical.width)) / 2 - Double(logical.x))
        let y = p.y - (rect.y - Double(logical.y))
        var index: Int32 = 0, trailing: Int32 = 0
        let scale = Double(PANGO_SCALE)
        guard pango_layout_xy_to_index(layout, Int32(saturating: x * scale), Int32(saturating: y * scale), &index, &trailing) != 0,
            let text = pango_layout_get_text(layout)
        else { return nil }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(index))
        let mark = Array(String(Character(marker)).utf8)
        var count = 0, i = 0
        while i + mark.count <= bytes.count {
            if bytes[i] == mark[0], Array(bytes[i..<i + mark.count]) == mark { count += 1; i += mark.count } else { i += 1 }
        }
        return count % 2 == 1 ? count / 2 : nil
    }

    /// The request laid out and recorded for another thread to draw (`TextShaper`): drawn here
    /// into a recording, without the context taking a target's options (it has an image
    /// surface's, as the loop's drawing has), so its glyphs are where `draw` puts them. Markup
    /// with an ink is recorded in its colours, the ink its default one; other text as a mask,
    /// drawn in any. The layout is not kept: what the other thread draws is the recording.
    package func shaped(_ r: TextRequest) -> ShapedText {
        let size = measure(r)
        let layout = layout(for: r)
        let (_, logical) = extents(layout)
        let ink = r.markup ? r.ink : nil
        let recording = cairo_recording_surface_create(ink == nil ? CAIRO_CONTENT_ALPHA : CAIRO_CONTENT_COLOR_ALPHA, nil)!
        let cr = cairo_create(recording)!
        if let ink { cairo_set_source_rgba(cr, ink.r, ink.g, ink.b, ink.a) } else { cairo_set_source_rgba(cr, 0, 0, 0, 1) }
        pango_cairo_show_layout(cr, layout)
        cairo_destroy(cr)
        if let l = layouts.removeValue(forKey: r) { g_object_unref(UnsafeMutableRawPointer(l)) }
        return ShapedText(
            size: size, logical: (Double(logical.x), Double(logical.y), Double(logical.width)),
            recording: recording, painted: ink != nil)
    }

    /// The ink and logical rectangles in logical pixels.
    package func extents(_ layout: OpaquePointer) -> (PangoRectangle, PangoRectangle) {
        var ink = PangoRectangle(), logical = PangoRectangle()
        pango_layout_get_pixel_extents(layout, &ink, &logical)
        return (ink, logical)
    }

    /// Plain text longer than this many characters is laid out from its first ones first (see
    /// `layout(for:)`): as many as fill the height of any region at the smallest sizes.
    static let prefixCharacters = 3000

    package func layout(for r: TextRequest) -> OpaquePointer {
        if let l = layouts[r] { return l }
        if layouts.count > 64 {  // a label that changes every frame must not grow the cache
            for l in layouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
            layouts.removeAll()
        }
        let layout = pango_layout_new(context)!
        pango_layout_set_font_description(layout, font(r.font))
        let scale = Double(PANGO_SCALE)
        pango_layout_set_width(layout, Int32(saturating: max(1, r.maxWidth) * scale))
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        if r.singleLine {
            pango_layout_set_single_paragraph_mode(layout, 1)
        } else {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            // Negative heights count lines; positive ones are pixels. Unbounded: -1 line is not it,
            // so a huge pixel height stands for "no bound".
            let h = r.maxHeight.map { max(1, $0) } ?? 1_000_000
            pango_layout_set_height(layout, Int32(saturating: min(h * scale, Double(Int32.max / 2))))
        }
        if r.markup && pango_parse_markup(r.text, -1, 0, nil, nil, nil, nil) != 0 {
            pango_layout_set_markup(layout, r.singleLine ? r.text : BreakOpportunities.add(to: r.text, markup: true), -1)
        } else if !r.singleLine, r.maxHeight != nil, r.text.utf8.count > Self.prefixCharacters,
            case let prefix = String(r.text.prefix(Self.prefixCharacters)), prefix.utf8.count < r.text.utf8.count
        {
            // A long text cut at its height shows its first lines: when those of a prefix
            // already fill the height (Pango ellipsizes the last), they are the text's own, and
            // the rest (up to 16 KB of details) is never laid out on the loop.
            pango_layout_set_text(layout, BreakOpportunities.add(to: prefix, markup: false), -1)
            if pango_layout_is_ellipsized(layout) == 0 {
                pango_layout_set_text(layout, BreakOpportunities.add(to: r.text, markup: false), -1)
            }
        } else {
            // Plain text, and markup that does not parse is shown as it was written.
            pango_layout_set_text(layout, r.singleLine ? r.text : BreakOpportunities.add(to: r.text, markup: false), -1)
        }
        layouts[r] = layout
        return layout
    }

    private func font(_ description: String) -> OpaquePointer {
        if let f = fonts[description] { return f }
        let f = pango_font_description_from_string(description)!
        // A font description is input too: a size beyond any screen is drawn at the limit.
        let limit = Int32(Limits.fontPixels) * PANGO_SCALE
        let size = pango_font_description_get_size(f)
        if size > limit || size < 0 { pango_font_description_set_absolute_size(f, Double(limit)) }
        fonts[description] = f
        return f
    }
}
