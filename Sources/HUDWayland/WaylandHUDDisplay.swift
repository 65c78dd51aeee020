import HUDCore
import HUDEngine

/// A Wayland compositor with layer-shell and its loop.
package final class WaylandHUDDisplay: HUDDisplay {
    package let waylandLoop: WaylandLoop
    package var loop: any HUDEventLoop { waylandLoop }

    package init(_ loop: WaylandLoop) { waylandLoop = loop }

    package var dpi: Double? { nil }
    /// A monitor is an output (by name or index), a geometry a rectangle of the first; another
    /// client's window is nothing a Wayland client can see or follow.
    package func makeHUD(configuration: HUDConfiguration, parent: ParentSpec, scale: Double?) throws -> HUDController {
        switch parent {
        case .monitor(let m):
            return try WaylandHUD.makeHUD(loop: waylandLoop, configuration: configuration, output: m, scale: scale)
        case .geometry(let g):
            guard let r = parseGeometry(g) else { throw ParentError.badGeometry(g) }
            return try WaylandHUD.makeHUD(loop: waylandLoop, configuration: configuration, area: r, scale: scale)
        case .window:
            throw WaylandError.notOnWayland(
                "--window and --attach have no meaning on Wayland: a client cannot see another's windows (the HUD would cover its output: leave them out, or use --backend x11 under XWayland)"
            )
        }
    }

    package func check(_ parent: ParentSpec) throws {
        switch parent {
        case .monitor(let m): _ = try waylandLoop.connection.screen(named: m)
        case .geometry(let g): if parseGeometry(g) == nil { throw ParentError.badGeometry(g) }
        case .window: _ = try makeHUD(configuration: HUDConfiguration(), parent: parent, scale: nil)
        }
    }

    package func rootString(_ name: String) -> String? { nil }
    package func run() -> Int32 { waylandLoop.run() }
}
