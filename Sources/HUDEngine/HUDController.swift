import CCairo
import HUDCore
import HUDRender

/// One HUD's orchestration, on no particular display: its lifecycle (grace, min show, delayed
/// hide, animations), layout and relayout, progress, the stacking shift, and when and what to
/// draw. A `HUDBackend` gives it a window (`HUDOutput`) and tells it what the user did.
///
/// It is the HUD: the server and the library hold it and call it. It holds its backend (made
/// for it, attached to the backend's loop until `dispose`), and its window; the backend holds
/// it weakly. Runs on its loop's thread, which owns it; nothing here is thread-safe by itself.
package final class HUDController {
    package let backend: any HUDBackend
    package let lifecycle: HUDLifecycle
    package private(set) var configuration: HUDConfiguration
    /// The parent region, device pixels on the screen.
    package private(set) var region: Rect
    package let scale: Double

    package var onButton: (() -> Void)?
    /// One of `extraButtons` was clicked (its index there).
    package var onExtraButton: ((Int) -> Void)?
    package var onHidden: (() -> Void)?
    /// What it says or whether it is on screen changed: after `update` changed the
    /// configuration, once it appeared (its first frame mapped), once it was hidden (before
    /// `onHidden`). For observers (the server's accessibility objects), which only read.
    package var onChange: (() -> Void)?
    /// Its hide started, or a show interrupted one (see `StackableHUD.isLeaving`).
    package var onLeaving: (() -> Void)?
    /// Its bezel changed size on its own (text laid out off the loop arrived): the registry
    /// stacks again.
    package var onResized: (() -> Void)?
    /// Escape pressed while the HUD blocks input (the key is grabbed only while it does).
    package var onEscape: (() -> Void)?
    /// The window it covers went away (a followed parent window, a Wayland output). Unset, an
    /// X11 HUD ends its loop (a process that shows one HUD ends with it).
    package var onParentGone: (() -> Void)?
    /// A click on the bezel outside the button; when set, the HUD is not click-through.
    package var onClick: (() -> Void)? { didSet { output?.setClickThrough(clickThrough) } }
    /// Polled on every display-link tick while shown (MBProgressHUD's NSProgress binding).
    package var progressSource: ProgressSource?
    package var showsProgressDescription = false
    /// New progress values ease in over 0.2 s (`--smooth`); off (the default, as MBProgressHUD
    /// and SVProgressHUD set it), the next frame shows them exactly.
    package var smooth = false

    private let renderer = HUDRenderer()
    /// Its backend's clock, which every deadline and animation runs on.
    package var clock: HUDClock { backend.clock }
    package private(set) var output: HUDOutput?
    private var layout: HUDLayout
    private var progress: Tween
    private var bezelTween: RectTween?
    /// The layout a growing bezel started from (`HUDFrame.growth`).
    private var grownFrom: HUDLayout?
    /// The button a press went down on (an index into the layout's buttons), until release.
    private var pressedButton: Int?
    /// Something other than time changed: the content is drawn again (and what changed sent).
    private var dirty = true { didSet { if dirty { contentStale = true } } }
    /// The content must be drawn again, not only composed where the window now is: false after
    /// a move of the whole HUD (`needsFrameOnly`), which twenty HUDs arriving at once make
    /// hundreds of times.
    private var contentStale = true
    package private(set) var framesDrawn = 0
    private var lastFrame = -Double.infinity
    /// Alpha and zoom of the frame on screen: only a frame that keeps them may compose the
    /// spinner's square alone.
    private var lastPresentation: Presentation?
    private var lastSpinnerAngle: Double?
    /// The title the output has (set with the content, when it changes).
    private var lastTitle: String?
    /// Batches of text being laid out off the loop (`HUDBackend.textShaping`). Meanwhile the HUD
    /// keeps the layout and the frame it has (none, before its first), and draws nothing.
    private var textAwaited = 0
    /// It appeared while its text was being laid out: its first frame maps once it is.
    private var mapsWhenTextArrives = false
    /// Its region moved while its text was being laid out: the layout that follows goes there
    /// at once, as a region's move does.
    private var regionMovedWhileAwaiting = false

    /// The bezel's size now (logical pixels), to stack HUDs.
    package var bezelSize: Size { Size(width: layout.bezel.width, height: layout.bezel.height) }
    package var isVisible: Bool { lifecycle.isVisible }
    /// Shift of the bezel (logical pixels) that stacks several HUDs in one region.
    package var stackOffset: Point = .zero {
        // Applied at the next frame (or show): HUDs arriving faster than frames move each HUD
        // already up once a frame, not once an arrival. A HUD on screen slides there (0.25 s,
        // the bezel's own curve) from where it is, never jumps.
        didSet {
            guard stackOffset != oldValue else { return }
            // A HUD on screen slides, fading in or not (one that jumped while it faded in moved
            // a burst's whole column 54 px in a frame); one not yet shown goes to its place.
            if let output, output.isMapped, lifecycle.isVisible, lifecycle.phase != .hiding, configuration.animation != .none {
                slide = RectTween(from: Rect(x: shownStackOffset.x, y: shownStackOffset.y, width: 0, height: 0),
                                  to: Rect(x: stackOffset.x, y: stackOffset.y, width: 0, height: 0), start: clock.now)
                slidePath(output)
            } else {
                slide = nil
                shownStackOffset = stackOffset
            }
            stackMoved = true
            needsFrameOnly()
        }
    }
    /// A HUD not yet on screen joins its stack at `start` and slides to `stackOffset` with
    /// the HUDs already there, which make room for it: set right after `stackOffset`, it comes
    /// in beside its neighbour where that one is now, never over it (a new window at its final
    /// place covered the bottom of the HUD still to move away).
    package func enterStack(from start: Point) {
        guard output?.isMapped != true, configuration.animation != .none, start != stackOffset else { return }
        shownStackOffset = start
        slide = RectTween(from: Rect(x: start.x, y: start.y, width: 0, height: 0),
                          to: Rect(x: stackOffset.x, y: stackOffset.y, width: 0, height: 0), start: clock.now)
        stackMoved = true
    }

    /// Without a compositor what lies beneath a slide's whole path is taken once, before it.
    private func slidePath(_ output: HUDOutput) {
        // The window goes as far as the bezel, in device pixels.
        let window = pendingMove ?? output.rect
        let end = window.offsetBy(dx: ((stackOffset.x - shownStackOffset.x) * scale).rounded(),
                                  dy: ((stackOffset.y - shownStackOffset.y) * scale).rounded())
        output.willMove(within: window.union(end))
    }

    /// Where the stack has the bezel now: `stackOffset`, or on the way there.
    package private(set) var shownStackOffset: Point = .zero
    private var slide: RectTween?
    /// The region's size in logical pixels, where a stack must fit.
    package var stackArea: Size { Size(width: region.width / scale, height: region.height / scale) }

    package init(backend: HUDBackend, configuration: HUDConfiguration, region: Rect, scale: Double) throws {
        self.backend = backend
        let configuration = configuration.clamped
        self.configuration = configuration
        self.region = region
        self.scale = Limits.scale.clamp(scale)
        lifecycle = HUDLifecycle(clock: backend.clock)
        lifecycle.graceTime = configuration.graceTime
        lifecycle.minShowTime = configuration.minShowTime
        lifecycle.animation = configuration.animation
        lifecycle.showDuration = configuration.showDuration
        lifecycle.hideDuration = configuration.hideDuration
        progress = Tween(configuration.progress, duration: configuration.mode.showsProgress ? 0.2 : 0)
        layout = .empty   // relayout() below lays it out in its region
        renderer.text.shaper = backend.textShaping?.shaper
        if let path = configuration.image, configuration.mode == .custom, let error = renderer.validateImage(path) {
            throw HUDError.badImage(error)
        }
        relayout()
        lifecycle.onAppear = { [unowned self] in self.appear() }
        lifecycle.onWasHidden = { [unowned self] in self.disappear() }
        lifecycle.onLeavingChanged = { [unowned self] in self.onLeaving?() }
        backend.attach(self)
    }

    /// Destroys the window and takes the HUD off its loop (a server drops a HUD once hidden).
    package func dispose() {
        output?.grabEscape(false)
        output = nil
        backend.detach()
    }

    /// A HUD let go without `dispose` leaves its loop all the same.
    deinit { backend.detach() }

    // MARK: Calls

    package func show(animated: Bool = true) { lifecycle.show(animated: animated); afterStateChange() }
    package func hide(animated: Bool = true, afterDelay delay: Double = 0, completion: (() -> Void)? = nil) {
        // What was set last is seen before the HUD goes: a bar fed 100 just before its input
        // ends shows full (its easing done, then two frames at full alpha), not 98 % fading.
        let now = clock.now
        var settle = 0.0
        if lifecycle.isVisible && configuration.mode.showsProgress {
            if progress.isMoving(at: now) { settle = progress.start + progress.duration - now }
            if dirty || progress.isMoving(at: now) || now - lastFrame < backend.framePeriod { settle += 2 * backend.framePeriod }
        }
        let wait = max(delay, settle)
        if wait > 0 { lifecycle.hide(animated: animated, afterDelay: wait, completion: completion) }
        else { lifecycle.hide(animated: animated, completion: completion) }
        afterStateChange()
    }

    /// Hides now, without waiting out min show time or a delayed hide (signals, Escape).
    package func dismiss(animated: Bool = true, completion: (() -> Void)? = nil) {
        lifecycle.dismiss(animated: animated, completion: completion)
        afterStateChange()
    }

    /// Changes what the HUD shows while it is up (label, mode, progress, ...).
    package func update(_ change: (inout HUDConfiguration) -> Void) {
        var c = configuration
        change(&c)
        c = c.clamped
        guard c != configuration || renderer.hasNewerImages(c) else { return }
        let old = configuration
        configuration = c
        // As MBProgressHUD: timing changes apply to the next show and hide.
        lifecycle.graceTime = c.graceTime
        lifecycle.minShowTime = c.minShowTime
        lifecycle.animation = c.animation
        lifecycle.showDuration = c.showDuration
        lifecycle.hideDuration = c.hideDuration
        progress.duration = c.mode.showsProgress ? 0.2 : 0
        progress.set(c.progress, at: clock.now, animated: smooth && old.mode == c.mode && c.mode.showsProgress)
        if c.withoutProgress != old.withoutProgress { relayout() }
        // A button added to a click-through HUD takes clicks from now on.
        output?.setClickThrough(clickThrough)
        dirty = true
        afterStateChange()
        onChange?()
    }

    // MARK: What the user and the display did

    /// A pointer button went down at `p` (output pixels).
    package func pointerPressed(at p: Point) {
        if let i = button(at: p) { pressedButton = i; dirty = true; drawFrame() }
    }

    /// A pointer button came up at `p` (output pixels); `primary` for button 1.
    package func pointerReleased(at p: Point, primary: Bool) {
        if let i = pressedButton {
            pressedButton = nil
            dirty = true
            drawFrame()
            // A press and its release on the same button click it (iOS's touch-up-inside).
            if button(at: p) == i { buttonClicked(i) }
        } else if primary, lifecycle.isVisible, let onClick {
            clickedLink = link(at: p)
            onClick()
        }
    }

    package func escapePressed() { onEscape?() }

    /// The backend saw the window it covers go away.
    package func parentGone() { onParentGone?() }

    /// The parent region moved or changed size (a followed window).
    package func regionMoved(to r: Rect) {
        guard r != region else { return }
        region = r
        relayout(regionMoved: true)
        dirty = true
        drawFrame()
    }

    /// What lies under the bezel changed unseen (no compositor: its copy of the screen is out
    /// of date): the fill rises to opaque, on the show's curve, rather than show what is gone,
    /// and a hide is not faded.
    package func beneathChanged() {
        guard beneathChangedAt == nil else { return }
        beneathChangedAt = clock.now
        dirty = true
        afterStateChange()
    }
    private var beneathChangedAt: Double?
    private static let risesFor = 0.3

    /// A compositor started or stopped, or the wallpaper changed: the content is drawn again.
    package func displayChanged() {
        dirty = true
        if lifecycle.isVisible { drawFrame() }
    }

    /// Takes the window down at once (the process is ending).
    package func unmapForExit() { output?.grabEscape(false); output?.unmap() }

    // MARK: Frames

    /// Whether anything on screen moves by itself now.
    package var moving: Bool {
        guard lifecycle.isVisible else { return false }
        let now = clock.now
        let spins = configuration.mode.isAnimated && output?.spinsByItself != true
        return lifecycle.isAnimating || spins || progress.isMoving(at: now) || progressSource != nil
            || bezelTween?.isMoving(at: now) == true || slide != nil
            || beneathChangedAt.map { now - $0 < Self.risesFor } == true
    }

    /// Whether the display link must tick for this HUD.
    package var wantsTicks: Bool { lifecycle.isVisible && (moving || dirty) && textAwaited == 0 }

    /// At most one frame per refresh: while the display link runs, frames are drawn on its ticks
    /// only; when it is idle, a change draws at once (a key press shows without waiting for a tick).
    package func afterStateChange() {
        lifecycle.update()
        // A fade over a copy of the screen that is out of date would dissolve into what is
        // gone (a terminal's old lines, the old wallpaper): the HUD goes at once instead.
        if lifecycle.phase == .hiding, beneathChangedAt != nil, output?.composited == false { lifecycle.finishAnimations() }
        if dirty && lifecycle.isVisible && !backend.isTicking && clock.now - lastFrame >= backend.framePeriod { drawFrame() }
        backend.updateTicks()
    }

    /// A display-link tick.
    package func tick() {
        // Another HUD's tick may wake the loop too: never two frames of one HUD in a refresh.
        guard lifecycle.isVisible, clock.now - lastFrame >= backend.framePeriod * 0.5 else { return }
        fitWindowAfterResize()
        if let source = progressSource {
            let s = source.snapshot()
            if s.fraction != configuration.progress || (showsProgressDescription && s.description != nil && s.description! != configuration.details) {
                update { c in
                    c.progress = s.fraction
                    if showsProgressDescription, let d = s.description { c.details = d }
                }
            }
        }
        if dirty || moving { drawFrame() }
    }

    /// Lays the HUD out again. A changed bezel animates to its new size; the window grows to
    /// hold every step and fits the bezel again once it stops.
    /// A frame is due, but what it shows is drawn already (relayout decides otherwise).
    private func needsFrameOnly() {
        let stale = contentStale
        dirty = true
        contentStale = stale
    }

    private func relayout(regionMoved: Bool = false) {
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
           moved.x - window.x == dx * scale, moved.y - window.y == dy * scale, layout == old.translated(dx: dx, dy: dy) {
            needsFrameOnly()
        } else {
            dirty = true
        }
    }

    /// Has the text laid out off the loop; the HUD lays out again when it is.
    private func awaitText(_ requests: [TextRequest]) {
        guard let (shaper, loop) = backend.textShaping else { return }
        textAwaited += 1
        let inbox = LoopInbox(loop, owner: self)
        shaper.shape(requests) { inbox.post { $0.textArrived() } }
    }

    private func textArrived() {
        textAwaited -= 1
        guard textAwaited == 0 else { return }
        let size = bezelSize
        let moved = regionMovedWhileAwaiting
        regionMovedWhileAwaiting = false
        relayout(regionMoved: moved)
        guard textAwaited == 0 else { return }   // the new sizes asked for more (details below a label)
        if bezelSize != size { onResized?() }
        if mapsWhenTextArrives {
            mapsWhenTextArrives = false
            if lifecycle.isVisible { mapFirstFrame() }
        } else {
            afterStateChange()
        }
    }

    /// Where the window goes at the next frame. A mapped window moves or changes size in the
    /// same flush as the frame drawn for its new place: never a refresh showing the old
    /// content (or the old place's background) at the new place, or a grown window's new
    /// part empty.
    private var pendingMove: Rect?

    private func moveWindow(to r: Rect) {
        guard let output else { return }
        if output.isMapped { pendingMove = r } else { pendingMove = nil; output.move(to: r, blocker: region) }
    }

    /// Whether the window moved: the next frame composes all of it, since without a compositor
    /// every pixel blends over what lies beneath its new place.
    private var windowMoved = false

    private func applyPendingMove() {
        guard let r = pendingMove, let output else { return }
        pendingMove = nil
        if r != output.rect { output.move(to: r, blocker: region); windowMoved = true }
    }

    /// Once the bezel has stopped moving, the window (grown to hold every step of the move)
    /// fits it again, so that stacked HUDs' windows do not overlap.
    private func fitWindowAfterResize() {
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
    private func windowRect(for bezel: Rect? = nil) -> Rect {
        let m = configuration.effectiveMask
        if m.paintsBackground {
            // The mask is drawn where it can be seen: a window partly off the screen needs no
            // pixels for that part.
            let r = region.intersection(backend.screenRect)
            return (r.isEmpty ? Rect(x: region.x, y: region.y, width: 1, height: 1) : r).integral
        }
        var f = HUDFrame(configuration: configuration, layout: layout)
        f.configuration.shadow = false   // the window is the bezel's shape (see contentFrame)
        f.bezelOverride = bezel
        f.presentation.scale = max(1, maxZoom)
        let e = f.bezelExtent.insetBy(dx: -2, dy: -2)
        return Rect(x: region.x + e.x * scale, y: region.y + e.y * scale, width: e.width * scale, height: e.height * scale).integral
    }

    private var maxZoom: Double {
        switch configuration.animation {
        case .zoomIn, .zoomOut: return 1.5
        case .pop: return 1.3
        default: return 1
        }
    }

    /// The frame's content at rest (alpha 1, no zoom) for the moment it reaches the screen.
    private func contentFrame(at shownAt: Double, in output: HUDOutput) -> HUDFrame {
        var c = configuration
        // The window is clipped to the rounded bezel (a shadowing compositor shadows that, and
        // without a compositor there is nothing true to shadow onto); only a mask that paints
        // the region, under a compositor, leaves room for a shadow of our own.
        if !(output.composited && c.effectiveMask.paintsBackground) { c.shadow = false }
        // One material: blurred (here without a compositor, or by the compositor) the
        // material's fill; where nothing blurs, the flat bezel's, a little denser.
        c.bezelColor = output.blursBehind ? c.materialBezelColor : c.unblurredBezelColor
        if !output.composited, let since = beneathChangedAt, var fill = c.bezelColor {
            let k = AnimationCurve.criticallyDamped.value(min(1, max(0, shownAt - since) / Self.risesFor))
            fill.a += (HUDConfiguration.opaqueFill - fill.a) * k
            c.bezelColor = fill
        }
        var f = HUDFrame(configuration: c, layout: layout)
        f.time = shownAt
        f.progress = progress.value(at: shownAt)
        if let t = bezelTween {
            if t.isMoving(at: shownAt) {
                f.bezelOverride = t.value(at: shownAt)
                if t.grows, let from = grownFrom { f.growth = (from, t.fraction(at: shownAt)) }
            } else {
                bezelTween = nil
            }
        }
        f.pressedButton = pressedButton
        f.scale = scale
        f.origin = Point(x: (output.rect.x - region.x) / scale, y: (output.rect.y - region.y) / scale)
        f.drawsMask = configuration.effectiveMask.paintsBackground
        f.leavesOutSpinner = true
        return f
    }

    /// One frame. The content is drawn on this side only when it changed (and the backend sends
    /// only what changed); the spinner's turn, a fade and a zoom are composed by the backend.
    private func drawFrame() {
        guard textAwaited == 0 else { return }
        applyStackMove()
        guard let output, output.isMapped || lifecycle.isVisible else { return }
        applyPendingMove()
        if slideArrived { slideArrived = false; output.willMove(within: nil) }
        let now = clock.now
        // Drawn for the moment it reaches the screen, one refresh ahead (CVDisplayLink's output
        // time): the frame drawn as a fade-in maps is already visible.
        let shownAt = now + backend.framePeriod
        let presentation = lifecycle.presentation(at: shownAt)
        let f = contentFrame(at: shownAt, in: output)
        let rising = beneathChangedAt.map { now - $0 < Self.risesFor + backend.framePeriod } ?? false
        let contentChanged = contentStale || progress.isMoving(at: now) || f.bezelOverride != nil || rising
        if contentChanged {
            let title = configuration.spokenText
            if title != lastTitle { lastTitle = title; output.setTitle(title) }
            output.setLook(blur: blurRadius * scale, shadow: configuration.shadow)
            output.drawContent { renderer.render(f, replacing: $0) }
        }
        dirty = false
        contentStale = false

        let bezel = f.bezelOverride ?? layout.bezel
        var composition = Composition(alpha: presentation.alpha, zoom: presentation.scale,
                                      zoomCentre: Point(x: (bezel.midX - f.origin.x) * scale, y: (bezel.midY - f.origin.y) * scale))
        if configuration.mode == .indeterminate, let r = layout.indicator {
            let side = min(r.width, r.height)
            let ink = configuration.effectiveContentColor, style = configuration.spinner
            let thickness = configuration.ringThickness
            output.setSprite(key: SpriteKey(side: SpinnerSprites.pixelSide(side, scale: scale), style: style, thickness: thickness, color: ink)) { cr in
                cairo_set_source_surface(cr, renderer.sprites.sprite(style: style, side: side, thickness: thickness, scale: scale, color: ink), 0, 0)
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_paint(cr)
            }
            // Where the frame draws the indicator: on its way from the old place while growing,
            // else following the bezel's centre while it resizes.
            var shift = f.bezelOverride.map { Point(x: $0.midX - layout.bezel.midX, y: $0.midY - layout.bezel.midY) } ?? .zero
            if let g = f.growth, let at = layout.growing(from: g.from, fraction: g.fraction).kept.indicator {
                shift = Point(x: at.midX - r.midX, y: at.midY - r.midY)
            }
            let centre = Point(x: (r.midX + shift.x - f.origin.x) * scale, y: (r.midY + shift.y - f.origin.y) * scale)
            // The turn in whole steps, one a refresh: at a steady pace every frame is one step
            // on, and a display that turns the spinner itself shows the same steps.
            let steps = max(1, Int((1 / backend.framePeriod).rounded()))
            let step = Int((shownAt * Double(steps)).rounded())
            let angle = SpinnerSprites.angle(style: style, time: Double(step % steps) / Double(steps))
            composition.spinner = (centre, angle)
            if !contentChanged, lastPresentation == presentation, !(windowMoved && !output.composited) {
                // The spokes step twelve times a second: a frame that would show the same step
                // is not composed at all; otherwise only the spinner's square is.
                if angle == lastSpinnerAngle { return }
                // Under a blurring compositor the whole bezel is composed again (a few requests
                // either way): it re-blurs only what was damaged, and a spinner's square alone
                // would show as a square of different blur.
                if !(output.composited && output.blursBehind) {
                    let half = (r.width / 2 + 2) * scale
                    composition.area = Rect(x: centre.x - half, y: centre.y - half, width: 2 * half, height: 2 * half).integral
                    if presentation.alpha >= 1, presentation.scale == 1, f.bezelOverride == nil {
                        composition.steadySpin = .init(style: style, step: step % steps, steps: steps)
                    }
                }
            }
            lastSpinnerAngle = angle
        }
        // The bezel's shape: what the window shows (a compositor then shadows and blurs the
        // rounded bezel, not a box), and where the blur goes.
        output.setShape(bezel: bezel.offsetBy(dx: -f.origin.x, dy: -f.origin.y), zoom: presentation.scale) {
            // A blurring mask blurs the whole region; the bezel lies on it.
            if case .blur = configuration.effectiveMask { return [Rect(x: 0, y: 0, width: output.rect.width, height: output.rect.height)] }
            return CoverageSpans.outline(of: contentFrame(at: shownAt, in: output), zoom: presentation.scale, renderer: renderer,
                                  width: Int(output.rect.width), height: Int(output.rect.height))
        }
        output.present(composition)
        windowMoved = false
        framesDrawn += 1
        lastFrame = now
        lastPresentation = presentation
    }

    private var stackMoved = false
    /// The slide ended: once the window has made its last step, it no longer moves in a path.
    private var slideArrived = false

    private func applyStackMove() {
        if let t = slide {
            let now = clock.now
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

    /// The button at `p` (output pixels), if any. A button takes a touch target's size (iOS's 44
    /// points at least, `buttonSlop` around a larger one), within the bezel: a click just off
    /// its outline is still the button's. Between two buttons of a row, the nearer one's.
    private func button(at p: Point) -> Int? {
        guard let output else { return nil }
        let q = Point(x: (output.rect.x - region.x + p.x) / scale, y: (output.rect.y - region.y + p.y) / scale)
        var best: (index: Int, distance: Double)?
        for (i, r) in layout.buttons.enumerated() {
            let dx = max(Self.buttonSlop, (44 - r.width) / 2), dy = max(Self.buttonSlop, (44 - r.height) / 2)
            guard r.insetBy(dx: -dx, dy: -dy).intersection(layout.bezel).contains(q) else { continue }
            let d = abs(q.x - r.midX) - r.width / 2
            if best == nil || d < best!.distance { best = (i, d) }
        }
        return best?.index
    }

    /// The link of the details under the last click that went to `onClick` (counted from 0 in
    /// the order of the text, `HUDConfiguration.linkMark`), nil off every link.
    package private(set) var clickedLink: Int?

    private func link(at p: Point) -> Int? {
        guard let r = layout.details, let request = layout.detailsRequest, request.markup, let output else { return nil }
        let q = Point(x: (output.rect.x - region.x + p.x) / scale, y: (output.rect.y - region.y + p.y) / scale)
        guard r.insetBy(dx: -2, dy: -2).contains(q) else { return nil }
        return renderer.text.markedSpan(at: q, of: request, in: r, marker: HUDConfiguration.linkMark)
    }

    /// The layout's button `i` was clicked: `button`'s, or one of `extraButtons`.
    private func buttonClicked(_ i: Int) {
        let first = configuration.button.isEmpty ? 0 : 1
        if i < first { onButton?() } else { onExtraButton?(i - first) }
    }

    static var buttonSlop: Double { 8 }

    /// The bezel's and the button's rectangles in the window's pixels (what a click hits).
    package var bezelInWindow: Rect { toWindow(layout.bezel) }
    package var buttonInWindow: Rect? { layout.button.map(toWindow) }
    package var buttonsInWindow: [Rect] { layout.buttons.map(toWindow) }
    private func toWindow(_ r: Rect) -> Rect {
        let dx = output.map { $0.rect.x - region.x } ?? 0, dy = output.map { $0.rect.y - region.y } ?? 0
        return Rect(x: r.x * scale - dx, y: r.y * scale - dy, width: r.width * scale, height: r.height * scale)
    }

    // MARK: Mapping

    private func appear() {
        applyStackMove()
        if output == nil {
            let m = configuration.effectiveMask
            output = backend.makeOutput(rect: windowRect(), blockInputOver: m.blocksInput ? region : nil,
                                        clickThrough: clickThrough,
                                        overScreen: m.paintsBackground)
            if slide != nil, let output { slidePath(output) }
            lastTitle = nil
            beneathChangedAt = nil
        } else if lifecycle.phase == .showing, output?.isMapped == false {
            output?.prepareToMap()
            beneathChangedAt = nil
        }
        if textAwaited > 0 { mapsWhenTextArrives = true } else { mapFirstFrame() }
    }

    private func mapFirstFrame() {
        // Draw before mapping too: with a compositor the first frame shown is already complete.
        dirty = true
        lastPresentation = nil
        drawFrame()
        output?.map()
        if onEscape != nil && configuration.effectiveMask.blocksInput { output?.grabEscape(true) }
        onChange?()
    }

    /// How far what shows through is blurred (logical pixels): the bezel's blur, and at least
    /// an iOS material's under a blurring mask.
    private var blurRadius: Double {
        if case .blur = configuration.effectiveMask { return max(configuration.blur, HUDMask.blurRadius) }
        return configuration.blur
    }

    /// Nothing of the HUD takes a click: no mask that blocks input, no button, no click handler.
    private var clickThrough: Bool {
        !configuration.effectiveMask.blocksInput && configuration.buttonTitles.isEmpty && onClick == nil
    }

    private func disappear() {
        mapsWhenTextArrives = false
        output?.grabEscape(false)
        output?.unmap()
        onChange?()
        onHidden?()
    }
}

package enum HUDError: Error, CustomStringConvertible {
    case badImage(String)
    package var description: String {
        switch self { case .badImage(let s): return s }
    }
}

extension HUDConfiguration {
    /// The configuration with progress left out: a new progress value needs no new layout.
    var withoutProgress: HUDConfiguration {
        var c = self
        c.progress = 0
        return c
    }
}
