import HUDCore
import HUDEngine
import HUDRender

/// The Wayland backend of one HUD: its region a whole output (or a rectangle of it), its
/// window a layer surface (`WaylandOutput`). Pointer buttons on its surface reach its
/// `HUDController` (its button, its click handler); Escape does while it blocks input (it then
/// takes the keyboard, `WaylandOutput.grabEscape`). It follows its output: a new mode or scale
/// lays the HUD out again, an output unplugged moves it to another.
///
/// Ownership: the controller holds this backend; this backend holds the controller weakly,
/// and its `WaylandLoop` holds it from `attach` to `detach`. All of it runs on the loop's thread.
package final class WaylandHUD: HUDBackend {
    package let loop: WaylandLoop
    private(set) var screen: WaylandScreen
    /// Device pixels per surface coordinate on its output (the compositor's preferred scale).
    private(set) var deviceScale: Double
    /// The output is the compositor's choice (the user's): the surface names none, and the HUD
    /// learns where it is from the surface's `enter`.
    let compositorPicks: Bool
    /// `--scale`: the HUD laid out at this scale instead of the output's.
    private let askedScale: Double?
    /// `--geometry`: a rectangle of the output (device pixels); nil: all of it.
    private var area: Rect?
    /// The HUD it draws and reports to; nil once that is gone.
    package private(set) weak var controller: HUDController?
    private var attached = false

    /// A HUD on `loop`, not shown yet: its controller, which holds the backend.
    /// `output`: an output's name or index (nil, "pointer", "focused": the compositor's choice;
    /// "primary": the first); `area`: a rectangle of it (device pixels), nil for all of it.
    package static func makeHUD(
        loop: WaylandLoop, configuration: HUDConfiguration, output: String? = nil, area: Rect? = nil,
        scale: Double? = nil
    ) throws -> HUDController {
        let (screen, picks) = try loop.connection.screen(named: output)
        let backend = WaylandHUD(loop: loop, screen: screen, compositorPicks: picks && area == nil, scale: scale)
        backend.area = area
        guard !backend.region.isEmpty else { throw WaylandError.missing("the geometry lies outside the output") }
        return try HUDController(backend: backend, configuration: configuration, region: backend.region, scale: scale ?? backend.deviceScale)
    }

    private init(loop: WaylandLoop, screen: WaylandScreen, compositorPicks: Bool, scale: Double?) {
        self.loop = loop
        self.screen = screen
        self.compositorPicks = compositorPicks
        askedScale = scale
        deviceScale = screen.scale(fractional: loop.connection.scalesFractionally)
    }

    package func attach(_ controller: HUDController) {
        self.controller = controller
        attached = true
        loop.add(self)
    }

    package func detach() {
        guard attached else { return }
        attached = false
        loop.remove(self)
    }

    package var refreshRate: Double { screen.refresh }

    // MARK: HUDBackend

    package var clock: HUDClock { loop.clock }
    package var framePeriod: Double { loop.framePeriod }
    package var isTicking: Bool { loop.isTicking }
    package func updateTicks() { loop.updateLink() }
    package var isComposited: Bool { true }
    package var screenRect: Rect { screen.rect(scale: deviceScale) }
    /// The HUD's region: its rectangle of the output, or the whole output.
    private var region: Rect { area.map { $0.intersection(screenRect) } ?? screenRect }
    package func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = WaylandOutput(
            loop: loop, screen: screen, scale: deviceScale, namesOutput: !compositorPicks, rect: rect, blockInputOver: blockInputOver,
            clickThrough: clickThrough)
        o.onClosed = { [weak self] in self?.closed() }
        o.onEnter = { [weak self] proxy in self?.entered(proxy) }
        o.onPreferredScale = { [weak self] s in self?.rescale(s) }
        return o
    }
    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { loop.textShaper.map { ($0, loop) } }

    var output: WaylandOutput? { controller?.output as? WaylandOutput }

    /// A pointer button on its surface (surface coordinates); button 0x110 is the left one.
    func pointer(at p: Point, button: UInt32, pressed: Bool) {
        guard let controller else { return }
        let at = Point(x: p.x * deviceScale, y: p.y * deviceScale)
        if pressed { controller.pointerPressed(at: at) } else { controller.pointerReleased(at: at, primary: button == 0x110) }
    }

    // MARK: Following the output

    /// Its output changed (a mode, a scale, a logical size): the HUD is laid out on it again.
    func screenChanged(_ s: WaylandScreen) {
        guard s.proxy == screen.proxy else { return }
        screen = s
        follow(s, scale: s.scale(fractional: loop.connection.scalesFractionally), remap: false)
    }

    /// Its output went away: the HUD moves to the first left (the compositor's choice, where
    /// it picks), as a volume OSD shown while a laptop leaves its dock; with none left it ends.
    func screenRemoved(_ s: WaylandScreen) {
        guard s.proxy == screen.proxy else { return }
        guard let next = loop.connection.screens.first else { controller?.parentGone(); return }
        area = nil
        follow(next, scale: next.scale(fractional: loop.connection.scalesFractionally), remap: true)
    }

    /// The compositor closed the surface while its output is still there: the HUD has nowhere to
    /// show. (An output unplugged is `screenRemoved`, which gives the HUD a new surface.)
    private func closed() {
        if loop.connection.screens.contains(where: { $0.proxy == screen.proxy }) { controller?.parentGone() }
    }

    /// The surface is on `proxy`'s output: where the compositor put a HUD that names none.
    private func entered(_ proxy: OpaquePointer) {
        guard compositorPicks, proxy != screen.proxy, let s = loop.connection.screens.first(where: { $0.proxy == proxy }) else { return }
        follow(s, scale: s.scale(fractional: loop.connection.scalesFractionally), remap: false)
    }

    /// wp_fractional_scale_v1's preferred scale for the surface.
    private func rescale(_ s: Double) {
        guard abs(s - deviceScale) > 0.001 else { return }
        follow(screen, scale: s, remap: false)
    }

    private func follow(_ s: WaylandScreen, scale: Double, remap: Bool) {
        screen = s
        deviceScale = scale
        output?.moveTo(screen: s, scale: scale, remap: remap)
        let r = region.isEmpty ? screenRect : region
        controller?.regionMoved(to: r, scale: askedScale ?? scale)
    }
}
