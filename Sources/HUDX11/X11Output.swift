#if canImport(Glibc)
import Glibc
#endif
import CX11
import CPresent
import CCairo
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

/// One HUD's output on X11 (`HUDOutput`): its window (and input blocker), the server-side
/// canvas the frames are composed on, what it blends over without a compositor, its bounding
/// shape and its Escape grab. The orchestration (`HUDController`) tells it what to draw and
/// when; this is where pixels and requests are.
///
/// Without a compositor nothing shows through a window, so a HUD blends over something itself:
/// a copy of the screen under it (windows included), taken on the server before it maps and
/// again at every new place or size, with what lies under this connection's other HUDs put back
/// from their own copies, so that no HUD is ever in another's background and the wallpaper never
/// shows over a window. The pixels never leave the server.
final class X11Output: HUDOutput {
    let display: X11Display
    private(set) var window: OverlayWindow
    private let blockInputOver: Rect?
    private var clickThrough: Bool
    private(set) var canvas: ServerCanvas
    private(set) var composited: Bool
    /// The window covers the region (a mask that paints it): what it paints is not blended over
    /// the copy's changes (no rising bezel), and it has no shape of its own.
    let overScreen: Bool
    private var shapeKey: (Rect, Double)?
    let useSHM: Bool
    /// The spinner, while nothing else moves, turned by the X server.
    let spinner: PresentedSpinner

    init(display: X11Display, rect: Rect, blockInputOver: Rect?, clickThrough: Bool, composited: Bool, overScreen: Bool) {
        self.display = display
        self.composited = composited
        self.overScreen = overScreen
        useSHM = display.sharedMemoryUsable
        self.blockInputOver = blockInputOver
        self.clickThrough = clickThrough
        spinner = PresentedSpinner(display: display)
        window = OverlayWindow(
            display: display, rect: rect, blockInputOver: blockInputOver, clickThrough: clickThrough,
            translucent: composited)
        canvas = X11Output.makeCanvas(display, window, useSHM)
        chooseBackground()
        display.outputs.append(Weak(self))
    }

    deinit {
        spinner.stop()  // before its parent window goes
        grabEscape(false)
        if window.isMapped { vacate(window.rect) }
        display.outputs.removeAll { $0.value == nil || $0.value === self }
        display.updateDamageWatch()
    }

    private static func makeCanvas(_ display: X11Display, _ window: OverlayWindow, _ useSHM: Bool) -> ServerCanvas {
        ServerCanvas(
            display: display, window: window.window, visual: window.visual, depth: window.depth,
            width: Int(window.rect.width), height: Int(window.rect.height), useSHM: useSHM)
    }

    var rect: Rect { window.rect }

    /// Blending over a copy of the screen on screen: what lies beneath can change unseen.
    var watchesBeneath: Bool { window.isMapped && !composited }
    /// Its copy of the screen is out of date (something beneath drew since it was taken).
    private(set) var beneathChanged = false
    /// Told once when its copy of the screen turns out of date.
    var onBeneathChanged: (() -> Void)?

    /// The damage watch saw drawing reach this HUD's edge from beneath.
    func beneathDrew() {
        guard !beneathChanged else { return }
        beneathChanged = true
        onBeneathChanged?()
    }

    /// Where the window moves step by step (`willMove`), and the copy of the screen taken for
    /// the steps since it started moving: once it has arrived, a copy is old news (the next
    /// slide, minutes later, may cross the same place).
    private var path: Rect?
    private var slideCopy: Rect?
    func willMove(within path: Rect?) {
        self.path = path?.integral
        if path == nil { slideCopy = nil }
    }

    private func vacate(_ r: Rect) { display.damageWatch?.vacate(r, now: MonotonicTime.seconds()) }
    var blursBehind: Bool { !composited || display.compositorBlurs }
    var isMapped: Bool { window.isMapped }

