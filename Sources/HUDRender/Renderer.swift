import CCairo
import HUDCore

/// Draws a HUD frame into a Cairo context. Knows nothing of windows: the X11 backend, the tests
/// and the contact sheet all draw through here.
package final class HUDRenderer {
    package let text = HUDText()
    private let images = ImageCache()
    package let sprites = SpinnerSprites()

    package init() {}

    /// Lays out and draws `c` once into a scratch surface: Pango, the fonts `c` names (their font
    /// sets stay in the thread's font map for every later renderer), Cairo and the drawing code
    /// are loaded and set up. For a server that starts before anyone asks (autostart, systemd),
    /// so that its first HUD is drawn as fast as any later one.
    package func warmUp(_ c: HUDConfiguration, region: Size) {
        var f = HUDFrame(configuration: c, layout: layout(c, region: region))
        let e = f.bezelExtent
        f.origin = Point(x: e.x, y: e.y)
        let surface = cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, Int32(max(1, min(e.width, 1024)).rounded(.up)),
            Int32(max(1, min(e.height, 1024)).rounded(.up)))
        let cr = cairo_create(surface)!
        render(f, to: cr)
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// Lays out a configuration with this renderer's text metrics.
    package func layout(_ c: HUDConfiguration, region: Size) -> HUDLayout {
        HUDLayout.compute(c, region: region, measurer: text)
    }

    /// Draws over what the context holds (operator OVER); the caller clears or fills first.
    package func render(_ f: HUDFrame, to cr: OpaquePointer) {
        let c = f.configuration
        let alpha = clamp(f.presentation.alpha, 0, 1)
        guard alpha > 0 else { return }
        cairo_save(cr)
        cairo_scale(cr, f.scale, f.scale)
        cairo_translate(cr, -f.origin.x, -f.origin.y)

        if f.drawsMask { drawMask(c.effectiveMask, region: f.layout.region, alpha: alpha, cr: cr) }

        let opaque = alpha >= 0.999
        if !opaque { cairo_push_group(cr) }
        // While the bezel resizes it is drawn at its animated rectangle; the content, laid out for
        // the final one, follows its centre and is clipped to it.
        let bezel = f.bezelOverride ?? f.layout.bezel
        if f.presentation.scale != 1 {
            cairo_translate(cr, bezel.midX, bezel.midY)
            cairo_scale(cr, f.presentation.scale, f.presentation.scale)
            cairo_translate(cr, -bezel.midX, -bezel.midY)
        }
        // A clipped frame (the spinner alone) skips the shadow when the clip is inside the bezel.
        if c.shadow && !clipInside(bezel.insetBy(dx: c.cornerRadius, dy: c.cornerRadius), cr: cr) {
            drawShadow(bezel, radius: c.cornerRadius, cr: cr)
        }
        roundedRect(cr, bezel, c.cornerRadius)
        setColor(cr, c.effectiveBezelColor)
        cairo_fill(cr)
        drawHairline(bezel, c, scale: f.scale, cr: cr)
        if f.bezelOverride != nil {
            roundedRect(cr, bezel, c.cornerRadius)
            cairo_clip(cr)
            if f.growth == nil { cairo_translate(cr, bezel.midX - f.layout.bezel.midX, bezel.midY - f.layout.bezel.midY) }
        }
        if let g = f.growth {
            let (kept, added) = f.layout.growing(from: g.from, fraction: g.fraction)
            var part = f
            part.layout = kept
            drawContent(part, cr: cr)
            if !added.isBlank {
                part.layout = added
                cairo_push_group(cr)
                drawContent(part, cr: cr)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, max(0, g.fraction))
            }
        } else {
            drawContent(f, cr: cr)
        }
        if !opaque {
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, alpha)
        }
        cairo_restore(cr)
    }

    /// One device pixel just inside the bezel's edge, light on a dark bezel and dark on a light
    /// one (as macOS's HUD windows): the edge reads over any window, a black terminal or a white
    /// page, with or without a compositor's shadow.
    private func drawHairline(_ bezel: Rect, _ c: HUDConfiguration, scale: Double, cr: OpaquePointer) {
        let b = c.effectiveBezelColor
        guard b.a >= 0.05 else { return }
        let w = 1 / max(scale, 0.5)
        roundedRect(cr, bezel.insetBy(dx: w / 2, dy: w / 2), max(0, c.cornerRadius - w / 2))
        let luminance = 0.2126 * b.r + 0.7152 * b.g + 0.0722 * b.b
        setColor(cr, luminance < 0.5 ? RGBA(1, 1, 1, RenderMetrics.hairlineOnDark) : RGBA(0, 0, 0, RenderMetrics.hairlineOnLight))
        cairo_set_line_width(cr, w)
        cairo_stroke(cr)
    }

    /// Whether `r` (user space) meets the clip: text outside a spinner-only frame is not drawn.
    private func visible(_ r: Rect, cr: OpaquePointer) -> Bool {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        return r.maxX > x1 && r.minX < x2 && r.maxY > y1 && r.minY < y2
    }

    private func clipInside(_ r: Rect, cr: OpaquePointer) -> Bool {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        return x1 >= r.minX && y1 >= r.minY && x2 <= r.maxX && y2 <= r.maxY
    }

    /// Clears an image surface and draws the frame into it, as a window's next frame; with
    /// `clip` (surface pixels), only that part is cleared and drawn (a spinner's next frame).
    package func render(_ f: HUDFrame, replacing surface: OpaquePointer, clip: Rect? = nil) {
        let cr = cairo_create(surface)!
        if let c = clip {
            cairo_rectangle(cr, c.x, c.y, c.width, c.height)
            cairo_clip(cr)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        render(f, to: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

    private func drawContent(_ f: HUDFrame, cr: OpaquePointer) {
        let c = f.configuration, l = f.layout
        let ink = c.effectiveContentColor
        if let r = l.indicator, !(f.leavesOutSpinner && c.mode == .indeterminate) {
            Indicators.draw(
                c, progress: f.progress, time: f.time, in: r, color: ink, images: images, sprites: sprites,
                scale: f.scale, cr: cr)
        }
        if let r = l.image, let path = c.image {
            images.draw(path, in: r, tint: c.tintImage ? ink : nil, cr: cr)
        }
        setColor(cr, ink)
        if let r = l.value, c.alternate, c.mode == .bar {
            Icons.muted(in: r, color: c.alternateColor, cr: cr)
            setColor(cr, ink)
        } else if let r = l.value, let req = l.valueRequest {
            let shown = TextRequest(text: HUDLayout.valueText(f.progress), font: req.font, maxWidth: req.maxWidth, singleLine: true)
            text.draw(shown, in: r, cr: cr)
        }
        if let r = l.label, let req = l.labelRequest, visible(r, cr: cr) { text.draw(req, in: r, cr: cr) }
        if let r = l.details, let req = l.detailsRequest, visible(r, cr: cr) {
            cairo_save(cr)
            cairo_rectangle(cr, r.x - 2, r.y, r.width + 4, r.height)
            cairo_clip(cr)
            text.draw(req, in: r, cr: cr)
            cairo_restore(cr)
        }
        for (i, (r, req)) in zip(l.buttons, l.buttonRequests).enumerated() where visible(r, cr: cr) {
            let frame = r.insetBy(dx: 0.5, dy: 0.5)
            roundedRect(cr, frame, frame.height / 2)
            if f.pressedButton == i {
                setColor(cr, ink.withAlpha(ink.a * 0.15))
                cairo_fill_preserve(cr)
            }
            setColor(cr, ink)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            let t = text.measure(req)
            text.draw(req, in: Rect(x: r.x, y: r.midY - t.height / 2, width: r.width, height: t.height), cr: cr)
        }
    }

    /// Image loading errors surface here first, so the command can refuse a bad `--image` early.
    package func validateImage(_ path: String) -> String? { images.load(path).error }

    /// Whether a file `c` shows was decoded again since it was drawn (rewritten at the same path):
    /// an update that changes nothing else still draws it.
    package func hasNewerImages(_ c: HUDConfiguration) -> Bool {
        [c.image, c.resultImage].contains { $0.map(images.isStale) ?? false }
    }

    private func drawMask(_ mask: HUDMask, region: Size, alpha: Double, cr: OpaquePointer) {
        switch mask {
        case .none, .clear: return
        case .black:
            cairo_set_source_rgba(cr, 0, 0, 0, 0.4 * alpha)
            cairo_paint(cr)
        case .color(let col), .blur(let col):
            guard col.a > 0 else { return }
            setColor(cr, col.withAlpha(col.a * alpha))
            cairo_paint(cr)
        case .gradient:
            let cx = region.width / 2, cy = region.height / 2
            let radius = min(region.width, region.height)
            let p = cairo_pattern_create_radial(cx, cy, 0, cx, cy, radius)!
            cairo_pattern_add_color_stop_rgba(p, 0, 0, 0, 0, 0)
            cairo_pattern_add_color_stop_rgba(p, 1, 0, 0, 0, 0.75 * alpha)
            cairo_set_source(cr, p)
            cairo_paint(cr)
            cairo_pattern_destroy(p)
        }
    }

    /// A soft shadow without a blur filter: rounded rectangles of growing size and falling alpha.
    private func drawShadow(_ r: Rect, radius: Double, cr: OpaquePointer) {
        let steps = 7
        let reach = RenderMetrics.shadowReach
        let base = r.offsetBy(dx: 0, dy: RenderMetrics.shadowOffsetY)
        for i in 0..<steps {
            let k = Double(i + 1) / Double(steps)  // 1/7 ... 1
            let grow = reach * k
            roundedRect(cr, base.insetBy(dx: -grow + 2, dy: -grow + 2), radius + grow)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.045 * (1 - k * 0.85))
            cairo_fill(cr)
        }
    }
}

// MARK: Drawing helpers

func setColor(_ cr: OpaquePointer, _ c: RGBA) { cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a) }

func roundedRect(_ cr: OpaquePointer, _ r: Rect, _ radius: Double) {
    let rad = max(0, min(radius, r.width / 2, r.height / 2))
    let deg = Double.pi / 180
    cairo_new_sub_path(cr)
    cairo_arc(cr, r.maxX - rad, r.minY + rad, rad, -90 * deg, 0)
    cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, 90 * deg)
    cairo_arc(cr, r.minX + rad, r.maxY - rad, rad, 90 * deg, 180 * deg)
    cairo_arc(cr, r.minX + rad, r.minY + rad, rad, 180 * deg, 270 * deg)
    cairo_close_path(cr)
}
