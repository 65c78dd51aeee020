#if canImport(Glibc)
import Glibc
#endif
import CX11
import CCairo
import HUDCore
import HUDEngine

/// Frames assembled on the X server with XRender. What does not change between frames lives
/// there: the content (bezel, shadow, text, indicator; uploaded once, then only what changed),
/// the spinner's sprite (uploaded once), and what the HUD blends over without a compositor (a
/// copy of the screen taken on the server). A frame is a handful of Composite
/// requests: the spinner turns by a transform, a fade is the alpha of a solid mask, a zoom is a
/// scale transform. Nothing but changed pixels is ever sent.
final class ServerCanvas {
    let display: X11Display
    let window: Window
    let width: Int, height: Int
    let depth: Int32
    let content: UploadedImage
    /// Counts the changes of what a frame is composed from (content, sprite, background, blur):
    /// a frame kept from an earlier count is stale (`PresentedSpinner`).
    var generation = 0
    private(set) var sprite: UploadedImage?
    private var spriteKey: SpriteKey?
    private let windowPicture: Picture
    let back: (pixmap: Pixmap, picture: Picture)
    let backFormat: UnsafeMutablePointer<XRenderPictFormat>?
    /// The content with the spinner turned over it: made for a spinner's first frame only (a
    /// window-sized pixmap fewer on the X server for every other HUD).
    private var layer: (pixmap: Pixmap, picture: Picture)?
    private let contentPicture: Picture
    private var spritePicture: Picture = 0
    private var background: Background = .none
    private(set) var backgroundPicture: Picture = 0
    private var snapshotPixmap: Pixmap = 0
    private(set) var snapshotRect = Rect(x: 0, y: 0, width: 0, height: 0)
    /// What lies under the window, when the background is a copy of the screen: the copy and
    /// where it was taken (root coordinates).
    var snapshot: (pixmap: Pixmap, rect: Rect)? { snapshotPixmap != 0 ? (snapshotPixmap, snapshotRect) : nil }
    /// The background blurred (a frosted bezel without a compositor), made on the server the
    /// first frame after the background or the radius changed, over `blurredArea` (root
    /// coordinates: the copy of the screen); `blurClip` is where it shows.
    var blurRadius = 0.0
    var blurred: (pixmap: Pixmap, picture: Picture)?
    var blurredArea = Rect(x: 0, y: 0, width: 0, height: 0)
    var blurClip: [XRectangle] = []
    /// The back buffer clipped to the bezel's spans: made when the spans change, not set on
    /// every frame (a spinner's frame would otherwise send the bezel's outline, a rectangle a
    /// row, sixty times a second).
    var blurTargetPicture: Picture = 0

    /// What is under the HUD's pixels: nothing (a compositor blends the window), or a copy of
    /// the screen taken on the server before the window mapped.
    enum Background: Equatable { case none, snapshot }

    init(display: X11Display, window: Window, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int, useSHM: Bool) {
        self.display = display
        self.window = window
        self.width = max(1, width)
        self.height = max(1, height)
        self.depth = depth
        let d = display.handle
        let argb = XRenderFindStandardFormat(d, Int32(PictStandardARGB32))
        windowPicture = XRenderCreatePicture(d, window, XRenderFindVisualFormat(d, visual), 0, nil)
        let w = UInt32(max(1, width)), h = UInt32(max(1, height)), root = display.root
        func pixmapPicture(_ depth: Int32, _ format: UnsafeMutablePointer<XRenderPictFormat>?) -> (Pixmap, Picture) {
            let p = XCreatePixmap(d, root, w, h, UInt32(depth))
            return (p, XRenderCreatePicture(d, p, format, 0, nil))
        }
        backFormat = XRenderFindVisualFormat(d, visual)
        back = pixmapPicture(depth, backFormat)
        content = UploadedImage(display: display, width: self.width, height: self.height, useSHM: useSHM)
        contentPicture = XRenderCreatePicture(d, content.pixmap, argb, 0, nil)
        setFilter(contentPicture, "bilinear")
    }

    deinit {
        let d = display.handle
        for p in [
            windowPicture, back.picture, layer?.picture ?? 0, contentPicture, spritePicture, backgroundPicture,
            blurTargetPicture,
        ] where p != 0 {
            XRenderFreePicture(d, p)
        }
        XFreePixmap(d, back.pixmap)
        if let layer { XFreePixmap(d, layer.pixmap) }
        if snapshotPixmap != 0 { XFreePixmap(d, snapshotPixmap) }
        if let copyGC { XFreeGC(d, copyGC) }
        dropBlurred()
    }

    private func spinnerLayer() -> (pixmap: Pixmap, picture: Picture) {
        if let layer { return layer }
        let d = display.handle
        let p = XCreatePixmap(d, display.root, UInt32(width), UInt32(height), 32)
        let l = (p, XRenderCreatePicture(d, p, XRenderFindStandardFormat(d, Int32(PictStandardARGB32)), 0, nil))
        setFilter(l.1, "bilinear")
        layer = l
        return l
    }

