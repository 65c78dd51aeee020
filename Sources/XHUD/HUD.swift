import Foundation
import HUDSystem
import HUDCore
import HUDEngine
import HUDRender

/// An MBProgressHUD for X11: a HUD over a parent region (a monitor, a window, a rectangle),
/// shown and hidden with MBProgressHUD's rules (grace time, minimum show time, delayed hide).
///
///     let hud = try HUD.show(over: .monitor("pointer"), animated: true)
///     hud.mode = .annular
///     hud.label = "Loading"
///     hud.progress = 0.4                          // from any thread
///     hud.hide(animated: true, afterDelay: 1)
///
/// Every property and method may be used from any thread, concurrently. A change takes effect in
/// the next frame; `graceTime` and `minShowTime` apply to the next show and hide, as in
/// MBProgressHUD. The HUD draws on the library's own thread; callbacks (`completion`,
/// `onButton`, `onHidden`) run as ``callbackQueue`` says.
public final class HUD: @unchecked Sendable {
    /// Where callbacks run (completions, button actions, notifications), one at a time, in order.
    ///
    /// Unset (the default): on the main queue while the program runs it (`dispatchMain()`,
    /// `RunLoop.main.run()`, top-level `await`), as UIKit's; a callback the main queue has not
    /// taken within 0.1 s (its thread sleeps, computes, or runs a loop that never drains it) runs
    /// on the library's callback thread instead, so that a command-line program gets its
    /// callbacks too. Set a queue to have every callback there, whenever it gets to them
    /// (`.main`: always the main thread).
    public static var callbackQueue: DispatchQueue? {
        get { queueLock.withLock { queueStorage } }
        set { queueLock.withLock { queueStorage = newValue } }
    }
    private static let queueLock = Locked()
    nonisolated(unsafe) private static var queueStorage: DispatchQueue?

    /// The parent region the HUD covers.
    public let parent: ParentSpec
    let runtime: Runtime
    private let lock = Locked()
    private var state = State()
    /// The HUD that draws this one (its controller, which holds its X11 backend), made on the
    /// first show. Owned by the loop's thread, as are the three below.
    private var host: HUDController?
    /// The lifecycle's phase when last looked at (see `notePhase`).
    private var notedPhase: HUDLifecycle.Phase = .hidden
    /// Looks at the lifecycle again at its next deadline.
    private var phaseTimer: Int?
    /// The parent window went away: the HUD that drew over it is given up once hidden.
    private var parentGone = false

    struct State {
        var config = HUDConfiguration()
        var removeFromParentOnHide = true
        var progressObject: Progress?
        var showsProgressDescription = false
        var scale: Double?
        /// MBProgressHUD's `finished`: set by hide, cleared by show.
        var finished = true
        /// Counts shows: a delayed hide marks the HUD finished only if no show came since.
        var showCount = 0
        var everShown = false
        var applyPosted = false
        var completion: (@Sendable () -> Void)?
        var onButton: (@Sendable () -> Void)?
        var onExtraButton: (@Sendable (Int) -> Void)?
        var onHidden: (@Sendable (HUD) -> Void)?
        var hideWaiters: [CheckedContinuation<Void, Never>] = []
        /// Completions of single hides (SVProgressHUD's `dismissWithCompletion:`), run once hidden.
        var hideCompletions: [@Sendable () -> Void] = []
        var onEvent: (@Sendable (HUD, HUDEvent, String) -> Void)?
        var onTouch: (@Sendable (String) -> Void)?
        /// The MBProgressHUD that speaks for this HUD, while someone holds it.
        var wrapper = WeakObject()
    }

    struct WeakObject { weak var object: AnyObject? }

    // MARK: Creating and finding HUDs

    /// A HUD over `parent` on `display` (an X display's name; nil: the session's, a Wayland
    /// compositor with layer-shell where `WAYLAND_DISPLAY` is set, else `$DISPLAY`), not shown
    /// yet. Throws `HUDError.noDisplay` without a display and `HUDError.badParent` for an
    /// unknown monitor or window (or any window, on Wayland).
    public init(over parent: ParentSpec = .monitor("pointer"), display: String? = nil) throws {
        self.parent = parent
        runtime = try Runtime.forDisplay(display)
        let d = runtime.display
        do { try runtime.sync { try d.check(parent) } } catch {
            throw HUDError.badParent("\(error)")
        }
    }

    // MARK: Callbacks (see callbackQueue)

    /// Runs once the HUD has been hidden (MBProgressHUD's `completionBlock`).
    public var completion: (@Sendable () -> Void)? {
        get { read { $0.completion } }
        set { change(apply: false) { $0.completion = newValue } }
    }
    /// The button was clicked (or Escape pressed while the HUD blocks input).
    public var onButton: (@Sendable () -> Void)? {
        get { read { $0.onButton } }
        set { change(apply: false) { $0.onButton = newValue } }
    }
    /// One of the configuration's `extraButtons` was clicked (its index there).
    public var onExtraButton: (@Sendable (Int) -> Void)? {
        get { read { $0.onExtraButton } }
        set { change(apply: false) { $0.onExtraButton = newValue } }
    }
    /// The HUD was hidden, after `completion` (MBProgressHUD's delegate `hudWasHidden:`).
    public var onHidden: (@Sendable (HUD) -> Void)? {
        get { read { $0.onHidden } }
        set { change(apply: false) { $0.onHidden = newValue } }
    }

