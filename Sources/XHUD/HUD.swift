import Foundation
import HUDSystem
import HUDCore
import HUDX11
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

    /// A HUD over `parent` on `display` (nil: `$DISPLAY`), not shown yet. Throws
    /// `HUDError.noDisplay` without an X display and `HUDError.badParent` for an unknown
    /// monitor or window.
    public init(over parent: ParentSpec = .monitor("pointer"), display: String? = nil) throws {
        self.parent = parent
        runtime = try Runtime.forDisplay(display)
        let d = runtime.display
        do { _ = try runtime.sync { try d.resolve(parent) } } catch {
            throw HUDError.badParent("\(error)")
        }
    }

    /// Creates a HUD over `parent` and shows it: MBProgressHUD's `showHUDAddedTo:animated:`.
    @discardableResult
    public static func show(over parent: ParentSpec = .monitor("pointer"), animated: Bool = true, display: String? = nil) throws -> HUD {
        let hud = try HUD(over: parent, display: display)
        hud.show(animated: animated)
        return hud
    }

    /// The top-most HUD over `parent` that is not being hidden: MBProgressHUD's `HUDForView:`.
    public static func hud(over parent: ParentSpec) -> HUD? {
        Registry.top(over: parent)
    }

    /// Hides the top-most HUD over `parent`; false when there was none: `hideHUDForView:animated:`.
    @discardableResult
    public static func hide(over parent: ParentSpec, animated: Bool = true) -> Bool {
        guard let hud = hud(over: parent) else { return false }
        hud.hide(animated: animated)
        return true
    }

    // MARK: Configuration (any thread, takes effect in the next frame)

    /// What the indicator shows (default `.indeterminate`, the spinner).
    public var mode: HUDMode { get { read { $0.config.mode } } set { change { $0.config.mode = newValue } } }
    /// The one-line label, ellipsized when too long.
    public var label: String { get { read { $0.config.label } } set { change { $0.config.label = newValue } } }
    /// The multi-line details label.
    public var details: String { get { read { $0.config.details } } set { change { $0.config.details = newValue } } }
    /// Progress 0...1 for `.determinate`, `.annular` and `.bar`; out of range or NaN is clamped.
    public var progress: Double {
        get { read { $0.config.progress } }
        set { change { $0.config.progress = newValue.isNaN ? 0 : Swift.min(1, Swift.max(0, newValue)) } }
    }
    /// The button's title; the button shows when it has one (and cancels with `onButton`).
    public var button: String { get { read { $0.config.button } } set { change { $0.config.button = newValue } } }
    /// Seconds to wait before showing; a HUD hidden before then never appears. Applies to the next show.
    public var graceTime: Double { get { read { $0.config.graceTime } } set { change { $0.config.graceTime = newValue } } }
    /// Once shown, the HUD stays at least this long. Applies to the next hide.
    public var minShowTime: Double { get { read { $0.config.minShowTime } } set { change { $0.config.minShowTime = newValue } } }
    /// How the HUD shows and hides (default `.fade`, MBProgressHUD's).
    public var animation: HUDAnimation { get { read { $0.config.animation } } set { change { $0.config.animation = newValue } } }
    /// The show animation's length in seconds (nil: the animation's own, 0.3 s; `.pop` 0.15 s).
    public var showDuration: Double? { get { read { $0.config.showDuration } } set { change { $0.config.showDuration = newValue } } }
    /// The hide animation's length in seconds (nil: the animation's own).
    public var hideDuration: Double? { get { read { $0.config.hideDuration } } set { change { $0.config.hideDuration = newValue } } }
    /// What covers the parent region (default: `.clear` for spinners and progress, `.none` for
    /// icons and text); `.blur(_:)` is MBProgressHUD's background view with the blur style.
    public var mask: HUDMask? { get { read { $0.config.mask } } set { change { $0.config.mask = newValue } } }
    /// Dark (default) or light bezel and content, or `.custom` with the two colours.
    public var style: HUDStyle { get { read { $0.config.style } } set { change { $0.config.style = newValue } } }
    /// Colour of the label, details, button and indicator (nil: the style's).
    public var contentColor: HUDColor? { get { read { $0.config.contentColor } } set { change { $0.config.contentColor = newValue } } }
    /// Colour of the bezel (nil: the style's).
    public var bezelColor: HUDColor? { get { read { $0.config.bezelColor } } set { change { $0.config.bezelColor = newValue } } }
    /// Blur radius of what shows through the bezel, logical pixels (0, the default: none; 20 is
    /// iOS's material, MBProgressHUD's bezel style `.blur`).
    public var blur: Double { get { read { $0.config.blur } } set { change { $0.config.blur = newValue } } }
    /// The spinner of `.indeterminate`: SVProgressHUD's ring (default) or the classic spokes.
    public var spinner: SpinnerStyle { get { read { $0.config.spinner } } set { change { $0.config.spinner = newValue } } }
    /// Line width of the spinner's ring and the progress ring (default 2).
    public var ringThickness: Double { get { read { $0.config.ringThickness } } set { change { $0.config.ringThickness = newValue } } }
    /// Radius of the spinner's ring and the progress ring, to the middle of the line (nil, the
    /// default: the indicator's own 37 px).
    public var ringRadius: Double? { get { read { $0.config.ringRadius } } set { change { $0.config.ringRadius = newValue } } }
    /// The label's font, a Pango font description (default `system-ui Semibold 16px`: the
    /// desktop's UI font, semibold as iOS draws a HUD's label).
    public var labelFont: String { get { read { $0.config.labelFont } } set { change { $0.config.labelFont = newValue } } }
    /// The details label's font (default `system-ui 12px`, regular).
    public var detailsFont: String { get { read { $0.config.detailsFont } } set { change { $0.config.detailsFont = newValue } } }
    /// The button's font (default `system-ui Semibold 12px`).
    public var buttonFont: String { get { read { $0.config.buttonFont } } set { change { $0.config.buttonFont = newValue } } }
    /// The bezel's offset from the centre of the parent; far beyond an edge pins it there.
    public var offset: (x: Double, y: Double) {
        get { read { ($0.config.offset.x, $0.config.offset.y) } }
        set { change { $0.config.offset = Point(x: newValue.x, y: newValue.y) } }
    }
    /// Space around the content and from the parent's edges (default 20).
    public var margin: Double { get { read { $0.config.margin } } set { change { $0.config.margin = newValue } } }
    /// The smallest size of the bezel.
    public var minSize: (width: Double, height: Double) {
        get { read { ($0.config.minSize.width, $0.config.minSize.height) } }
        set { change { $0.config.minSize = Size(width: newValue.width, height: newValue.height) } }
    }
    /// A square bezel when it fits.
    public var isSquare: Bool { get { read { $0.config.square } } set { change { $0.config.square = newValue } } }
    /// The bezel's corner radius (default 10).
    public var cornerRadius: Double { get { read { $0.config.cornerRadius } } set { change { $0.config.cornerRadius = newValue } } }
    /// The image of `.custom` (MBProgressHUD's customView): a PNG or SVG file, or an icon name
    /// of the icon theme (`dialog-information`). An image that cannot be read shows nothing;
    /// ``setImage(_:)`` says why instead.
    public var image: String? {
        get { read { $0.config.image } }
        set {
            let box = imageSize
            let found = newValue.flatMap { ImageNames.resolve($0, box: box) }
            change {
                $0.config.image = found?.path ?? newValue
                if found?.symbolic == true { $0.config.tintImage = true }
            }
        }
    }
    /// The side of the box images are fitted into, logical pixels (default 37).
    public var imageSize: Double { get { read { $0.config.imageSize } } set { change { $0.config.imageSize = newValue } } }
    /// Images drawn in the content colour (their alpha kept), as SVProgressHUD's; symbolic icons
    /// always are. Off by default.
    public var tintImage: Bool { get { read { $0.config.tintImage } } set { change { $0.config.tintImage = newValue } } }
    /// An image that replaces the drawn success icon: a file or an icon name (nil: the drawn icon).
    public var successImage: String? { get { read { $0.config.successImage } } set { setResultImage(newValue, \.successImage) } }
    /// An image that replaces the drawn error icon.
    public var errorImage: String? { get { read { $0.config.errorImage } } set { setResultImage(newValue, \.errorImage) } }
    /// An image that replaces the drawn info icon.
    public var infoImage: String? { get { read { $0.config.infoImage } } set { setResultImage(newValue, \.infoImage) } }
    /// An image that replaces the drawn warning icon.
    public var warningImage: String? { get { read { $0.config.warningImage } } set { setResultImage(newValue, \.warningImage) } }

    /// Sets the image of `.custom` and the mode, after checking that it can be shown: a PNG or
    /// SVG file, or an icon name of the icon theme (a symbolic icon is drawn in the content
    /// colour). Throws `HUDError.badImage` saying why not (no such icon, missing, not a regular
    /// file, neither PNG nor SVG, too large).
    public func setImage(_ image: String) throws {
        guard let found = ImageNames.resolve(image, box: imageSize) else { throw HUDError.badImage(ImageNames.notFound(image)) }
        if let problem = ImageFile.problem(at: found.path) { throw HUDError.badImage(problem) }
        change {
            $0.config.image = found.path
            $0.config.mode = .custom
            if found.symbolic { $0.config.tintImage = true }
        }
    }
    /// The HUD's scale (nil: Xft.dpi / 96). Applies to the next show of a hidden HUD.
    public var scale: Double? { get { read { $0.scale } } set { change { $0.scale = newValue } } }
    /// Hidden HUDs give their window back (MBProgressHUD's `removeFromSuperViewOnHide`); showing
    /// one again makes a new window. On by default.
    public var removeFromParentOnHide: Bool {
        get { read { $0.removeFromParentOnHide } } set { change { $0.removeFromParentOnHide = newValue } }
    }
    /// The whole configuration at once.
    public var configuration: HUDConfiguration { get { read { $0.config } } set { change { $0.config = newValue } } }

    /// Foundation's `Progress`, polled once a frame by the display link while shown; its
    /// `fractionCompleted` drives the indicator (MBProgressHUD's `progressObject`).
    public var progressObject: Progress? { get { read { $0.progressObject } } set { change { $0.progressObject = newValue } } }
    /// With a progress object, its `localizedDescription` becomes the details label.
    public var showsProgressDescription: Bool {
        get { read { $0.showsProgressDescription } } set { change { $0.showsProgressDescription = newValue } }
    }

    /// Changes several settings in one step (no other thread sees half of them).
    func modify(_ body: (inout HUDConfiguration) -> Void) { change { body(&$0.config) } }

    /// The result image set to `image`: a file as it is, an icon name resolved (nil when no
    /// theme has it: the drawn icon stays).
    private func setResultImage(_ image: String?, _ field: WritableKeyPath<HUDConfiguration, String?>) {
        let path = image.flatMap { ImageNames.resolve($0, box: imageSize)?.path }
        change { $0.config[keyPath: field] = path }
    }

    // MARK: Callbacks (see callbackQueue)

    /// Runs once the HUD has been hidden (MBProgressHUD's `completionBlock`).
    public var completion: (@Sendable () -> Void)? { get { read { $0.completion } } set { change(apply: false) { $0.completion = newValue } } }
    /// The button was clicked (or Escape pressed while the HUD blocks input).
    public var onButton: (@Sendable () -> Void)? { get { read { $0.onButton } } set { change(apply: false) { $0.onButton = newValue } } }
    /// One of the configuration's `extraButtons` was clicked (its index there).
    public var onExtraButton: (@Sendable (Int) -> Void)? { get { read { $0.onExtraButton } } set { change(apply: false) { $0.onExtraButton = newValue } } }
    /// The HUD was hidden, after `completion` (MBProgressHUD's delegate `hudWasHidden:`).
    public var onHidden: (@Sendable (HUD) -> Void)? { get { read { $0.onHidden } } set { change(apply: false) { $0.onHidden = newValue } } }

    /// What happened to the HUD on screen (SVProgressHUD's notifications), with its label then.
    var onEvent: (@Sendable (HUD, HUDEvent, String) -> Void)? {
        get { read { $0.onEvent } } set { change(apply: false) { $0.onEvent = newValue } }
    }
    /// A click on the HUD while it blocks input (SVProgressHUD's touch event), with the label.
    var onTouch: (@Sendable (String) -> Void)? { get { read { $0.onTouch } } set { change { $0.onTouch = newValue } } }

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
        change(apply: false) { $0.finished = false; $0.everShown = true; $0.showCount += 1 }
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
                runtime.loop.addTimer(after: delay) { [weak self] in
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
    public static func show<T>(over parent: ParentSpec = .monitor("pointer"), animated: Bool = true, display: String? = nil,
                               configure: (HUD) -> Void = { _ in }, while work: () async throws -> T) async throws -> T {
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

    private func read<T>(_ body: (State) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(state)
    }

    /// Changes the state under the lock; the loop's thread applies it in one go (one pending
    /// application at a time, so a thousand setters cost one frame).
    private func change(apply: Bool = true, _ body: (inout State) -> Void) {
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
            let h = try X11HUD.makeHUD(loop: runtime.loop, configuration: s.config, parent: parent, scale: s.scale)
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
