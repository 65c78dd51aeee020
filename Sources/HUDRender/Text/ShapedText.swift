import CCairo
import HUDCore

/// Text Pango laid out on another thread (`TextShaper`), kept as what drawing it does: the
/// glyphs of its layout recorded, replayed by the thread that draws, so that no Pango layout
/// crosses threads. Plain text is recorded as a coverage mask, drawn with the context's source;
/// markup in its own colours (the request's ink where it sets none), drawn as recorded.
/// Immutable once made: any thread may draw it (Cairo's recording surfaces are read-only).
package final class ShapedText: @unchecked Sendable {
    /// What `PangoText.measure` gives for the request (logical pixels).
    package let size: Size
    /// Where the layout's logical rectangle starts and how wide it is, as `PangoText.draw`
    /// places it.
    private let logicalX: Double, logicalY: Double, logicalWidth: Double
    /// The layout drawn at its origin: in opaque black (alpha only), or in its colours.
    private let recording: OpaquePointer
    /// Whether the recording has colours (painted) or is a mask for the context's source.
    private let painted: Bool

    init(size: Size, logical: (x: Double, y: Double, width: Double), recording: OpaquePointer, painted: Bool) {
        self.size = size
        logicalX = logical.x
        logicalY = logical.y
        logicalWidth = logical.width
        self.recording = recording
        self.painted = painted
    }

    deinit { cairo_surface_destroy(recording) }

    /// Draws the logical box from the rectangle's origin and centred in it, as `PangoText.draw`
    /// does (the same pixels: the glyphs are placed where the recording is replayed, and
    /// rounded to whole pixels there).
    package func draw(in rect: Rect, cr: OpaquePointer) {
        let dx = rect.x + (rect.width - logicalWidth) / 2 - logicalX
        guard painted else { return cairo_mask_surface(cr, recording, dx, rect.y - logicalY) }
        cairo_save(cr)
        cairo_set_source_surface(cr, recording, dx, rect.y - logicalY)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
