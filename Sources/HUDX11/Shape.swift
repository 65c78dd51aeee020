import CX11
import CCairo

/// Turns the pixels a frame covers into the spans of a bounding shape, so that without a
/// compositor the window shows nothing where the HUD draws nothing.
enum Shape {
    static func spans(of surface: OpaquePointer) -> [XRectangle] {
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var rects: [XRectangle] = []
        for y in 0..<h {
            let row = data + y * stride
            var x = 0
            while x < w {
                while x < w && row.load(fromByteOffset: x * 4 + 3, as: UInt8.self) == 0 { x += 1 }
                let start = x
                while x < w && row.load(fromByteOffset: x * 4 + 3, as: UInt8.self) != 0 { x += 1 }
                if x > start { rects.append(XRectangle(x: Int16(start), y: Int16(y), width: UInt16(x - start), height: 1)) }
            }
        }
        return rects
    }
}
