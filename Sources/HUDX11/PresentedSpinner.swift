#if canImport(Glibc)
import Glibc
#endif
import CX11
import CPresent
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

/// A spinner turned by the X server alone. While nothing but the spinner moves, its frames are
/// queued with the Present extension, one per refresh, each at the MSC (the display's frame
/// counter) it belongs to: the X server copies a frame of its own each vblank and nothing of
/// ours wakes but twice a second to queue the next turn. The frames are the spinner's square as
/// the canvas composed it on its way round (exactly the pixels a frame of ours would show),
/// kept as pixmaps on the server; a turn that left some out (a late tick) is completed by
/// composing the missing ones. They go into a child window over the square, so that anything
/// else (a new label, a fade, a move, a hide) first destroys the child, and with it every
/// frame still queued: nothing stale can show. Not under a blurring compositor (it re-blurs
/// what a square's damage covers, see `HUDController.drawFrame`), and only where the display
/// has Present. Owned by its output, on the loop's thread.
final class PresentedSpinner {
    let display: X11Display
    /// Where the frames go, and what is kept of them (window pixels, one turn's frames by step).
    private var parent: Window = 0
    private var square = Rect(x: 0, y: 0, width: 0, height: 0)
    private var steps = 0
    private var style: SpinnerStyle = .ring
    private var tiles: [Int: Pixmap] = [:]
    /// The frames a turn shows (every step for the ring, twelve for the spokes), each with a
    /// step that shows it.
    private var needed: [Int: Int] = [:]
    /// What the frames were composed from: a canvas and its state.
    private var source: (canvas: ObjectIdentifier, generation: Int)?
    private var steadyFrames = 0
    /// An MSC and when it is on screen, on our clock: where the queue's steps fall.
    private var sync: (msc: UInt64, at: Double)?
    private var syncAsked = false
    private var eventID: XID = 0
    private var child: Window = 0
    private var refill: Int?
    /// Queues timers on the loop (a refill of the queue every half turn).
    weak var loop: HUDLoop?

    init(display: X11Display) { self.display = display }

    deinit {
        stop()
        dropTiles()
    }

    /// Whether the X server turns the spinner now (nothing of ours ticks for it).
    var isRunning: Bool { child != 0 }

    /// A frame in which only the spinner moved was composed on `canvas` (its square `area`,
    /// window pixels, in the back pixmap): kept as its step's frame; once a whole turn is kept
    /// and the display's MSC is known, the turn is handed to the X server. Returns whether it was.
    func steadyFrame(
        _ spin: Composition.SteadySpin, area: Rect, canvas: ServerCanvas, window: OverlayWindow,
        draw: (Double) -> Void
    ) -> Bool {
        guard display.presentOpcode != nil, spin.steps >= 12, spin.steps <= 150, window.isMapped else { return false }
        let key = (ObjectIdentifier(canvas), canvas.generation)
        if source.map({ $0.canvas != key.0 || $0.generation != key.1 }) ?? true || area != square || spin.steps != steps
            || spin.style != style || parent != window.window
        {
            stop()
            dropTiles()
            source = key
            square = area
            steps = spin.steps
            style = spin.style
            parent = window.window
            steadyFrames = 0
            needed = [:]
            for step in 0..<steps where needed[tileIndex(step: step)] == nil { needed[tileIndex(step: step)] = step }
        }
        askForSync()
        let tile = tileIndex(step: spin.step)
        if tiles[tile] == nil { tiles[tile] = canvas.copyBack(area) }
        steadyFrames += 1
        // A whole turn kept, or a turn gone by with steps never shown (a late tick): those are
        // composed now.
        guard let sync, steadyFrames >= 2, tiles.count == needed.count || steadyFrames > steps else { return false }
        let missing = needed.filter { tiles[$0.key] == nil }
        if !missing.isEmpty {
            for (tile, step) in missing {
                draw(Double(step) / Double(steps))
                tiles[tile] = canvas.copyBack(area)
            }
            draw(Double(spin.step) / Double(steps))  // the back pixmap holds this frame again
        }
        start(window: window, sync: sync)
        return true
    }

    /// The step a time falls on, and the frame (tile) that step shows: the spokes' twelve
    /// positions take several steps each.
    private func tileIndex(step: Int) -> Int {
        let angle = SpinnerSprites.angle(style: style, time: Double(step) / Double(steps))
        return Int((angle / (2 * Double.pi) * Double(steps)).rounded()) % steps
    }

