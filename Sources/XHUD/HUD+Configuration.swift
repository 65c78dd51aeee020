import Foundation
import HUDSystem
import HUDCore
import HUDEngine
import HUDRender

/// What a HUD shows and how: set from any thread, on screen in the next frame.
extension HUD {
    /// What the indicator shows (default `.indeterminate`, the spinner).
    public var mode: HUDMode {
        get { read { $0.config.mode } }
        set { change { $0.config.mode = newValue } }
    }
    /// The one-line label, ellipsized when too long.
    public var label: String {
        get { read { $0.config.label } }
        set { change { $0.config.label = newValue } }
    }
    /// The multi-line details label.
    public var details: String {
        get { read { $0.config.details } }
        set { change { $0.config.details = newValue } }
    }
    /// Progress 0...1 for `.determinate`, `.annular` and `.bar`; out of range or NaN is clamped.
    public var progress: Double {
        get { read { $0.config.progress } }
        set { change { $0.config.progress = newValue.isNaN ? 0 : Swift.min(1, Swift.max(0, newValue)) } }
    }
    /// The button's title; the button shows when it has one (and cancels with `onButton`).
    public var button: String {
        get { read { $0.config.button } }
        set { change { $0.config.button = newValue } }
    }
    /// Seconds to wait before showing; a HUD hidden before then never appears. Applies to the next show.
    public var graceTime: Double {
        get { read { $0.config.graceTime } }
        set { change { $0.config.graceTime = newValue } }
    }
    /// Once shown, the HUD stays at least this long. Applies to the next hide.
    public var minShowTime: Double {
        get { read { $0.config.minShowTime } }
        set { change { $0.config.minShowTime = newValue } }
    }
    /// How the HUD shows and hides (default `.fade`, MBProgressHUD's).
    public var animation: HUDAnimation {
        get { read { $0.config.animation } }
        set { change { $0.config.animation = newValue } }
    }
    /// The show animation's length in seconds (nil: the animation's own, 0.3 s; `.pop` 0.15 s).
    public var showDuration: Double? {
        get { read { $0.config.showDuration } }
        set { change { $0.config.showDuration = newValue } }
    }
    /// The hide animation's length in seconds (nil: the animation's own).
    public var hideDuration: Double? {
        get { read { $0.config.hideDuration } }
        set { change { $0.config.hideDuration = newValue } }
    }
    /// What covers the parent region (default: `.clear` for spinners and progress, `.none` for
    /// icons and text); `.blur(_:)` is MBProgressHUD's background view with the blur style.
    public var mask: HUDMask? {
        get { read { $0.config.mask } }
        set { change { $0.config.mask = newValue } }
    }
    /// Dark (default) or light bezel and content, or `.custom` with the two colours.
    public var style: HUDStyle {
        get { read { $0.config.style } }
        set { change { $0.config.style = newValue } }
    }
    /// Colour of the label, details, button and indicator (nil: the style's).
    public var contentColor: HUDColor? {
        get { read { $0.config.contentColor } }
        set { change { $0.config.contentColor = newValue } }
    }
    /// Colour of the bezel (nil: the style's).
    public var bezelColor: HUDColor? {
        get { read { $0.config.bezelColor } }
        set { change { $0.config.bezelColor = newValue } }
    }
    /// Blur radius of what shows through the bezel, logical pixels (0, the default: none; 20 is
    /// iOS's material, MBProgressHUD's bezel style `.blur`).
    public var blur: Double {
        get { read { $0.config.blur } }
        set { change { $0.config.blur = newValue } }
    }
    /// The spinner of `.indeterminate`: SVProgressHUD's ring (default) or the classic spokes.
    public var spinner: SpinnerStyle {
        get { read { $0.config.spinner } }
        set { change { $0.config.spinner = newValue } }
    }
    /// Line width of the spinner's ring and the progress ring (default 2).
    public var ringThickness: Double {
        get { read { $0.config.ringThickness } }
        set { change { $0.config.ringThickness = newValue } }
    }
    /// Radius of the spinner's ring and the progress ring, to the middle of the line (nil, the
    /// default: the indicator's own 37 px).
    public var ringRadius: Double? {
        get { read { $0.config.ringRadius } }
        set { change { $0.config.ringRadius = newValue } }
    }
    /// The label's font, a Pango font description (default `system-ui Semibold 16px`: the
    /// desktop's UI font, semibold as iOS draws a HUD's label).
    public var labelFont: String {
        get { read { $0.config.labelFont } }
        set { change { $0.config.labelFont = newValue } }
    }
    /// The details label's font (default `system-ui 12px`, regular).
    public var detailsFont: String {
        get { read { $0.config.detailsFont } }
        set { change { $0.config.detailsFont = newValue } }
    }
    /// The button's font (default `system-ui Semibold 12px`).
    public var buttonFont: String {
        get { read { $0.config.buttonFont } }
        set { change { $0.config.buttonFont = newValue } }
    }
    /// The bezel's offset from the centre of the parent; far beyond an edge pins it there.
    public var offset: (x: Double, y: Double) {
        get { read { ($0.config.offset.x, $0.config.offset.y) } }
        set { change { $0.config.offset = Point(x: newValue.x, y: newValue.y) } }
    }
    /// Space around the content and from the parent's edges (default 20).
    public var margin: Double {
        get { read { $0.config.margin } }
        set { change { $0.config.margin = newValue } }
    }
    /// The smallest size of the bezel.
    public var minSize: (width: Double, height: Double) {
        get { read { ($0.config.minSize.width, $0.config.minSize.height) } }
        set { change { $0.config.minSize = Size(width: newValue.width, height: newValue.height) } }
    }
    /// A square bezel when it fits.
    public var isSquare: Bool {
        get { read { $0.config.square } }
        set { change { $0.config.square = newValue } }
    }
    /// The bezel's corner radius (default 10).
    public var cornerRadius: Double {
        get { read { $0.config.cornerRadius } }
        set { change { $0.config.cornerRadius = newValue } }
    }
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
    public var imageSize: Double {
        get { read { $0.config.imageSize } }
        set { change { $0.config.imageSize = newValue } }
    }
    /// Images drawn in the content colour (their alpha kept), as SVProgressHUD's; symbolic icons
    /// always are. Off by default.
    public var tintImage: Bool {
        get { read { $0.config.tintImage } }
        set { change { $0.config.tintImage = newValue } }
    }
    /// An image that replaces the drawn success icon: a file or an icon name (nil: the drawn icon).
    public var successImage: String? {
        get { read { $0.config.successImage } }
        set { setResultImage(newValue, \.successImage) }
    }
    /// An image that replaces the drawn error icon.
    public var errorImage: String? {
        get { read { $0.config.errorImage } }
        set { setResultImage(newValue, \.errorImage) }
    }
    /// An image that replaces the drawn info icon.
    public var infoImage: String? {
        get { read { $0.config.infoImage } }
        set { setResultImage(newValue, \.infoImage) }
    }
    /// An image that replaces the drawn warning icon.
    public var warningImage: String? {
        get { read { $0.config.warningImage } }
        set { setResultImage(newValue, \.warningImage) }
    }

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
    public var scale: Double? {
        get { read { $0.scale } }
        set { change { $0.scale = newValue } }
    }
    /// Hidden HUDs give their window back (MBProgressHUD's `removeFromSuperViewOnHide`); showing
    /// one again makes a new window. On by default.
    public var removeFromParentOnHide: Bool {
        get { read { $0.removeFromParentOnHide } }
        set { change { $0.removeFromParentOnHide = newValue } }
    }
    /// The whole configuration at once.
    public var configuration: HUDConfiguration {
        get { read { $0.config } }
        set { change { $0.config = newValue } }
    }

    /// Foundation's `Progress`, polled once a frame by the display link while shown; its
    /// `fractionCompleted` drives the indicator (MBProgressHUD's `progressObject`).
    public var progressObject: Progress? {
        get { read { $0.progressObject } }
        set { change { $0.progressObject = newValue } }
    }
    /// With a progress object, its `localizedDescription` becomes the details label.
    public var showsProgressDescription: Bool {
        get { read { $0.showsProgressDescription } }
        set { change { $0.showsProgressDescription = newValue } }
    }

    /// Changes several settings in one step (no other thread sees half of them).
    func modify(_ body: (inout HUDConfiguration) -> Void) { change { body(&$0.config) } }

    /// The result image set to `image`: a file as it is, an icon name resolved (nil when no
    /// theme has it: the drawn icon stays).
    private func setResultImage(_ image: String?, _ field: WritableKeyPath<HUDConfiguration, String?>) {
        let path = image.flatMap { ImageNames.resolve($0, box: imageSize)?.path }
        change { $0.config[keyPath: field] = path }
    }
}
