#if canImport(Glibc)
import Glibc
#endif
import CCairo

/// The raw pixels of an `image-data` hint (`iiibiiay`: width, height, rowstride, has alpha, bits
/// per sample, channels, data), checked: 8-bit RGB or RGBA, at most `maxSide` pixels a side, the
/// data as long as the rows say.
package struct NotificationImage: Equatable, Sendable {
    package let width: Int, height: Int, rowstride: Int, channels: Int
    package let data: [UInt8]

    /// An icon, not a photograph: larger images are refused (the HUD shows its own icon).
    package static let maxSide = 1024

    package init?(_ v: HintValue) {
        guard case .structure(let f) = v, f.count == 7,
            case .integer(let w) = f[0], case .integer(let h) = f[1], case .integer(let stride) = f[2],
            case .integer(let alpha) = f[3], case .integer(let bits) = f[4], case .integer(let channels) = f[5],
            case .bytes(let data) = f[6]
        else { return nil }
        guard (1...Int64(Self.maxSide)).contains(w), (1...Int64(Self.maxSide)).contains(h), bits == 8,
            channels == (alpha != 0 ? 4 : 3), stride >= w * channels, stride <= 4 * Int64(Self.maxSide) + 64,
            Int64(data.count) >= stride * (h - 1) + w * channels
        else { return nil }
        width = Int(w); height = Int(h); rowstride = Int(stride); self.channels = Int(channels); self.data = data
    }

    /// Writes the pixels as a PNG at `path` (the server's private directory); false when Cairo
    /// could not.
    package func writePNG(to path: String) -> Bool {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else { return false }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let base = cairo_image_surface_get_data(surface) else { return false }
        let stride = Int(cairo_image_surface_get_stride(surface))
        cairo_surface_flush(surface)
        for y in 0..<height {
            let row = (base + y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in 0..<width {
                let i = y * rowstride + x * channels
                let a = channels == 4 ? UInt32(data[i + 3]) : 255
                // Cairo's pixels are premultiplied.
                let r = UInt32(data[i]) * a / 255, g = UInt32(data[i + 1]) * a / 255, b = UInt32(data[i + 2]) * a / 255
                row[x] = a << 24 | r << 16 | g << 8 | b
            }
        }
        cairo_surface_mark_dirty(surface)
        let tmp = path + ".tmp"
        guard cairo_surface_write_to_png(surface, tmp) == CAIRO_STATUS_SUCCESS else { unlink(tmp); return false }
        return rename(tmp, path) == 0
    }
}
