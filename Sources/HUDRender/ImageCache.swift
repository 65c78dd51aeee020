import CCairo
import HUDCore

/// Custom indicator images, loaded once per path.
final class ImageCache {
    struct Entry { var surface: OpaquePointer?; var error: String? }
    private var entries: [String: Entry] = [:]

    deinit { for e in entries.values { if let s = e.surface { cairo_surface_destroy(s) } } }

    func load(_ path: String) -> Entry {
        if let e = entries[path] { return e }
        var entry = Entry(surface: nil, error: nil)
        let s = cairo_image_surface_create_from_png(path)!
        let status = cairo_surface_status(s)
        if status == CAIRO_STATUS_SUCCESS {
            entry.surface = s
        } else {
            cairo_surface_destroy(s)
            entry.error = status == CAIRO_STATUS_FILE_NOT_FOUND ? "cannot open image '\(path)': no such file"
                : status == CAIRO_STATUS_READ_ERROR ? "cannot read image '\(path)'"
                : "cannot load image '\(path)': not a PNG file"
        }
        entries[path] = entry
        return entry
    }

    /// Fits the image in the rectangle keeping its aspect ratio; a tint keeps only its alpha.
    func draw(_ path: String, in r: Rect, tint: RGBA?, cr: OpaquePointer) {
        guard let s = load(path).surface else { return }
        let w = Double(cairo_image_surface_get_width(s)), h = Double(cairo_image_surface_get_height(s))
        guard w > 0, h > 0 else { return }
        let k = min(r.width / w, r.height / h)
        cairo_save(cr)
        cairo_translate(cr, r.midX - w * k / 2, r.midY - h * k / 2)
        cairo_scale(cr, k, k)
        if let tint {
            setColor(cr, tint)
            cairo_mask_surface(cr, s, 0, 0)
        } else {
            cairo_set_source_surface(cr, s, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }
}
