#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CPango

/// SVG images through librsvg, loaded with dlopen the first time an SVG is drawn: a HUD without
/// one never pays for librsvg and the libraries it brings (GIO, libxml2, ...) at start-up.
final class SVGImage {
    private typealias NewFromData = @convention(c) (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<OpaquePointer?>?) -> OpaquePointer?
    private typealias IntrinsicSize = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?) -> Int32
    private typealias RenderDocument =
        @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32

    private struct Library {
        let newFromData: NewFromData
        let intrinsicSize: IntrinsicSize
        let renderDocument: RenderDocument
    }

    /// nil when librsvg is not installed; then an SVG is refused with a clear message.
    private static let library: Library? = {
        guard let h = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL) ?? dlopen("librsvg-2.so", RTLD_NOW | RTLD_LOCAL),
            let a = dlsym(h, "rsvg_handle_new_from_data"),
            let b = dlsym(h, "rsvg_handle_get_intrinsic_size_in_pixels"),
            let c = dlsym(h, "rsvg_handle_render_document")
        else { return nil }
        return Library(
            newFromData: unsafeBitCast(a, to: NewFromData.self),
            intrinsicSize: unsafeBitCast(b, to: IntrinsicSize.self),
            renderDocument: unsafeBitCast(c, to: RenderDocument.self))
    }()

    static var isAvailable: Bool { library != nil }

    private let handle: OpaquePointer
    /// The image's own size in pixels; nil for an SVG with only a viewBox (it fills the box).
    let intrinsicSize: (width: Double, height: Double)?
    /// The last rendering, at the device size it was made for (a HUD draws one size).
    private var rendered: (surface: OpaquePointer, width: Int, height: Int)?

    /// Parses the document; nil with librsvg's message when it is not a valid SVG.
    static func parse(_ bytes: [UInt8]) -> Result<SVGImage, ImageFile.Failure> {
        guard let lib = library else {
            return .failure(ImageFile.Failure(description: "SVG images need librsvg (librsvg2-2), which is not installed"))
        }
        var error: OpaquePointer?
        let h = bytes.withUnsafeBufferPointer { lib.newFromData($0.baseAddress, $0.count, &error) }
        guard let h else {
            let message =
                error.map { e -> String in
                    let m =
                        UnsafeMutableRawPointer(e).assumingMemoryBound(to: GError.self).pointee.message.map { String(cString: $0) } ?? "invalid SVG"
                    g_error_free(UnsafeMutableRawPointer(e).assumingMemoryBound(to: GError.self))
                    return m
                } ?? "invalid SVG"
            return .failure(ImageFile.Failure(description: message))
        }
        var w = 0.0, hh = 0.0
        let known = lib.intrinsicSize(h, &w, &hh) != 0 && w > 0 && hh > 0
        return .success(SVGImage(handle: h, intrinsicSize: known ? (w, hh) : nil))
    }

    private init(handle: OpaquePointer, intrinsicSize: (width: Double, height: Double)?) {
        self.handle = handle
        self.intrinsicSize = intrinsicSize
    }

    deinit {
        if let r = rendered { cairo_surface_destroy(r.surface) }
        g_object_unref(UnsafeMutableRawPointer(handle))
    }

    /// The image rendered to fit `width` x `height` device pixels (aspect kept, centred): vector
    /// sharp at the HUD's scale, not a bitmap scaled up.
    func surface(width: Int, height: Int) -> OpaquePointer? {
        guard let lib = Self.library, width > 0, height > 0, width <= 4096, height <= 4096 else { return nil }
        if let r = rendered, r.width == width, r.height == height { return r.surface }
        if let r = rendered { cairo_surface_destroy(r.surface); rendered = nil }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
        let cr = cairo_create(s)!
        var viewport = (0.0, 0.0, Double(width), Double(height))
        let ok = withUnsafePointer(to: &viewport) { lib.renderDocument(handle, cr, UnsafeRawPointer($0), nil) } != 0
        cairo_destroy(cr)
        guard ok else { cairo_surface_destroy(s); return nil }
        cairo_surface_flush(s)
        rendered = (s, width, height)
        return s
    }
}
