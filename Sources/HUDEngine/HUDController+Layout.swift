import HUDCore
import HUDRender

/// The layout: the bezel in its region, the stack's slide, text laid out off the loop, and the
/// window that holds the bezel (moved with the frame drawn for its new place).
extension HUDController {
    /// A HUD not yet on screen joins its stack at `start` and slides to `stackOffset` with
    /// the HUDs already there, which make room for it: set right after `stackOffset`, it comes
    /// in beside its neighbour where that one is now, never over it (a new window at its final
    /// place covered the bottom of the HUD still to move away).
    package func enterStack(from start: Point) {
        guard output?.isMapped != true, configuration.animation != .none, start != stackOffset else { return }
        shownStackOffset = start
        slide = RectTween(
            from: Rect(x: start.x, y: start.y, width: 0, height: 0),
            to: Rect(x: stackOffset.x, y: stackOffset.y, width: 0, height: 0), start: clock.now)
        stackMoved = true
    }

    /// Without a compositor what lies beneath a slide's whole path is taken once, before it.
    func slidePath(_ output: HUDOutput) {
        // The window goes as far as the bezel, in device pixels.
        let window = pendingMove ?? output.rect
        let end = window.offsetBy(
            dx: ((stackOffset.x - shownStackOffset.x) * scale).rounded(),
            dy: ((stackOffset.y - shownStackOffset.y) * scale).rounded())
        output.willMove(within: window.union(end))
    }

    /// A frame is due, but what it shows is drawn already (relayout decides otherwise).
    func needsFrameOnly() {
        let stale = contentStale
        dirty = true
        contentStale = stale
    }

    /// Lays the HUD out again. A changed bezel animates to its new size; the window grows to
    /// hold every step and fits the bezel again once it stops.
    func relayout(regionMoved: Bool = false) {
        let now = clock.now
        let old = layout
        let before = bezelTween?.value(at: now) ?? layout.bezel
        let size = Size(width: region.width / scale, height: region.height / scale)
        var c = configuration
        c.offset.x += shownStackOffset.x
        c.offset.y += shownStackOffset.y
        let laidOut = HUDLayout.compute(c, region: size, measurer: renderer.text).snapped(toScale: scale)
        let missing = renderer.text.takeMissing()
        if !missing.isEmpty {
            if regionMoved { regionMovedWhileAwaiting = true }
            return awaitText(missing)
        }
        layout = laidOut
        bezelTween = nil
        if !regionMoved, output?.isMapped == true, lifecycle.isVisible, before != layout.bezel, configuration.animation != .none {
            // A new size eases there from the size on screen, growing as shrinking, on the show's
            // curve; the content, laid out for the new size, follows the bezel's centre, clipped
            // to it (and fades in where it grows). A bezel that only moves (a stack making room)
            // goes there at once: a window as large as both places would need a new canvas twice
            // per move, and twenty HUDs arriving at once would move each other hundreds of times.
            let moves = before.width == layout.bezel.width && before.height == layout.bezel.height
            if !moves {
                bezelTween = RectTween(from: before, to: layout.bezel, start: now)
                grownFrom = old
            }
        }
        guard let output else { return }
        let window = pendingMove ?? output.rect
        var target = windowRect(for: layout.bezel)
        if let t = bezelTween { target = target.union(windowRect(for: t.from)) }
        var next = window
        if regionMoved || configuration.effectiveMask.paintsBackground || bezelTween == nil {
            // Nothing eases: the window is where the bezel is now (a window left at the union of
            // two places would cover a HUD stacked next to it).
            next = target
        } else if !window.contains(target) {
            next = window.union(target).integral
        }
        if next != window { moveWindow(to: next) }
        // Moved as a whole, window and all (by whole device pixels: the layout is snapped), the
        // window's content is what it was: the frame composes it at the new place, no more.
        let dx = layout.bezel.x - old.bezel.x, dy = layout.bezel.y - old.bezel.y
        let moved = pendingMove ?? output.rect
        if bezelTween == nil, moved.width == window.width, moved.height == window.height,
            moved.x - window.x == dx * scale, moved.y - window.y == dy * scale, layout == old.translated(dx: dx, dy: dy)
        {
            needsFrameOnly()
        } else {
            dirty = true
        }
    }

