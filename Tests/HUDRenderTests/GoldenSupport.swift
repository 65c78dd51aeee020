import CCairo
import HUDCore
import HUDRender
import XCTest

/// One golden image: a configuration drawn at one instant into a region.
struct GoldenCase {
    var name: String
    var config: HUDConfiguration
    var region = Size(width: 260, height: 200)
    var scale = 1.0
    var time = 0.0
    var presentation = Presentation.shown
}

enum Golden {
    static let directory: String = {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!]) + "/Golden"
    }()
    static var updating: Bool { ProcessInfo.processInfo.environment["XHUD_UPDATE_GOLDEN"] == "1" }

    /// Renders a case on a transparent surface of the region's size in device pixels.
    static func render(_ c: GoldenCase, renderer: HUDRenderer) -> OpaquePointer {
        let w = Int32((c.region.width * c.scale).rounded()), h = Int32((c.region.height * c.scale).rounded())
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)!
        let cr = cairo_create(surface)!
        var frame = HUDFrame(configuration: c.config, layout: renderer.layout(c.config, region: c.region))
        frame.time = c.time
        frame.scale = c.scale
        frame.presentation = c.presentation
        renderer.render(frame, to: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        return surface
    }

    /// Pixels whose channels differ by more than `tolerance` (0-255), and how many there are.
    static func difference(_ a: OpaquePointer, _ b: OpaquePointer, tolerance: Int32 = 24) -> (bad: Int, total: Int)? {
        let w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a)
        guard w == cairo_image_surface_get_width(b), h == cairo_image_surface_get_height(b) else { return nil }
        let sa = Int(cairo_image_surface_get_stride(a)), sb = Int(cairo_image_surface_get_stride(b))
        let pa = cairo_image_surface_get_data(a)!, pb = cairo_image_surface_get_data(b)!
        var bad = 0
        for y in 0..<Int(h) {
            for x in 0..<Int(w) * 4 {
                if abs(Int32(pa[y * sa + x]) - Int32(pb[y * sb + x])) > tolerance { bad += 1 }
            }
        }
        return (bad, Int(w * h) * 4)
    }

    static func check(_ c: GoldenCase, renderer: HUDRenderer, file: StaticString = #filePath, line: UInt = #line) {
        let surface = render(c, renderer: renderer)
        defer { cairo_surface_destroy(surface) }
        let path = directory + "/" + c.name + ".png"
        if updating {
            XCTAssertEqual(cairo_surface_write_to_png(surface, path), CAIRO_STATUS_SUCCESS, file: file, line: line)
            return
        }
        let reference = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(reference) }
        guard cairo_surface_status(reference) == CAIRO_STATUS_SUCCESS else {
            XCTFail("no reference image \(path); run with XHUD_UPDATE_GOLDEN=1 and look at it", file: file, line: line)
            return
        }
        guard let d = difference(surface, reference) else {
            XCTFail("\(c.name): size differs from the reference", file: file, line: line)
            return
        }
        // Anti-aliasing may move by a shade between font builds; a changed shape moves hundreds.
        if d.bad > max(40, d.total / 1000) {
            let actual = NSTemporaryDirectory() + "xhud-" + c.name + ".actual.png"
            cairo_surface_write_to_png(surface, actual)
            XCTFail("\(c.name): \(d.bad) of \(d.total) channels differ from the reference; see \(actual)", file: file, line: line)
        }
    }

    /// The alpha (0-255) of one pixel.
    static func alpha(_ s: OpaquePointer, _ x: Int, _ y: Int) -> Int {
        pixel(s, x, y).a
    }

    /// One pixel, premultiplied, as (r, g, b, a) 0-255.
    static func pixel(_ s: OpaquePointer, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
        let stride = Int(cairo_image_surface_get_stride(s))
        let p = cairo_image_surface_get_data(s)!
        let v = UnsafeRawPointer(p + y * stride + x * 4).loadUnaligned(as: UInt32.self)
        return (Int((v >> 16) & 255), Int((v >> 8) & 255), Int(v & 255), Int(v >> 24))
    }
}