    func setFilter(_ p: Picture, _ name: String) {
        name.withCString { XRenderSetPictureFilter(display.handle, p, $0, nil, 0) }
    }

    // MARK: What the frame is made of

    /// The spinner's sprite, uploaded when it changes (`key` names it: side, style and colour).
    func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void) {
        if spriteKey == key { return }
        spriteKey = key
        generation += 1
        let d = display.handle
        if spritePicture != 0 { XRenderFreePicture(d, spritePicture) }
        let s = UploadedImage(display: display, width: key.side, height: key.side, useSHM: false)
        let cr = cairo_create(s.surface)!
        draw(cr)
        cairo_destroy(cr)
        s.upload()
        sprite = s
        spritePicture = XRenderCreatePicture(d, s.pixmap, XRenderFindStandardFormat(d, Int32(PictStandardARGB32)), 0, nil)
        setFilter(spritePicture, "bilinear")
    }

    /// Blend over a copy of the screen under `rect` (root coordinates, taken now, on the server:
    /// no pixels travel), or over nothing (a compositor does the blending).
    /// `under` are copies of what lies beneath windows of ours that the copy of the screen
    /// would catch (other HUDs, this one where it was): they go over it, so that no HUD is in
    /// another's background.
    func setBackground(_ b: Background, rect: Rect, under: [(pixmap: Pixmap, rect: Rect)] = []) {
        let d = display.handle
        generation += 1
        dropBlurred()
        if backgroundPicture != 0 { XRenderFreePicture(d, backgroundPicture); backgroundPicture = 0 }
        let oldSnapshot = snapshotPixmap  // may be one of `under`: freed once copied from
        snapshotPixmap = 0
        defer { if oldSnapshot != 0 { XFreePixmap(d, oldSnapshot) } }
        background = b
        let rootFormat = XRenderFindVisualFormat(d, XDefaultVisual(d, display.screen))
        switch b {
        case .none: break
        case .snapshot:
            // The window's rectangle, or more: the path of a slide.
            let width = max(1, Int(rect.width)), height = max(1, Int(rect.height))
            let depth = UInt32(XDefaultDepth(d, display.screen))
            snapshotPixmap = XCreatePixmap(d, display.root, UInt32(width), UInt32(height), depth)
            var values = XGCValues()
            values.subwindow_mode = IncludeInferiors
            let gc = XCreateGC(d, snapshotPixmap, UInt(GCSubwindowMode), &values)
            XCopyArea(
                d, display.root, snapshotPixmap, gc, Int32(saturating: rect.x), Int32(saturating: rect.y),
                UInt32(width), UInt32(height), 0, 0)
            let area = Rect(x: rect.x, y: rect.y, width: Double(width), height: Double(height))
            for u in under {
                let i = u.rect.intersection(area)
                guard !i.isEmpty else { continue }
                XCopyArea(
                    d, u.pixmap, snapshotPixmap, gc, Int32(saturating: i.x - u.rect.x), Int32(saturating: i.y - u.rect.y),
                    UInt32(i.width), UInt32(i.height), Int32(saturating: i.x - rect.x), Int32(saturating: i.y - rect.y))
            }
            XFreeGC(d, gc)
            snapshotRect = area
            backgroundPicture = XRenderCreatePicture(d, snapshotPixmap, rootFormat, 0, nil)
        }
    }

    // MARK: A frame

    struct Spinner {
        /// Centre of the indicator in window pixels, and the angle it is turned by.
        var centre: Point
        var angle: Double
    }

    /// Composes a frame on the server and shows it: the content (and the turned sprite) with
    /// `alpha`, scaled by `zoom` about `zoomCentre` (window pixels), over the background; only
    /// `area` (window pixels) when given.
    func present(
        alpha: Double, zoom: Double, zoomCentre: Point, spinner: Spinner?, windowOrigin: Point, area: Rect? = nil,
        toWindow: Bool = true
    ) {
        let d = display.handle
        let a = clipped(area)
        guard !a.isEmpty else { return }
        let x = Int32(a.x), y = Int32(a.y), w = UInt32(a.width), h = UInt32(a.height)

        // The layer: the content, with the spinner turned over it.
        var source = contentPicture
        if let spinner, let sprite, spritePicture != 0 {
            let layer = spinnerLayer()
            XRenderComposite(d, PictOpSrc, contentPicture, 0, layer.picture, x, y, 0, 0, x, y, w, h)
            let half = Double(sprite.width) / 2
            let c = cos(spinner.angle), s = sin(spinner.angle)
            // Window pixel p -> sprite pixel: turn back about the indicator's centre.
            let tx = c * -spinner.centre.x + s * -spinner.centre.y + half
            let ty = -s * -spinner.centre.x + c * -spinner.centre.y + half
            setTransform(spritePicture, [c, s, tx, -s, c, ty])
            let r = Rect(x: spinner.centre.x - half * 1.5, y: spinner.centre.y - half * 1.5, width: half * 3, height: half * 3)
                .integral.intersection(a)
            if !r.isEmpty {
                XRenderComposite(
                    d, PictOpOver, spritePicture, 0, layer.picture, Int32(r.x), Int32(r.y), 0, 0,
                    Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height))
            }
            source = layer.picture
        }

        // The background under it (opaque without a compositor), or transparent.
        if backgroundPicture != 0 {
            let (ox, oy) = backgroundOffset(windowOrigin)
            XRenderComposite(d, PictOpSrc, backgroundPicture, 0, back.picture, ox + x, oy + y, 0, 0, x, y, w, h)
        } else {
            var clear = XRenderColor(red: 0, green: 0, blue: 0, alpha: 0)
            XRenderFillRectangle(d, PictOpSrc, back.picture, &clear, x, y, w, h)
        }

        var mask: Picture = 0
        if alpha < 0.999 {
            var c = XRenderColor(red: 0, green: 0, blue: 0, alpha: UInt16(saturating: (max(0, alpha) * 65535).rounded()))
            mask = XRenderCreateSolidFill(d, &c)
        }

        // Under the bezel, the background blurred (clipped to the bezel's spans), fading with
        // the bezel: at alpha 0 the window shows the true background, never a blurred slab.
        if blurRadius > 0, backgroundPicture != 0, !blurClip.isEmpty {
            let windowArea = Rect(x: windowOrigin.x, y: windowOrigin.y, width: Double(width), height: Double(height))
            if blurred != nil, !blurredArea.contains(windowArea) { dropBlurred() }
            if blurred == nil { makeBlurred() }
            if let blurred {
                let bx = Int32(saturating: windowOrigin.x - blurredArea.x), by = Int32(saturating: windowOrigin.y - blurredArea.y)
                XRenderComposite(
                    d, mask == 0 ? PictOpSrc : PictOpOver, blurred.picture, mask, blurTarget(),
                    bx + x, by + y, x, y, x, y, w, h)
            }
        }

        // The layer with its alpha and zoom.
        let zoomed = abs(zoom - 1) > 1e-6
        if zoomed {
            let k = 1 / zoom
            setTransform(source, [k, 0, zoomCentre.x * (1 - k), 0, k, zoomCentre.y * (1 - k)])
        }
        XRenderComposite(d, PictOpOver, source, mask, back.picture, x, y, x, y, x, y, w, h)
        if zoomed { setTransform(source, [1, 0, 0, 0, 1, 0]) }
        if mask != 0 { XRenderFreePicture(d, mask) }

        if toWindow { XRenderComposite(d, PictOpSrc, back.picture, 0, windowPicture, x, y, 0, 0, x, y, w, h) }
    }

    /// Where the window's pixel (0, 0) is in the background's picture: the copy of the screen
    /// starts where it was taken.
    private func backgroundOffset(_ windowOrigin: Point) -> (Int32, Int32) {
        (Int32(saturating: windowOrigin.x - snapshotRect.x), Int32(saturating: windowOrigin.y - snapshotRect.y))
    }

    /// The part of the window a frame of `area` composes (all of it for nil).
    func clipped(_ area: Rect?) -> Rect {
        let full = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        return (area ?? full).intersection(full).integral
    }

    private var copyGC: GC?

    /// A pixmap holding `r` of the last frame composed (the back pixmap), copied on the server.
    func copyBack(_ r: Rect) -> Pixmap {
        let d = display.handle
        let p = XCreatePixmap(d, display.root, UInt32(r.width), UInt32(r.height), UInt32(depth))
        if copyGC == nil { copyGC = XCreateGC(d, back.pixmap, 0, nil) }
        XCopyArea(d, back.pixmap, p, copyGC, Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height), 0, 0)
        return p
    }

    /// The content was drawn again.
    func contentChanged() { generation += 1 }

    /// The window moved over the same copy of the screen (a slide's path): frames kept from
    /// before show the background of where it was.
    func windowMoved() { generation += 1 }

    /// Shows the last frame again (an Expose): no new pixels, one request.
    func repaint(_ r: Rect) {
        let a = r.integral
        XRenderComposite(
            display.handle, PictOpSrc, back.picture, 0, windowPicture, Int32(saturating: a.x), Int32(saturating: a.y),
            0, 0, Int32(saturating: a.x), Int32(saturating: a.y), UInt32(saturating: a.width), UInt32(saturating: a.height))
    }

    func setTransform(_ p: Picture, _ m: [Double]) {
        func fx(_ v: Double) -> XFixed { XFixed(saturating: (v * 65536).rounded()) }
        var t = XTransform(matrix: ((fx(m[0]), fx(m[1]), fx(m[2])), (fx(m[3]), fx(m[4]), fx(m[5])), (0, 0, fx(1))))
        XRenderSetPictureTransform(display.handle, p, &t)
    }
}