    /// Has the text laid out off the loop; the HUD lays out again when it is.
    func awaitText(_ requests: [TextRequest]) {
        guard let (shaper, loop) = backend.textShaping else { return }
        textAwaited += 1
        let inbox = LoopInbox(loop, owner: self)
        shaper.shape(requests) { inbox.post { $0.textArrived() } }
    }

    func textArrived() {
        textAwaited -= 1
        guard textAwaited == 0 else { return }
        let size = bezelSize
        let moved = regionMovedWhileAwaiting
        regionMovedWhileAwaiting = false
        relayout(regionMoved: moved)
        guard textAwaited == 0 else { return }  // the new sizes asked for more (details below a label)
        if bezelSize != size { onResized?() }
        if mapsWhenTextArrives {
            mapsWhenTextArrives = false
            if lifecycle.isVisible { mapFirstFrame() }
        } else {
            afterStateChange()
        }
    }

    func moveWindow(to r: Rect) {
        guard let output else { return }
        if output.isMapped { pendingMove = r } else { pendingMove = nil; output.move(to: r, blocker: region) }
    }

    func applyPendingMove() {
        guard let r = pendingMove, let output else { return }
        pendingMove = nil
        if r != output.rect { output.move(to: r, blocker: region); windowMoved = true }
    }

    /// Once the bezel has stopped moving, the window (grown to hold every step of the move)
    /// fits it again, so that stacked HUDs' windows do not overlap.
    func fitWindowAfterResize() {
        guard let t = bezelTween, !t.isMoving(at: clock.now + backend.framePeriod) else { return }
        bezelTween = nil
        guard let output, !configuration.effectiveMask.paintsBackground else { return }
        let target = windowRect(for: layout.bezel)
        let window = pendingMove ?? output.rect
        guard target != window, window.contains(target) else { return }
        moveWindow(to: target)
        dirty = true
    }

    /// The window covers the whole region when the mask paints it, else the bezel at its largest.
    func windowRect(for bezel: Rect? = nil) -> Rect {
        let m = configuration.effectiveMask
        if m.paintsBackground {
            // The mask is drawn where it can be seen: a window partly off the screen needs no
            // pixels for that part.
            let r = region.intersection(backend.screenRect)
            return (r.isEmpty ? Rect(x: region.x, y: region.y, width: 1, height: 1) : r).integral
        }
        var f = HUDFrame(configuration: configuration, layout: layout)
        f.configuration.shadow = false  // the window is the bezel's shape (see contentFrame)
        f.bezelOverride = bezel
        f.presentation.scale = max(1, maxZoom)
        let e = f.bezelExtent.insetBy(dx: -2, dy: -2)
        return Rect(x: region.x + e.x * scale, y: region.y + e.y * scale, width: e.width * scale, height: e.height * scale).integral
    }

    var maxZoom: Double {
        switch configuration.animation {
        case .zoomIn, .zoomOut: return 1.5
        case .pop: return 1.3
        default: return 1
        }
    }

    func applyStackMove() {
        if var t = slide {
            let now = clock.now
            // Its first frame late (a loaded machine, a capture of its path): it starts from
            // where it is, at most a frame along, rather than jump most of the way at once.
            if !slideUnderway {
                t.start = max(t.start, now - backend.framePeriod)
                slide = t
                slideUnderway = true
            }
            let at = t.value(at: now)
            shownStackOffset = Point(x: at.x, y: at.y)
            if !t.isMoving(at: now) { slide = nil; shownStackOffset = stackOffset; slideArrived = true }
            stackMoved = true
        }
        guard stackMoved else { return }
        stackMoved = false
        relayout()
        if slide != nil { needsFrameOnly() }
    }
}
