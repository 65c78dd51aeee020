import CX11
import CCairo
import HUDCore

extension X11Display {
    /// A compositing manager owns `_NET_WM_CM_S<screen>` while it runs.
    public var compositorRunning: Bool {
        XGetSelectionOwner(handle, atom("_NET_WM_CM_S\(screen)")) != 0
    }

    /// Asks for an event when a compositor starts or stops; returns the XFixes event base.
    public func watchCompositor() -> Int32? {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XFixesQueryExtension(handle, &eventBase, &errorBase) != 0 else { return nil }
        XFixesSelectSelectionInput(handle, root, atom("_NET_WM_CM_S\(screen)"),
                                   UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask))
        return eventBase
    }

    /// What the screen shows in a rectangle, as an opaque Cairo image (pseudo-transparency when no
    /// compositor blends for us). Areas off the screen are black.
    public func snapshot(_ r: Rect) -> OpaquePointer {
        let rect = r.integral
        let w = Int32(saturating: max(1, rect.width)), h = Int32(saturating: max(1, rect.height))
        let surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h)!
        let screen = screenSize
        let visible = Rect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height))
        let x0 = max(rect.x, 0), y0 = max(rect.y, 0)
        let x1 = min(rect.maxX, visible.maxX), y1 = min(rect.maxY, visible.maxY)
        guard x1 > x0, y1 > y0 else { return surface }
        let (img, ok) = checked {
            XGetImage(handle, root, Int32(x0), Int32(y0), UInt32(x1 - x0), UInt32(y1 - y0), UInt(bitPattern: -1), ZPixmap)
        }
        guard ok, let image = img else { return surface }
        defer { _ = image.pointee.f.destroy_image(image) }
        cairo_surface_flush(surface)
        let dst = cairo_image_surface_get_data(surface)!
        let dstStride = Int(cairo_image_surface_get_stride(surface))
        let dx = Int(x0 - rect.x), dy = Int(y0 - rect.y)
        let iw = Int(image.pointee.width), ih = Int(image.pointee.height)
        if image.pointee.bits_per_pixel == 32, let src = image.pointee.data {
            let srcStride = Int(image.pointee.bytes_per_line)
            for y in 0..<ih {
                (dst + (y + dy) * dstStride + dx * 4).update(from: UnsafeMutableRawPointer(src + y * srcStride).assumingMemoryBound(to: UInt8.self), count: iw * 4)
            }
        } else {
            // Uncommon depths: go through XGetPixel, which knows every format.
            for y in 0..<ih {
                for x in 0..<iw {
                    let p = UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(x), Int32(y)))
                    UnsafeMutableRawPointer(dst + (y + dy) * dstStride + (x + dx) * 4).storeBytes(of: p, as: UInt32.self)
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