    /// Moves or resizes the window; a new size gets a new canvas (its content is sent again).
    func move(to r: Rect, blocker region: Rect) {
        spinner.stop()
        if !window.everMapped {
            // Never configured before its first map (see OverlayWindow.map): made anew where it goes.
            guard r.integral != window.rect || blockInputOver.map({ $0 != region }) == true else { return }
            window = OverlayWindow(
                display: display, rect: r, blockInputOver: blockInputOver == nil ? nil : region,
                clickThrough: clickThrough, translucent: composited)
            if let title { window.setTitle(title) }
            canvas = X11Output.makeCanvas(display, window, useSHM)
            chooseBackground()
            look = nil
            shapeKey = nil
            return
        }
        let old = window.rect
        let to = r.integral
        if window.isMapped && to != old { vacate(old) }
        if window.isMapped, !composited, to.width == old.width, to.height == old.height, let own = canvas.snapshot {
            // What lies under the new place is taken before the window goes there (the screen
            // shows this HUD where it was, with what it covered put back); in a slide, under
            // its whole path, and blurred once, at the first step the copy it has does not
            // cover (a burst of HUDs lengthens the path every frame). The window keeps its
            // shape (X keeps it relative to the window).
            if let path, path.contains(to), path.contains(old) {
                if own.rect == slideCopy, own.rect.contains(to) {
                    canvas.windowMoved()
                } else {
                    canvas.setBackground(.snapshot, rect: path, under: underOtherHUDs() + [own])
                    slideCopy = path
                }
            } else {
                canvas.setBackground(.snapshot, rect: to, under: underOtherHUDs() + [own])
            }
            window.move(to: r, blocker: region)
            return
        }
        if window.isMapped, !composited, to.width != old.width || to.height != old.height {
            // A new size: what lies under the new rectangle is taken before the window goes
            // there, with what this window covered put back from its own copy (the window is
            // never unmapped to see beneath it: no blink, no wait for the windows to repaint).
            let own = canvas.snapshot
            let next = ServerCanvas(
                display: display, window: window.window, visual: window.visual, depth: window.depth,
                width: Int(to.width), height: Int(to.height), useSHM: useSHM)
            next.setBackground(.snapshot, rect: to, under: underOtherHUDs() + (own.map { [$0] } ?? []))
            canvas = next
            window.move(to: r, blocker: region)
            look = nil
            shapeKey = nil
            return
        }
        window.move(to: r, blocker: region)
        if window.rect.width != old.width || window.rect.height != old.height {
            canvas = X11Output.makeCanvas(display, window, useSHM)
            chooseBackground()
            look = nil
            shapeKey = nil
        } else {
            if !composited { chooseBackground() }  // a copy of the screen is only true where it was taken
        }
    }

    /// Before a HUD shown again maps its window: what lies beneath is taken anew (the copy is
    /// from its last showing).
    func prepareToMap() {
        guard !window.isMapped, window.everMapped, !composited else { return }
        chooseBackground()
        shapeKey = nil
    }

    func map() {
        window.map()
        keepOthersAbove()
        // An unmapped window keeps nothing drawn into it (no backing store; a compositor
        // redirects it only once mapped): the frame composed before the map is copied in right
        // after it, in the same flush, not one Expose round trip later (a round trip on a
        // remote display: the Expose that follows repaints the same pixels).
        canvas.repaint(Rect(x: 0, y: 0, width: window.rect.width, height: window.rect.height))
        XFlush(display.handle)
        // After the first frame is on its way: the first watch asks for the extension.
        display.updateDamageWatch(mapped: true)
    }
    func unmap() {
        spinner.stop()
        retiring = nil
        // Gone at opacity 0: picom 9.1 keeps painting the blur behind a window unmapped at a
        // partial opacity, a faint frosted rectangle, until something else repaints there.
        if composited && display.compositorBlurs { window.setOpacity(0) }
        if window.isMapped { vacate(window.rect) }
        window.unmap()
        display.updateDamageWatch()
        XFlush(display.handle)
    }
    func raise() {
        window.raise()
        keepOthersAbove()
    }

