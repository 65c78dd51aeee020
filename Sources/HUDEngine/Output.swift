import HUDCore
import HUDRender

/// The interface between a HUD's orchestration (`HUDController`) and a display backend, as
/// dunst's `output.h` is between its drawing and X11 or Wayland: the controller decides what to
/// draw and when; a backend owns windows, pixels and requests, follows the parent region and
/// turns the display's events into the controller's calls. X11 implements it in HUDX11
/// (`X11HUD`), Wayland in HUDWayland (`WaylandHUD`).
///
/// Ownership: whoever drives a HUD (the server, the library) holds its `HUDController`; the
/// controller holds its backend; the backend holds the controller weakly, and its loop holds
/// the backend from `attach` to `detach`. All of them belong to the loop's thread.
///
/// Coordinates are device pixels: `rect`s on the screen, everything else relative to the
/// output's own top-left corner.
package protocol HUDBackend: AnyObject {
    /// Called once, by the controller made on this backend, at the end of its `init`: from then
    /// on the backend reports to it (holding it weakly) and its loop runs it.
    func attach(_ controller: HUDController)
    /// Called by the controller's `dispose` (or its deinit): the backend leaves its loop and
    /// lets go of what it asked of the display. Harmless when called again.
    func detach()
    /// The refresh rate of the monitor the HUD is on.
    var refreshRate: Double { get }
    /// The clock every deadline and animation of this backend's HUDs runs on.
    var clock: HUDClock { get }
    /// One refresh of the display link.
    var framePeriod: Double { get }
    /// Whether the display link is ticking now (frames then wait for its ticks).
    var isTicking: Bool { get }
    /// Starts or stops the display link after a HUD's state changed.
    func updateTicks()
    /// Whether a compositor blends windows now.
    var isComposited: Bool { get }
    /// The screen, to keep a HUD's pixels on it.
    var screenRect: Rect { get }
    /// A window for one HUD (not mapped yet). `overScreen`: it paints the whole region (a mask),
    /// so without a compositor it blends over what is really beneath, not the wallpaper.
    func makeOutput(rect: Rect, blockInputOver: Rect?, clickThrough: Bool, overScreen: Bool) -> HUDOutput
    /// Where Pango's text is laid out off the loop (a server: one request's text never holds up
    /// the others' frames), and the loop that hears back; nil: on the loop, as it is measured.
    var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { get }
}

extension HUDBackend {
    package var textShaping: (shaper: TextShaper, loop: any HUDEventLoop)? { nil }
}

/// One HUD's surface on a display.
package protocol HUDOutput: AnyObject {
    var rect: Rect { get }
    var isMapped: Bool { get }
    /// Whether a compositor blends this window (else it is opaque and clipped to `setShape`).
    var composited: Bool { get }
    /// Whether what shows through a bezel that asks for a blur is blurred: by the backend
    /// without a compositor, by a compositor that honours the request with one.
    var blursBehind: Bool { get }
    func move(to rect: Rect, blocker region: Rect)
    /// The window is about to move step by step within `path` (a stack's slide: from where it
    /// is to where it goes); nil once it has arrived. Without a compositor, what lies beneath
    /// the whole path is taken (and blurred) once, not at every step.
    func willMove(within path: Rect?)
    /// Before a map: a HUD shown again takes what lies beneath anew.
    func prepareToMap()
    func map()
    func unmap()
    /// Draws the content into the output's image with `draw` (a Cairo image surface, ARGB32,
    /// the output's size) and sends what changed.
    func drawContent(_ draw: (OpaquePointer) -> Void)
    /// The spinner's sprite, drawn by `draw` into a Cairo context of `side` x `side` pixels when
    /// `key` differs from the last one.
    func setSprite(key: SpriteKey, draw: (OpaquePointer) -> Void)
    /// Shows a frame: the content (and the sprite turned over it) with an alpha and a zoom.
    func present(_ composition: Composition)
    /// The bezel's shape: the pixels the window shows (unless a mask paints the whole region),
    /// and where a blur goes. `bezel` is in the window's logical coordinates: a window that moves
    /// with its bezel keeps its shape, and `spans` is asked for only when the bezel's rectangle
    /// in the window or the zoom changed.
    func setShape(bezel: Rect, zoom: Double, spans: () -> [Rect])
    /// Blur what shows through the bezel by `blur` device pixels (0: none); `shadow`: whether a
    /// compositor should shadow the bezel. Without a compositor the backend blurs; with one it
    /// asks the compositor (hints on the window). Cheap when nothing changed.
    func setLook(blur: Double, shadow: Bool)
    /// Escape grabbed while the HUD blocks input.
    func grabEscape(_ on: Bool)
    /// Clicks pass through the window to what is beneath (nothing of the HUD takes them), or
    /// the window takes them (a button, a click handler). Cheap when nothing changed.
    func setClickThrough(_ on: Bool)
    /// What the HUD says, in words (its label, or its details without one): the window's name,
    /// which window lists and screen readers read. Called when it changes.
    func setTitle(_ title: String)
    /// The display turns the spinner by itself (after a `steadySpin` frame): no frame is due
    /// for it until something else changes.
    var spinsByItself: Bool { get }
}

extension HUDOutput {
    package var spinsByItself: Bool { false }
    package func willMove(within path: Rect?) {}
}

/// Names a spinner sprite: its style, its side in pixels and its colour.
package struct SpriteKey: Hashable, Sendable {
    package var side: Int
    package var style: SpinnerStyle
    package var color: [Double]
    package var thickness: Double
    package init(side: Int, style: SpinnerStyle, thickness: Double = 2, color: RGBA) {
        self.side = side
        self.style = style
        self.thickness = style == .ring ? thickness : 0
        self.color = [color.r, color.g, color.b, color.a]
    }
}

/// How one frame is composed from what the backend holds.
package struct Composition: Equatable, Sendable {
    package var alpha: Double
    package var zoom: Double
    package var zoomCentre: Point
    /// The spinner's centre and the angle it is turned by (radians, clockwise), nil without one.
    package var spinner: (centre: Point, angle: Double)? {
        get { spinnerCentre.map { ($0, spinnerAngle) } }
        set { spinnerCentre = newValue?.centre; spinnerAngle = newValue?.angle ?? 0 }
    }
    /// Only this part changed (the spinner's square), nil for all of it.
    package var area: Rect?
    /// Set when nothing but the spinner moved since the last frame (alpha 1, no zoom): its turn
    /// in steps a second, the step this frame shows. A backend may then leave the turning to the
    /// display (`HUDOutput.spinsByItself`).
    package var steadySpin: SteadySpin?
    package struct SteadySpin: Equatable, Sendable {
        package var style: SpinnerStyle
        package var step: Int
        package var steps: Int
        package init(style: SpinnerStyle, step: Int, steps: Int) {
            self.style = style
            self.step = step
            self.steps = steps
        }
    }
    private var spinnerCentre: Point?
    private var spinnerAngle: Double = 0

    package init(alpha: Double, zoom: Double, zoomCentre: Point, area: Rect? = nil) {
        self.alpha = alpha
        self.zoom = zoom
        self.zoomCentre = zoomCentre
        self.area = area
    }
}
