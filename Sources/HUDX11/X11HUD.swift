#if canImport(Glibc)
import Glibc
#endif
import CX11
import CCairo
import HUDCore
import HUDRender

/// A HUD on an X11 display: lifecycle, layout, rendering, window and display link, run by one
/// event loop on the calling thread.
public final class X11HUD {
    public let display: X11Display
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
    /// Polled on every display-link tick while shown (MBProgressHUD's NSProgress binding).
    public var progressSource: ProgressSource?
    public var showsProgressDescription = false

    private let renderer = HUDRenderer()
    private let clock = MonotonicClock()
    private var window: OverlayWindow?
    private var composited: Bool
    private var fixesEventBase: Int32?
    private var snapshot: OpaquePointer?
    private var hudSurface: OpaquePointer?
    private var outSurface: OpaquePointer?
    private var layout: HUDLayout
    private var progress: Tween
    private var bezelTween: RectTween?
    private var buttonPressed = false
    private var shapeKey: (Rect, Double)? = nil
    private let wake = WakePipe()
    private var link: DisplayLink!
    private var readers: [(fd: Int32, handler: () -> Void)] = []
    private var quit = false
    private var exitCode: Int32 = 0
    private var dirty = true
    public private(set) var framesDrawn = 0
    private var lastFrame = -Double.infinity

    public init(display: X11Display, configuration: HUDConfiguration, parent: ParentSpec = .default, scale: Double? = nil) throws {
        self.display = display
        self.configuration = configuration
        self.parentSpec = parent
        region = try display.resolve(parent)
        self.scale = max(0.5, scale ?? ((display.xftDPI ?? 96) / 96))
        refreshRate = display.refreshRate(at: Point(x: region.rect.midX, y: region.rect.midY))
        composited = display.compositorRunning
        lifecycle = HUDLifecycle(clock: clock)
        lifecycle.graceTime = configuration.graceTime
        lifecycle.minShowTime = configuration.minShowTime
        lifecycle.animation = configuration.animation
        progress = Tween(configuration.progress, duration: configuration.mode.showsProgress ? 0.2 : 0)
        layout = HUDLayout.compute(configuration, region: .zero, measurer: renderer.text)
        if let path = configuration.imagePath, configuration.mode == .custom, let error = renderer.validateImage(path) {
            throw HUDError.badImage(error)
        }
        relayout()
        let wake = self.wake
        link = DisplayLink(hz: refreshRate) { _ in wake.wake() }
        lifecycle.onAppear = { [unowned self] in self.appear() }
        lifecycle.onWasHidden = { [unowned self] in self.disappear() }
        fixesEventBase = display.watchCompositor()
        XSelectInput(display.handle, display.root, Int(SubstructureNotifyMask))
        if let w = region.window { follow(w) }
    }

    deinit {
        link?.invalidate()   // nil when init threw before creating it
        for s in [snapshot, hudSurface, outSurface] { if let s { cairo_surface_destroy(s) } }
    }

    // MARK: Public calls

