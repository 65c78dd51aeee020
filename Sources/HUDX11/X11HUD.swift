#if canImport(Glibc)
import Glibc
#endif
import CX11
import CCairo
import HUDCore
import HUDRender

/// A HUD on an X11 display: lifecycle, layout, rendering and window, run by a `HUDLoop` (shared
/// by every HUD of a process) on the loop's thread.
public final class X11HUD {
    public let display: X11Display
    public let loop: HUDLoop
    public let lifecycle: HUDLifecycle
    public private(set) var configuration: HUDConfiguration
    public private(set) var region: ParentRegion
    public let parentSpec: ParentSpec
    public let scale: Double
    public let refreshRate: Double

    /// Called when the button is clicked, when the parent window goes away, and when the HUD has
    /// been hidden.
    public var onButton: (() -> Void)?
    public var onParentGone: (() -> Void)?
    public var onHidden: (() -> Void)?
    /// Escape pressed while the HUD blocks input (the key is grabbed only while it does).
    public var onEscape: (() -> Void)?
    /// A click on the bezel outside the button; when set, the HUD is not click-through.
    public var onClick: (() -> Void)?
    /// Polled on every display-link tick while shown (MBProgressHUD's NSProgress binding).
    public var progressSource: ProgressSource?
    public var showsProgressDescription = false
    /// New progress values ease in over 0.2 s; off, the next frame shows them (a key press).
    public var easesProgress = true

    private let renderer = HUDRenderer()
    private var clock: MonotonicClock { loop.clock }
    private(set) var window: OverlayWindow?
    private var composited: Bool
    private var fixesEventBase: Int32?
    fileprivate(set) var snapshot: OpaquePointer?
    private var hudSurface: OpaquePointer?
    private var outSurface: OpaquePointer?
    private var layout: HUDLayout
    private var progress: Tween
    private var bezelTween: RectTween?
    private var buttonPressed = false
    private var shapeKey: (Rect, Double)? = nil
    private var link: DisplayLink { loop.displayLink }
    /// Something other than time changed: the next frame is drawn whole.
    private var dirty = true { didSet { if dirty { needsFullFrame = true } } }
    /// Vertical shift of the bezel (logical pixels) that stacks several HUDs in one region.
    /// The bezel's size now (logical pixels), to stack HUDs.
    public var bezelSize: Size { Size(width: layout.bezel.width, height: layout.bezel.height) }
    public var isVisible: Bool { lifecycle.isVisible }
    public var stackShift: Double = 0 {
        didSet { if stackShift != oldValue { relayout(); dirty = true } }
    }
    public private(set) var framesDrawn = 0
    private var lastFrame = -Double.infinity

    /// A HUD with a loop of its own (one HUD per process).
    public convenience init(display: X11Display, configuration: HUDConfiguration, parent: ParentSpec = .default, scale: Double? = nil) throws {
        try self.init(loop: HUDLoop(display: display), configuration: configuration, parent: parent, scale: scale)
    }

    public init(loop: HUDLoop, configuration: HUDConfiguration, parent: ParentSpec = .default, scale: Double? = nil) throws {
        let display = loop.display
        self.display = display
        self.loop = loop
        let configuration = configuration.clamped
        self.configuration = configuration
        self.parentSpec = parent
        region = try display.resolve(parent)
        self.scale = Limits.scale.clamp(scale ?? ((display.xftDPI ?? 96) / 96))
        refreshRate = display.refreshRate(at: Point(x: region.rect.midX, y: region.rect.midY))
        composited = display.compositorRunning
        lifecycle = HUDLifecycle(clock: loop.clock)
        lifecycle.graceTime = configuration.graceTime
        lifecycle.minShowTime = configuration.minShowTime
        lifecycle.animation = configuration.animation
        progress = Tween(configuration.progress, duration: configuration.mode.showsProgress ? 0.2 : 0)
        layout = HUDLayout.compute(configuration, region: .zero, measurer: renderer.text)
        if let path = configuration.imagePath, configuration.mode == .custom, let error = renderer.validateImage(path) {
            throw HUDError.badImage(error)
        }
        relayout()
        lifecycle.onAppear = { [unowned self] in self.appear() }
        lifecycle.onWasHidden = { [unowned self] in self.disappear() }
        fixesEventBase = display.watchCompositor()
        if let w = region.window { follow(w) }
        loop.add(self)
    }

