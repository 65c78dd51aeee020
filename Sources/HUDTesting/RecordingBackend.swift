import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

/// A backend with no display, on a manual clock: it records what its `HUDController` asks of it
/// (windows, moves, frames), so that the engine's rules and the server's are tested without a
/// display (the real backends are tested on Xvfb and sway), as swift-nio's NIOEmbedded tests
/// channels without a network.
///
/// On a `ManualLoop` (the server's tests) the loop ticks its HUD; without one the test does
/// (`run`). As a real backend, it is held by its controller and holds it weakly.
package final class RecordingBackend: HUDBackend {
    package let manualClock: ManualClock
    package var clock: HUDClock { manualClock }
    package var framePeriod: Double
    /// Set: frames wait for the loop's ticks (a display link that runs); unset: a change draws at once.
    package var isTicking: Bool
    package var isComposited: Bool
    package var screenRect = Rect(x: 0, y: 0, width: 1280, height: 800)
    package var refreshRate = 60.0
    /// The parent it was made over (the server's tests).
    package let parent: ParentSpec
    /// Every window it made, first to last.
    package private(set) var outputs: [RecordingOutput] = []
    /// Set: Pango's text is laid out by it, and the news comes through `posted`.
    package var shaper: TextShaper?
    package let posted = PostedWork()
    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { shaper.map { ($0, posted) } }
    /// The loop that ticks it, nil: the test does.
    package let loop: ManualLoop?
    package private(set) weak var controller: HUDController?
    /// Its controller was disposed (or let go).
    package private(set) var disposed = false

    /// A backend on its own clock (the engine's tests), without a compositor.
    package init(
        clock: ManualClock = ManualClock(100), framePeriod: Double = 1.0 / 60, ticking: Bool = false,
        composited: Bool = false, parent: ParentSpec = .default
    ) {
        manualClock = clock
        self.framePeriod = framePeriod
        isTicking = ticking
        isComposited = composited
        self.parent = parent
        loop = nil
    }

    /// A backend on `loop`, which ticks it every frame, under a compositor (the server's tests).
    package init(loop: ManualLoop, parent: ParentSpec = .default) {
        manualClock = loop.clock
        framePeriod = loop.framePeriod
        isTicking = true
        isComposited = true
        self.parent = parent
        self.loop = loop
    }

    package func attach(_ controller: HUDController) {
        self.controller = controller
        loop?.add(self)
    }

    package func detach() {
        disposed = true
        loop?.remove(self)
    }

    package func updateTicks() {}

    package func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput {
        let o = RecordingOutput(rect: rect, clickThrough: clickThrough, blocksInput: blockInputOver != nil, composited: isComposited)
        outputs.append(o)
        return o
    }

    /// Whether it is on screen: its last window mapped.
    package var isMapped: Bool { outputs.last?.isMapped ?? false }
    /// The user pressed Escape (the controller hands it on when the HUD blocks input).
    package func pressEscape() { controller?.escapePressed() }
    /// The window it covers went away.
    package func parentWentAway() { controller?.parentGone() }

    /// Advances the clock a frame at a time, `seconds` long; each frame ticks the controller and
    /// brings its lifecycle up to date, as a real loop's pass does.
    package func run(_ controller: HUDController, seconds: Double) {
        var t = 0.0
        while t < seconds {
            manualClock.advance(by: framePeriod)
            t += framePeriod
            controller.tick()
            controller.afterStateChange()
        }
    }
}

/// A window that records what it was asked to do.
package final class RecordingOutput: HUDOutput {
    package var rect: Rect
    package var isMapped = false
    package var composited: Bool
    package var blursBehind = true
    package let blocksInput: Bool
    /// Every state the window's input shape was in, first to last.
    package private(set) var clickThroughHistory: [Bool]
    package private(set) var moves: [Rect] = []
    package private(set) var presented: [Composition] = []
    package private(set) var contentDraws = 0
    package private(set) var escapeGrabbed = false
    package private(set) var titles: [String] = []

    package init(rect: Rect, clickThrough: Bool, blocksInput: Bool, composited: Bool = false) {
        self.rect = rect
        self.blocksInput = blocksInput
        self.composited = composited
        clickThroughHistory = [clickThrough]
    }

    package var clickThrough: Bool { clickThroughHistory.last! }

    /// "move", "draw" and "present", in the order they were asked for.
    package private(set) var events: [String] = []
    package func move(to rect: Rect, blocker region: Rect) {
        moves.append(rect)
        self.rect = rect
        events.append("move")
        if let p = path { movesOutsidePath += p.contains(rect) ? 0 : 1 }
    }
    /// The path the window was last told it moves in, the paths told, and moves outside the path.
    package private(set) var path: Rect?
    package private(set) var paths: [Rect?] = []
    package private(set) var movesOutsidePath = 0
    package func willMove(within path: Rect?) { self.path = path; paths.append(path) }
    package func prepareToMap() {}
    package func map() { isMapped = true }
    package func unmap() { isMapped = false }
    package func drawContent(_ draw: (OpaquePointer) -> Void) { contentDraws += 1; events.append("draw") }
    package func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void) {}
    package func present(_ composition: Composition) { presented.append(composition); events.append("present") }
    package func setShape(bezel: Rect, zoom: Double, spans: () -> [Rect]) {}
    package func setLook(blur: Double, shadow: Bool) {}
    package func grabEscape(_ on: Bool) { escapeGrabbed = on }
    package func setClickThrough(_ on: Bool) { if on != clickThrough { clickThroughHistory.append(on) } }
    package func setTitle(_ title: String) { titles.append(title) }
}

extension HUDController {
    /// The recording backend of a HUD made on one.
    package var recording: RecordingBackend { backend as! RecordingBackend }
}
