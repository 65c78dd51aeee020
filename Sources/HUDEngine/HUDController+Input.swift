import HUDCore
import HUDRender

/// What the user and the display did, as the backend reports it (a pointer button, Escape, the
/// parent region, what lies beneath), and what a click hits.
extension HUDController {
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

    /// The parent region moved or changed size (a followed window), or its scale changed (an
    /// output's, or the HUD moved to another output).
    package func regionMoved(to r: Rect, scale newScale: Double? = nil) {
        let k = newScale.map { Limits.scale.clamp($0) } ?? scale
        guard r != region || k != scale else { return }
        region = r
        scale = k
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

    /// A compositor started or stopped, or the wallpaper changed: the content is drawn again.
    package func displayChanged() {
        dirty = true
        if lifecycle.isVisible { drawFrame() }
    }

    /// Takes the window down at once (the process is ending).
    package func unmapForExit() { output?.grabEscape(false); output?.unmap() }

    // MARK: Hit testing

    /// The button at `p` (output pixels), if any. A button takes a touch target's size (iOS's 44
    /// points at least, `buttonSlop` around a larger one), within the bezel: a click just off
    /// its outline is still the button's. Between two buttons of a row, the nearer one's.
    func button(at p: Point) -> Int? {
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

    func link(at p: Point) -> Int? {
        guard let r = layout.details, let request = layout.detailsRequest, request.markup, let output else { return nil }
        let q = Point(x: (output.rect.x - region.x + p.x) / scale, y: (output.rect.y - region.y + p.y) / scale)
        guard r.insetBy(dx: -2, dy: -2).contains(q) else { return nil }
        return renderer.text.markedSpan(at: q, of: request, in: r, marker: HUDConfiguration.linkMark)
    }

    /// The layout's button `i` was clicked: `button`'s, or one of `extraButtons`.
    func buttonClicked(_ i: Int) {
        let first = configuration.button.isEmpty ? 0 : 1
        if i < first { onButton?() } else { onExtraButton?(i - first) }
    }

    static var buttonSlop: Double { 8 }

    /// The bezel's and the button's rectangles in the window's pixels (what a click hits).
    package var bezelInWindow: Rect { toWindow(layout.bezel) }
    package var buttonInWindow: Rect? { layout.button.map(toWindow) }
    package var buttonsInWindow: [Rect] { layout.buttons.map(toWindow) }
    func toWindow(_ r: Rect) -> Rect {
        let dx = output.map { $0.rect.x - region.x } ?? 0, dy = output.map { $0.rect.y - region.y } ?? 0
        return Rect(x: r.x * scale - dx, y: r.y * scale - dy, width: r.width * scale, height: r.height * scale)
    }
}
