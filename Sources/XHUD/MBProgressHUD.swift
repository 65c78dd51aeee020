import Foundation
import HUDCore
import HUDSystem

/// MBProgressHUD's modes.
public enum MBProgressHUDMode: Int, Sendable, CaseIterable {
    /// A spinner (the default).
    case indeterminate
    /// A pie that fills with `progress`.
    case determinate
    /// A horizontal bar.
    case determinateHorizontalBar
    /// A ring that fills with `progress`.
    case annularDeterminate
    /// The image of `customView`.
    case customView
    /// The labels alone.
    case text

    var hudMode: HUDMode {
        switch self {
        case .indeterminate: return .indeterminate
        case .determinate: return .determinate
        case .determinateHorizontalBar: return .bar
        case .annularDeterminate: return .annular
        case .customView: return .custom
        case .text: return .text
        }
    }

    init(_ mode: HUDMode) {
        switch mode {
        case .indeterminate: self = .indeterminate
        case .determinate: self = .determinate
        case .bar: self = .determinateHorizontalBar
        case .annular: self = .annularDeterminate
        case .text: self = .text
        case .custom, .success, .error, .info, .warning: self = .customView
        }
    }
}

/// MBProgressHUD's show and hide animations (0.3 s each).
public enum MBProgressHUDAnimation: Int, Sendable, CaseIterable {
    /// Opacity alone (the default).
    case fade
    /// Zooms in on show and out on hide.
    case zoom
    /// Scales 1.5 -> 1 on show and 1 -> 0.5 on hide.
    case zoomOut
    /// Scales 0.5 -> 1 on show and 1 -> 1.5 on hide.
    case zoomIn

    var hudAnimation: HUDAnimation {
        switch self {
        case .fade: return .fade
        case .zoom: return .zoom
        case .zoomOut: return .zoomOut
        case .zoomIn: return .zoomIn
        }
    }

    init(_ animation: HUDAnimation) {
        switch animation {
        case .zoom, .pop: self = .zoom
        case .zoomIn: self = .zoomIn
        case .zoomOut: self = .zoomOut
        case .fade, .none: self = .fade
        }
    }
}

/// The two looks of MBProgressHUD's bezel and background view.
public enum MBProgressHUDBackgroundStyle: Int, Sendable, CaseIterable {
    /// A flat colour.
    case solidColor
    /// What is behind blurred (iOS's material), then tinted with the colour.
    case blur
}

/// MBProgressHUD's `completionBlock`.
public typealias MBProgressHUDCompletionBlock = @Sendable () -> Void

/// MBProgressHUD's delegate.
public protocol MBProgressHUDDelegate: AnyObject {
    /// The HUD has been hidden (after its `completionBlock`).
    func hudWasHidden(_ hud: MBProgressHUD)
}

/// MBProgressHUD's API as its Swift users spell it, over a ``HUD``: the parent region (a
/// ``ParentSpec``: a monitor, a window or a rectangle) stands for the view.
///
///     let hud = MBProgressHUD.showAdded(to: .monitor("primary"), animated: true)
///     hud.mode = .annularDeterminate
///     hud.label.text = "Downloading"
///     hud.progress = 0.25
///     hud.hide(animated: true, afterDelay: 1)
///
/// Every property is the ``HUD``'s, read and set from any thread. Without an X display (or with
/// a parent that does not exist) the calls that make a HUD do not throw, as MBProgressHUD's
/// never fail: they say why on stderr and return an MBProgressHUD that shows nothing
/// (``hud`` is nil); use ``HUD`` directly for errors you can catch. Callbacks arrive as
/// ``HUD/callbackQueue`` says (on the main queue while the program runs it, else on the
/// library's callback thread).
public final class MBProgressHUD: @unchecked Sendable {
    /// The HUD this one speaks for; nil when it could not be made.
    public let hud: HUD?
    /// The one-line label.
    public let label: Label
    /// The multi-line details label.
    public let detailsLabel: Label
    /// The button under the labels, shown while it has a title.
    public let button: Button
    /// The rounded box behind the content.
    public let bezelView: MBBackgroundView
    /// What covers the whole parent region.
    public let backgroundView: MBBackgroundView

    /// The blur radius of a bezel with the `.blur` style, logical pixels: iOS's material, as
    /// the background view's (`HUDMask.blurRadius`, 20).
    public static let bezelBlurRadius = HUDMask.blurRadius

    // MARK: Creating and finding

    /// A HUD over `view`, not shown yet: MBProgressHUD's `initWithView:`. Its bezel is blurred,
    /// as MBProgressHUD's (style `.blur`).
    public convenience init(view: ParentSpec) {
        var made: HUD?
        do { made = try HUD(over: view) } catch { Console.error("MBProgressHUD: \(error)\n") }
        made?.blur = MBProgressHUD.bezelBlurRadius
        self.init(made)
        made?.attach(self)
    }

