import ArgumentParser
import HUDCore
import HUDX11

extension HUDMode: ExpressibleByArgument {}
extension HUDStyle: ExpressibleByArgument {}
extension HUDAnimation: ExpressibleByArgument {}
extension SpinnerStyle: ExpressibleByArgument {}

/// `xhud`: flags named after MBProgressHUD's vocabulary.
struct XHUDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xhud",
        abstract: "Show a progress HUD (MBProgressHUD / SVProgressHUD style) over an X11 desktop.",
        discussion: """
        The HUD stays until it gets SIGINT or SIGTERM, --hide-after passes, or its progress input
        ends. Progress input is read from stdin only when stdin is a pipe or a FIFO: a bare number
        is a percentage (0-100), '# text' sets the label, 'pulsate:true|false' switches to the spinner.

        EXIT STATUS
          0    the HUD was shown and hidden (or input ended)
          1    cancelled with the button
          2    usage error: unknown flag, bad number, unknown colour, unreadable image, unknown window
          3    no X display: DISPLAY unset or the server refused the connection
          128+N  ended by signal N other than SIGINT/SIGTERM
        """)

    @Option(help: "indeterminate | determinate (pie) | annular (ring) | bar | success | error | info | warning | custom (--image) | text")
    var mode: HUDMode = .indeterminate
    @Option(help: "The single-line label (ellipsized when too long).")
    var label: String = ""
    @Option(help: "The multi-line details label.")
    var details: String = ""
    @Option(help: "Progress 0...1 for determinate, annular and bar.")
    var progress: Double = 0
    @Option(help: "A button with this title; clicking it cancels (exit 1).")
    var button: String = ""
    @Option(help: "PNG image for --mode custom.")
    var image: String?
    @Option(help: "Size in pixels of the box the image is fitted into.")
    var imageSize: Double = 37
    @Flag(help: "Tint the image with the content colour.")
    var tintImage = false
    @Option(help: "ring (SVProgressHUD) | spokes (classic activity indicator)")
    var spinner: SpinnerStyle = .ring
    @Flag(help: "Show the value (45%) beside a bar or inside a ring.")
    var showValue = false
    @Flag(help: "Interpret label and details as Pango markup.")
    var markup = false

    @Option(help: "dark | light | custom")
    var style: HUDStyle = .dark
    @Option(help: "Bezel colour: #RRGGBB[AA], rgba(r,g,b,a), a name, NAME/ALPHA.")
    var bezelColor: String?
    @Option(help: "Colour of label, details, button and indicator.")
    var contentColor: String?
    @Option(help: "none (click-through) | clear (blocks input) | black | gradient | COLOR. Default: clear for spinner and progress, none for notifications.")
    var mask: String?
    @Flag(help: "No drop shadow under the bezel.")
    var noShadow = false
    @Option(help: "Margin around the content and from the region's edges.")
    var margin: Double = 20
    @Option(help: "Corner radius of the bezel.")
    var cornerRadius: Double = 10
    @Option(help: "Minimum bezel size, WxH.")
    var minSize: String?
    @Flag(help: "Make the bezel square when it fits.")
    var square = false
    @Option(help: "Offset of the bezel from the centre, X,Y; a huge value pins it to that edge.")
    var offset: String?
    @Option(help: "Font of the label (Pango description, e.g. 'Sans Bold 16px').")
    var font: String?
    @Option(help: "Font of the details label.")
    var detailsFont: String?

    @Option(help: "fade | zoom | zoom-in | zoom-out | pop | none")
    var animation: HUDAnimation = .fade
    @Option(help: "Seconds to wait before showing; a HUD hidden before then never appears.")
    var grace: Double = 0
    @Option(help: "Once shown, stay at least this many seconds.")
    var minShow: Double = 0
    @Option(help: "Hide after this many seconds.")
    var hideAfter: Double?

    @Option(help: "Parent window: ID | active | pointer | root. The HUD follows it and ends with it.")
    var window: String?
    @Option(help: "Parent monitor: pointer | focused | primary | NAME | INDEX (default: pointer).")
    var monitor: String?
    @Option(help: "Parent region WxH+X+Y in screen pixels.")
    var geometry: String?
    @Option(help: "Scale factor (default: Xft.dpi / 96).")
    var scale: Double?

    func validate() throws {
        for (name, v) in [("--progress", progress), ("--margin", margin), ("--grace", grace), ("--min-show", minShow),
                          ("--corner-radius", cornerRadius), ("--image-size", imageSize)] {
            guard v.isFinite, v >= 0 else { throw ValidationError("\(name) must be a non-negative number") }
        }
        guard progress <= 1 else { throw ValidationError("--progress must be between 0 and 1") }
        if let h = hideAfter, !(h.isFinite && h >= 0) { throw ValidationError("--hide-after must be a non-negative number") }
        if let s = scale, !(s.isFinite && s >= 0.5 && s <= 8) { throw ValidationError("--scale must be between 0.5 and 8") }
        if [window, monitor, geometry].compactMap({ $0 }).count > 1 {
            throw ValidationError("give only one of --window, --monitor and --geometry")
        }
        if mode == .custom && image == nil { throw ValidationError("--mode custom needs --image FILE") }
    }

    /// The HUD configuration these flags describe.
    func hudConfiguration() throws -> HUDConfiguration {
        var c = HUDConfiguration()
        c.mode = mode; c.label = label; c.details = details; c.progress = progress
        c.buttonTitle = button; c.imagePath = image; c.imageSize = imageSize; c.tintImage = tintImage
        c.spinner = spinner; c.showValue = showValue; c.markup = markup
        c.style = style; c.shadow = !noShadow; c.margin = margin; c.cornerRadius = cornerRadius; c.square = square
        c.animation = animation; c.graceTime = grace; c.minShowTime = minShow
        do {
            if let b = bezelColor { c.bezelColor = try RGBA.parse(b) }
            if let f = contentColor { c.contentColor = try RGBA.parse(f) }
            if let m = mask { c.mask = try HUDMask.parse(m) }
        } catch let e as RGBA.ParseError {
            throw ValidationError(e.description)
        }
        if let s = minSize {
            let p = s.split(separator: "x").compactMap { Double($0) }
            guard p.count == 2, p.allSatisfy({ $0 >= 0 && $0.isFinite }) else { throw ValidationError("--min-size must be WxH, e.g. 120x120") }
            c.minSize = Size(width: p[0], height: p[1])
        }
        if let o = offset {
            let p = o.split(separator: ",").compactMap { Double($0) }
            guard p.count == 2, p.allSatisfy({ $0.isFinite }) else { throw ValidationError("--offset must be X,Y, e.g. 0,200") }
            c.offset = Point(x: p[0], y: p[1])
        }
        if let f = font { c.labelFont = f }
        if let f = detailsFont { c.detailsFont = f }
        return c
    }

    var parentSpec: ParentSpec {
        if let w = window { return .window(w) }
        if let g = geometry { return .geometry(g) }
        return .monitor(monitor ?? "pointer")
    }

    mutating func run() throws {
        throw ExitCode(Runner(options: self).run())
    }
}
