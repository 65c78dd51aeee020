#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore

/// The spinner is one image turned by a transform: SVProgressHUD's ring at a constant turn a
/// second, the classic spokes in twelve steps. The X11 backend uploads the sprite once and turns
/// it on the X server (a frame is a few dozen bytes); drawing into an image turns the same
/// sprite the same way (pixman's bilinear filter on both sides), so the two agree pixel for
/// pixel.
package final class SpinnerSprites {
    struct Key: Hashable {
        var style: SpinnerStyle, side: Int, thickness: Double, r: Double, g: Double, b: Double, a: Double
    }
    private var cache: [Key: OpaquePointer] = [:]

    package init() {}
    deinit { for s in cache.values { cairo_surface_destroy(s) } }

    /// The sprite's side in device pixels for an indicator of `side` logical pixels at `scale`.
    package static func pixelSide(_ side: Double, scale: Double) -> Int { max(4, Int(saturating: (side * scale).rounded(.up)) + 2) }

    /// The sprite (ARGB32, square, the spinner centred) for an indicator rectangle at a scale.
    /// `thickness` is the ring's line width (logical pixels); the spokes keep their own.
    package func sprite(style: SpinnerStyle, side: Double, thickness: Double = 2, scale: Double, color: RGBA) -> OpaquePointer {
        let px = SpinnerSprites.pixelSide(side, scale: scale)
        let key = Key(style: style, side: px, thickness: style == .ring ? thickness : 0, r: color.r, g: color.g, b: color.b, a: color.a)
        if let s = cache[key] { return s }
        if cache.count > 8 { for s in cache.values { cairo_surface_destroy(s) }; cache.removeAll() }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(px), Int32(px))!
        let cr = cairo_create(s)!
        let c = Double(px) / 2
        let logical = side * scale
        switch style {
        case .ring: SpinnerSprites.ring(centre: c, diameter: logical, thickness: thickness, scale: scale, color: color, cr: cr)
        case .spokes: SpinnerSprites.spokes(centre: c, diameter: logical, scale: scale, color: color, cr: cr)
        }
        cairo_destroy(cr)
        cairo_surface_flush(s)
        cache[key] = s
        return s
    }

    /// The angle (radians, clockwise) the sprite is turned by at `time`: the ring turns once a
    /// second at a constant speed (SVProgressHUD's rotation animation); the spokes step twelve
    /// times a second.
    package static func angle(style: SpinnerStyle, time: Double) -> Double {
        let turns = time.isFinite ? time - time.rounded(.down) : 0
        switch style {
        case .ring: return turns * 2 * Double.pi
        case .spokes: return (turns * 12).rounded(.down) / 12 * 2 * Double.pi
        }
    }

    /// Draws the sprite turned by `angle` about the centre of `r` (logical pixels, in a context
    /// scaled by `scale`), as the X server composites it.
    package static func draw(_ sprite: OpaquePointer, angle: Double, in r: Rect, scale: Double, cr: OpaquePointer) {
        let px = Double(cairo_image_surface_get_width(sprite))
        cairo_save(cr)
        cairo_translate(cr, r.midX, r.midY)
        cairo_scale(cr, 1 / scale, 1 / scale)
        cairo_rotate(cr, angle)
        cairo_set_source_surface(cr, sprite, -px / 2, -px / 2)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// An arc of three quarters of a turn whose alpha rises continuously from its tail to a round
    /// head, at -90 degrees (12 o'clock). The gradient is a mesh of Coons patches along the
    /// arc: no segments, no seams at any scale.
    static func ring(centre c: Double, diameter: Double, thickness: Double, scale: Double, color: RGBA, cr: OpaquePointer) {
        let line = thickness * scale
        let radius = diameter / 2 - line / 2 - scale
        let head = -Double.pi / 2, length = 1.5 * Double.pi
        let tail = head - length
        let mesh = cairo_pattern_create_mesh()!
        let inner = radius - line, outer = radius + line
        let patches = 6
        for i in 0..<patches {
            let a0 = tail + length * Double(i) / Double(patches), a1 = tail + length * Double(i + 1) / Double(patches)
            let k0 = Double(i) / Double(patches), k1 = Double(i + 1) / Double(patches)
            // Arc control points for a Bezier approximation of each side.
            let h = 4.0 / 3.0 * tan((a1 - a0) / 4)
            func p(_ r: Double, _ a: Double) -> (Double, Double) { (c + r * cos(a), c + r * sin(a)) }
            cairo_mesh_pattern_begin_patch(mesh)
            let o0 = p(outer, a0), o1 = p(outer, a1), i1 = p(inner, a1), i0 = p(inner, a0)
            cairo_mesh_pattern_move_to(mesh, o0.0, o0.1)
            cairo_mesh_pattern_curve_to(
                mesh, o0.0 - h * outer * sin(a0), o0.1 + h * outer * cos(a0),
                o1.0 + h * outer * sin(a1), o1.1 - h * outer * cos(a1), o1.0, o1.1)
            cairo_mesh_pattern_line_to(mesh, i1.0, i1.1)
            cairo_mesh_pattern_curve_to(
                mesh, i1.0 + h * inner * sin(a1), i1.1 - h * inner * cos(a1),
                i0.0 - h * inner * sin(a0), i0.1 + h * inner * cos(a0), i0.0, i0.1)
            cairo_mesh_pattern_line_to(mesh, o0.0, o0.1)
            for (corner, k) in [(0, k0), (1, k1), (2, k1), (3, k0)] {
                cairo_mesh_pattern_set_corner_color_rgba(mesh, UInt32(corner), color.r, color.g, color.b, color.a * k * k)
            }
            cairo_mesh_pattern_end_patch(mesh)
        }
        cairo_set_source(cr, mesh)
        cairo_set_line_width(cr, line)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_arc(cr, c, c, radius, tail, head)
        cairo_stroke(cr)
        cairo_pattern_destroy(mesh)
        // The round head, at full colour.
        setColor(cr, color)
        cairo_arc(cr, c + radius * cos(head), c + radius * sin(head), line / 2, 0, 2 * Double.pi)
        cairo_fill(cr)
    }

    /// The classic 12-spoke activity indicator at step 0 (the bright spoke at 12 o'clock).
    static func spokes(centre c: Double, diameter: Double, scale: Double, color: RGBA, cr: OpaquePointer) {
        let n = 12
        let outer = diameter / 2 - 1.5 * scale
        let inner = outer * 0.5
        cairo_set_line_width(cr, 3 * scale)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for i in 0..<n {
            let angle = Double(i) * 2 * Double.pi / Double(n) - Double.pi / 2
            let age = (n - i) % n  // 0 is the newest
            let a = max(0.2, 1 - Double(age) / Double(n))
            setColor(cr, color.withAlpha(color.a * a))
            cairo_move_to(cr, c + inner * cos(angle), c + inner * sin(angle))
            cairo_line_to(cr, c + outer * cos(angle), c + outer * sin(angle))
            cairo_stroke(cr)
        }
    }
}