    private init(_ hud: HUD?) {
        self.hud = hud
        label = Label(hud, \.label, \.labelFont)
        detailsLabel = Label(hud, \.details, \.detailsFont)
        button = Button(hud)
        bezelView = MBBackgroundView(hud, bezel: true)
        backgroundView = MBBackgroundView(hud, bezel: false)
    }

    /// The MBProgressHUD of `hud`: the same object while anyone holds it.
    static func of(_ hud: HUD) -> MBProgressHUD { hud.wrapper { MBProgressHUD($0) } }

    /// Makes a HUD over `view` and shows it: `showHUDAddedTo:animated:`.
    @discardableResult
    public static func showAdded(to view: ParentSpec, animated: Bool) -> MBProgressHUD {
        let mb = MBProgressHUD(view: view)
        mb.show(animated: animated)
        return mb
    }

    /// Hides the top-most HUD over `view` that is not already hiding; false when there is none:
    /// `hideHUDForView:animated:`.
    @discardableResult
    public static func hide(for view: ParentSpec, animated: Bool) -> Bool {
        guard let top = HUD.hud(over: view) else { return false }
        top.removeFromParentOnHide = true
        top.hide(animated: animated)
        return true
    }

    /// The top-most HUD over `view` that is not hiding (any ``HUD``, not only those made here):
    /// `HUDForView:`.
    public static func forView(_ view: ParentSpec) -> MBProgressHUD? {
        HUD.hud(over: view).map(MBProgressHUD.of)
    }

    // MARK: Showing and hiding

    /// Shows the HUD (after `graceTime`).
    public func show(animated: Bool) { hud?.show(animated: animated) }
    /// Hides the HUD (waiting out `minShowTime`).
    public func hide(animated: Bool) { hud?.hide(animated: animated, afterDelay: 0) }
    /// Hides the HUD after `delay` seconds; a show before then cancels it.
    public func hide(animated: Bool, afterDelay delay: TimeInterval) { hud?.hide(animated: animated, afterDelay: delay) }

    // MARK: Appearance and behaviour

    /// What the indicator shows (default `.indeterminate`).
    public var mode: MBProgressHUDMode {
        get { MBProgressHUDMode(hud?.mode ?? .indeterminate) }
        set { hud?.mode = newValue.hudMode }
    }
    /// Progress 0...1 of the determinate modes.
    public var progress: Float {
        get { Float(hud?.progress ?? 0) }
        set { hud?.progress = Double(newValue) }
    }
    /// A `Progress` whose `fractionCompleted` drives the indicator, polled once a frame.
    public var progressObject: Progress? {
        get { hud?.progressObject }
        set { hud?.progressObject = newValue }
    }
    /// The image of `.customView`: a PNG or SVG file, or an icon name of the icon theme
    /// (`dialog-information`; symbolic icons take the content colour).
    public var customView: String? {
        get { hud?.image }
        set { hud?.image = newValue }
    }
    /// Colour of the labels, the button and the indicator (nil: the style's).
    public var contentColor: HUDColor? {
        get { hud?.contentColor }
        set { hud?.contentColor = newValue }
    }
    /// How the HUD shows and hides (default `.fade`).
    public var animationType: MBProgressHUDAnimation {
        get { MBProgressHUDAnimation(hud?.animation ?? .fade) }
        set { hud?.animation = newValue.hudAnimation }
    }
    /// The bezel's offset from the centre; 1e6 in a direction pins it `margin` from that edge.
    public var offset: CGPoint {
        get { hud.map { CGPoint(x: $0.offset.x, y: $0.offset.y) } ?? .zero }
        set { hud?.offset = (Double(newValue.x), Double(newValue.y)) }
    }
    /// Space around the content and from the parent's edges (default 20).
    public var margin: CGFloat {
        get { CGFloat(hud?.margin ?? 20) }
        set { hud?.margin = Double(newValue) }
    }
    /// The smallest size of the bezel.
    public var minSize: CGSize {
        get { hud.map { CGSize(width: $0.minSize.width, height: $0.minSize.height) } ?? .zero }
        set { hud?.minSize = (Double(newValue.width), Double(newValue.height)) }
    }
    /// A square bezel when it fits.
    public var isSquare: Bool {
        get { hud?.isSquare ?? false }
        set { hud?.isSquare = newValue }
    }
    /// Seconds before the HUD appears; hidden before then, it never does.
    public var graceTime: TimeInterval {
        get { hud?.graceTime ?? 0 }
        set { hud?.graceTime = newValue }
    }
    /// Once shown, the HUD stays at least this long.
    public var minShowTime: TimeInterval {
        get { hud?.minShowTime ?? 0 }
        set { hud?.minShowTime = newValue }
    }
    /// Whether a hidden HUD gives its window back (on by default).
    public var removeFromSuperViewOnHide: Bool {
        get { hud?.removeFromParentOnHide ?? true }
        set { hud?.removeFromParentOnHide = newValue }
    }
    /// Whether the HUD catches input over its parent (the default); false lets it through.
    public var isUserInteractionEnabled: Bool {
        get { hud?.mask != HUDMask.none }
        set {
            hud?.modify { c in
                if !newValue { c.mask = HUDMask.none } else if c.mask == HUDMask.none { c.mask = nil }
            }
        }
    }
    /// Runs once the HUD has been hidden.
    public var completionBlock: MBProgressHUDCompletionBlock? {
        get { hud?.completion }
        set { hud?.completion = newValue }
    }
    /// Told when the HUD has been hidden (held weakly).
    public var delegate: MBProgressHUDDelegate? {
        get { lock.withLock { delegateStorage } }
        set {
            lock.withLock { delegateStorage = newValue }
            if let delegate = newValue {
                let held = WeakDelegate(delegate)
                hud?.onHidden = { h in held.delegate?.hudWasHidden(MBProgressHUD.of(h)) }
            } else {
                hud?.onHidden = nil
            }
        }
    }
    /// Guards the two below.
    let lock = Locked()
    private weak var delegateStorage: MBProgressHUDDelegate?
    /// 0.9's `taskInProgress` (see MBProgressHUD+Legacy).
    var taskFlag = false

