#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CWayland
import HUDCore
import HUDEngine

/// One HUD's output on Wayland (`HUDOutput`): a layer surface on the overlay layer of its
/// output, placed where the HUD's window goes, without keyboard interactivity; its frames are
/// composed by Cairo (content, the turned spinner, the fade's alpha, the zoom) into one of two
/// shared-memory buffers and sent with the damage alone. A frame waits for the compositor's
/// frame callback of the one before (and for a free buffer): the compositor paces the frames.
final class WaylandOutput: HUDOutput {
    private unowned let loop: WaylandLoop
    private var connection: WaylandConnection { loop.connection }
    private(set) var screen: WaylandScreen
    /// Device pixels per surface coordinate: the buffer's scale, a fraction where the
    /// compositor scales buffers by one (its viewport then sizes the buffer to the surface).
    private var scale: Double
    /// The layer surface names its output; otherwise the compositor puts it where the user is.
    private let namesOutput: Bool
    private(set) var rect: Rect
    private(set) var isMapped = false
    /// The compositor blends every surface; what shows through is blurred only where it blurs
    /// layer surfaces by its own rules (Hyprland's, KWin's), which a client cannot see.
    var composited: Bool { true }
    var blursBehind: Bool { false }
    /// The region whose input a HUD that blocks input takes (nil: it does not), and what takes
    /// it while the HUD is mapped.
    private var blockedRegion: Rect?
    private var blocker: InputBlocker?
    private var keyboardGrabbed = false
    private var clickThrough: Bool
    private(set) var surface: OpaquePointer?
    private var layerSurface: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    private var configured = false
    private var placement: LayerPlacement?
    private var frameCallback: OpaquePointer?
    private var buffers: [ShmBuffer] = []
    private var slots = BufferSlots()
    private var content: OpaquePointer
    private var sprite: (key: SpriteKey, surface: OpaquePointer)?
    /// The frame to show once the compositor is ready for one, and what changed since the last.
    private var held: Composition?
    private var heldArea: Rect?
    private var heldWhole = false
    /// The bezel's extent (device pixels in the window, from the shape): the input region of a
    /// HUD that takes clicks. `inputChanged`: to be sent with the next commit.
    private var inputRect = Rect(x: 0, y: 0, width: 0, height: 0)
    private var inputChanged = true
    private var shapeKey: (Rect, Double)?

    init(loop: WaylandLoop, screen: WaylandScreen, scale: Double, namesOutput: Bool, rect: Rect, blockInputOver region: Rect?, clickThrough: Bool) {
        self.loop = loop
        self.screen = screen
        self.scale = scale
        self.namesOutput = namesOutput
        self.rect = rect.integral
        blockedRegion = region
        self.clickThrough = clickThrough
        content = WaylandOutput.image(self.rect)
    }

    deinit {
        unmap()
        cairo_surface_destroy(content)
        if let sprite { cairo_surface_destroy(sprite.surface) }
    }

