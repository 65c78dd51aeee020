#if canImport(Glibc)
import Glibc
#endif
import HUDSystem
import CCairo
import HUDCore

/// Reads image files with bounds: a HUD shows an image at a few dozen pixels, so nothing a path
/// names may block the caller (a FIFO, a device), take more than a little memory, or take long.
package enum ImageFile {
    /// Larger files are refused before they are read.
    package static let maxFileBytes = 16 << 20
    /// Larger images (pixels before decoding) are refused: 2048 x 2048.
    package static let maxPixels = 2048 * 2048
    /// Images are kept at most this many device pixels on their long side (the image box is at
    /// most 512 logical pixels; 512 at scale 1 and sharp enough at any scale of a HUD image).
    package static let maxKeptSide = 512

    /// Why `path` cannot be shown, without decoding it; nil when it can.
    package static func problem(at path: String) -> String? {
        switch read(path) {
        case .failure(let why): return why.description
        case .success(let bytes) where isSVG(bytes):
            if case .failure(let why) = SVGImage.parse(bytes) { return "cannot use image '\(path)': \(why.description)" }
            return nil
        case .success(let bytes) where !isPNG(bytes):
            // Another format: whether gdk-pixbuf reads it is known only by reading it.
            switch PixbufImage.decode(bytes) {
            case .surface(let s): cairo_surface_destroy(s); return nil
            case .larger: return nil
            case .failed(let why): return "cannot use image '\(path)': \(why)"
            }
        case .success: return nil
        }
    }

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The file's bytes, after checking that it is a regular file of a bounded size holding a PNG
    /// of bounded dimensions. Opened non-blocking: a FIFO or a device is refused, not waited on.
    static func read(_ path: String) -> Result<[UInt8], Failure> {
        func fail(_ s: String) -> Result<[UInt8], Failure> { .failure(Failure(description: "cannot use image '\(path)': \(s)")) }
        let bytes: [UInt8]
        switch FileText.bytes(path, limit: maxFileBytes) {
        case .missing: return fail(String(cString: strerror(ENOENT)))
        case .failed(let why): return fail(why)
        case .bytes(let b): bytes = b
        }
        if isSVG(bytes) {
            // librsvg bounds what it renders to the box; what the document asks of it is bounded here.
            if let why = SVGLimits.problem(bytes) { return fail(why) }
            return .success(bytes)
        }
        // Any other format is gdk-pixbuf's (`PixbufImage`), which checks its size before decoding.
        guard isPNG(bytes) else {
            guard !bytes.isEmpty else { return fail("an empty file") }
            return .success(bytes)
        }
        let (w, h) = dimensions(bytes)
        guard w > 0, h > 0 else { return fail("not a PNG file") }
        guard w <= maxPixels, h <= maxPixels, w * h <= maxPixels else {
            return fail("\(w)x\(h) pixels is more than a HUD image may have (\(maxPixels / 1_000_000) megapixels, e.g. 2048x2048)")
        }
        return .success(bytes)
    }

    /// A PNG: the 8-byte signature, then IHDR with width and height (big-endian).
    static func isPNG(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 24 && bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    /// A PNG's width and height from its IHDR (big-endian, after the 8-byte signature).
    static func dimensions(_ bytes: [UInt8]) -> (width: Int, height: Int) {
        guard bytes.count >= 24 else { return (0, 0) }
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        return (be32(16), be32(20))
    }

    /// A PNG's pixels before decoding.
    static func pixels(_ bytes: [UInt8]) -> Int { let d = dimensions(bytes); return d.width * d.height }

    /// Decodes bounded bytes of any bitmap format: a PNG with Cairo, any other with gdk-pixbuf;
    /// scaled down to `maxKeptSide`. `drawnAbove`: see `PixbufImage.decode`.
    static func decodeBitmap(_ bytes: [UInt8], path: String, drawnAbove: Int? = nil) -> PixbufImage.Outcome {
        if isPNG(bytes) {
            if let above = drawnAbove, pixels(bytes) > above { return .larger }
            return decode(bytes).map { .surface($0) } ?? .failed("not a valid PNG file")
        }
        return PixbufImage.decode(bytes, drawnAbove: drawnAbove)
    }

    /// An SVG document: `<svg` within its first kilobytes (after an XML declaration, comments,
    /// a doctype), or gzip-compressed (.svgz).
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B { return true }
        // A comment, a licence or a doctype may come first: `<svg` within the first 64 KB.
        let head = bytes.prefix(64 << 10)
        guard let first = head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }), first == UInt8(ascii: "<") else {
            return false
        }
        return SVGLimits.find(Array(head), "<svg", from: 0) != nil
    }

    /// Decodes bounded PNG bytes and scales them down to `maxKeptSide`.
    static func decode(_ bytes: [UInt8]) -> OpaquePointer? {
        final class Reader { let bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }
        let reader = Reader(bytes)
        let box = Unmanaged.passRetained(reader)
        defer { box.release() }
        let s = cairo_image_surface_create_from_png_stream(
            { closure, data, length in
                let r = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                let n = Int(length)
                guard r.offset + n <= r.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
                r.bytes.withUnsafeBytes { data.update(from: $0.baseAddress!.assumingMemoryBound(to: UInt8.self) + r.offset, count: n) }
                r.offset += n
                return CAIRO_STATUS_SUCCESS
            }, box.toOpaque())!
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { cairo_surface_destroy(s); return nil }
        let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
        let side = max(w, h)
        guard side > maxKeptSide else { return s }
        let k = Double(maxKeptSide) / Double(side)
        let sw = max(1, Int((Double(w) * k).rounded())), sh = max(1, Int((Double(h) * k).rounded()))
        let small = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(sw), Int32(sh))!
        let cr = cairo_create(small)!
        cairo_scale(cr, Double(sw) / Double(w), Double(sh) / Double(h))
        cairo_set_source_surface(cr, s, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
        cairo_paint(cr)
        cairo_destroy(cr)
        cairo_surface_destroy(s)
        return small
    }
}

