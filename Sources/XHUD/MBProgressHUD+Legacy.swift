import Foundation
import HUDCore

// MBProgressHUD 0.9's API, kept by 1.0 and 1.1 in their `Deprecated` category (deprecated there
// with these messages, gone in 1.2), its constants, and the Swift 2 spellings of the class
// methods: code written against any of them compiles unchanged.

/// Far enough in any direction of `offset` to pin the bezel `margin` from that edge: MBProgressHUD
/// 1.x's `MBProgressMaxOffset`.
public let MBProgressMaxOffset: CGFloat = 1_000_000

// The Objective-C names of the enums' cases, which ported code sometimes keeps.
public let MBProgressHUDModeIndeterminate = MBProgressHUDMode.indeterminate
public let MBProgressHUDModeDeterminate = MBProgressHUDMode.determinate
public let MBProgressHUDModeDeterminateHorizontalBar = MBProgressHUDMode.determinateHorizontalBar
public let MBProgressHUDModeAnnularDeterminate = MBProgressHUDMode.annularDeterminate
public let MBProgressHUDModeCustomView = MBProgressHUDMode.customView
public let MBProgressHUDModeText = MBProgressHUDMode.text
public let MBProgressHUDAnimationFade = MBProgressHUDAnimation.fade
public let MBProgressHUDAnimationZoom = MBProgressHUDAnimation.zoom
public let MBProgressHUDAnimationZoomOut = MBProgressHUDAnimation.zoomOut
public let MBProgressHUDAnimationZoomIn = MBProgressHUDAnimation.zoomIn
public let MBProgressHUDBackgroundStyleSolidColor = MBProgressHUDBackgroundStyle.solidColor
public let MBProgressHUDBackgroundStyleBlur = MBProgressHUDBackgroundStyle.blur

// Swift 2's capitalised spellings of the cases.
extension MBProgressHUDMode {
    public static let Indeterminate = indeterminate, Determinate = determinate
    public static let DeterminateHorizontalBar = determinateHorizontalBar, AnnularDeterminate = annularDeterminate
    public static let CustomView = customView, Text = text
}

extension MBProgressHUDAnimation {
    public static let Fade = fade, Zoom = zoom, ZoomOut = zoomOut, ZoomIn = zoomIn
}

extension MBProgressHUD {
    // MARK: Class methods, Swift 2 spellings (not deprecated: 1.x has them under new names)

    /// `showHUDAddedTo:animated:` as Swift 2 spelled it: ``showAdded(to:animated:)``.
    @discardableResult
    public static func showHUDAddedTo(_ view: ParentSpec, animated: Bool) -> MBProgressHUD { showAdded(to: view, animated: animated) }
    /// `hideHUDForView:animated:` as Swift 2 spelled it: ``hide(for:animated:)``.
    @discardableResult
    public static func hideHUDForView(_ view: ParentSpec, animated: Bool) -> Bool { hide(for: view, animated: animated) }
    /// `HUDForView:` as Swift 2 spelled it: ``forView(_:)``.
    public static func HUDForView(_ view: ParentSpec) -> MBProgressHUD? { forView(view) }

    // MARK: 0.9's class methods (deprecated in 1.0)

    /// Every HUD over `view` that is not hidden yet, in the order they were shown.
    @available(*, deprecated, message: "Store references when using more than one HUD per view.")
    public static func allHUDs(for view: ParentSpec) -> [MBProgressHUD] { Registry.all(over: view).map(MBProgressHUD.of) }
    /// `allHUDsForView:` as Swift 2 spelled it.
    @available(*, deprecated, message: "Store references when using more than one HUD per view.")
    public static func allHUDsForView(_ view: ParentSpec) -> [MBProgressHUD] { Registry.all(over: view).map(MBProgressHUD.of) }