    private static func image(_ r: Rect) -> OpaquePointer {
        cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(max(1, r.width)), Int32(max(1, r.height)))
    }

    /// Called when the compositor closed the layer surface (its output went, or it took the
    /// surface down), when the surface enters an output, and with the scale the compositor
    /// prefers for it (wp_fractional_scale_v1).
    var onClosed: (() -> Void)?
    var onEnter: ((OpaquePointer) -> Void)?
    var onPreferredScale: ((Double) -> Void)?

    /// The HUD moved to another output or scale; `remap`: the layer surface is made anew there
    /// (its output is gone). The next frame (the controller's, at the new size) shows it.
    func moveTo(screen s: WaylandScreen, scale k: Double, remap: Bool) {
        screen = s
        scale = k
        placement = nil
        shapeKey = nil
        inputChanged = true
        if remap, isMapped {
            unmap()
            map()
        }
    }

    /// Waiting for the compositor's frame callback.
    var awaitsFrame: Bool { frameCallback != nil }

    func move(to r: Rect, blocker region: Rect) {
        let to = r.integral
        if blockedRegion != nil { blockedRegion = region }
        // A new region or scale (the output's changed): the blocker is made again to cover it.
        if let b = blocker, b.region != region || b.scale != scale {
            blocker = nil
            makeBlocker(hole: to)
        }
        guard to != rect else { return }
        if to.width != rect.width || to.height != rect.height {
            let next = WaylandOutput.image(to)
            // The content until the controller draws it anew at this size.
            let cr = cairo_create(next)!
            cairo_set_source_surface(cr, content, 0, 0)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_destroy(content)
            content = next
            shapeKey = nil
        }
        rect = to
        heldWhole = true
        if let blocker { blocker.exclude(to); blocker.commit() }
    }

    /// What takes the clicks around a HUD that blocks input, unless the HUD covers its region.
    private func makeBlocker(hole: Rect) {
        guard let region = blockedRegion, !hole.contains(region) else { return }
        blocker = InputBlocker(connection: connection, screen: screen, scale: scale, namesOutput: namesOutput, region: region, hole: hole)
    }

    func prepareToMap() {}

    func map() {
        guard !isMapped, let compositor = connection.compositor, let shell = connection.layerShell else { return }
        isMapped = true
        makeBlocker(hole: rect)
        guard let s = connection.request(compositor, 0, [wl_argument(n: 0)], creating: xhud_wl_surface_interface()) else { return }
        surface = s
        connection.listen(s) { [unowned self] op, args in
            if op == 0, let o = args[0].o { onEnter?(o) }  // enter
        }
        layerSurface = "xhud".withCString {
            connection.request(
                shell, 0,
                [wl_argument(n: 0), wl_argument(o: s), wl_argument(o: namesOutput ? screen.proxy : nil), wl_argument(u: 3), wl_argument(s: $0)],
                creating: xhud_layer_surface_interface())
        }
        guard let l = layerSurface else { return }
        connection.listen(l) { [unowned self] op, args in
            switch op {
            case 0:  // configure: the size is ours (set_size); the next commit answers it
                connection.request(l, 6, [wl_argument(u: args[0].u)])
                configured = true
                heldWhole = true
                // A configure after the first (a new size) shows the last frame again.
                if held == nil { held = shown }
                showHeld()
            case 1:  // closed: the output went away (or the compositor took the surface down)
                unmap()
                onClosed?()
            default: break
            }
        }
        connection.request(l, 2, [wl_argument(i: -1)])  // exclusive zone: never moved for panels
        connection.request(l, 4, [wl_argument(u: 0)])  // keyboard interactivity: none
        if connection.scalesFractionally, let viewporter = connection.viewporter, let scaler = connection.fractionalScaler {
            viewport = connection.request(viewporter, 1, [wl_argument(n: 0), wl_argument(o: s)], creating: xhud_viewport_interface())
            fractionalScale = connection.request(scaler, 1, [wl_argument(n: 0), wl_argument(o: s)], creating: xhud_fractional_scale_interface())
            connection.listen(fractionalScale) { [unowned self] op, args in
                if op == 0, args[0].u > 0 { onPreferredScale?(Double(args[0].u) / 120) }  // preferred_scale, in 120ths
            }
        }
        place()
        applyInput()
        connection.request(s, 6, [])  // the first commit, without a buffer: the compositor configures
    }

    func unmap() {
        guard isMapped else { return }
        isMapped = false
        configured = false
        keyboardGrabbed = false
        held = nil
        blocker = nil
        if let f = frameCallback { connection.forget(f); frameCallback = nil }
        if let l = layerSurface { connection.destroy(l, opcode: 7); layerSurface = nil }
        if let v = viewport { connection.destroy(v, opcode: 0); viewport = nil }
        if let f = fractionalScale { connection.destroy(f, opcode: 0); fractionalScale = nil }
        buffers = []
        slots.reset()
        if let s = surface { connection.destroy(s, opcode: 0); surface = nil }
        placement = nil
        shown = nil
        inputChanged = true
        loop.frameShown()
    }

    func drawContent(_ draw: (OpaquePointer) -> Void) {
        draw(content)
        cairo_surface_flush(content)
    }

    func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void) {
        if sprite?.key == key { return }
        if let old = sprite { cairo_surface_destroy(old.surface) }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(key.side), Int32(key.side))!
        let cr = cairo_create(s)!
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        sprite = (key, s)
    }

    func present(_ c: Composition) {
        if held == nil { heldArea = c.area } else if let a = c.area, let h = heldArea { heldArea = h.union(a) } else { heldWhole = true }
        if c.area == nil { heldWhole = true }
        held = c
        showHeld()
    }

    func setShape(bezel: Rect, zoom: Double, spans: () -> [Rect]) {
        if let k = shapeKey, k.0 == bezel, k.1 == zoom { return }
        shapeKey = (bezel, zoom)
        let s = spans()
        let r = s.dropFirst().reduce(s.first ?? Rect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
        if r != inputRect { inputRect = r; inputChanged = true }
    }

    func setLook(blur: Double, shadow: Bool) {}
    /// A HUD that blocks input takes the keyboard while it shows (the layer surface's exclusive
    /// keyboard interactivity, as X11's grab of Escape): Escape reaches it, and no other key
    /// reaches the windows it covers. Applied with a commit of its own.
    func grabEscape(_ on: Bool) {
        guard let l = layerSurface, let s = surface, keyboardGrabbed != on else { return }
        keyboardGrabbed = on
        connection.request(l, 4, [wl_argument(u: on ? 1 : 0)])
        connection.request(s, 6, [])
    }
    func setTitle(_ title: String) {}

    func setClickThrough(_ on: Bool) {
        guard on != clickThrough else { return }
        clickThrough = on
        inputChanged = true
        if configured, held == nil, let s = surface {
            applyInput()
            connection.request(s, 6, [])
        }
    }

    // MARK: Frames

    private func place() {
        guard let l = layerSurface else { return }
        let p = LayerPlacement(rect: rect, output: screen.logicalSize, scale: scale)
        guard p != placement else { return }
        if p.scale != placement?.scale, viewport == nil, let s = surface, connection.compositorVersion >= 3 {
            connection.request(s, 8, [wl_argument(i: Int32(p.scale.rounded()))])  // set_buffer_scale
        }
        placement = p
        if let v = viewport { connection.request(v, 2, [wl_argument(i: Int32(p.width)), wl_argument(i: Int32(p.height))]) }
        connection.request(l, 0, [wl_argument(u: UInt32(p.width)), wl_argument(u: UInt32(p.height))])
        connection.request(l, 1, [wl_argument(u: p.anchor)])
        connection.request(
            l, 3,
            [
                wl_argument(i: Int32(p.margins.top)), wl_argument(i: Int32(p.margins.right)),
                wl_argument(i: Int32(p.margins.bottom)), wl_argument(i: Int32(p.margins.left)),
            ])
    }

    /// The bezel takes clicks when the HUD does (a button, a click handler), the whole surface
    /// under a mask that blocks input; nothing when it is click-through.
    private func applyInput() {
        guard inputChanged, let s = surface else { return }
        inputChanged = false
        let k = scale
        var rects: [Rect] = []
        if blockedRegion != nil {
            rects = [Rect(x: 0, y: 0, width: rect.width / k, height: rect.height / k)]
        } else if !clickThrough, !inputRect.isEmpty {
            let r = inputRect
            rects = [
                Rect(
                    x: (r.x / k).rounded(.down), y: (r.y / k).rounded(.down),
                    width: (r.width / k).rounded(.up) + 1, height: (r.height / k).rounded(.up) + 1)
            ]
        }
        guard let region = connection.region(rects) else { return }
        connection.request(s, 5, [wl_argument(o: region)])
        connection.destroy(region, opcode: 0)
    }

    /// Shows the held frame if the compositor is ready for one.
    private func showHeld() {
        guard let c = held, isMapped, configured, frameCallback == nil, let s = surface else { return }
        place()
        guard let p = placement else { return }
        let w = p.bufferWidth, h = p.bufferHeight
        if buffers.first.map({ $0.width != w || $0.height != h }) ?? true {
            buffers = []
            for _ in 0..<slots.count {
                guard let b = ShmBuffer(connection: connection, width: w, height: h) else { return }
                buffers.append(b)
            }
            slots.reset()
            for (i, b) in buffers.enumerated() {
                connection.listen(b.buffer) { [unowned self] op, _ in
                    guard op == 0 else { return }  // release
                    slots.released(i)
                    showHeld()
                }
            }
        }
        guard let i = slots.free() else { return }
        let bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        let changed = heldWhole ? nil : heldArea?.integral.intersection(bounds)
        let area = slots.repaint(i, area: changed)?.integral.intersection(bounds) ?? bounds
        held = nil
        heldArea = nil
        heldWhole = false
        compose(c, into: buffers[i].surface, area: area)
        applyInput()
        connection.request(s, 1, [wl_argument(o: buffers[i].buffer), wl_argument(i: 0), wl_argument(i: 0)])
        if connection.compositorVersion >= 4 {
            connection.request(
                s, 9,
                [
                    wl_argument(i: Int32(area.x)), wl_argument(i: Int32(area.y)),
                    wl_argument(i: Int32(area.width)), wl_argument(i: Int32(area.height)),
                ])
        } else {
            connection.request(s, 2, [wl_argument(i: 0), wl_argument(i: 0), wl_argument(i: Int32.max), wl_argument(i: Int32.max)])
        }
        frameCallback = connection.request(s, 3, [wl_argument(n: 0)], creating: xhud_wl_callback_interface())
        connection.listen(frameCallback) { [unowned self] _, _ in
            if let f = frameCallback { connection.forget(f) }
            frameCallback = nil
            loop.frameShown()
            showHeld()
        }
        connection.request(s, 6, [])
        slots.attached(i, changed: changed)
        shown = c
    }

    /// The last frame sent.
    private var shown: Composition?

    /// The content with the spinner turned over it, zoomed about its centre, at the fade's alpha,
    /// over transparency, within `area` (buffer pixels).
    private func compose(_ c: Composition, into target: OpaquePointer, area: Rect) {
        let cr = cairo_create(target)!
        defer { cairo_destroy(cr); cairo_surface_flush(target) }
        cairo_rectangle(cr, area.x, area.y, area.width, area.height)
        cairo_clip(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        guard c.alpha > 0.001 else { return }
        let fades = c.alpha < 0.999
        if fades { cairo_push_group(cr) }
        if abs(c.zoom - 1) > 1e-6 {
            cairo_translate(cr, c.zoomCentre.x, c.zoomCentre.y)
            cairo_scale(cr, c.zoom, c.zoom)
            cairo_translate(cr, -c.zoomCentre.x, -c.zoomCentre.y)
        }
        cairo_set_source_surface(cr, content, 0, 0)
        cairo_paint(cr)
        if let (centre, angle) = c.spinner, let sprite {
            let half = Double(sprite.key.side) / 2
            cairo_translate(cr, centre.x, centre.y)
            cairo_rotate(cr, angle)
            cairo_translate(cr, -half, -half)
            cairo_set_source_surface(cr, sprite.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
            cairo_paint(cr)
        }
        if fades {
            cairo_pop_group_to_source(cr)
            cairo_identity_matrix(cr)
            cairo_paint_with_alpha(cr, c.alpha)
        }
    }
}
