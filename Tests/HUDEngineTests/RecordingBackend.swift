import HUDCore
import HUDEngine

/// A backend that records what a `HUDController` asks of it, on a manual clock: the engine's
/// rules are tested without a display (the real X11 backend is tested on Xvfb).
final class RecordingBackend: HUDBackend {
    let manualClock = ManualClock(100)
    var clock: HUDClock { manualClock }
    var framePeriod: Double = 1.0 / 60
    var isTicking = false
    var isComposited = false
    var screenRect = Rect(x: 0, y: 0, width: 1280, height: 800)
    private(set) var outputs: [RecordingOutput] = []

    func updateTicks() {}

    func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = RecordingOutput(rect: rect, clickThrough: clickThrough, blocksInput: blockInputOver != nil)
        outputs.append(o)
        return o
    }

    /// Advances the clock a frame at a time, `seconds` long; each frame ticks the controller and
    /// brings its lifecycle up to date, as the X11 loop's pass does.
    func run(_ controller: HUDController, seconds: Double) {
        var t = 0.0
        while t < seconds {
            manualClock.advance(by: framePeriod)
            t += framePeriod
            controller.tick()
            controller.afterStateChange()
        }
    }
}

final class RecordingOutput: HUDOutput {
    var rect: Rect
    var isMapped = false
    var composited = false
    var blursBehind = true
    let blocksInput: Bool
    /// Every state the window's input shape was in, first to last.
    private(set) var clickThroughHistory: [Bool]
    private(set) var moves: [Rect] = []
    private(set) var presented: [Composition] = []
    private(set) var contentDraws = 0
    private(set) var escapeGrabbed = false
    private(set) var titles: [String] = []

    init(rect: Rect, clickThrough: Bool, blocksInput: Bool) {
        self.rect = rect
        self.blocksInput = blocksInput
        clickThroughHistory = [clickThrough]
    }

    var clickThrough: Bool { clickThroughHistory.last! }

    /// "move", "draw" and "present", in the order they were asked for.
    private(set) var events: [String] = []
    func move(to rect: Rect, blocker region: Rect) { moves.append(rect); self.rect = rect; events.append("move") }
    func prepareToMap() {}
    func map() { isMapped = true }
    func unmap() { isMapped = false }
    func drawContent(_ draw: (OpaquePointer) -> Void) { contentDraws += 1; events.append("draw") }
    func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void) {}
    func present(_ composition: Composition) { presented.append(composition); events.append("present") }
    func setShape(bezel: Rect, zoom: Double, spans: () -> [Rect]) {}
    func setLook(blur: Double, shadow: Bool) {}
    func grabEscape(_ on: Bool) { escapeGrabbed = on }
    func setClickThrough(_ on: Bool) { if on != clickThrough { clickThroughHistory.append(on) } }
    func setTitle(_ title: String) { titles.append(title) }
}