    /// What happened to the HUD on screen (SVProgressHUD's notifications), with its label then.
    var onEvent: (@Sendable (HUD, HUDEvent, String) -> Void)? {
        get { read { $0.onEvent } }
        set { change(apply: false) { $0.onEvent = newValue } }
    }
    /// A click on the HUD while it blocks input (SVProgressHUD's touch event), with the label.
    var onTouch: (@Sendable (String) -> Void)? {
        get { read { $0.onTouch } }
        set { change { $0.onTouch = newValue } }
    }

    /// The object made by `make` for this HUD, the same one while anyone holds it.
    func wrapper<T: AnyObject>(_ make: (HUD) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        if let w = state.wrapper.object as? T { return w }
        let w = make(self)
        state.wrapper.object = w
        return w
    }

    func attach(_ wrapper: AnyObject) { change(apply: false) { $0.wrapper.object = wrapper } }

    // MARK: Showing and hiding

    /// Shows the HUD (after `graceTime`): `showAnimated:`.
    public func show(animated: Bool = true) {
        change(apply: false) {
            $0.finished = false; $0.everShown = true; $0.showCount += 1
        }
        Registry.add(self)
        runtime.post { [self] in
            guard let host = makeHost() else { return }
            apply(to: host)
            host.show(animated: animated)
            notePhase()
        }
    }

    /// Hides the HUD, after `delay` seconds (a show before then cancels it); waits out
    /// `minShowTime`: `hideAnimated:afterDelay:`.
    public func hide(animated: Bool = true, afterDelay delay: Double = 0) {
        hide(animated: animated, afterDelay: delay, completion: nil)
    }

    /// `hide(animated:afterDelay:)` with a completion of this hide's own, run once the HUD is
    /// hidden (after `completion`).
    func hide(animated: Bool, afterDelay delay: Double, completion: (@Sendable () -> Void)?) {
        let delay = Limits.seconds.clamp(delay)
        let show = read { $0.showCount }
        change(apply: false) {
            if delay == 0 { $0.finished = true }
            if let completion { $0.hideCompletions.append(completion) }
        }
        runtime.post { [self] in
            guard let host else { return wasHidden() }
            host.hide(animated: animated, afterDelay: delay)
            notePhase()
            if delay > 0 {
                // MBProgressHUD's `finished` is set when the delayed hide starts, not when asked.
                _ = runtime.loop.addTimer(after: delay) { [weak self] in
                    self?.change(apply: false) { if $0.showCount == show { $0.finished = true } }
                }
            }
        }
    }

