/// The show/hide state machine of MBProgressHUD: grace time, min show time, delayed hide,
/// animated transitions and completions, on an injected clock.
///
/// As in MBProgressHUD every public call ends in one show path (`showNow`) or one hide path
/// (`hideNow`), and both meet in `animate`. Timers are deadlines: the owner calls `update()`
/// when `nextDeadline` passes (or at any time), so virtual time needs no threads.
package final class HUDLifecycle {
    package enum Phase: Equatable, Sendable { case hidden, showing, shown, hiding }

    package let clock: HUDClock
    package var graceTime: Double = 0
    package var minShowTime: Double = 0
    package var animation: HUDAnimation = .fade
    /// The show and hide animations' lengths when set (SVProgressHUD's fade-in and fade-out
    /// durations); else the animation's own.
    package var showDuration: Double?
    package var hideDuration: Double?

    /// Called when the HUD becomes visible (the window must be mapped) and when it has been hidden
    /// (after the hide's completions), as MBProgressHUD's `hudWasHidden:`.
    package var onAppear: (() -> Void)?
    package var onWasHidden: (() -> Void)?
    /// Called when a hide starts, and when a show interrupts one: whether the HUD is leaving
    /// changed (a stack makes room as it fades, not after).
    package var onLeavingChanged: (() -> Void)?

    package private(set) var phase: Phase = .hidden
    /// MBProgressHUD's `finished`: set by hide, cleared by show; a grace timer fires only while clear.
    package private(set) var finished = true
    private var transition: Transition?
    private var resting = Presentation.hidden
    private var showStarted: Double?
    private var graceDeadline: Double?
    private var delayedHide: (deadline: Double, animated: Bool)?
    private var minShowHide: (deadline: Double, animated: Bool)?
    private var completions: [() -> Void] = []

    package init(clock: HUDClock) { self.clock = clock }

    // MARK: Public calls

    package func show(animated: Bool = true) {
        update()
        let now = clock.now
        minShowHide = nil
        delayedHide = nil
        finished = false
        if graceTime > 0 {
            graceDeadline = now + graceTime
            pendingShowAnimated = animated
        } else {
            graceDeadline = nil
            showNow(animated: animated, at: now)
        }
    }

    package func hide(animated: Bool = true, completion: (() -> Void)? = nil) {
        update()
        if let completion { completions.append(completion) }
        hide(animated: animated, at: clock.now)
    }

    /// Hides now, without waiting out the min show time or a pending delayed hide: what a signal,
    /// Escape or a closed client asks for. Still the one hide path, animated as asked.
    package func dismiss(animated: Bool = true, completion: (() -> Void)? = nil) {
        update()
        if let completion { completions.append(completion) }
        hide(animated: animated, at: clock.now, waitingForMinShow: false)
    }

    /// Hides after a delay; a show before then cancels it.
    package func hide(animated: Bool = true, afterDelay delay: Double, completion: (() -> Void)? = nil) {
        update()
        if let completion { completions.append(completion) }
        delayedHide = (clock.now + max(0, delay), animated)
        if delay <= 0 { update() }
    }

    /// Ends any running animation at once (as removing a layer's animations): a hide still ends
    /// hidden and still runs its completions.
    package func finishAnimations() {
        update()
        guard let t = transition else { return }
        transition = nil
        resting = t.to
        settle()
    }

    // MARK: Time

    /// The earliest time at which `update()` has something to do; nil when nothing is pending.
    package var nextDeadline: Double? {
        [graceDeadline, delayedHide?.deadline, minShowHide?.deadline, transition?.end].compactMap { $0 }.min()
    }

    /// Processes every deadline up to now, each at its own time.
    package func update() {
        let now = clock.now
        while let t = nextDeadline, t <= now {
            if let g = graceDeadline, g == t {
                graceDeadline = nil
                if !finished { showNow(animated: pendingShowAnimated, at: g) }
            } else if let h = delayedHide, h.deadline == t {
                delayedHide = nil
                hide(animated: h.animated, at: t)
            } else if let h = minShowHide, h.deadline == t {
                minShowHide = nil
                hideNow(animated: h.animated, at: t)
            } else if let tr = transition, tr.end == t {
                transition = nil
                resting = tr.to
                settle()
            }
        }
    }

    /// Alpha and scale now; alpha 0 and phase hidden when nothing is to be drawn.
    package var presentation: Presentation { presentation(at: clock.now) }

    package func presentation(at t: Double) -> Presentation {
        transition?.value(at: t) ?? resting
    }

    package var isVisible: Bool { phase != .hidden }
    package var isAnimating: Bool { transition != nil }

    // MARK: The two paths

    private var pendingShowAnimated = true

    private func hide(animated: Bool, at now: Double, waitingForMinShow: Bool = true) {
        graceDeadline = nil
        finished = true
        if waitingForMinShow, minShowTime > 0, let started = showStarted, now - started < minShowTime {
            minShowHide = (started + minShowTime, animated)
            return
        }
        hideNow(animated: animated, at: now)
    }

    private func showNow(animated: Bool, at now: Double) {
        // A delayed hide asked for after a show (even one still in its grace time) stands.
        let appearing = phase == .hidden
        var from = appearing ? animation.offscreen(showing: true) : presentation(at: now)
        if phase == .hiding {
            // An interrupted hide still completes (its completions run); the show goes on from
            // wherever the hide had got to, so nothing jumps.
            transition = nil
            resting = from
            runCompletions()
        }
        let wasLeaving = phase == .hiding
        if !animated { from = .shown }
        showStarted = now
        phase = .showing
        if wasLeaving { onLeavingChanged?() }
        animate(from: from, to: .shown, at: now, animated: animated)
        if appearing {
            // The min show time counts from when the HUD is on screen: the window maps in
            // `onAppear`, after its first frame is composed, which takes a few milliseconds.
            let before = clock.now
            onAppear?()
            showStarted = now + max(0, clock.now - before)
        }
    }

    private func hideNow(animated: Bool, at now: Double) {
        delayedHide = nil
        minShowHide = nil
        guard phase != .hidden, showStarted != nil else {
            // Hidden before it ever appeared (grace time): the hide completes at once.
            if phase == .hidden { done() }
            return
        }
        showStarted = nil
        phase = .hiding
        onLeavingChanged?()
        animate(
            from: presentation(at: now), to: animated ? animation.offscreen(showing: false) : .hidden,
            at: now, animated: animated)
    }

    private func animate(from: Presentation, to: Presentation, at now: Double, animated: Bool) {
        let own = (phase == .hiding ? hideDuration : showDuration).map { Limits.seconds.clamp($0) }
        let d = animated ? own ?? animation.duration : 0
        if d > 0 && from != to {
            transition = Transition(from: from, to: to, start: now, duration: d, curve: animation.curve)
        } else {
            transition = nil
            resting = to
            settle()
        }
    }

    /// A transition has reached its end.
    private func settle() {
        if phase == .hiding { done() } else if phase == .showing { phase = .shown }
    }

    /// The one place a hide ends: completions first, then the "was hidden" event.
    private func done() {
        phase = .hidden
        resting = .hidden
        runCompletions()
        onWasHidden?()
    }

    private func runCompletions() {
        let list = completions
        completions = []
        for c in list { c() }
    }
}
