import HUDCore
import HUDRender

/// One HUD's orchestration, on no particular display: its lifecycle (grace, min show, delayed
/// hide, animations), layout and relayout, progress, the stacking shift, and when and what to
/// draw. A `HUDBackend` gives it a window (`HUDOutput`) and tells it what the user did.
///
/// It is the HUD: the server and the library hold it and call it. It holds its backend (made
/// for it, attached to the backend's loop until `dispose`), and its window; the backend holds
/// it weakly. Runs on its loop's thread, which owns it; nothing here is thread-safe by itself.
///
/// Here: its state and what drives it (show, hide, dismiss, update). What the user and the
/// display did is HUDController+Input.swift; the layout, the stack's slide and the window's
/// place HUDController+Layout.swift; frames, and mapping with the lifecycle,
/// HUDController+Frames.swift.
package final class HUDController {
    package let backend: any HUDBackend
    package let lifecycle: HUDLifecycle
    package private(set) var configuration: HUDConfiguration
    /// The parent region, device pixels on the screen.
    package internal(set) var region: Rect
    package internal(set) var scale: Double

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

    let renderer = HUDRenderer()
    /// Its backend's clock, which every deadline and animation runs on.
    package var clock: HUDClock { backend.clock }
    package internal(set) var output: HUDOutput?
    var layout: HUDLayout
    var progress: Tween
    var bezelTween: RectTween?
    /// The layout a growing bezel started from (`HUDFrame.growth`).
    var grownFrom: HUDLayout?
    /// The button a press went down on (an index into the layout's buttons), until release.
    var pressedButton: Int?
    /// Something other than time changed: the content is drawn again (and what changed sent).
    var dirty = true { didSet { if dirty { contentStale = true } } }
    /// The content must be drawn again, not only composed where the window now is: false after
    /// a move of the whole HUD (`needsFrameOnly`), which twenty HUDs arriving at once make
    /// hundreds of times.
    var contentStale = true
    package internal(set) var framesDrawn = 0
    var lastFrame = -Double.infinity
    /// Alpha and zoom of the frame on screen: only a frame that keeps them may compose the
    /// spinner's square alone.
    var lastPresentation: Presentation?
    var lastSpinnerAngle: Double?
    /// The title the output has (set with the content, when it changes).
    var lastTitle: String?
    /// Batches of text being laid out off the loop (`HUDBackend.textShaping`). Meanwhile the HUD
    /// keeps the layout and the frame it has (none, before its first), and draws nothing.
    var textAwaited = 0
    /// It appeared while its text was being laid out: its first frame maps once it is.
    var mapsWhenTextArrives = false
    /// Its region moved while its text was being laid out: the layout that follows goes there
    /// at once, as a region's move does.
    var regionMovedWhileAwaiting = false

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
                slide = RectTween(
                    from: Rect(x: shownStackOffset.x, y: shownStackOffset.y, width: 0, height: 0),
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

    /// Where the stack has the bezel now: `stackOffset`, or on the way there.
    package internal(set) var shownStackOffset: Point = .zero
    var slide: RectTween? {
        didSet { if slide?.start != oldValue?.start { slideUnderway = false } }
    }
    /// The slide has had its first frame (`applyStackMove`).
    var slideUnderway = false
    /// The region's size in logical pixels, where a stack must fit.
    package var stackArea: Size { Size(width: region.width / scale, height: region.height / scale) }

    // MARK: State of the layout, the frames and the input (HUDController+*.swift)

    /// When what lies beneath last changed unseen (`beneathChanged`): the fill rises from then.
    var beneathChangedAt: Double?
    /// How long the fill takes to rise to opaque.
    static let risesFor = 0.3

    /// Where the window goes at the next frame. A mapped window moves or changes size in the
    /// same flush as the frame drawn for its new place: never a refresh showing the old
    /// content (or the old place's background) at the new place, or a grown window's new
    /// part empty.
    var pendingMove: Rect?

    /// Whether the window moved: the next frame composes all of it, since without a compositor
    /// every pixel blends over what lies beneath its new place.
    var windowMoved = false

    /// The stack offset, or the slide towards it, moved: the next frame lays the HUD out there.
    var stackMoved = false
    /// The slide ended: once the window has made its last step, it no longer moves in a path.
    var slideArrived = false

    /// The link of the details under the last click that went to `onClick` (counted from 0 in
    /// the order of the text, `HUDConfiguration.linkMark`), nil off every link.
    package internal(set) var clickedLink: Int?

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
        layout = .empty  // relayout() below lays it out in its region
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
        if wait > 0 {
            lifecycle.hide(animated: animated, afterDelay: wait, completion: completion)
        } else {
            lifecycle.hide(animated: animated, completion: completion)
        }
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
}

package enum HUDError: Error, CustomStringConvertible {
    case badImage(String)
    package var description: String {
        switch self {
        case .badImage(let s): return s
        }
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