    public func show(animated: Bool = true) { lifecycle.show(animated: animated); afterStateChange() }
    public func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (() -> Void)? = nil) {
        if delay > 0 { lifecycle.hide(animated: animated, afterDelay: delay, completion: completion) }
        else { lifecycle.hide(animated: animated, completion: completion) }
        afterStateChange()
    }

    /// Changes what the HUD shows while it is up (label, mode, progress, ...).
    public func update(_ change: (inout HUDConfiguration) -> Void) {
        var c = configuration
        change(&c)
        guard c != configuration else { return }
        let old = configuration
        configuration = c
        progress.duration = c.mode.showsProgress ? 0.2 : 0
        progress.set(c.progress, at: clock.now, animated: old.mode == c.mode && c.mode.showsProgress)
        if c.withoutProgress != old.withoutProgress { relayout() }
        dirty = true
        afterStateChange()
    }

    /// Watches a file descriptor (e.g. progress on stdin) from the event loop.
    public func addReader(fd: Int32, _ handler: @escaping () -> Void) { readers.append((fd, handler)) }
    public func removeReader(fd: Int32) { readers.removeAll { $0.fd == fd } }

    /// Ends the event loop with an exit code.
    public func stop(exitCode code: Int32 = 0) { exitCode = code; quit = true }

    public static func installSignalHandlers(_ hud: X11HUD) {
        signalPipeFD = hud.wake.writeFD
        for s in [SIGINT, SIGTERM, SIGHUP] {
            signal(s) { sig in
                receivedSignal = sig
                var b: UInt8 = 1
                _ = write(signalPipeFD, &b, 1)
            }
        }
    }

    /// Runs until `stop` or a signal; returns the exit code (128+N after signal N unless the
    /// owner handles signals with `onSignal`).
    public var onSignal: ((Int32) -> Void)?

    public func run() -> Int32 {
        var fds = [pollfd]()
        while !quit {
            lifecycle.update()
            afterStateChange()
            if quit { break }
            XFlush(display.handle)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0))
            fds.append(pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0))
            for r in readers { fds.append(pollfd(fd: r.fd, events: Int16(POLLIN), revents: 0)) }
            var timeout: Int32 = -1
            if XPending(display.handle) > 0 { timeout = 0 }
            else if let deadline = lifecycle.nextDeadline, !link.isRunning {
                timeout = Int32(max(0, ((deadline - clock.now) * 1000).rounded(.up)))
            }
            let n = poll(&fds, nfds_t(fds.count), timeout)
            if n < 0 && errno != EINTR { break }
            if fds[1].revents != 0 {
                wake.drain()
                if receivedSignal != 0 {
                    let sig = receivedSignal
                    receivedSignal = 0
                    if let onSignal { onSignal(sig) } else { stop(exitCode: 128 + sig) }
                }
                tick()
            }
            handleXEvents()
            for (i, r) in readers.enumerated() where i + 2 < fds.count && fds[i + 2].revents != 0 {
                r.handler()
            }
        }
        link.stop()
        window?.unmap()
        XSync(display.handle, 0)
        if getenv("XHUD_STATS") != nil {
            fputs("xhud-stats: frames=\(framesDrawn) ticks=\(link.ticks) refresh=\(refreshRate)\n", stderr)
        }
        return exitCode
    }

    // MARK: Frames

    /// Whether anything on screen moves by itself now.
    private var moving: Bool {
        guard lifecycle.isVisible else { return false }
        let now = clock.now
        return lifecycle.isAnimating || configuration.mode.isAnimated || progress.isMoving(at: now) || progressSource != nil
            || bezelTween?.isMoving(at: now) == true
    }

    /// At most one frame per refresh: while the display link runs, frames are drawn on its ticks
    /// only; when it is idle, a change draws at once (a key press shows without waiting for a tick).
    private func afterStateChange() {
        lifecycle.update()
        let visible = lifecycle.isVisible
        if dirty && visible && !link.isRunning && clock.now - lastFrame >= link.period { drawFrame() }
        if visible && (moving || dirty) { link.start() } else { link.stop() }
    }

    private func tick() {
        guard lifecycle.isVisible else { return }
        if let source = progressSource {
            let s = source.snapshot()
            if s.fraction != configuration.progress || (showsProgressDescription && s.description != nil && s.description! != configuration.details) {
                update { c in
                    c.progress = s.fraction
                    if showsProgressDescription, let d = s.description { c.details = d }
                }
            }
        }
        dirty = dirty || moving
        if dirty { drawFrame() }
    }

    /// Lays the HUD out again. A changed bezel animates to its new size; the window grows to
    /// hold every step (it never shrinks while shown, so no snapshot has to be retaken).
    private func relayout(regionMoved: Bool = false) {
        let now = clock.now
        let before = bezelTween?.value(at: now) ?? layout.bezel
        let size = Size(width: region.rect.width / scale, height: region.rect.height / scale)
        layout = HUDLayout.compute(configuration, region: size, measurer: renderer.text)
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

    /// The window covers the whole region when the mask paints it, else the bezel at its largest.
    private func windowRect(for bezel: Rect? = nil) -> Rect {
        let m = configuration.effectiveMask
        if m.paintsBackground { return region.rect.integral }
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
        let w = Int32(window.rect.width), h = Int32(window.rect.height)
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

        renderer.render(f, replacing: hud)

        var shown = hud
        if !composited, let out = outSurface {
            // No compositor: blend over what was beneath, and show only the pixels the HUD covers.
            let c = cairo_create(out)!
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
                       height: Int(cairo_image_surface_get_height(shown)), stride: Int(cairo_image_surface_get_stride(shown)))
        framesDrawn += 1
        lastFrame = now
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
                                  clickThrough: !m.blocksInput && configuration.buttonTitle.isEmpty)
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
        XFlush(display.handle)
    }

    private func disappear() {
        link.stop()
        window?.unmap()
        XFlush(display.handle)
        onHidden?()
    }

    /// The snapshot for a larger window without unmapping: the new area is read from the screen,
    /// and where the window already is (the only place the HUD's own pixels can be) the old
    /// snapshot is kept.
    private func growSnapshot(from old: Rect, to new: Rect) {
        let grown = display.snapshot(new)
        if let s = snapshot {
            let cr = cairo_create(grown)!
            cairo_set_source_surface(cr, s, old.x - new.x, old.y - new.y)
            cairo_paint(cr)
            cairo_destroy(cr)
            cairo_surface_destroy(s)
        }
        snapshot = grown
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

    private func handleXEvents() {
        let d = display.handle
        var ev = XEvent()
        while XPending(d) > 0 {
            XNextEvent(d, &ev)
            handle(&ev)
        }
    }

    private func handle(_ ev: inout XEvent) {
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
            }
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
