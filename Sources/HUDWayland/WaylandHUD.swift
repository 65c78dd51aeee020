import HUDCore
import HUDEngine
import HUDRender

/// A HUD on a Wayland compositor: a `HUDController` on this backend, its region a whole output
/// (or a rectangle of it), run by a `WaylandLoop` on the loop's thread. Pointer buttons on its
/// surface reach the controller (its button, its click handler); no key does (a layer surface
/// without keyboard interactivity).
package final class WaylandHUD: HUDBackend {
    package let loop: WaylandLoop
    let screen: WaylandScreen
    package private(set) var controller: HUDController!
    /// Called when its output goes away (the compositor closed its surface).
    package var onParentGone: (() -> Void)?

    /// `output`: an output's name or index (nil, "pointer", "focused", "primary": the first);
    /// `area`: a rectangle of it (device pixels), nil for all of it.
    package init(loop: WaylandLoop, configuration: HUDConfiguration, output: String? = nil, area: Rect? = nil, scale: Double? = nil) throws {
        self.loop = loop
        screen = try loop.connection.screen(named: output)
        var region = screen.rect
        if let area {
            region = area.intersection(screen.rect)
            guard !region.isEmpty else { throw WaylandError.missing("the geometry lies outside the output") }
        }
        controller = try HUDController(backend: self, configuration: configuration, region: region,
                                       scale: scale ?? Double(screen.scale))
        loop.add(self)
    }

    package func dispose() {
        loop.remove(self)
        controller.dispose()
    }

    package var configuration: HUDConfiguration { controller.configuration }
    package var lifecycle: HUDLifecycle { controller.lifecycle }
    package var isVisible: Bool { controller.isVisible }
    package var framesDrawn: Int { controller.framesDrawn }
    package var bezelSize: Size { controller.bezelSize }
    package var refreshRate: Double { screen.refresh }
    package var stackOffset: Point { get { controller.stackOffset } set { controller.stackOffset = newValue } }
    package var onButton: (() -> Void)? { get { controller.onButton } set { controller.onButton = newValue } }
    package var onExtraButton: ((Int) -> Void)? { get { controller.onExtraButton } set { controller.onExtraButton = newValue } }
    package var onHidden: (() -> Void)? { get { controller.onHidden } set { controller.onHidden = newValue } }
    package var onChange: (() -> Void)? { get { controller.onChange } set { controller.onChange = newValue } }
    package var onEscape: (() -> Void)? { get { controller.onEscape } set { controller.onEscape = newValue } }
    package var onClick: (() -> Void)? { get { controller.onClick } set { controller.onClick = newValue } }
    package var clickedLink: Int? { controller.clickedLink }
    package var smooth: Bool { get { controller.smooth } set { controller.smooth = newValue } }

    package func show(animated: Bool) { controller.show(animated: animated) }
    package func hide(animated: Bool, afterDelay delay: Double, completion: (() -> Void)?) {
        controller.hide(animated: animated, afterDelay: delay, completion: completion)
    }
    package func dismiss(animated: Bool, completion: (() -> Void)?) { controller.dismiss(animated: animated, completion: completion) }
    package func update(_ change: (inout HUDConfiguration) -> Void) { controller.update(change) }

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
        o.onClosed = { [weak self] in self?.onParentGone?() }
        return o
    }
    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { loop.textShaper.map { ($0, loop) } }

    var output: WaylandOutput? { controller.output as? WaylandOutput }

    // MARK: The loop's calls

    var wantsTicks: Bool { controller.wantsTicks }
    func afterStateChange() { controller.afterStateChange() }
    func tick() { controller.tick() }
    func unmapForExit() { controller.unmapForExit() }

    /// A pointer button on its surface (surface coordinates); button 0x110 is the left one.
    func pointer(at p: Point, button: UInt32, pressed: Bool) {
        let k = Double(screen.scale)
        let at = Point(x: p.x * k, y: p.y * k)
        if pressed { controller.pointerPressed(at: at) } else { controller.pointerReleased(at: at, primary: button == 0x110) }
    }
}

extension WaylandHUD: StackableHUD {
    package var stackRegion: Rect { controller.region }
    package var stackArea: Size { controller.stackArea }
    package var isLeaving: Bool { controller.isLeaving }
    package var isOnScreen: Bool { controller.isOnScreen }
    package var shownStackOffset: Point { controller.shownStackOffset }
    package func enterStack(from start: Point) { controller.enterStack(from: start) }
    package var onLeaving: (() -> Void)? { get { controller.onLeaving } set { controller.onLeaving = newValue } }
    package var onResized: (() -> Void)? { get { controller.onResized } set { controller.onResized = newValue } }
}
