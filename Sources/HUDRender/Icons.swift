#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore

/// SVProgressHUD-style status icons as vector strokes, tinted with the content colour:
/// a thin circle (a triangle for warning) with a glyph inside.
enum Icons {
    static func draw(_ mode: HUDMode, in r: Rect, color: RGBA, cr: OpaquePointer) {
        let s = min(r.width, r.height)
        let cx = r.midX, cy = r.midY
        let radius = s / 2 - 1.25
        setColor(cr, color)
        cairo_set_line_width(cr, 2)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        let u = s / 37  // glyphs are designed on a 37-pixel grid

        if mode != .warning {
            cairo_arc(cr, cx, cy, radius, 0, 2 * Double.pi)
            cairo_stroke(cr)
        }
        cairo_set_line_width(cr, 2.5 * u)
        switch mode {
        case .success:
            cairo_move_to(cr, cx - 8 * u, cy + 0.5 * u)
            cairo_line_to(cr, cx - 2.5 * u, cy + 6 * u)
            cairo_line_to(cr, cx + 8.5 * u, cy - 6 * u)
            cairo_stroke(cr)
        case .error:
            let d = 6.5 * u
            cairo_move_to(cr, cx - d, cy - d); cairo_line_to(cr, cx + d, cy + d)
            cairo_move_to(cr, cx + d, cy - d); cairo_line_to(cr, cx - d, cy + d)
            cairo_stroke(cr)
        case .info:
            cairo_arc(cr, cx, cy - 8 * u, 1.7 * u, 0, 2 * Double.pi)
            cairo_fill(cr)
            cairo_move_to(cr, cx, cy - 3 * u); cairo_line_to(cr, cx, cy + 9 * u)
            cairo_stroke(cr)
        case .warning:
            // A rounded triangle with an exclamation mark.
            cairo_set_line_width(cr, 2)
            let top = Point(x: cx, y: r.minY + 2.5 * u)
            let left = Point(x: r.minX + 1.5 * u, y: r.maxY - 3.5 * u)
            let right = Point(x: r.maxX - 1.5 * u, y: r.maxY - 3.5 * u)
            cairo_move_to(cr, top.x, top.y); cairo_line_to(cr, right.x, right.y)
            cairo_line_to(cr, left.x, left.y); cairo_close_path(cr)
            cairo_stroke(cr)
            cairo_set_line_width(cr, 2.5 * u)
            cairo_move_to(cr, cx, cy - 5 * u); cairo_line_to(cr, cx, cy + 4 * u)
            cairo_stroke(cr)
            cairo_arc(cr, cx, cy + 8.8 * u, 1.6 * u, 0, 2 * Double.pi)
            cairo_fill(cr)
        default: break
        }
    }

    /// The alternate state's mark beside a bar: a slashed circle (muted, off), centred in `r`.
    static func muted(in r: Rect, color: RGBA, cr: OpaquePointer) {
        let d = min(r.width, r.height + 4, LayoutMetrics.alternateIcon)
        let radius = d / 2 - 1
        let r = Rect(x: r.minX, y: r.midY - d / 2, width: d, height: d)  // next to the bar
        setColor(cr, color)
        cairo_set_line_width(cr, 1.75)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_arc(cr, r.midX, r.midY, radius, 0, 2 * Double.pi)
        cairo_stroke(cr)
        let k = radius * 0.7071
        cairo_move_to(cr, r.midX - k, r.midY + k)
        cairo_line_to(cr, r.midX + k, r.midY - k)
        cairo_stroke(cr)
    }
}
