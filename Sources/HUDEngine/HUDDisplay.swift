import HUDCore

/// A display HUDs are made on, with the loop they run on: X11's (`X11HUDDisplay`) or a Wayland
/// compositor's (`WaylandHUDDisplay`), chosen when the process connects. The HUD server and the
/// library both make their HUDs through it and know nothing of either backend; the server's tests
/// use one of recording backends (HUDTesting). A HUD is its `HUDController`, on this display's
/// backend, driven on the loop's thread.
package protocol HUDDisplay: AnyObject, SendableMetatype {
    var loop: any HUDEventLoop { get }
    /// The desktop's `Xft.dpi`, when it sets one.
    var dpi: Double? { get }
    /// A HUD over `parent`, on `loop`, not shown yet.
    func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> HUDController
    /// Throws what `makeHUD` would for `parent` (no such monitor or window, a bad geometry).
    func check(_ parent: ParentSpec) throws
    /// A text property of the root window (`AT_SPI_BUS`); nil where there is none.
    func rootString(_ name: String) -> String?
    /// Runs the loop on the calling thread until it stops; its exit code.
    func run() -> Int32
}
