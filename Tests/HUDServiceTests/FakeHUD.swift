import HUDCore
import HUDEngine
import HUDService
import HUDX11

/// A HUD as the server sees it, on a backend with no display: the real `HUDController` (its
/// lifecycle, layout and animations) on the manual loop's clock, its window a recording.
final class FakeHUD: ServedHUD, HUDBackend {
    let loop: ManualLoop
    let parent: ParentSpec
    private(set) var controller: HUDController!
    private(set) var disposed = false
    private(set) var windows: [NullOutput] = []

    init(loop: ManualLoop, configuration: HUDConfiguration, parent: ParentSpec, scale: Double) throws {
        self.loop = loop
        self.parent = parent
        controller = try HUDController(backend: self, configuration: configuration, region: screenRect, scale: scale)
        loop.huds.append(self)
    }

    /// The user pressed Escape (the controller hands it on when the HUD blocks input).
    func pressEscape() { controller.escapePressed() }
    /// The window it covers went away.
    func parentWentAway() { onParentGone?() }
    /// Whether it is on screen: its window mapped.
    var isMapped: Bool { windows.last?.isMapped ?? false }

    // MARK: HUDBackend

    var clock: HUDClock { loop.clock }
    var framePeriod: Double { loop.framePeriod }
    var isTicking: Bool { true }
    func updateTicks() {}
    var isComposited: Bool { true }
    var screenRect: Rect { Rect(x: 0, y: 0, width: 1280, height: 800) }
    func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = NullOutput(rect: rect)
        windows.append(o)
        return o
    }

    // MARK: ServedHUD

    var bezelSize: Size { controller.bezelSize }
    var configuration: HUDConfiguration { controller.configuration }
    var stackOffset: Point { get { controller.stackOffset } set { controller.stackOffset = newValue } }
    var stackRegion: Rect { screenRect }
    var stackArea: Size { controller.stackArea }
    var isLeaving: Bool { controller.isLeaving }
    var isOnScreen: Bool { controller.isOnScreen }
    var clickedLink: Int? { controller.clickedLink }
    var shownStackOffset: Point { controller.shownStackOffset }
    func enterStack(from start: Point) { controller.enterStack(from: start) }
    var onLeaving: (() -> Void)? { get { controller.onLeaving } set { controller.onLeaving = newValue } }
    var onResized: (() -> Void)? { get { controller.onResized } set { controller.onResized = newValue } }
    var isVisible: Bool { controller.isVisible }
    var framesDrawn: Int { controller.framesDrawn }
    var refreshRate: Double { 60 }
    var smooth: Bool { get { controller.smooth } set { controller.smooth = newValue } }
    var onButton: (() -> Void)? { get { controller.onButton } set { controller.onButton = newValue } }
    var onExtraButton: ((Int) -> Void)? { get { controller.onExtraButton } set { controller.onExtraButton = newValue } }
    var onEscape: (() -> Void)? { get { controller.onEscape } set { controller.onEscape = newValue } }
    var onClick: (() -> Void)? { get { controller.onClick } set { controller.onClick = newValue } }
    var onHidden: (() -> Void)? { get { controller.onHidden } set { controller.onHidden = newValue } }
    var onChange: (() -> Void)? { get { controller.onChange } set { controller.onChange = newValue } }
    var onParentGone: (() -> Void)?
    func show(animated: Bool) { controller.show(animated: animated) }
    func hide(animated: Bool, afterDelay delay: Double, completion: (() -> Void)?) {
        controller.hide(animated: animated, afterDelay: delay, completion: completion)
    }
    func dismiss(animated: Bool, completion: (() -> Void)?) { controller.dismiss(animated: animated, completion: completion) }
    func update(_ change: (inout HUDConfiguration) -> Void) { controller.update(change) }
    func dispose() {
        disposed = true
        loop.huds.removeAll { $0 === self }
        controller.dispose()
    }
}

/// A window that is only mapped or not.
final class NullOutput: HUDOutput {
    var rect: Rect
    var isMapped = false
    var composited: Bool { true }
    var blursBehind: Bool { true }
    init(rect: Rect) { self.rect = rect }
    func move(to rect: Rect, blocker region: Rect) { self.rect = rect }
    func prepareToMap() {}
    func map() { isMapped = true }
    func unmap() { isMapped = false }
    func drawContent(_ draw: (OpaquePointer) -> Void) {}
    func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void) {}
    func present(_ composition: Composition) {}
    func setShape(bezel: Rect, zoom: Double, spans: () -> [Rect]) {}
    func setLook(blur: Double, shadow: Bool) {}
    func grabEscape(_ on: Bool) {}
    func setClickThrough(_ on: Bool) {}
    func setTitle(_ title: String) {}
}

/// The display the server's tests run it on.
final class FakeDisplay: ServerDisplay {
    let manualLoop = ManualLoop()
    var loop: any HUDEventLoop { manualLoop }
    var dpi: Double? { nil }
    private(set) var made: [FakeHUD] = []
    func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> FakeHUD {
        let h = try FakeHUD(loop: manualLoop, configuration: configuration, parent: parent, scale: scale ?? 1)
        made.append(h)
        return h
    }
    func rootString(_ name: String) -> String? { nil }
}
