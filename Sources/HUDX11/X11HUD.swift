#if canImport(Glibc)
import Glibc
#endif
import CX11
import HUDCore
import HUDEngine
import HUDRender

/// A HUD on an X11 display: a `HUDController` (the orchestration, no X11 in it) on this display's
/// backend. This side resolves the parent region, follows a parent window, and turns X events
/// into what the controller understands. Run by a `HUDLoop` (shared by every HUD of a process)
/// on the loop's thread.
package final class X11HUD: HUDBackend {
    package let display: X11Display
    package let loop: HUDLoop
    package let parentSpec: ParentSpec
    package private(set) var region: ParentRegion
    /// Its monitor's refresh rate; 60 until the rates are known (they are asked for after the
    /// first frame, see `HUDLoop.learnRefreshRates`).
    package internal(set) var refreshRate: Double
    /// Whether `refreshRate` is the monitor's own yet.
    var refreshRateKnown: Bool
    /// The orchestration; its callbacks and calls are the HUD's own.
    package private(set) var controller: HUDController!
    /// Called when the parent window goes away (default: the loop ends).
    package var onParentGone: (() -> Void)?
    private var fixesEventBase: Int32?
    private var composited: Bool

    /// A HUD with a loop of its own (one HUD per process).
    package convenience init(display: X11Display, configuration: HUDConfiguration, parent: ParentSpec = .default, scale: Double? = nil) throws {
        try self.init(loop: HUDLoop(display: display), configuration: configuration, parent: parent, scale: scale)
    }

    package init(loop: HUDLoop, configuration: HUDConfiguration, parent: ParentSpec = .default, scale: Double? = nil) throws {
        display = loop.display
        self.loop = loop
        parentSpec = parent
        region = try display.resolve(parent)
        let known = display.knownRefreshRate(at: Point(x: region.rect.midX, y: region.rect.midY))
        refreshRate = known ?? 60
        refreshRateKnown = known != nil
        composited = display.compositorRunning
        controller = try HUDController(backend: self, configuration: configuration, region: region.rect,
                                       scale: scale ?? ((display.xftDPI ?? 96) / 96))
        fixesEventBase = display.watchCompositor()
        if let w = region.window { follow(w) }
        loop.add(self)
    }

    /// Takes the HUD off its loop and destroys its window (a server drops a HUD once hidden).
    package func dispose() {
        loop.remove(self)
        controller.dispose()
        XFlush(display.handle)
    }

    // MARK: The controller's calls and callbacks, for convenience

    package var configuration: HUDConfiguration { controller.configuration }
    package var lifecycle: HUDLifecycle { controller.lifecycle }
    package var scale: Double { controller.scale }
    package var isVisible: Bool { controller.isVisible }
    package var bezelSize: Size { controller.bezelSize }
    package var framesDrawn: Int { controller.framesDrawn }
    package var stackOffset: Point { get { controller.stackOffset } set { controller.stackOffset = newValue } }
    package var onButton: (() -> Void)? { get { controller.onButton } set { controller.onButton = newValue } }
    package var onExtraButton: ((Int) -> Void)? { get { controller.onExtraButton } set { controller.onExtraButton = newValue } }
    package var onHidden: (() -> Void)? { get { controller.onHidden } set { controller.onHidden = newValue } }
    package var onChange: (() -> Void)? { get { controller.onChange } set { controller.onChange = newValue } }
    package var onEscape: (() -> Void)? { get { controller.onEscape } set { controller.onEscape = newValue } }
    package var onClick: (() -> Void)? { get { controller.onClick } set { controller.onClick = newValue } }
    package var progressSource: ProgressSource? { get { controller.progressSource } set { controller.progressSource = newValue } }
    package var showsProgressDescription: Bool {
        get { controller.showsProgressDescription } set { controller.showsProgressDescription = newValue }
    }
    package var smooth: Bool { get { controller.smooth } set { controller.smooth = newValue } }

    package func show(animated: Bool = true) { controller.show(animated: animated) }
    package func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (() -> Void)? = nil) {
        controller.hide(animated: animated, afterDelay: delay, completion: completion)
    }
    package func dismiss(animated: Bool = true, completion: (() -> Void)? = nil) {
        controller.dismiss(animated: animated, completion: completion)
    }
    package func update(_ change: (inout HUDConfiguration) -> Void) { controller.update(change) }

    /// Watches a file descriptor (e.g. progress on stdin) from the loop.
    package func addReader(fd: Int32, _ handler: @escaping () -> Void) { loop.addReader(fd: fd, handler) }
    package func removeReader(fd: Int32) { loop.removeReader(fd: fd) }
    /// Ends the loop with an exit code.
    package func stop(exitCode code: Int32 = 0) { loop.stop(exitCode: code) }
    /// Called on SIGINT, SIGTERM and SIGHUP; without it the loop exits 128+N.
    package var onSignal: ((Int32) -> Void)? { get { loop.onSignal } set { loop.onSignal = newValue } }
    /// Runs the loop until `stop`; returns the exit code.
    package func run() -> Int32 { loop.run() }

    // MARK: HUDBackend

    package var clock: HUDClock { loop.clock }
    package var framePeriod: Double { loop.framePeriod }
    package var isTicking: Bool { loop.isTicking }
    package func updateTicks() { loop.updateLink() }
    package var isComposited: Bool { composited }
    package var screenRect: Rect { display.screenRect }
    package func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = X11Output(display: display, rect: rect, blockInputOver: blockInputOver, clickThrough: clickThrough,
                          composited: composited, overScreen: overScreen)
        o.onBeneathChanged = { [weak self] in self?.controller.beneathChanged() }
        o.spinner.loop = loop
        return o
    }

    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { loop.textShaper.map { ($0, loop) } }

    var output: X11Output? { controller.output as? X11Output }

    // MARK: The loop's calls

    var wantsTicks: Bool { controller.wantsTicks }
    func afterStateChange() { controller.afterStateChange() }
    func tick() { controller.tick() }
    func unmapForExit() { controller.unmapForExit() }

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

    /// The root's wallpaper changed or is gone: the copy of the screen a visible HUD blends
    /// over is out of date beneath it, as when a window beneath draws, and its bezel rises to
    /// opaque. A new copy would need the window unmapped while the screen repaints: a blink,
    /// and the loop waiting.
    func wallpaperChanged() {
        guard controller.isVisible, let o = output, o.watchesBeneath, !o.overScreen else { return }
        controller.beneathChanged()
    }

    /// One X event, as the controller understands it.
    func handle(_ ev: inout XEvent) {
        let output = self.output
        // Whether `w` is one of this HUD's windows (asked only of the events that need it: every
        // HUD sees every event, and a replay maps dozens of HUDs in a few frames).
        func ours(_ w: Window) -> Bool { w == output?.window.window ?? 0 || w == output?.window.blocker ?? 0 }
        if let base = fixesEventBase, ev.type == base + XFixesSelectionNotify {
            let now = display.compositorRunning
            guard now != composited else { return }
            composited = now
            output?.setComposited(now)
            controller.displayChanged()
            return
        }
        switch ev.type {
        case ConfigureNotify:
            let w = ev.xconfigure.window
            if let p = region.window, w == p || w == parentTopLevel {
                guard let rect = display.windowRect(p) else { return }
                region.rect = rect
                controller.regionMoved(to: rect)
            } else if ev.xconfigure.event == display.root, w != display.root, !ours(w), ev.xconfigure.override_redirect == 0,
                      output?.isMapped == true {
                // Stay above whatever a window manager or an application raised. Other override-redirect
                // windows (other HUDs, menus) are left alone, so that two HUDs never fight over the top.
                output?.raise()
            }
        case MapNotify:
            if ev.xmap.event == display.root, !ours(ev.xmap.window), ev.xmap.override_redirect == 0,
               output?.isMapped == true { output?.raise() }
        case UnmapNotify, DestroyNotify:
            let w = ev.type == UnmapNotify ? ev.xunmap.window : ev.xdestroywindow.window
            if let p = region.window, w == p { onParentGone?() ?? stop(exitCode: 0) }
        case Expose:
            let e = ev.xexpose
            if e.window == output?.window.window {
                output?.exposed(Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height)))
            }
        case PropertyNotify:
            if ev.xproperty.window == display.root, ev.xproperty.atom == display.atom("_XROOTPMAP_ID") { wallpaperChanged() }
        case ButtonPress:
            if ev.xbutton.window == output?.window.window {
                controller.pointerPressed(at: Point(x: Double(ev.xbutton.x), y: Double(ev.xbutton.y)))
            }
        case ButtonRelease:
            let onWindow = ev.xbutton.window == output?.window.window
            controller.pointerReleased(at: onWindow ? Point(x: Double(ev.xbutton.x), y: Double(ev.xbutton.y)) : Point(x: -1e9, y: -1e9),
                                       primary: onWindow && ev.xbutton.button == 1)
        case KeyPress:
            if output?.escapeGrabbed == true, ev.xkey.keycode == XKeysymToKeycode(display.handle, KeySym(XK_Escape)) {
                controller.escapePressed()
            }
        default: break
        }
    }
}

extension X11HUD: StackableHUD {
    package var stackRegion: Rect { region.rect }
    package var stackArea: Size { controller.stackArea }
    package var isLeaving: Bool { controller.isLeaving }
    package var isOnScreen: Bool { controller.isOnScreen }
    package var clickedLink: Int? { controller.clickedLink }
    package var shownStackOffset: Point { controller.shownStackOffset }
    package func enterStack(from start: Point) { controller.enterStack(from: start) }
    package var onLeaving: (() -> Void)? { get { controller.onLeaving } set { controller.onLeaving = newValue } }
    package var onResized: (() -> Void)? { get { controller.onResized } set { controller.onResized = newValue } }
}
