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
    /// New progress values ease in over 0.2 s (`--smooth`); off (the default, as MBProgressHUD
    /// and SVProgressHUD set it), the next frame shows them exactly.
    public var easesProgress = false

    private let renderer = HUDRenderer()
    private var clock: MonotonicClock { loop.clock }
    private(set) var window: Presenter?
    private var composited: Bool
    private var fixesEventBase: Int32?
    private var layout: HUDLayout
    private var progress: Tween
    private var bezelTween: RectTween?
    private var buttonPressed = false
    private var link: DisplayLink { loop.displayLink }
    /// Something other than time changed: the content is drawn again (and what changed sent).
    private var dirty = true
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
    /// hold every step and fits the bezel again once it stops.
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
        guard let window else { return }
        var target = windowRect(for: layout.bezel)
        if let t = bezelTween { target = target.union(windowRect(for: t.from)) }
        if regionMoved || configuration.effectiveMask.paintsBackground {
            guard target != window.rect else { return }
            window.move(to: target, blocker: region.rect)
        } else if !window.rect.contains(target) {
            window.move(to: window.rect.union(target).integral, blocker: region.rect)
        }
        dirty = true
    }

    /// Once the bezel has stopped moving, the window (grown to hold every step of the move)
    /// fits it again, so that stacked HUDs' windows do not overlap.
    private func fitWindowAfterResize() {
        guard let t = bezelTween, !t.isMoving(at: clock.now + link.period) else { return }
        bezelTween = nil
        guard let window, !configuration.effectiveMask.paintsBackground else { return }
        let target = windowRect(for: layout.bezel)
        guard target != window.rect, window.rect.contains(target) else { return }
        window.move(to: target, blocker: region.rect)
        dirty = true
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

    /// The frame's content at rest (alpha 1, no zoom) for the moment it reaches the screen.
    private func contentFrame(at shownAt: Double, in window: Presenter) -> HUDFrame {
        var c = configuration
        // Without a compositor there is nothing true to shadow onto: the window is clipped to
        // the bezel.
        if !window.composited { c.shadow = false }
        var f = HUDFrame(configuration: c, layout: layout)
        f.time = shownAt
        f.progress = progress.value(at: shownAt)
        if let t = bezelTween {
            if t.isMoving(at: shownAt) { f.bezelOverride = t.value(at: shownAt) } else { bezelTween = nil }
        }
        f.buttonPressed = buttonPressed
        f.scale = scale
        f.origin = Point(x: (window.rect.x - region.rect.x) / scale, y: (window.rect.y - region.rect.y) / scale)
        f.drawsMask = configuration.effectiveMask.paintsBackground
        f.leavesOutSpinner = true
        return f
    }

    /// One frame. The content is drawn on this side only when it changed (and only what changed
    /// is sent); the spinner's turn, a fade and a zoom are composed on the X server.
    private func drawFrame() {
        guard let window, window.isMapped || lifecycle.isVisible else { return }
        let now = clock.now
        // Drawn for the moment it reaches the screen, one refresh ahead (CVDisplayLink's output
        // time): the frame drawn as a fade-in maps is already visible.
        let shownAt = now + link.period
        let presentation = lifecycle.presentation(at: shownAt)
        let f = contentFrame(at: shownAt, in: window)
        let contentChanged = dirty || progress.isMoving(at: now) || f.bezelOverride != nil
        if contentChanged {
            renderer.render(f, replacing: window.canvas.content.surface)
            window.canvas.content.upload()
        }
        dirty = false

        var spinner: ServerCanvas.Spinner? = nil
        if configuration.mode == .indeterminate, let r = layout.indicator {
            let side = SpinnerSprites.pixelSide(min(r.width, r.height), scale: scale)
            let ink = configuration.effectiveContentColor
            let colourKey = UInt(truncatingIfNeeded: Int(ink.r * 255) << 24 | Int(ink.g * 255) << 16 | Int(ink.b * 255) << 8 | Int(ink.a * 255))
                ^ (configuration.spinner == .ring ? 0 : 1 << 40)
            window.canvas.setSprite(key: (side, colourKey)) { cr in
                let sprite = renderer.sprites.sprite(style: configuration.spinner, side: min(r.width, r.height), scale: scale, color: ink)
                cairo_set_source_surface(cr, sprite, 0, 0)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_paint(cr)
            }
            let shift = f.bezelOverride.map { Point(x: $0.midX - layout.bezel.midX, y: $0.midY - layout.bezel.midY) } ?? .zero
            spinner = .init(centre: Point(x: (r.midX + shift.x - f.origin.x) * scale, y: (r.midY + shift.y - f.origin.y) * scale),
                            angle: SpinnerSprites.angle(style: configuration.spinner, time: shownAt))
        }

        let bezel = f.bezelOverride ?? layout.bezel
        let zoomCentre = Point(x: (bezel.midX - f.origin.x) * scale, y: (bezel.midY - f.origin.y) * scale)
        // Only the spinner turns: compose its square alone.
        var area: Rect? = nil
        if !contentChanged, let s = spinner, lastPresentation == presentation, let r = layout.indicator {
            let half = (r.width / 2 + 2) * scale
            area = Rect(x: s.centre.x - half, y: s.centre.y - half, width: 2 * half, height: 2 * half).integral
        }
        window.canvas.present(alpha: presentation.alpha, zoom: presentation.scale, zoomCentre: zoomCentre, spinner: spinner,
                              windowOrigin: Point(x: window.rect.x, y: window.rect.y), area: area)
        if !window.composited && !configuration.effectiveMask.paintsBackground {
            window.updateShape(bezel: bezel, zoom: presentation.scale) {
                var full = contentFrame(at: shownAt, in: window)
                full.presentation = Presentation(alpha: 1, scale: presentation.scale)
                return shapeSpans(full, width: Int(window.rect.width), height: Int(window.rect.height))
            }
        }
        framesDrawn += 1
        lastFrame = now
        lastPresentation = presentation
    }

    /// Alpha and zoom of the frame on screen: only a frame that keeps them may compose the
    /// spinner's square alone.
    private var lastPresentation: Presentation?

    /// The spans the bezel covers at full alpha (a fading frame covers the same pixels).
    private func shapeSpans(_ frame: HUDFrame, width: Int, height: Int) -> [XRectangle] {
        var f = frame
        f.leavesOutSpinner = true
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(max(1, width)), Int32(max(1, height)))!
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
            window = Presenter(display: display, rect: windowRect(), blockInputOver: m.blocksInput ? region.rect : nil,
                               clickThrough: !m.blocksInput && configuration.buttonTitle.isEmpty && onClick == nil,
                               composited: composited, overScreen: m.paintsBackground)
        }
        // Draw before mapping too: with a compositor the first frame shown is already complete.
        dirty = true
        lastPresentation = nil
        drawFrame()
        window?.map()
        if onEscape != nil && configuration.effectiveMask.blocksInput { grabEscape(true) }
        XFlush(display.handle)
    }

    private func disappear() {
        grabEscape(false)
        window?.unmap()
        XFlush(display.handle)
        onHidden?()
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
        let ours = [window?.window.window ?? 0, window?.window.blocker ?? 0]
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
            // The last frame is on the server: show it again, nothing is drawn or sent.
            let e = ev.xexpose
            window?.canvas.repaint(Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
        case PropertyNotify:
            if ev.xproperty.window == display.root, ev.xproperty.atom == display.atom("_XROOTPMAP_ID"), lifecycle.isVisible {
                window?.wallpaperChanged()
                drawFrame()
            }
        case ButtonPress:
            if ev.xbutton.window == window?.window.window, inButton(ev.xbutton) { buttonPressed = true; dirty = true; drawFrame() }
        case ButtonRelease:
            if buttonPressed {
                buttonPressed = false
                dirty = true
                drawFrame()
                if ev.xbutton.window == window?.window.window, inButton(ev.xbutton) { onButton?() }
            } else if ev.xbutton.window == window?.window.window, ev.xbutton.button == 1, lifecycle.isVisible, let onClick {
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
        window?.setComposited(now)
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