    /// Hides every HUD over `view` (each gives its window back once hidden); how many there were.
    @available(*, deprecated, message: "Store references when using more than one HUD per view.")
    @discardableResult
    public static func hideAllHUDs(for view: ParentSpec, animated: Bool) -> Int { hideAll(view, animated) }
    /// `hideAllHUDsForView:animated:` as Swift 2 spelled it.
    @available(*, deprecated, message: "Store references when using more than one HUD per view.")
    @discardableResult
    public static func hideAllHUDsForView(_ view: ParentSpec, animated: Bool) -> Int { hideAll(view, animated) }

    private static func hideAll(_ view: ParentSpec, _ animated: Bool) -> Int {
        let huds = Registry.all(over: view)
        for hud in huds {
            hud.removeFromParentOnHide = true
            hud.hide(animated: animated)
        }
        return huds.count
    }

    // MARK: 0.9's instance methods (deprecated in 1.0)

    /// A HUD over a window: `initWithWindow:`.
    @available(*, deprecated, message: "Use initWithView: instead.")
    public convenience init(window: ParentSpec) { self.init(view: window) }

    @available(*, deprecated, message: "Use showAnimated: instead.")
    public func show(_ animated: Bool) { show(animated: animated) }
    @available(*, deprecated, message: "Use hideAnimated: instead.")
    public func hide(_ animated: Bool) { hide(animated: animated) }
    @available(*, deprecated, message: "Use hideAnimated:afterDelay: instead.")
    public func hide(_ animated: Bool, afterDelay delay: TimeInterval) { hide(animated: animated, afterDelay: delay) }

    /// Shows the HUD, runs `block` on `queue` (default: a global queue), then hides the HUD;
    /// `completionBlock`, when given, becomes the HUD's and runs once it is hidden.
    @available(*, deprecated, message: "Use GCD directly.")
    public func show(
        animated: Bool, whileExecuting block: @escaping @Sendable () -> Void,
        onQueue queue: DispatchQueue = .global(), completionBlock: MBProgressHUDCompletionBlock? = nil
    ) {
        runWhileShown(animated, block, queue, completionBlock)
    }
    /// The same, with Swift 3's `on:` for the queue.
    @available(*, deprecated, message: "Use GCD directly.")
    public func show(
        animated: Bool, whileExecuting block: @escaping @Sendable () -> Void,
        on queue: DispatchQueue, completionBlock: MBProgressHUDCompletionBlock? = nil
    ) {
        runWhileShown(animated, block, queue, completionBlock)
    }
    /// `showAnimated:whileExecutingBlock:onQueue:completionBlock:` as Swift 2 spelled it.
    @available(*, deprecated, message: "Use GCD directly.")
    public func showAnimated(
        _ animated: Bool, whileExecutingBlock block: @escaping @Sendable () -> Void,
        onQueue queue: DispatchQueue = .global(), completionBlock: MBProgressHUDCompletionBlock? = nil
    ) {
        runWhileShown(animated, block, queue, completionBlock)
    }

    private func runWhileShown(
        _ animated: Bool, _ block: @escaping @Sendable () -> Void, _ queue: DispatchQueue,
        _ completion: MBProgressHUDCompletionBlock?
    ) {
        if let completion { completionBlock = completion }
        lock.withLock { taskFlag = true }
        show(animated: animated)
        queue.async { [self] in
            block()
            lock.withLock { taskFlag = false }
            hide(animated: animated)
        }
    }

    // MARK: 0.9's properties (deprecated in 1.0)

    /// Whether a task runs; 1.x needs it no more, and the HUD shows after `graceTime` either way.
    @available(*, deprecated, message: "No longer needed.")
    public var taskInProgress: Bool {
        get { lock.withLock { taskFlag } }
        set { lock.withLock { taskFlag = newValue } }
    }