    /// Hides the HUD (waiting out `minShowTime`) and returns once it is hidden; throws
    /// `HUDError.notShown` for a HUD that was never shown. (`hide(animated:afterDelay:)` is the
    /// one that returns at once; top-level code picks that one for `hide(animated:)`, so call
    /// this from an `async` function.)
    public func hide(animated: Bool = true) async throws {
        guard read({ $0.everShown }) else { throw HUDError.notShown }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            change(apply: false) { $0.hideWaiters.append(c) }
            hide(animated: animated, afterDelay: 0)
        }
    }

    /// Shows a HUD over `parent` while `work` runs, and hides it when the work returns or
    /// throws (what `showHUDAddedTo:` around a block of work does by hand).
    public static func show<T>(
        over parent: ParentSpec = .monitor("pointer"), animated: Bool = true, display: String? = nil,
        configure: (HUD) -> Void = { _ in }, while work: () async throws -> T
    ) async throws -> T {
        let hud = try HUD(over: parent, display: display)
        configure(hud)
        hud.show(animated: animated)
        do {
            let value = try await work()
            try await hud.hide(animated: animated)
            return value
        } catch {
            try? await hud.hide(animated: animated)
            throw error
        }
    }

    /// Whether the HUD is shown or being shown (not finished): false once hidden, and once its
    /// parent window is gone.
    public var isVisible: Bool { read { !$0.finished } }

    deinit {
        let host = self.host
        runtime.loop.post { host?.dispose() }
    }

    // MARK: Internals

    /// The HUD that draws this one; the library's thread only.
    var hostForTests: HUDController? { host }

    func read<T>(_ body: (State) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(state)
    }

    /// Changes the state under the lock; the loop's thread applies it in one go (one pending
    /// application at a time, so a thousand setters cost one frame).
    func change(apply: Bool = true, _ body: (inout State) -> Void) {
        lock.lock()
        body(&state)
        let post = apply && !state.applyPosted
        if post { state.applyPosted = true }
        lock.unlock()
        if post {
            runtime.post { [self] in
                lock.lock(); state.applyPosted = false; lock.unlock()
                if let host { self.apply(to: host) }
            }
        }
    }

    /// On the loop's thread.
    private func makeHost() -> HUDController? {
        if let host { return host }
        let s = read { $0 }
        do {
            let h = try runtime.display.makeHUD(configuration: s.config, parent: parent, scale: s.scale)
            h.onHidden = { [weak self] in self?.wasHidden() }
            h.onButton = { [weak self] in self?.buttonPressed() }
            h.onExtraButton = { [weak self] i in
                if let action = self?.read({ $0.onExtraButton }) { Callbacks.send { action(i) } }
            }
            h.onEscape = { [weak self] in self?.buttonPressed() }
            h.onParentGone = { [weak self] in self?.parentWentAway() }
            host = h
            parentGone = false
            notedPhase = h.lifecycle.phase
            return h
        } catch {
            // The parent went away since the HUD was made, or its image cannot be read.
            change(apply: false) { $0.finished = true }
            wasHidden()
            return nil
        }
    }

    /// On the loop's thread: the state onto the HUD that draws it.
    private func apply(to host: HUDController) {
        let s = read { $0 }
        host.update { $0 = s.config }
        host.showsProgressDescription = s.showsProgressDescription
        if let onTouch = s.onTouch, s.config.effectiveMask.blocksInput {
            host.onClick = { [weak host] in
                let label = host?.configuration.label ?? ""
                Callbacks.send { onTouch(label) }
            }
        } else {
            host.onClick = nil
        }
        if let p = s.progressObject {
            if (host.progressSource as? FoundationProgressSource)?.progress !== p { host.progressSource = FoundationProgressSource(p) }
        } else {
            host.progressSource = nil
        }
    }

    private func buttonPressed() {
        let action = read { $0.onButton }
        if let action { Callbacks.send { action() } }
    }

    /// On the loop's thread: the parent window was destroyed or unmapped. The HUD goes with it
    /// at once, as a view's subview goes with the view, and is no longer visible.
    private func parentWentAway() {
        guard let host else { return }
        let shown = read { !$0.finished }
        change(apply: false) { $0.finished = true }
        if shown || host.isVisible {
            parentGone = true
            host.dismiss(animated: false)
            notePhase()
        } else {
            dropHost()
        }
    }

    private func dropHost() {
        if let t = phaseTimer { runtime.loop.cancelTimer(t); phaseTimer = nil }
        host?.dispose()
        host = nil
        parentGone = false
        notedPhase = .hidden
    }

    /// On the loop's thread: SVProgressHUD's events from the lifecycle's phase, noted after every
    /// call that may change it and at each of its deadlines (grace, delayed hide, min show, the
    /// end of an animation), so that each is told when it happens: will-appear when the HUD
    /// starts to appear (never for one hidden in its grace time), did-appear when the show
    /// animation ends, will-disappear when the hide starts (not when a delayed hide is asked for,
    /// nor for one a later show cancelled). Did-disappear is `wasHidden`'s.
    private func notePhase() {
        guard let host else { return }
        let now = host.lifecycle.phase, was = notedPhase
        notedPhase = now
        switch (was, now) {
        case (.hidden, .showing), (.hiding, .showing): emit(.willAppear)
        case (.hidden, .shown), (.hiding, .shown): emit(.willAppear); emit(.didAppear)
        case (.showing, .shown): emit(.didAppear)
        case (.showing, .hiding), (.shown, .hiding), (.showing, .hidden), (.shown, .hidden): emit(.willDisappear)
        default: break
        }
        if let t = phaseTimer { runtime.loop.cancelTimer(t); phaseTimer = nil }
        if let deadline = host.lifecycle.nextDeadline {
            phaseTimer = runtime.loop.addTimer(after: max(0, deadline - host.clock.now)) { [weak self] in
                guard let self else { return }
                self.phaseTimer = nil
                // What the loop does for every HUD before it waits, done now: the deadline's
                // change happens, and is told, at its time.
                self.host?.lifecycle.update()
                self.notePhase()
            }
        }
    }

    private func emit(_ event: HUDEvent) {
        guard let onEvent = read({ $0.onEvent }) else { return }
        let label = host?.configuration.label ?? read { $0.config.label }
        Callbacks.send { onEvent(self, event, label) }
    }

    /// On the loop's thread: the one place a hide ends (did-disappear, `completion`, the hide's
    /// own completions, then `onHidden`).
    private func wasHidden() {
        // A hide that ended inside the call that asked for it (not animated) has not been noted yet.
        let appeared = notedPhase != .hidden
        if notedPhase == .showing || notedPhase == .shown { emit(.willDisappear) }
        notedPhase = .hidden
        if appeared { emit(.didDisappear) }
        lock.lock()
        let completion = state.completion, onHidden = state.onHidden, waiters = state.hideWaiters
        let own = state.hideCompletions
        state.hideWaiters = []
        state.hideCompletions = []
        let release = state.removeFromParentOnHide || parentGone
        lock.unlock()
        if release, host != nil { dropHost() }
        Registry.remove(self)
        Callbacks.send { [self] in
            completion?()
            for c in own { c() }
            onHidden?(self)
            for w in waiters { w.resume() }
        }
    }
}

/// What happened to a HUD on screen: SVProgressHUD's notifications.
enum HUDEvent: Sendable {
    case willAppear, didAppear, willDisappear, didDisappear
}
