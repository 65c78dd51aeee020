import CCairo
import HUDCore

/// Text Pango laid out on another thread (`TextShaper`), kept as what drawing it does: the
/// glyphs of its layout recorded as a coverage mask. The thread that draws replays the mask with
/// its own source colour, so a HUD's colour is its own and no Pango layout crosses threads.
/// Markup's own colours (text, backgrounds) are recorded in a layer of their own, drawn first.
/// Immutable once made: any thread may draw it (Cairo's recording surfaces are read-only).
package final class ShapedText: @unchecked Sendable {
    /// What `PangoText.measure` gives for the request (logical pixels).
    package let size: Size
    /// Where the layout's logical rectangle starts and how wide it is, as `PangoText.draw`
    /// places it.
    private let logicalX: Double, logicalY: Double, logicalWidth: Double
    /// The layout's glyphs, drawn at the layout's origin in opaque black (alpha only).
    private let mask: OpaquePointer
    /// What markup draws in colours of its own (nothing in the default colour), if it does.
    private let colours: OpaquePointer?

    init(size: Size, logical: (x: Double, y: Double, width: Double), mask: OpaquePointer, colours: OpaquePointer? = nil) {
        self.size = size
        logicalX = logical.x
        logicalY = logical.y
        logicalWidth = logical.width
        self.mask = mask
        self.colours = colours
    }

    deinit {
        cairo_surface_destroy(mask)
        if let colours { cairo_surface_destroy(colours) }
    }

    /// Draws with the context's source, the logical box from the rectangle's origin and centred
    /// in it, as `PangoText.draw` does (the same pixels: the glyphs are placed where the mask is
    /// replayed, and rounded to whole pixels there).
    package func draw(in rect: Rect, cr: OpaquePointer) {
        let dx = rect.x + (rect.width - logicalWidth) / 2 - logicalX
        if let colours {
            // Backgrounds under the default colour's text, as Pango draws them.
            cairo_save(cr)
            cairo_set_source_surface(cr, colours, dx, rect.y - logicalY)
            cairo_paint(cr)
            cairo_restore(cr)
        }
        cairo_mask_surface(cr, mask, dx, rect.y - logicalY)
    }
}
