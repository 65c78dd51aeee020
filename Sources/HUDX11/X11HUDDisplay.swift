import HUDCore
import HUDEngine

/// An X11 display and its loop.
package final class X11HUDDisplay: HUDDisplay {
    package let hudLoop: HUDLoop
    package var loop: any HUDEventLoop { hudLoop }
    package var display: X11Display { hudLoop.display }

    package init(_ loop: HUDLoop) { hudLoop = loop }

    package var dpi: Double? { display.xftDPI }
    package func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> HUDController {
        try X11HUD.makeHUD(loop: hudLoop, configuration: configuration, parent: parent, scale: scale)
    }
    package func check(_ parent: ParentSpec) throws { _ = try display.resolve(parent) }
    package func rootString(_ name: String) -> String? { display.rootString(name) }
    package func run() -> Int32 { hudLoop.run() }
}
