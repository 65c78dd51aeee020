#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore

/// Every indicator, drawn in a rectangle of the layout in the content colour.
enum Indicators {
    static func draw(
        _ c: HUDConfiguration, progress: Double, time: Double, in r: Rect, color: RGBA,
        images: ImageCache, sprites: SpinnerSprites, scale: Double, cr: OpaquePointer
    ) {
        let p = clamp(progress.isNaN ? 0 : progress, 0, 1)
        cairo_save(cr)
        switch c.mode {
        case .indeterminate:
            let sprite = sprites.sprite(style: c.spinner, side: min(r.width, r.height), thickness: c.ringThickness, scale: scale, color: color)
            SpinnerSprites.draw(sprite, angle: SpinnerSprites.angle(style: c.spinner, time: time), in: r, scale: scale, cr: cr)
        case .determinate: pie(r, progress: p, color: color, cr: cr)
        case .annular: annular(r, progress: p, line: c.ringThickness, color: c.alternate ? c.alternateColor : color, track: color, cr: cr)
        case .bar: bar(r, progress: p, color: c.alternate ? c.alternateColor : color, border: color, cr: cr)
        case .success, .error, .info, .warning:
            // A replacement image that cannot be read leaves the drawn icon in its place.
            if let path = c.resultImage, images.load(path).image != nil {
                images.draw(path, in: r, tint: c.tintImage || path.contains("-symbolic") ? color : nil, cr: cr)
            } else {
                Icons.draw(c.mode, in: r, color: color, cr: cr)
            }
        case .custom:
            if let path = c.image { images.draw(path, in: r, tint: c.tintImage ? color : nil, cr: cr) }
        case .text: break
        }
        cairo_restore(cr)
    }

    /// MBProgressHUD's pie: a 2-wide outline and a sector from 12 o'clock, clockwise.
    static func pie(_ r: Rect, progress: Double, color: RGBA, cr: OpaquePointer) {
        let line = 2.0
        let cx = r.midX, cy = r.midY
        let outline = min(r.width, r.height) / 2 - line / 2
        setColor(cr, color)
        cairo_set_line_width(cr, line)
        cairo_arc(cr, cx, cy, outline, 0, 2 * Double.pi)
        cairo_stroke(cr)
        guard progress > 0 else { return }
        let radius = min(r.width, r.height) / 2 - 4
        let start = -Double.pi / 2
        cairo_move_to(cr, cx, cy)
        cairo_arc(cr, cx, cy, radius, start, start + progress * 2 * Double.pi)
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    /// MBProgressHUD's annular ring: a full track at alpha 0.1 and a butt-capped progress arc,
    /// both `line` wide (2, its number; SVProgressHUD's ring thickness).
    static func annular(_ r: Rect, progress: Double, line: Double, color: RGBA, track: RGBA, cr: OpaquePointer) {
        let cx = r.midX, cy = r.midY
        let radius = (min(r.width, r.height) - line) / 2
        cairo_set_line_width(cr, line)
        setColor(cr, track.withAlpha(0.1))
        cairo_arc(cr, cx, cy, radius, 0, 2 * Double.pi)
        cairo_stroke(cr)
        guard progress > 0 else { return }
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        setColor(cr, color)
        let start = -Double.pi / 2
        cairo_arc(cr, cx, cy, radius, start, start + progress * 2 * Double.pi)
        cairo_stroke(cr)
    }

    /// MBProgressHUD's bar: a 2-wide rounded border and a fill inset by 4.
    static func bar(_ r: Rect, progress: Double, color: RGBA, border: RGBA, cr: OpaquePointer) {
        let line = 2.0
        let frame = r.insetBy(dx: line / 2, dy: line / 2)
        roundedRect(cr, frame, frame.height / 2)
        setColor(cr, border)
        cairo_set_line_width(cr, line)
        cairo_stroke(cr)
        guard progress > 0 else { return }
        let inner = r.insetBy(dx: 4, dy: 4)
        roundedRect(cr, inner, inner.height / 2)
        cairo_clip(cr)
        // The fill keeps the inner shape's round ends however short it is.
        let w = inner.width * progress
        roundedRect(cr, Rect(x: inner.x, y: inner.y, width: max(w, min(inner.height, inner.width)), height: inner.height), inner.height / 2)
        if w < inner.height {
            cairo_clip(cr)
            cairo_rectangle(cr, inner.x, inner.y, w, inner.height)
        }
        setColor(cr, color)
        cairo_fill(cr)
        cairo_reset_clip(cr)
    }
}
