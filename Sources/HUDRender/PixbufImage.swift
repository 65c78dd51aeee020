#if canImport(Glibc)
import Glibc
#endif
import CCairo

/// Bitmaps other than PNG (JPEG, GIF's first frame, BMP, WebP with its loader, TIFF, ICO, ...)
/// through gdk-pixbuf, loaded with dlopen the first time one is decoded: a HUD that shows only
/// PNGs and SVGs never maps it, and the build needs no gdk-pixbuf header. PNGs keep Cairo's
/// own reader. The bytes are the ones `ImageFile.read` read within its bounds (never the path
/// again: a file swapped for a FIFO meanwhile would block the decoder). The image's size is
/// checked when the loader learns it, before any pixel is decoded: too many pixels is refused,
/// a large image is scaled down as it is decoded. Any thread: each call has its own loader.
enum PixbufImage {
    private typealias Ptr = UnsafeMutableRawPointer

    private struct Library: @unchecked Sendable {
        let loaderNew: @convention(c) () -> Ptr?
        let loaderWrite: @convention(c) (Ptr, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Ptr?>?) -> Int32
        let loaderClose: @convention(c) (Ptr, UnsafeMutablePointer<Ptr?>?) -> Int32
        let loaderPixbuf: @convention(c) (Ptr) -> Ptr?
        let loaderSetSize: @convention(c) (Ptr, Int32, Int32) -> Void
        let signalConnect: @convention(c) (Ptr, UnsafePointer<CChar>, Ptr, Ptr?, Ptr?, Int32) -> UInt
        let width: @convention(c) (Ptr) -> Int32
        let height: @convention(c) (Ptr) -> Int32
        let rowstride: @convention(c) (Ptr) -> Int32
        let channels: @convention(c) (Ptr) -> Int32
        let hasAlpha: @convention(c) (Ptr) -> Int32
        let bitsPerSample: @convention(c) (Ptr) -> Int32
        let pixels: @convention(c) (Ptr) -> UnsafeMutablePointer<UInt8>?
        let objectUnref: @convention(c) (Ptr) -> Void
        let errorFree: @convention(c) (Ptr) -> Void
    }

    /// nil when gdk-pixbuf is not installed: such images are refused with a clear message.
    /// Its dependencies (GObject, GLib) are searched through its handle.
    private static let library: Library? = {
        guard let h = dlopen("libgdk_pixbuf-2.0.so.0", RTLD_NOW | RTLD_LOCAL) else { return nil }
        func f<T>(_ name: String, _: T.Type) -> T? { dlsym(h, name).map { unsafeBitCast($0, to: T.self) } }
        guard let loaderNew = f("gdk_pixbuf_loader_new", (@convention(c) () -> Ptr?).self),
            let loaderWrite = f(
                "gdk_pixbuf_loader_write", (@convention(c) (Ptr, UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<Ptr?>?) -> Int32).self),
            let loaderClose = f("gdk_pixbuf_loader_close", (@convention(c) (Ptr, UnsafeMutablePointer<Ptr?>?) -> Int32).self),
            let loaderPixbuf = f("gdk_pixbuf_loader_get_pixbuf", (@convention(c) (Ptr) -> Ptr?).self),
            let loaderSetSize = f("gdk_pixbuf_loader_set_size", (@convention(c) (Ptr, Int32, Int32) -> Void).self),
            let signalConnect = f("g_signal_connect_data", (@convention(c) (Ptr, UnsafePointer<CChar>, Ptr, Ptr?, Ptr?, Int32) -> UInt).self),
            let width = f("gdk_pixbuf_get_width", (@convention(c) (Ptr) -> Int32).self),
            let height = f("gdk_pixbuf_get_height", (@convention(c) (Ptr) -> Int32).self),
            let rowstride = f("gdk_pixbuf_get_rowstride", (@convention(c) (Ptr) -> Int32).self),
            let channels = f("gdk_pixbuf_get_n_channels", (@convention(c) (Ptr) -> Int32).self),
            let hasAlpha = f("gdk_pixbuf_get_has_alpha", (@convention(c) (Ptr) -> Int32).self),
            let bitsPerSample = f("gdk_pixbuf_get_bits_per_sample", (@convention(c) (Ptr) -> Int32).self),
            let pixels = f("gdk_pixbuf_get_pixels", (@convention(c) (Ptr) -> UnsafeMutablePointer<UInt8>?).self),
            let objectUnref = f("g_object_unref", (@convention(c) (Ptr) -> Void).self),
            let errorFree = f("g_error_free", (@convention(c) (Ptr) -> Void).self)
        else { return nil }
        return Library(
            loaderNew: loaderNew, loaderWrite: loaderWrite, loaderClose: loaderClose, loaderPixbuf: loaderPixbuf,
            loaderSetSize: loaderSetSize, signalConnect: signalConnect, width: width, height: height,
            rowstride: rowstride, channels: channels, hasAlpha: hasAlpha, bitsPerSample: bitsPerSample,
            pixels: pixels, objectUnref: objectUnref, errorFree: errorFree)
    }()

    static var isAvailable: Bool { library != nil }

    enum Outcome {
        /// An ARGB32 premultiplied surface, at most `ImageFile.maxKeptSide` on its long side.
        case surface(OpaquePointer)
        /// More than the caller decodes itself (`drawnAbove` pixels): not decoded.
        case larger
        /// Why not, in words that follow "cannot use image 'PATH': ".
        case failed(String)
    }

    /// What the loader's size-prepared handler decides, before the pixels are decoded.
    private final class Sizing {
        let drawnAbove: Int?
        var refusal: String?
        var larger = false
        init(drawnAbove: Int?) { self.drawnAbove = drawnAbove }
    }

