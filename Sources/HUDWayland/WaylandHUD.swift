import HUDCore
import HUDEngine
import HUDRender

/// The Wayland backend of one HUD: its region a whole output (or a rectangle of it), its
/// window a layer surface (`WaylandOutput`). Pointer buttons on its surface reach its
/// `HUDController` (its button, its click handler); Escape does while it blocks input (it then
/// takes the keyboard, `WaylandOutput.grabEscape`).
///
/// Ownership: the controller holds this backend; this backend holds the controller weakly,
/// and its `WaylandLoop` holds it from `attach` to `detach`. All of it runs on the loop's thread.
package final class WaylandHUD: HUDBackend {
    package let loop: WaylandLoop
    let screen: WaylandScreen
    /// The HUD it draws and reports to; nil once that is gone.
    package private(set) weak var controller: HUDController?
    private var attached = false

    /// A HUD on `loop`, not shown yet: its controller, which holds the backend.
    /// `output`: an output's name or index (nil, "pointer", "focused", "primary": the first);
    /// `area`: a rectangle of it (device pixels), nil for all of it.
    package static func makeHUD(
        loop: WaylandLoop, configuration: HUDConfiguration, output: String? = nil, area: Rect? = nil,
        scale: Double? = nil
    ) throws -> HUDController {
        let screen = try loop.connection.screen(named: output)
        var region = screen.rect
        if let area {
            region = area.intersection(screen.rect)
            guard !region.isEmpty else { throw WaylandError.missing("the geometry lies outside the output") }
        }
        return try HUDController(
            backend: WaylandHUD(loop: loop, screen: screen), configuration: configuration, region: region,
            scale: scale ?? Double(screen.scale))
    }

    private init(loop: WaylandLoop, screen: WaylandScreen) {
        self.loop = loop
        self.screen = screen
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
    package var screenRect: Rect { screen.rect }
    package func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = WaylandOutput(loop: loop, screen: screen, rect: rect, blockInputOver: blockInputOver, clickThrough: clickThrough)
        // Its output is gone, as a parent window goes on X11: the HUD ends.
        o.onClosed = { [weak self] in self?.controller?.parentGone() }
        return o
    }
    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { loop.textShaper.map { ($0, loop) } }

    var output: WaylandOutput? { controller?.output as? WaylandOutput }

    /// A pointer button on its surface (surface coordinates); button 0x110 is the left one.
    func pointer(at p: Point, button: UInt32, pressed: Bool) {
        guard let controller else { return }
        let k = Double(screen.scale)
        let at = Point(x: p.x * k, y: p.y * k)
        if pressed { controller.pointerPressed(at: at) } else { controller.pointerReleased(at: at, primary: button == 0x110) }
    }
}
