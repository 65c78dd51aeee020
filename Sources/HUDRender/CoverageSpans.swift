import CCairo
import HUDCore

/// The pixels a frame covers, as horizontal spans: the bounding shape that lets a window without
/// a compositor show nothing where the HUD draws nothing.
package enum CoverageSpans {
    /// The spans of a frame's bezel outline at a zoom (`HUDFrame.outline`), in a surface of the
    /// window's size: a window's bounding shape. A fading frame covers the same pixels.
    package static func outline(of frame: HUDFrame, zoom: Double, renderer: HUDRenderer, width: Int, height: Int) -> [Rect] {
        var f = frame.outline
        f.presentation = Presentation(alpha: 1, scale: zoom)
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(max(1, width)), Int32(max(1, height)))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        renderer.render(f, to: cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        return of(s)
    }

    /// One rectangle (1 pixel tall) per run of non-transparent pixels of an ARGB32 image.
    package static func of(_ surface: OpaquePointer) -> [Rect] {
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var rects: [Rect] = []
        for y in 0..<h {
            let row = data + y * stride
            var x = 0
            while x < w {
                while x < w && row.load(fromByteOffset: x * 4 + 3, as: UInt8.self) == 0 { x += 1 }
                let start = x
                while x < w && row.load(fromByteOffset: x * 4 + 3, as: UInt8.self) != 0 { x += 1 }
                if x > start { rects.append(Rect(x: Double(start), y: Double(y), width: Double(x - start), height: 1)) }
            }
        }
        return rects
    }
}
