import CCairo
import HUDCore
import HUDRender

/// Frames: when one is due (ticks, changes of state), what it shows and how the backend composes
/// it, and the window mapped and unmapped with the lifecycle.
extension HUDController {
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

    /// The frame's content at rest (alpha 1, no zoom) for the moment it reaches the screen.
    func contentFrame(at shownAt: Double, in output: HUDOutput) -> HUDFrame {
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
    func drawFrame() {
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
        var composition = Composition(
            alpha: presentation.alpha, zoom: presentation.scale,
            zoomCentre: Point(x: (bezel.midX - f.origin.x) * scale, y: (bezel.midY - f.origin.y) * scale))
        if configuration.mode == .indeterminate, let r = layout.indicator {
            let side = min(r.width, r.height)
            let ink = configuration.effectiveContentColor, style = configuration.spinner
            let thickness = configuration.ringThickness
            output.setSprite(key: SpriteKey(side: SpinnerSprites.pixelSide(side, scale: scale), style: style, thickness: thickness, color: ink)) {
                cr in
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
            return CoverageSpans.outline(
                of: contentFrame(at: shownAt, in: output), zoom: presentation.scale, renderer: renderer,
                width: Int(output.rect.width), height: Int(output.rect.height))
        }
        output.present(composition)
        windowMoved = false
        framesDrawn += 1
        lastFrame = now
        lastPresentation = presentation
    }

    // MARK: Mapping

    func appear() {
        applyStackMove()
        if output == nil {
            let m = configuration.effectiveMask
            output = backend.makeOutput(
                rect: windowRect(), blockInputOver: m.blocksInput ? region : nil,
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

    func mapFirstFrame() {
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
    var blurRadius: Double {
        if case .blur = configuration.effectiveMask { return max(configuration.blur, HUDMask.blurRadius) }
        return configuration.blur
    }

    /// Nothing of the HUD takes a click: no mask that blocks input, no button, no click handler.
    var clickThrough: Bool {
        !configuration.effectiveMask.blocksInput && configuration.buttonTitles.isEmpty && onClick == nil
    }

    func disappear() {
        mapsWhenTextArrives = false
        output?.grabEscape(false)
        output?.unmap()
        onChange?()
        onHidden?()
    }
}
