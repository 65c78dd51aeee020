import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

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
    /// Set: Pango's text is laid out by it, and the news comes through `loop`.
    var shaper: TextShaper?
    let loop = PostedWork()
    var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { shaper.map { ($0, loop) } }

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
    func move(to rect: Rect, blocker region: Rect) {
        moves.append(rect)
        self.rect = rect
        events.append("move")
        if let p = path { movesOutsidePath += p.contains(rect) ? 0 : 1 }
    }
    /// The path the window was last told it moves in, the paths told, and moves outside the path.
    private(set) var path: Rect?
    private(set) var paths: [Rect?] = []
    private(set) var movesOutsidePath = 0
    func willMove(within path: Rect?) { self.path = path; paths.append(path) }
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

/// A loop that only takes work posted to it, run when the test says (`runPosted`).
final class PostedWork: HUDEventLoop {
    private let posted = Locked<[() -> Void]>([])
    func addReader(fd: Int32, _ handler: @escaping () -> Void) {}
    func removeReader(fd: Int32) {}
    func addWriter(fd: Int32, _ handler: @escaping () -> Void) {}
    func removeWriter(fd: Int32) {}
    func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> Int { 0 }
    func cancelTimer(_ id: Int) {}
    func post(_ work: @escaping () -> Void) { posted.withLock { $0.append(work) } }
    func stop(exitCode code: Int32) {}
    var ticks: Int { 0 }
    func releaseFreedMemory(filePagesAfter delay: Double) {}
    var isEmpty: Bool { posted.withLock { $0.isEmpty } }
    func runPosted() { for w in posted.withLock({ p in defer { p.removeAll() }; return p }) { w() } }
}