    /// A HUD that paints its whole region (a mask, dimmed or blurred) lies under every other
    /// HUD: a notification or an OSD that appeared before it stays in sight and clickable.
    private func keepOthersAbove() {
        guard overScreen else { return }
        for case let o? in display.outputs.map(\.value) where o !== self && o.isMapped && !o.overScreen { o.window.raise() }
    }

    /// An Expose: the last frame is on the server, shown again (nothing is drawn or sent).
    func exposed(_ r: Rect) {
        canvas.repaint(r)
        if window.isMapped { retiring = nil }
    }

    func drawContent(_ draw: (OpaquePointer) -> Void) {
        spinner.stop()
        canvas.contentChanged()
        canvas.content.prepareToDraw()
        draw(canvas.content.surface)
        canvas.content.upload()
    }

    func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void) { canvas.setSprite(key: key, draw: draw) }

    func present(_ c: Composition) {
        defer {
            if retiring != nil {
                if window.isMapped { retiring = nil } else { map() }
            }
        }
        let origin = Point(x: window.rect.x, y: window.rect.y)
        // A compositor that blurs behind the window fades the window and its blur together.
        let fadedByCompositor = composited && display.compositorBlurs
        window.setOpacity(fadedByCompositor ? c.alpha : 1)
        guard let spin = c.steadySpin, let s = c.spinner, !fadedByCompositor else {
            spinner.stop()
            canvas.present(
                alpha: fadedByCompositor ? 1 : c.alpha, zoom: c.zoom, zoomCentre: c.zoomCentre,
                spinner: c.spinner.map { ServerCanvas.Spinner(centre: $0.centre, angle: $0.angle) },
                windowOrigin: origin, area: c.area)
            return
        }
        // The X server turns it already: its child window shows this step by now.
        if spinner.isRunning { return }
        func compose(angle: Double, toWindow: Bool) {
            canvas.present(
                alpha: 1, zoom: 1, zoomCentre: c.zoomCentre, spinner: .init(centre: s.centre, angle: angle),
                windowOrigin: origin, area: c.area, toWindow: toWindow)
        }
        compose(angle: s.angle, toWindow: true)
        _ = spinner.steadyFrame(spin, area: canvas.clipped(c.area), canvas: canvas, window: window) { time in
            compose(angle: SpinnerSprites.angle(style: spin.style, time: time), toWindow: false)
        }
    }

    var spinsByItself: Bool { spinner.isRunning }

    /// Present's answer to a question about the display's frame counter.
    func presentCompleted(_ c: XHUDPresentComplete) { spinner.completed(c) }

    private(set) var escapeGrabbed = false
    /// A passive grab of Escape on the root: the override-redirect HUD never has the focus. If
    /// another client holds the grab, X refuses it (reported to our error handler) and Escape
    /// simply does nothing.
    func setClickThrough(_ on: Bool) {
        guard on != clickThrough else { return }
        clickThrough = on
        window.setInputShape(empty: on)
    }

    private var title: String?
    func setTitle(_ title: String) {
        self.title = title
        window.setTitle(title)
    }

    func grabEscape(_ on: Bool) {
        guard on != escapeGrabbed else { return }
        escapeGrabbed = on
        let code = Int32(XKeysymToKeycode(display.handle, KeySym(XK_Escape)))
        if on {
            XGrabKey(display.handle, code, UInt32(AnyModifier), display.root, 0, GrabModeAsync, GrabModeAsync)
        } else {
            XUngrabKey(display.handle, code, UInt32(AnyModifier), display.root)
        }
        XFlush(display.handle)
    }

    /// A compositor started or stopped: the background (and the shape) follow. A window made
    /// without alpha (no compositor then) is replaced by one with it.
    func setComposited(_ on: Bool) {
        guard on != composited else { return }
        spinner.stop()
        composited = on
        shapeKey = nil
        if on && !window.hasAlpha { remakeWindow() } else { chooseBackground() }
        display.updateDamageWatch()
    }

    /// The window a new one replaces, left on screen until the new one is mapped with its first
    /// frame (the next `present`) and shown: a compositor paints a window it has seen damaged
    /// since it learnt of it, which the first frame, drawn at the map, may precede; the repaint
    /// of the Expose that follows the map (or a later frame) is damage it sees.
    private var retiring: OverlayWindow?

    private func remakeWindow() {
        let old = window
        window = OverlayWindow(
            display: display, rect: old.rect, blockInputOver: old.blockerRect, clickThrough: clickThrough,
            translucent: composited)
        if let title { window.setTitle(title) }
        canvas = X11Output.makeCanvas(display, window, useSHM)
        chooseBackground()
        look = nil
        if old.isMapped { retiring = old }
    }

    private func chooseBackground() {
        if composited { return canvas.setBackground(.none, rect: window.rect) }
        // The screen as it is now, with what lies under our other HUDs (and under this one where
        // it was) put back: a HUD that moves or appears next to others needs no unmapping.
        let others = underOtherHUDs()
        if !window.isMapped {
            beneathChanged = false  // a fresh copy
            return canvas.setBackground(.snapshot, rect: window.rect, under: others)
        }
        // A new canvas for a mapped window (it changed size): the screen is taken with the
        // window unmapped, so that it is not in it.
        let wasMapped = window.isMapped
        if wasMapped {
            window.unmap()
            XSync(display.handle, 0)
            usleep(40_000)  // let the windows beneath repaint
        }
        canvas.setBackground(.snapshot, rect: window.rect, under: others)
        if wasMapped { window.map() }
    }

    /// What lies under this connection's other mapped HUDs, where they blend over a copy of the
    /// screen.
    private func underOtherHUDs() -> [(pixmap: Pixmap, rect: Rect)] {
        display.outputs.compactMap { w in
            guard let o = w.value, o !== self, o.window.isMapped else { return nil }
            return o.canvas.snapshot
        }
    }

    /// The window shows only the pixels the rounded bezel covers, with or without a compositor:
    /// a shadowing compositor then shadows the bezel, and a blurring one blurs behind it, not
    /// behind a box. A mask that paints the region keeps the whole window. `bezel` is in the
    /// window's logical coordinates; `spans` is asked for only when it or the zoom changed.
    func setShape(bezel: Rect, zoom: Double, spans: () -> [Rect]) {
        if let k = shapeKey, k.0 == bezel, k.1 == zoom { return }
        spinner.stop()
        shapeKey = (bezel, zoom)
        let s = spans()
        let rects = s.map {
            XRectangle(
                x: Int16(saturating: $0.x), y: Int16(saturating: $0.y),
                width: UInt16(saturating: $0.width), height: UInt16(saturating: $0.height))
        }
        if !overScreen { window.setBoundingShape(rects) }
        canvas.setBlur(radius: composited ? 0 : blurRadius, spans: s)
        window.setBlurBehind(composited && blurRadius > 0 ? rects : nil)
    }

    private var blurRadius = 0.0
    private var look: (blur: Double, shadow: Bool)?

    func setLook(blur: Double, shadow: Bool) {
        if let l = look, l.blur == blur, l.shadow == shadow { return }
        look = (blur, shadow)
        blurRadius = blur
        window.setShadowHint(shadow)
        shapeKey = nil  // the blur's region is set with the shape
    }
}

extension X11Display {
    /// MIT-SHM works only when client and server share memory: a local display whose server
    /// answers the extension (XHUD_NO_SHM=1 turns it off, to test the remote path locally).
    var sharedMemoryUsable: Bool {
        if Environment.isSet("XHUD_NO_SHM") { return false }
        let name = String(cString: XDisplayString(handle))
        guard name.hasPrefix(":") || name.hasPrefix("unix:") else { return false }
        return XShmQueryExtension(handle) != 0
    }
}
