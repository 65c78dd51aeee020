#if canImport(Glibc)
import Glibc
#endif
import CX11
import HUDCore
import HUDEngine
import HUDRender

/// The X11 backend of one HUD: it resolves the parent region, follows a parent window, makes
/// the HUD's windows (`X11Output`) and turns X events into the calls of its `HUDController`
/// (the orchestration, no X11 in it), which is what a server or the library holds and drives.
///
/// Ownership: the controller holds this backend; this backend holds the controller weakly,
/// and its `HUDLoop` (shared by every HUD of a process) holds it from `attach` to `detach`.
/// All of it runs on the loop's thread.
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
    /// The HUD it draws and reports to; nil once that is gone.
    package private(set) weak var controller: HUDController?
    private var attached = false
    private var fixesEventBase: Int32?
    private var composited: Bool

    /// A HUD over `parent` on `loop`, not shown yet: its controller, which holds the backend.
    /// `scale`: nil for the desktop's (`Xft.dpi` / 96).
    package static func makeHUD(
        loop: HUDLoop, configuration: HUDConfiguration, parent: ParentSpec = .default,
        scale: Double? = nil
    ) throws -> HUDController {
        let backend = try X11HUD(loop: loop, parent: parent)
        return try HUDController(
            backend: backend, configuration: configuration, region: backend.region.rect,
            scale: scale ?? ((loop.display.xftDPI ?? 96) / 96))
    }

    private init(loop: HUDLoop, parent: ParentSpec) throws {
        display = loop.display
        self.loop = loop
        parentSpec = parent
        region = try display.resolve(parent)
        let known = display.knownRefreshRate(at: Point(x: region.rect.midX, y: region.rect.midY))
        refreshRate = known ?? 60
        refreshRateKnown = known != nil
        composited = display.compositorRunning
    }

    package func attach(_ controller: HUDController) {
        self.controller = controller
        attached = true
        fixesEventBase = display.watchCompositor()
        if let w = region.window { follow(w) }
        loop.add(self)
    }

    package func detach() {
        guard attached else { return }
        attached = false
        loop.remove(self)
        XFlush(display.handle)
    }

    // MARK: HUDBackend

    package var clock: HUDClock { loop.clock }
    package var framePeriod: Double { loop.framePeriod }
    package var isTicking: Bool { loop.isTicking }
    package func updateTicks() { loop.updateLink() }
    package var isComposited: Bool { composited }
    package var screenRect: Rect { display.screenRect }
    package func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = X11Output(
            display: display, rect: rect, blockInputOver: blockInputOver, clickThrough: clickThrough,
            composited: composited, overScreen: overScreen)
        o.onBeneathChanged = { [weak self] in self?.controller?.beneathChanged() }
        o.spinner.loop = loop
        return o
    }

    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { loop.textShaper.map { ($0, loop) } }

    var output: X11Output? { controller?.output as? X11Output }

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
        guard let controller, controller.isVisible, let o = output, o.watchesBeneath, !o.overScreen else { return }
        controller.beneathChanged()
    }

    /// One X event, as the controller understands it.
    func handle(_ ev: inout XEvent) {
        guard let controller else { return }
        let output = controller.output as? X11Output
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
                output?.isMapped == true
            {
                // Stay above whatever a window manager or an application raised. Other override-redirect
                // windows (other HUDs, menus) are left alone, so that two HUDs never fight over the top.
                output?.raise()
            }
        case MapNotify:
            if ev.xmap.event == display.root, !ours(ev.xmap.window), ev.xmap.override_redirect == 0,
                output?.isMapped == true
            {
                output?.raise()
            }
        case UnmapNotify, DestroyNotify:
            let w = ev.type == UnmapNotify ? ev.xunmap.window : ev.xdestroywindow.window
            if let p = region.window, w == p {
                if controller.onParentGone == nil { loop.stop(exitCode: 0) } else { controller.parentGone() }
            }
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
            controller.pointerReleased(
                at: onWindow ? Point(x: Double(ev.xbutton.x), y: Double(ev.xbutton.y)) : Point(x: -1e9, y: -1e9),
                primary: onWindow && ev.xbutton.button == 1)
        case KeyPress:
            if output?.escapeGrabbed == true, ev.xkey.keycode == XKeysymToKeycode(display.handle, KeySym(XK_Escape)) {
                controller.escapePressed()
            }
        default: break
        }
    }
}
