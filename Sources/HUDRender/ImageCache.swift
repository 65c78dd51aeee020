#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore

/// Reads image files with bounds: a HUD shows an image at a few dozen pixels, so nothing a path
/// names may block the caller (a FIFO, a device), take more than a little memory, or take long.
public enum ImageFile {
    /// Larger files are refused before they are read.
    public static let maxFileBytes = 16 << 20
    /// Larger images (pixels before decoding) are refused: 2048 x 2048.
    public static let maxPixels = 2048 * 2048
    /// Images are kept at most this many device pixels on their long side (the image box is at
    /// most 512 logical pixels; 512 at scale 1 and sharp enough at any scale of a HUD image).
    public static let maxKeptSide = 512

    /// Why `path` cannot be shown, without decoding it; nil when it can.
    public static func problem(at path: String) -> String? {
        switch read(path) {
        case .failure(let why): return why.description
        case .success: return nil
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The file's bytes, after checking that it is a regular file of a bounded size holding a PNG
    /// of bounded dimensions. Opened non-blocking: a FIFO or a device is refused, not waited on.
    static func read(_ path: String) -> Result<[UInt8], Failure> {
        func fail(_ s: String) -> Result<[UInt8], Failure> { .failure(Failure(description: "cannot use image '\(path)': \(s)")) }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return fail(String(cString: strerror(errno))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return fail(String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return fail("not a regular file") }
        guard Int(st.st_size) <= maxFileBytes else { return fail("larger than \(maxFileBytes >> 20) MB") }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        bytes.removeSubrange(got...)
        // PNG: the 8-byte signature, then IHDR with width and height (big-endian).
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature else { return fail("not a PNG file") }
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        let w = be32(16), h = be32(20)
        guard w > 0, h > 0 else { return fail("not a PNG file") }
        guard w <= maxPixels, h <= maxPixels, w * h <= maxPixels else {
            return fail("\(w)x\(h) pixels is more than a HUD image may have (\(maxPixels / 1_000_000) megapixels, e.g. 2048x2048)")
        }
        return .success(bytes)
    }

    /// Decodes bounded PNG bytes and scales them down to `maxKeptSide`.
    static func decode(_ bytes: [UInt8]) -> OpaquePointer? {
        final class Reader { let bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }
        let reader = Reader(bytes)
        let box = Unmanaged.passRetained(reader)
        defer { box.release() }
        let s = cairo_image_surface_create_from_png_stream({ closure, data, length in
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

/// Custom indicator images, loaded once per path (bounded by `ImageFile`).
final class ImageCache {
    struct Entry { var surface: OpaquePointer?; var error: String? }
    private var entries: [String: Entry] = [:]

    deinit { for e in entries.values { if let s = e.surface { cairo_surface_destroy(s) } } }

    func load(_ path: String) -> Entry {
        if let e = entries[path] { return e }
        var entry = Entry(surface: nil, error: nil)
        switch ImageFile.read(path) {
        case .failure(let why): entry.error = why.description
        case .success(let bytes):
            if let s = ImageFile.decode(bytes) { entry.surface = s } else { entry.error = "cannot use image '\(path)': not a valid PNG file" }
        }
        if entries.count >= 16 {   // a HUD whose image changes on every update keeps a few
            for e in entries.values { if let s = e.surface { cairo_surface_destroy(s) } }
            entries.removeAll()
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