    private func askForSync() {
        guard !syncAsked, let op = display.presentOpcode, parent != 0 else { return }
        syncAsked = true
        if eventID == 0 { eventID = xhud_alloc_id(display.handle) }
        xhud_present_select_input(display.handle, op, eventID, parent, UInt32(XHUD_PRESENT_COMPLETE_MASK))
        xhud_present_notify_msc(display.handle, op, parent, 0, 0, 0, 0)
    }

    /// The display's MSC now (a PresentNotifyMSC's answer). The X server's time is ours on a
    /// local display (both CLOCK_MONOTONIC); from a remote one, the moment it arrived is used.
    func completed(_ c: XHUDPresentComplete) {
        guard c.window == parent else { return }
        syncAsked = false
        let now = MonotonicTime.seconds()
        let ust = Double(c.ust) / 1e6
        let at = abs(ust - now) < 0.25 ? ust : now
        if let old = sync, isRunning {
            // Queued frames fall where the old sync put them; only a drift of more than a frame
            // (a refresh rate that is not quite the steps a second) queues the turn again.
            let predicted = Double(old.msc) + (at - old.at) * Double(steps)
            guard abs(predicted - Double(c.msc)) >= 1.5 else { return }
            sync = (c.msc, at)
            queueTurn()
        } else {
            sync = (c.msc, at)
        }
    }

    private func start(window: OverlayWindow, sync: (msc: UInt64, at: Double)) {
        guard child == 0 else { return }
        let d = display.handle
        var attrs = XSetWindowAttributes()
        attrs.colormap = window.colormap
        attrs.border_pixel = 0
        attrs.background_pixmap = 0  // None: until its first frame the parent's pixels stay
        child = XCreateWindow(
            d, window.window, Int32(square.x), Int32(square.y), UInt32(square.width), UInt32(square.height), 0,
            window.depth, UInt32(InputOutput), window.visual,
            UInt(CWColormap | CWBorderPixel | CWBackPixmap), &attrs)
        XMapWindow(d, child)
        queueTurn()
    }

    /// Every step of the next turn, each at the next MSC that falls on it (target 0, divisor
    /// `steps`). Queued again every half turn, so the queue never runs dry: then only the steps
    /// shown since (their MSC gone by, as the sync predicts it) go again, a turn later; a step
    /// still queued stays as it is (queued again, the X server would replace it with itself:
    /// twice the presents for the same frames). `all` after a new sync.
    private func queueTurn(all: Bool = true) {
        guard child != 0, let op = display.presentOpcode, let sync else { return }
        let n = UInt64(steps), count = Int64(steps)
        // The step MSC m shows: the step of the time it is on screen.
        let base = Int64((sync.at * Double(steps)).rounded()) - Int64(sync.msc % n)
        let current = Int64(sync.msc) + Int64(((MonotonicTime.seconds() - sync.at) * Double(steps)).rounded(.down))
        var previous = tileIndex(step: Int(((base - 1) % count + count) % count))
        for step in 0..<steps {
            let tile = tileIndex(step: step)
            defer { previous = tile }
            guard tile != previous, let pixmap = tiles[tile] else { continue }
            if !all, let at = queuedFor[step], at > current { continue }
            let remainder = ((Int64(step) - base) % count + count) % count
            // Where the X server puts it: the first MSC after this one that falls on the step.
            queuedFor[step] = current + 1 + ((remainder - current - 1) % count + count) % count
            xhud_present_pixmap(display.handle, op, child, pixmap, 0, 0, 0, UInt32(XHUD_PRESENT_OPTION_COPY), 0, n, UInt64(remainder))
        }
        XFlush(display.handle)
        if let refill { loop?.cancelTimer(refill) }
        refill = loop?.addTimer(after: 0.5) { [weak self] in
            guard let self, self.child != 0 else { return }
            self.refill = nil
            self.queueTurn(all: false)
            self.askForSync()
        }
    }

    /// The MSC each step's frame was last queued for (as the sync predicts it).
    private var queuedFor: [Int: Int64] = [:]

    /// Back to frames of ours: the child goes, and every frame still queued with it.
    func stop() {
        if let refill { loop?.cancelTimer(refill); self.refill = nil }
        guard child != 0 else { return }
        XDestroyWindow(display.handle, child)
        child = 0
        queuedFor = [:]
    }

    private func dropTiles() {
        for p in tiles.values { XFreePixmap(display.handle, p) }
        tiles.removeAll()
        source = nil
    }
}
