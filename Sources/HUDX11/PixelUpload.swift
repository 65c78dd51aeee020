#if canImport(Glibc)
import Glibc
#endif
import CX11
import CCairo
import HUDCore

/// A client-side image whose changed pixels go to a server-side pixmap: only the rectangle that
/// differs from what the server already holds crosses the wire. On a local server the image
/// lives in MIT-SHM (the request carries no pixels); on a remote one (`ssh -X`, a TCP DISPLAY)
/// plain PutImage requests carry them.
final class UploadedImage {
    let display: X11Display
    let width: Int, height: Int
    /// Draw here (ARGB32, premultiplied), then call `upload`.
    let surface: OpaquePointer
    let pixmap: Pixmap
    private let gc: GC
    /// What the server holds, to find what changed.
    private var shadow: [UInt32]
    /// The segment's description lives on the heap: the XImage points at it for its whole life.
    private var shm: UnsafeMutablePointer<XShmSegmentInfo>?
    private var shmImage: UnsafeMutablePointer<XImage>?
    /// The serial of the last XShmPutImage from the segment: the segment may not be drawn into
    /// until the server has executed it.
    private var pendingPut: UInt = 0

    init(display: X11Display, width: Int, height: Int, useSHM: Bool) {
        self.display = display
        self.width = max(1, width)
        self.height = max(1, height)
        let d = display.handle
        pixmap = XCreatePixmap(d, display.root, UInt32(self.width), UInt32(self.height), 32)
        gc = XCreateGC(d, pixmap, 0, nil)
        shadow = [UInt32](repeating: 0, count: self.width * self.height)
        var made: OpaquePointer? = nil
        if useSHM, let (info, image) = UploadedImage.attachSegment(display, self.width, self.height) {
            shm = info
            shmImage = image
            made = cairo_image_surface_create_for_data(
                UnsafeMutableRawPointer(info.pointee.shmaddr!).assumingMemoryBound(to: UInt8.self),
                CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height), Int32(self.width * 4))
        }
        surface = made ?? cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(self.width), Int32(self.height))!
        // The pixmap starts transparent, as the shadow says.
        let pic = XRenderCreatePicture(d, pixmap, XRenderFindStandardFormat(d, Int32(PictStandardARGB32)), 0, nil)
        var clear = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0)
        XRenderFillRectangle(d, PictOpSrc, pic, &clear, 0, 0, UInt32(self.width), UInt32(self.height))
        XRenderFreePicture(d, pic)
    }

    deinit {
        let d = display.handle
        cairo_surface_destroy(surface)
        if let info = shm {
            // No wait for the server: its own attachment keeps the segment (marked for removal)
            // alive until it has detached.
            XShmDetach(d, info)
            shmdt(info.pointee.shmaddr)
            if let shmImage { shmImage.pointee.data = nil; XFree(shmImage) }
            info.deallocate()
        }
        XFreeGC(d, gc)
        XFreePixmap(d, pixmap)
    }

    var usesSHM: Bool { shm != nil }

    /// Waits, if need be, until the server has read the segment's last upload: call it before
    /// drawing into `surface`. Usually the server has long done so (a frame later) and this
    /// costs nothing; a new HUD's first upload no longer waits for a server busy with others.
    func prepareToDraw() {
        guard pendingPut != 0 else { return }
        if XLastKnownRequestProcessed(display.handle) < pendingPut { XSync(display.handle, 0) }
        pendingPut = 0
    }

    /// A shared segment the X server has attached, or nil (a remote server, no MIT-SHM, no
    /// memory): then plain requests carry the pixels.
    private static func attachSegment(
        _ display: X11Display, _ w: Int, _ h: Int
    ) -> (UnsafeMutablePointer<XShmSegmentInfo>, UnsafeMutablePointer<XImage>)? {
        let d = display.handle
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        func fail() -> (UnsafeMutablePointer<XShmSegmentInfo>, UnsafeMutablePointer<XImage>)? { info.deallocate(); return nil }
        var visualInfo = XVisualInfo()
        guard XMatchVisualInfo(d, display.screen, 32, TrueColor, &visualInfo) != 0,
            let image = XShmCreateImage(d, visualInfo.visual, 32, ZPixmap, nil, info, UInt32(w), UInt32(h))
        else { return fail() }
        let size = Int(image.pointee.bytes_per_line) * h
        guard Int(image.pointee.bytes_per_line) == w * 4 else { XFree(image); return fail() }
        info.pointee.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0o600)
        guard info.pointee.shmid >= 0 else { XFree(image); return fail() }
        guard let addr = shmat(info.pointee.shmid, nil, 0), addr != UnsafeMutableRawPointer(bitPattern: -1) else {
            shmctl(info.pointee.shmid, IPC_RMID, nil)
            XFree(image)
            return fail()
        }
        info.pointee.shmaddr = addr.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 1
        image.pointee.data = info.pointee.shmaddr
        // The first attachment on a connection is checked (a server in another IPC namespace
        // cannot attach); once one has worked, the next ones are sent without waiting.
        let ok: Bool
        if display.rootState.shmAttachWorks {
            XShmAttach(d, info)
            ok = true
        } else {
            ok = display.checked { XShmAttach(d, info) }.ok
            display.rootState.shmAttachWorks = ok
        }
        // Marked for removal now: it goes when both sides have detached, even after a crash.
        shmctl(info.pointee.shmid, IPC_RMID, nil)
        guard ok else {
            shmdt(addr)
            image.pointee.data = nil
            XFree(image)
            return fail()
        }
        return (info, image)  // zero-filled by the kernel (shmget)
    }

    /// Sends what changed since the last upload; returns the rectangle sent (nil: nothing).
    @discardableResult
    func upload() -> Rect? {
        cairo_surface_flush(surface)
        guard let changed = diff() else { return nil }
        let d = display.handle
        let (x, y, w, h) = changed
        if let shmImage {
            pendingPut = XNextRequest(d)
            XShmPutImage(d, pixmap, gc, shmImage, Int32(x), Int32(y), Int32(x), Int32(y), UInt32(w), UInt32(h), 0)
            XFlush(d)
        } else {
            let data = cairo_image_surface_get_data(surface)!
            var visualInfo = XVisualInfo()
            let visual = XMatchVisualInfo(d, display.screen, 32, TrueColor, &visualInfo) != 0 ? visualInfo.visual : XDefaultVisual(d, display.screen)
            guard
                let image = XCreateImage(
                    d, visual, 32, ZPixmap, 0, UnsafeMutableRawPointer(data).assumingMemoryBound(to: CChar.self),
                    UInt32(width), UInt32(height), 32, Int32(width * 4))
            else { return nil }
            XPutImage(d, pixmap, gc, image, Int32(x), Int32(y), Int32(x), Int32(y), UInt32(w), UInt32(h))
            image.pointee.data = nil
            XFree(image)
        }
        return Rect(x: Double(x), y: Double(y), width: Double(w), height: Double(h))
    }

    /// The bounding box of the pixels that differ from the shadow, which is brought up to date.
    private func diff() -> (Int, Int, Int, Int)? {
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!).assumingMemoryBound(to: UInt32.self)
        let w = width
        var top = -1, bottom = -1, left = w, right = -1
        shadow.withUnsafeMutableBufferPointer { sh in
            for y in 0..<height {
                let row = data + y * w, srow = sh.baseAddress! + y * w
                if memcmp(row, srow, w * 4) == 0 { continue }
                if top < 0 { top = y }
                bottom = y
                var l = 0
                while l < w && row[l] == srow[l] { l += 1 }
                var r = w - 1
                while r > l && row[r] == srow[r] { r -= 1 }
                left = min(left, l)
                right = max(right, r)
                srow.update(from: row, count: w)
            }
        }
        guard top >= 0 else { return nil }
        return (left, top, right - left + 1, bottom - top + 1)
    }
}