    /// Takes the HUD off its loop and destroys its window (a server drops a HUD once hidden).
    public func dispose() {
        loop.remove(self)
        window = nil
        XFlush(display.handle)
    }

    deinit {
        for s in [snapshot, hudSurface, outSurface] { if let s { cairo_surface_destroy(s) } }
    }

    // MARK: Public calls

    public func show(animated: Bool = true) { lifecycle.show(animated: animated); afterStateChange() }
    public func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (() -> Void)? = nil) {
        if delay > 0 { lifecycle.hide(animated: animated, afterDelay: delay, completion: completion) }
        else { lifecycle.hide(animated: animated, completion: completion) }
        afterStateChange()
    }

    /// Hides now, without waiting out min show time or a delayed hide (signals, Escape).
    public func dismiss(animated: Bool = true, completion: (() -> Void)? = nil) {
        lifecycle.dismiss(animated: animated, completion: completion)
        afterStateChange()
    }

    /// Changes what the HUD shows while it is up (label, mode, progress, ...).
    public func update(_ change: (inout HUDConfiguration) -> Void) {
        var c = configuration
        change(&c)
        c = c.clamped
        guard c != configuration else { return }
        let old = configuration
        configuration = c
        // As MBProgressHUD: timing changes apply to the next show and hide.
        lifecycle.graceTime = c.graceTime
        lifecycle.minShowTime = c.minShowTime
        lifecycle.animation = c.animation
        progress.duration = c.mode.showsProgress ? 0.2 : 0
        progress.set(c.progress, at: clock.now, animated: easesProgress && old.mode == c.mode && c.mode.showsProgress)
        if c.withoutProgress != old.withoutProgress { relayout() }
        dirty = true
        afterStateChange()
    }

    /// Watches a file descriptor (e.g. progress on stdin) from the loop.
    public func addReader(fd: Int32, _ handler: @escaping () -> Void) { loop.addReader(fd: fd, handler) }
    public func removeReader(fd: Int32) { loop.removeReader(fd: fd) }

    /// Ends the loop with an exit code.
    public func stop(exitCode code: Int32 = 0) { loop.stop(exitCode: code) }

    public static func installSignalHandlers(_ hud: X11HUD) { hud.loop.installSignalHandlers() }

    /// Called on SIGINT, SIGTERM and SIGHUP; without it the loop exits 128+N.
    public var onSignal: ((Int32) -> Void)? {
        get { loop.onSignal } set { loop.onSignal = newValue }
    }

    /// Runs the loop until `stop`; returns the exit code.
    public func run() -> Int32 { loop.run() }

    func unmapForExit() { grabEscape(false); window?.unmap() }

    private var escapeGrabbed = false
    /// A passive grab of Escape on the root: the override-redirect HUD never has the focus. If
    /// another client holds the grab, X refuses it (reported to our error handler) and Escape
    /// simply does nothing.
    private func grabEscape(_ on: Bool) {
        guard on != escapeGrabbed else { return }
        escapeGrabbed = on
        let code = Int32(XKeysymToKeycode(display.handle, KeySym(XK_Escape)))
        if on {
            XGrabKey(display.handle, code, UInt32(AnyModifier), display.root, 0, GrabModeAsync, GrabModeAsync)
        } else {
            XUngrabKey(display.handle, code, UInt32(AnyModifier), display.root)
        }
    }

    // MARK: Frames

    /// Whether anything on screen moves by itself now.
    var moving: Bool {
        guard lifecycle.isVisible else { return false }
        let now = clock.now
        return lifecycle.isAnimating || configuration.mode.isAnimated || progress.isMoving(at: now) || progressSource != nil
            || bezelTween?.isMoving(at: now) == true
    }

    /// Whether the display link must tick for this HUD.
    var wantsTicks: Bool { lifecycle.isVisible && (moving || dirty) }

    /// At most one frame per refresh: while the display link runs, frames are drawn on its ticks
    /// only; when it is idle, a change draws at once (a key press shows without waiting for a tick).
    func afterStateChange() {
        lifecycle.update()
        if dirty && lifecycle.isVisible && !link.isRunning && clock.now - lastFrame >= link.period { drawFrame() }
        loop.updateLink()
    }

    func tick() {
        // Another HUD's tick may wake the loop too: never two frames of one HUD in a refresh.
        guard lifecycle.isVisible, clock.now - lastFrame >= link.period * 0.5 else { return }
        fitWindowAfterResize()
        if let source = progressSource {
            let s = source.snapshot()
            if s.fraction != configuration.progress || (showsProgressDescription && s.description != nil && s.description! != configuration.details) {
                update { c in
                    c.progress = s.fraction
                    if showsProgressDescription, let d = s.description { c.details = d }
                }
            }
        }
        if dirty || moving { drawFrame() }
    }

    /// Lays the HUD out again. A changed bezel animates to its new size; the window grows to
    /// hold every step (it never shrinks while shown, so no snapshot has to be retaken).
    private func relayout(regionMoved: Bool = false) {
        let now = clock.now
        let before = bezelTween?.value(at: now) ?? layout.bezel
        let size = Size(width: region.rect.width / scale, height: region.rect.height / scale)
        var c = configuration
        c.offset.y += stackShift
        layout = HUDLayout.compute(c, region: size, measurer: renderer.text)
        bezelTween = nil
        if !regionMoved, window != nil, lifecycle.isVisible, before != layout.bezel, configuration.animation != .none {
            bezelTween = RectTween(from: before, to: layout.bezel, start: now)
        }
        shapeKey = nil
        guard let window else { return }
        var target = windowRect(for: layout.bezel)
        if let t = bezelTween { target = target.union(windowRect(for: t.from)) }
        if regionMoved || configuration.effectiveMask.paintsBackground {
            guard target != window.rect else { return }
            window.move(to: target, blocker: region.rect)
            if !composited { retakeSnapshot() }
            allocateSurfaces()
        } else if !window.rect.contains(target) {
            let grown = window.rect.union(target).integral
            if !composited { growSnapshot(from: window.rect, to: grown) }
            window.move(to: grown, blocker: region.rect)
            allocateSurfaces()
        }
    }

    /// Once the bezel has stopped moving, the window (grown to hold every step of the move)
    /// fits it again, so that stacked HUDs' windows do not overlap. Shrinking needs no new
    /// pixels from the screen: the snapshot is cropped.
    private func fitWindowAfterResize() {
        guard let t = bezelTween, !t.isMoving(at: clock.now + link.period) else { return }
        bezelTween = nil
        guard let window, !configuration.effectiveMask.paintsBackground else { return }
        let target = windowRect(for: layout.bezel)
        guard target != window.rect, window.rect.contains(target) else { return }
        if !composited, let old = snapshot {
            let cropped = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(saturating: target.width), Int32(saturating: target.height))!
            let cr = cairo_create(cropped)!
            cairo_set_source_surface(cr, old, window.rect.x - target.x, window.rect.y - target.y)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_destroy(old)
            snapshot = cropped
        }
        window.move(to: target, blocker: region.rect)
        shapeKey = nil
        allocateSurfaces()
    }

    /// The window covers the whole region when the mask paints it, else the bezel at its largest.
    private func windowRect(for bezel: Rect? = nil) -> Rect {
        let m = configuration.effectiveMask
        if m.paintsBackground {
            // The mask is drawn where it can be seen: a window partly off the screen needs no
            // pixels for that part.
            let r = region.rect.intersection(display.screenRect)
            return (r.isEmpty ? Rect(x: region.rect.x, y: region.rect.y, width: 1, height: 1) : r).integral
        }
        var f = HUDFrame(configuration: configuration, layout: layout)
        f.bezelOverride = bezel
        f.presentation.scale = max(1, maxZoom)
        let e = f.bezelExtent.insetBy(dx: -2, dy: -2)
        return Rect(x: region.rect.x + e.x * scale, y: region.rect.y + e.y * scale,
                    width: e.width * scale, height: e.height * scale).integral
    }

    private var maxZoom: Double {
        switch configuration.animation {
        case .zoomIn, .zoomOut: return 1.5
        case .pop: return 1.3
        default: return 1
        }
    }

    private func allocateSurfaces() {
        guard let window else { return }
        for s in [hudSurface, outSurface] { if let s { cairo_surface_destroy(s) } }
        let w = Int32(saturating: window.rect.width), h = Int32(saturating: window.rect.height)
        hudSurface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)
        outSurface = composited ? nil : cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)
        dirty = true
    }

    private func drawFrame() {
        guard let window, window.isMapped || lifecycle.isVisible, let hud = hudSurface else { return }
        dirty = false
        let now = clock.now
        var f = HUDFrame(configuration: configuration, layout: layout)
        // Drawn for the moment it reaches the screen, one refresh ahead (CVDisplayLink's output
        // time): the frame drawn as a fade-in maps is already visible.
        let shownAt = now + link.period
        f.presentation = lifecycle.presentation(at: shownAt)
        f.time = shownAt
        f.progress = progress.value(at: shownAt)
        if let t = bezelTween {
            if t.isMoving(at: shownAt) { f.bezelOverride = t.value(at: shownAt) } else { bezelTween = nil }
        }
        f.buttonPressed = buttonPressed
        f.scale = scale
        f.origin = Point(x: (window.rect.x - region.rect.x) / scale, y: (window.rect.y - region.rect.y) / scale)
        f.drawsMask = configuration.effectiveMask.paintsBackground

        // Only the spinner moves: redraw and send its square alone (a fraction of the pixels).
        let damage = onlySpinnerMoves(f) ? spinnerDamage(window) : nil
        renderer.render(f, replacing: hud, clip: damage)

        var shown = hud
        if !composited, let out = outSurface {
            // No compositor: blend over what was beneath, and show only the pixels the HUD covers.
            let c = cairo_create(out)!
            if let d = damage { cairo_rectangle(c, d.x, d.y, d.width, d.height); cairo_clip(c) }
            if let snapshot { cairo_set_source_surface(c, snapshot, 0, 0) } else { cairo_set_source_rgb(c, 0, 0, 0) }
            cairo_set_operator(c, CAIRO_OPERATOR_SOURCE)
            cairo_paint(c)
            cairo_set_operator(c, CAIRO_OPERATOR_OVER)
            cairo_set_source_surface(c, hud, 0, 0)
            cairo_paint(c)
            cairo_destroy(c)
            cairo_surface_flush(out)
            shown = out
            let key = (f.bezelOverride ?? layout.bezel, f.presentation.scale)
            if shapeKey == nil || shapeKey!.0 != key.0 || shapeKey!.1 != key.1 {
                shapeKey = key
                window.setBoundingShape(configuration.effectiveMask.paintsBackground ? nil : shapeSpans(f, like: hud))
            }
        }
        window.present(pixels: cairo_image_surface_get_data(shown)!, width: Int(cairo_image_surface_get_width(shown)),
                       height: Int(cairo_image_surface_get_height(shown)), stride: Int(cairo_image_surface_get_stride(shown)),
                       damage: damage)
        framesDrawn += 1
        lastFrame = now
        needsFullFrame = false
        lastPresentation = f.presentation
    }

    /// Set whenever something other than the spinner's phase changed since the last full frame.
    private var needsFullFrame = true
    /// Alpha and zoom of the frame on screen: a frame that changes them is drawn whole.
    private var lastPresentation: Presentation?

    private func onlySpinnerMoves(_ f: HUDFrame) -> Bool {
        !needsFullFrame && configuration.mode == .indeterminate && !lifecycle.isAnimating && bezelTween == nil
            && !buttonPressed && lastPresentation == f.presentation
    }

    private func spinnerDamage(_ window: OverlayWindow) -> Rect? {
        guard let r = layout.indicator else { return nil }
        let x = (region.rect.x - window.rect.x) + r.x * scale, y = (region.rect.y - window.rect.y) + r.y * scale
        return Rect(x: x - 2 * scale, y: y - 2 * scale, width: (r.width + 4) * scale, height: (r.height + 4) * scale).integral
    }

    /// The spans the bezel covers at full alpha (a fading frame covers the same pixels).
    private func shapeSpans(_ frame: HUDFrame, like surface: OpaquePointer) -> [XRectangle] {
        var f = frame
        f.presentation.alpha = 1
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(surface), cairo_image_surface_get_height(surface))!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        renderer.render(f, to: cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        return Shape.spans(of: s)
    }

    // MARK: Mapping

    private func appear() {
        if window == nil {
            let m = configuration.effectiveMask
            let w = OverlayWindow(display: display, rect: windowRect(), blockInputOver: m.blocksInput ? region.rect : nil,
                                  clickThrough: !m.blocksInput && configuration.buttonTitle.isEmpty && onClick == nil)
            window = w
            allocateSurfaces()
        }
        if !composited { retakeSnapshot() }
        shapeKey = nil
        // Draw before mapping too: with a compositor the first frame shown is already complete.
        dirty = true
        drawFrame()
        window?.map()
        dirty = true
        drawFrame()
        if onEscape != nil && configuration.effectiveMask.blocksInput { grabEscape(true) }
        XFlush(display.handle)
    }

    private func disappear() {
        grabEscape(false)
        window?.unmap()
        XFlush(display.handle)
        onHidden?()
    }

    /// The snapshot for a larger window without unmapping: the new area is read from the screen,
    /// and where the window already is (the only place the HUD's own pixels can be) the old
    /// snapshot is kept.
    private func growSnapshot(from old: Rect, to new: Rect) {
        let grown = display.snapshot(new)
        removeSiblings(from: grown, at: new)
        if let s = snapshot {
            let cr = cairo_create(grown)!
            cairo_set_source_surface(cr, s, old.x - new.x, old.y - new.y)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_destroy(s)
        }
        snapshot = grown
    }

    /// A screen grab holds this loop's other HUDs too; what lies beneath them is in their own
    /// snapshots. Without this, a stacked HUD that moves leaves its old image behind in its
    /// neighbours' backgrounds.
    private func removeSiblings(from grab: OpaquePointer, at r: Rect) {
        for h in loop.huds where h !== self {
            guard let w = h.window, w.isMapped, let beneath = h.snapshot,
                  w.rect.maxX > r.minX, w.rect.minX < r.maxX, w.rect.maxY > r.minY, w.rect.minY < r.maxY else { continue }
            let cr = cairo_create(grab)!
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cr, beneath, w.rect.x - r.x, w.rect.y - r.y)
            cairo_rectangle(cr, w.rect.x - r.x, w.rect.y - r.y, w.rect.width, w.rect.height)
            cairo_fill(cr)
            cairo_destroy(cr)
        }
    }

    private func retakeSnapshot() {
        guard let window else { return }
        let wasMapped = window.isMapped
        if wasMapped {
            window.unmap()
            XSync(display.handle, 0)
            usleep(40_000)   // let the windows beneath repaint
        }
        if let s = snapshot { cairo_surface_destroy(s) }
        snapshot = display.snapshot(window.rect)
        if let s = snapshot { removeSiblings(from: s, at: window.rect) }
        if wasMapped { window.map(); dirty = true }
    }

    // MARK: Events

    /// The parent's top-level ancestor (a window manager's frame), looked up once: events on the
    /// root are matched against it without a round trip each.
    private var parentTopLevel: Window = 0

    private func follow(_ w: Window) {
        let top = display.topLevel(w)
        parentTopLevel = top
        XSelectInput(display.handle, w, Int(StructureNotifyMask))
        if top != w { XSelectInput(display.handle, top, Int(StructureNotifyMask)) }
    }

    func handle(_ ev: inout XEvent) {
        let ours = [window?.window ?? 0, window?.blocker ?? 0]
        if let base = fixesEventBase, ev.type == base + XFixesSelectionNotify {
            compositorChanged()
            return
        }
        switch ev.type {
        case ConfigureNotify:
            let w = ev.xconfigure.window
            if let p = region.window, w == p || w == parentTopLevel {
                parentMoved()
            } else if ev.xconfigure.event == display.root, !ours.contains(w), ev.xconfigure.override_redirect == 0,
                      window?.isMapped == true {
                // Stay above whatever a window manager or an application raised. Other override-redirect
                // windows (other HUDs, menus) are left alone, so that two HUDs never fight over the top.
                window?.raise()
            }
        case MapNotify:
            if ev.xmap.event == display.root, !ours.contains(ev.xmap.window), ev.xmap.override_redirect == 0,
               window?.isMapped == true { window?.raise() }
        case UnmapNotify, DestroyNotify:
            let w = ev.type == UnmapNotify ? ev.xunmap.window : ev.xdestroywindow.window
            if let p = region.window, w == p { onParentGone?() ?? stop(exitCode: 0) }
        case Expose:
            if ev.xexpose.count == 0 { dirty = true; drawFrame() }
        case ButtonPress:
            if ev.xbutton.window == window?.window, inButton(ev.xbutton) { buttonPressed = true; dirty = true; drawFrame() }
        case ButtonRelease:
            if buttonPressed {
                buttonPressed = false
                dirty = true
                drawFrame()
                if ev.xbutton.window == window?.window, inButton(ev.xbutton) { onButton?() }
            } else if ev.xbutton.window == window?.window, ev.xbutton.button == 1, lifecycle.isVisible, let onClick {
                onClick()
            }
        case KeyPress:
            if escapeGrabbed, ev.xkey.keycode == XKeysymToKeycode(display.handle, KeySym(XK_Escape)) { onEscape?() }
        default: break
        }
    }

    private func inButton(_ b: XButtonEvent) -> Bool {
        guard let r = layout.button, let window else { return false }
        let p = Point(x: (window.rect.x - region.rect.x + Double(b.x)) / scale, y: (window.rect.y - region.rect.y + Double(b.y)) / scale)
        return r.contains(p)
    }

    private func parentMoved() {
        guard let w = region.window, let rect = display.windowRect(w), rect != region.rect else { return }
        region.rect = rect
        relayout(regionMoved: true)
        dirty = true
        drawFrame()
    }

    private func compositorChanged() {
        let now = display.compositorRunning
        guard now != composited else { return }
        composited = now
        allocateSurfaces()
        if composited {
            window?.setBoundingShape(nil)
            if let s = snapshot { cairo_surface_destroy(s); snapshot = nil }
        } else {
            retakeSnapshot()
        }
        shapeKey = nil
        dirty = true
        if lifecycle.isVisible { drawFrame() }
    }
}

public enum HUDError: Error, CustomStringConvertible {
    case badImage(String)
    public var description: String {
        switch self { case .badImage(let s): return s }
    }
}

extension HUDConfiguration {
    /// The configuration with progress left out: a new progress value needs no new layout.
    var withoutProgress: HUDConfiguration {
        var c = self
        c.progress = 0
        return c
    }
}