/// Custom indicator images, loaded once per path (bounded by `ImageFile`): bitmaps (PNG, and
/// JPEG, GIF, BMP, WebP, ... through gdk-pixbuf) decoded once, SVGs rendered at the size they
/// are drawn.
final class ImageCache {
    enum Image { case bitmap(OpaquePointer), vector(SVGImage) }
    struct Entry {
        var image: Image?
        var error: String?
        /// What the server's decoder made it from: a newer decoding of the path (the file was
        /// rewritten) replaces it.
        var decoded: DecodedBitmap?
    }
    private var entries: [String: Entry] = [:]

    deinit { removeAll() }

    private func removeAll() {
        for e in entries.values { if case .bitmap(let s)? = e.image { cairo_surface_destroy(s) } }
        entries.removeAll()
    }

    func load(_ path: String) -> Entry {
        // A server's images are read and decoded off its loop, the latest version of each file.
        let decoded = ImageDecoder.shared.bitmap(path)
        if let e = entries[path] {
            if decoded == nil || e.decoded === decoded { return e }
            if case .bitmap(let s)? = e.image { cairo_surface_destroy(s) }
            entries[path] = nil
        }
        var entry = Entry(image: nil, error: nil, decoded: decoded)
        if let decoded {
            entry.image = .bitmap(cairo_surface_reference(decoded.surface))
        } else {
            read(path, into: &entry)
        }
        if entries.count >= 16 { removeAll() }  // a HUD whose image changes on every update keeps a few
        entries[path] = entry
        return entry
    }

    private func read(_ path: String, into entry: inout Entry) {
        switch ImageFile.read(path) {
        case .failure(let why): entry.error = why.description
        case .success(let bytes) where ImageFile.isSVG(bytes):
            switch SVGImage.parse(bytes) {
            case .success(let svg): entry.image = .vector(svg)
            case .failure(let why): entry.error = "cannot use image '\(path)': \(why.description)"
            }
        case .success(let bytes):
            switch ImageFile.decodeBitmap(bytes, path: path) {
            case .surface(let s): entry.image = .bitmap(s)
            case .failed(let why): entry.error = "cannot use image '\(path)': \(why)"
            case .larger: entry.error = "cannot use image '\(path)': not decoded"  // only with a bound, which this has not
            }
        }
    }

    /// Whether the server's decoder has a newer decoding of `path` than the one kept.
    func isStale(_ path: String) -> Bool {
        guard let e = entries[path], let decoded = ImageDecoder.shared.bitmap(path) else { return false }
        return e.decoded !== decoded
    }

    /// Fits the image in the rectangle keeping its aspect ratio; a tint keeps only its alpha.
    func draw(_ path: String, in r: Rect, tint: RGBA?, cr: OpaquePointer) {
        let s: OpaquePointer, w: Double, h: Double, k: Double
        switch load(path).image {
        case nil: return
        case .bitmap(let b)?:
            s = b
            w = Double(cairo_image_surface_get_width(b)); h = Double(cairo_image_surface_get_height(b))
            guard w > 0, h > 0 else { return }
            k = min(r.width / w, r.height / h)
        case .vector(let svg)?:
            // Rendered at the box's size in device pixels, then drawn 1:1: crisp at any scale.
            var dw = r.width, dh = r.height
            cairo_user_to_device_distance(cr, &dw, &dh)
            let device = max(1, abs(dw)) / max(1, r.width)
            var bw = abs(dw), bh = abs(dh)
            if let size = svg.intrinsicSize {
                let fit = min(bw / size.width, bh / size.height)
                bw = size.width * fit; bh = size.height * fit
            }
            guard let rendered = svg.surface(width: Int(bw.rounded()), height: Int(bh.rounded())) else { return }
            s = rendered
            w = Double(cairo_image_surface_get_width(rendered)); h = Double(cairo_image_surface_get_height(rendered))
            k = 1 / device
        }
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

/// An image drawn once at the size it is shown at, into a PNG: what a child process makes for
/// the server (`ImagePreparer`), so that the process that draws every HUD never decodes an
/// SVG or a large bitmap itself.
package enum ImageRaster {
    /// The image fitted into a `side` x `side` box (aspect kept, centred, transparent around),
    /// written to `out`; a message saying why not otherwise.
    package static func write(_ path: String, side: Int, to out: String) -> String? {
        guard side > 0, side <= 2048 else { return "an image box of \(side) pixels" }
        let cache = ImageCache()
        if let error = cache.load(path).error { return error }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(side), Int32(side))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        cache.draw(path, in: Rect(x: 0, y: 0, width: Double(side), height: Double(side)), tint: nil, cr: cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        return cairo_surface_write_to_png(s, out) == CAIRO_STATUS_SUCCESS ? nil : "cannot write \(out)"
    }
}