    /// The delegate, held weakly by the HUD's hidden callback. It is called where callbacks run
    /// (the main queue, or `HUD.callbackQueue`), as MBProgressHUD calls it on the main thread.
    private final class WeakDelegate: @unchecked Sendable {
        weak var delegate: MBProgressHUDDelegate?
        init(_ d: MBProgressHUDDelegate) { delegate = d }
    }

    // MARK: Parts

    /// A label of the HUD (MBProgressHUD's `UILabel`s): its text and font.
    public final class Label: @unchecked Sendable {
        let hud: HUD?
        private let text_: ReferenceWritableKeyPath<HUD, String>
        private let font_: ReferenceWritableKeyPath<HUD, String>

        init(_ hud: HUD?, _ text: ReferenceWritableKeyPath<HUD, String>, _ font: ReferenceWritableKeyPath<HUD, String>) {
            self.hud = hud
            text_ = text
            font_ = font
        }

        /// The text (nil or empty: no label).
        public var text: String? {
            get { hud.map { $0[keyPath: text_] }.flatMap { $0.isEmpty ? nil : $0 } }
            set { hud?[keyPath: text_] = newValue ?? "" }
        }
        /// The font: a `UIFont`, or a Pango font description (`"system-ui Semibold 16px"`).
        public var font: UIFont {
            get { UIFont(description: hud?[keyPath: font_] ?? "") }
            set { hud?[keyPath: font_] = newValue.fontDescription }
        }
    }

    /// The HUD's button (MBProgressHUD's `UIButton`): a title and an action.
    public final class Button: @unchecked Sendable {
        /// `UIControl.State`: only `.normal`'s title is shown.
        public struct State: OptionSet, Sendable {
            public let rawValue: UInt
            public init(rawValue: UInt) { self.rawValue = rawValue }
            public static let normal = State([])
            public static let highlighted = State(rawValue: 1 << 0)
            public static let disabled = State(rawValue: 1 << 1)
            public static let selected = State(rawValue: 1 << 2)
        }
        /// `UIControl.Event`: the button acts on a click (`.touchUpInside`).
        public struct Event: OptionSet, Sendable {
            public let rawValue: UInt
            public init(rawValue: UInt) { self.rawValue = rawValue }
            public static let touchUpInside = Event(rawValue: 1 << 6)
        }

        private let hud: HUD?
        init(_ hud: HUD?) { self.hud = hud }

        /// The title (nil: no button).
        public var title: String? {
            get { hud.flatMap { $0.button.isEmpty ? nil : $0.button } }
            set { hud?.button = newValue ?? "" }
        }
        /// UIButton's `setTitle(_:for:)`; titles of states other than `.normal` are ignored.
        public func setTitle(_ title: String?, for state: State) {
            if state == .normal { self.title = title }
        }
        /// UIButton's `title(for:)`.
        public func title(for state: State) -> String? { state == .normal ? title : nil }
        /// Runs on a click on the button (and on Escape while the HUD blocks input).
        public var action: (@Sendable () -> Void)? {
            get { hud?.onButton }
            set { hud?.onButton = newValue }
        }
        /// Sets the action, as `addTarget(_:action:for: .touchUpInside)` does with a selector.
        public func addTarget(for events: Event = .touchUpInside, action: @escaping @Sendable () -> Void) {
            if events.contains(.touchUpInside) { self.action = action }
        }
        /// Removes the action.
        public func removeTarget(for events: Event = .touchUpInside) {
            if events.contains(.touchUpInside) { action = nil }
        }
    }
}