    /// A common format's name, from its first bytes, for messages.
    static func formatName(_ bytes: [UInt8]) -> String? {
        func starts(_ s: [UInt8], at i: Int = 0) -> Bool { bytes.count >= i + s.count && Array(bytes[i..<(i + s.count)]) == s }
        if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if starts(Array("GIF8".utf8)) { return "GIF" }
        if starts(Array("BM".utf8)) { return "BMP" }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts([0x00, 0x00, 0x01, 0x00]) { return "ICO" }
        return nil
    }

    /// Decodes `bytes`. `drawnAbove`: images of more pixels are not decoded (`larger`): the
    /// caller has them drawn at their size by a child; nil decodes any (scaled down).
    static func decode(_ bytes: [UInt8], drawnAbove: Int? = nil) -> Outcome {
        let format = formatName(bytes)
        guard let lib = library else {
            return .failed(
                "\(format.map { "\($0) images need" } ?? "reading images other than PNG and SVG needs") gdk-pixbuf (libgdk-pixbuf-2.0-0), which is not installed"
            )
        }
        guard let loader = lib.loaderNew() else { return .failed("gdk-pixbuf could not start") }
        defer { lib.objectUnref(loader) }
        let sizing = Sizing(drawnAbove: drawnAbove)
        let box = Unmanaged.passRetained(sizing)
        defer { box.release() }
        let prepared: @convention(c) (Ptr?, Int32, Int32, Ptr?) -> Void = { loader, w, h, data in
            guard let loader, let data, let lib = PixbufImage.library else { return }
            let sizing = Unmanaged<Sizing>.fromOpaque(data).takeUnretainedValue()
            let w = Int(w), h = Int(h)
            if w <= 0 || h <= 0 || w > ImageFile.maxPixels || h > ImageFile.maxPixels || w * h > ImageFile.maxPixels {
                sizing.refusal = "\(w)x\(h) pixels is more than a HUD image may have (\(ImageFile.maxPixels / 1_000_000) megapixels, e.g. 2048x2048)"
            } else if let above = sizing.drawnAbove, w * h > above {
                sizing.larger = true
            } else {
                let side = max(w, h)
                guard side > ImageFile.maxKeptSide else { return }
                let k = Double(ImageFile.maxKeptSide) / Double(side)
                lib.loaderSetSize(loader, Int32(max(1, (Double(w) * k).rounded())), Int32(max(1, (Double(h) * k).rounded())))
                return
            }
            // A size of 0 is how a loader is told to stop before decoding (gdk_pixbuf_get_file_info's way).
            lib.loaderSetSize(loader, 0, 0)
        }
        _ = lib.signalConnect(loader, "size-prepared", unsafeBitCast(prepared, to: Ptr.self), box.toOpaque(), nil, 0)
        var error: Ptr?
        var ok = bytes.withUnsafeBufferPointer { lib.loaderWrite(loader, $0.baseAddress, $0.count, &error) } != 0
        var closeError: Ptr?
        // Closed whatever happened (a loader left open complains on stderr).
        let closed = lib.loaderClose(loader, &closeError) != 0
        if error == nil { error = closeError } else if let e = closeError { lib.errorFree(e) }
        ok = ok && closed
        let message = error.map { e -> String in
            let m = UnsafeMutableRawPointer(e).assumingMemoryBound(to: GErrorLayout.self).pointee.message.map { String(cString: $0) }
            lib.errorFree(e)
            return m ?? "gdk-pixbuf could not read it"
        }
        if let refusal = sizing.refusal { return .failed(refusal) }
        if sizing.larger { return .larger }
        guard ok, let pixbuf = lib.loaderPixbuf(loader) else {
            let what = format.map { "not a valid \($0) file" } ?? "not an image xhud can read (PNG, SVG, JPEG, GIF, BMP, WebP, ...)"
            return .failed(message.map { "\(what): \($0)" } ?? what)
        }
        guard let surface = surface(of: pixbuf, lib) else { return .failed("not an 8-bit RGB or RGBA image") }
        return .surface(surface)
    }

    /// The pixbuf's RGB(A), straight alpha, as Cairo's native-endian premultiplied ARGB32.
    private static func surface(of pixbuf: Ptr, _ lib: Library) -> OpaquePointer? {
        let w = Int(lib.width(pixbuf)), h = Int(lib.height(pixbuf)), stride = Int(lib.rowstride(pixbuf))
        let channels = Int(lib.channels(pixbuf)), alpha = lib.hasAlpha(pixbuf) != 0
        guard w > 0, h > 0, lib.bitsPerSample(pixbuf) == 8, channels == (alpha ? 4 : 3),
            let src = lib.pixels(pixbuf),
            let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))
        else { return nil }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS, let base = cairo_image_surface_get_data(s) else {
            cairo_surface_destroy(s)
            return nil
        }
        cairo_surface_flush(s)
        let dstStride = Int(cairo_image_surface_get_stride(s))
        for y in 0..<h {
            let row = UnsafeMutableRawPointer(base + y * dstStride).assumingMemoryBound(to: UInt32.self)
            let p = src + y * stride
            for x in 0..<w {
                let i = x * channels
                let a = alpha ? UInt32(p[i + 3]) : 255
                let r = (UInt32(p[i]) * a + 127) / 255, g = (UInt32(p[i + 1]) * a + 127) / 255, b = (UInt32(p[i + 2]) * a + 127) / 255
                row[x] = a << 24 | r << 16 | g << 8 | b
            }
        }
        cairo_surface_mark_dirty(s)
        return s
    }

    /// GLib's GError (domain, code, message): a stable ABI.
    private struct GErrorLayout {
        var domain: UInt32
        var code: Int32
        var message: UnsafeMutablePointer<CChar>?
    }
}
