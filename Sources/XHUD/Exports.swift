import HUDCore

// What an app needs from the modules beneath, under the names MBProgressHUD and SVProgressHUD
// users know; nothing else of them is public through `import XHUD`.

/// What the indicator shows: `.indeterminate` (a spinner), `.determinate` (a pie), `.annular`
/// (a ring), `.bar`, the `.success`, `.error`, `.info` and `.warning` icons, `.custom` (an
/// image) or `.text` alone.
public typealias HUDMode = HUDCore.HUDMode
/// `.dark`, `.light` or `.custom` (with `bezelColor` and `contentColor`).
public typealias HUDStyle = HUDCore.HUDStyle
/// How a HUD shows and hides: `.fade` (MBProgressHUD's default), `.zoom`, `.zoomIn`,
/// `.zoomOut`, `.pop` (SVProgressHUD's) or `.none`.
public typealias HUDAnimation = HUDCore.HUDAnimation
/// What covers the parent region: `.none` (input passes through), `.clear` (blocks input),
/// `.black`, `.gradient` or `.color(_:)` (they dim it and block input).
public typealias HUDMask = HUDCore.HUDMask
/// The spinner: `.ring` (SVProgressHUD's) or `.spokes` (the classic activity indicator).
public typealias SpinnerStyle = HUDCore.SpinnerStyle
/// A colour with straight alpha, components 0...1: `HUDColor(1, 1, 1, 0.7)`.
public typealias HUDColor = HUDCore.RGBA
/// What a HUD covers, as MBProgressHUD covers its view: `.monitor("pointer" | "focused" |
/// "primary" | NAME | INDEX)`, `.window("active" | "pointer" | "root" | ID)` (followed when it
/// moves; the HUD goes with it) or `.geometry("WxH+X+Y")`.
public typealias ParentSpec = HUDCore.ParentSpec
/// Everything a HUD shows and how it times itself, as one value (`HUD.configuration`).
public typealias HUDConfiguration = HUDCore.HUDConfiguration

extension HUDColor {
    /// UIColor's spelling: red, green, blue and alpha, each 0...1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.init(red, green, blue, alpha)
    }

    /// A grey (0 black, 1 white) with alpha: UIColor's `init(white:alpha:)`.
    public init(white: Double, alpha: Double = 1) {
        self.init(white, white, white, alpha)
    }
}