    @available(*, deprecated, message: "Use label.text instead.")
    public var labelText: String? {
        get { label.text }
        set { label.text = newValue }
    }
    @available(*, deprecated, message: "Use label.font instead.")
    public var labelFont: UIFont {
        get { label.font }
        set { label.font = newValue }
    }
    /// The labels, button and indicator share one colour here: this sets ``contentColor``.
    @available(*, deprecated, message: "Use label.textColor instead.")
    public var labelColor: HUDColor? {
        get { contentColor }
        set { contentColor = newValue }
    }
    @available(*, deprecated, message: "Use detailsLabel.text instead.")
    public var detailsLabelText: String? {
        get { detailsLabel.text }
        set { detailsLabel.text = newValue }
    }
    @available(*, deprecated, message: "Use detailsLabel.font instead.")
    public var detailsLabelFont: UIFont {
        get { detailsLabel.font }
        set { detailsLabel.font = newValue }
    }
    /// Sets ``contentColor``, as `labelColor`.
    @available(*, deprecated, message: "Use detailsLabel.textColor instead.")
    public var detailsLabelColor: HUDColor? {
        get { contentColor }
        set { contentColor = newValue }
    }
    /// Sets ``contentColor``, as `labelColor`.
    @available(
        *, deprecated,
        message:
            "Use UIAppearance to customize UIActivityIndicatorView. E.g.: [UIActivityIndicatorView appearanceWhenContainedIn:[MBProgressHUD class], nil].color = [UIColor redColor];"
    )
    public var activityIndicatorColor: HUDColor? {
        get { contentColor }
        set { contentColor = newValue }
    }

    /// The alpha of 0.9's flat bezel (default 0.8), black unless `color` is set: a flat bezel.
    @available(*, deprecated, message: "Customize bezelView properties instead.")
    public var opacity: CGFloat {
        get { CGFloat(hud?.bezelColor?.a ?? 0.8) }
        set {
            hud?.modify { c in
                let base = c.bezelColor ?? HUDColor(0, 0, 0, 0.8)
                c.bezelColor = HUDColor(base.r, base.g, base.b, Double(newValue))
                c.blur = 0
            }
        }
    }
    /// 0.9's bezel colour (nil: black at `opacity`): a flat bezel of that colour.
    @available(*, deprecated, message: "Customize the bezelView color instead.")
    public var color: HUDColor? {
        get { hud?.bezelColor }
        set {
            hud?.modify { c in
                c.bezelColor = newValue; c.blur = 0
            }
        }
    }
    @available(*, deprecated, message: "Set offset.x instead.")
    public var xOffset: CGFloat {
        get { offset.x }
        set { offset = CGPoint(x: newValue, y: offset.y) }
    }
    @available(*, deprecated, message: "Set offset.y instead.")
    public var yOffset: CGFloat {
        get { offset.y }
        set { offset = CGPoint(x: offset.x, y: newValue) }
    }
    /// The bezel's corner radius (0.9's default is 10, the HUD's own).
    @available(*, deprecated, message: "Set bezelView.layer.cornerRadius instead.")
    public var cornerRadius: CGFloat {
        get { CGFloat(hud?.cornerRadius ?? 10) }
        set { hud?.cornerRadius = Double(newValue) }
    }
    /// 0.9's dimmed background: a radial gradient, clear at the centre to black 0.75 at radius
    /// min(width, height) (the `.gradient` mask); it blocks input, as the HUD always did.
    @available(*, deprecated, message: "Customize HUD background properties instead.")
    public var dimBackground: Bool {
        get { hud?.mask == .gradient }
        set { hud?.modify { c in if newValue { c.mask = .gradient } else if c.mask == .gradient { c.mask = nil } } }
    }

    /// `isSquare` as 0.9 and Swift 2 spelled it.
    public var square: Bool {
        get { isSquare }
        set { isSquare = newValue }
    }
}

extension MBProgressHUD.Label {
    /// The labels, button and indicator share one colour here: this is the HUD's `contentColor`.
    public var textColor: HUDColor? {
        get { hud?.contentColor }
        set { hud?.contentColor = newValue }
    }
}
