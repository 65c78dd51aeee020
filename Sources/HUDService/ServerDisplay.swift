import HUDCore
import HUDEngine

/// The display a server draws on, and the loop it runs on: where its HUDs are made. A HUD is
/// its `HUDController`, on this display's backend (`HUDBackend`); the server holds it and
/// drives it, on the loop's thread. The X11 display is `X11ServerDisplay`
/// (HUDServer+X11.swift), Wayland's `WaylandServerDisplay`; the server's tests use a
/// recording backend (HUDTesting).
package protocol ServerDisplay: AnyObject, SendableMetatype {
    var loop: any HUDEventLoop { get }
    /// The desktop's `Xft.dpi`, when it sets one.
    var dpi: Double? { get }
    /// A HUD over `parent`, on `loop`, not shown yet.
    func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> HUDController
    /// A text property of the root window (`AT_SPI_BUS`).
    func rootString(_ name: String) -> String?
}
