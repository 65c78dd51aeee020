/// What the HUD covers, as MBProgressHUD covers its superview. Each backend resolves it to a
/// region of its own screen (X11: any of them; Wayland: a monitor or a geometry).
public enum ParentSpec: Hashable, Sendable {
    case monitor(String)  // pointer | focused | primary | NAME | INDEX
    case window(String)  // ID | active | pointer | root
    case geometry(String)  // WxH+X+Y

    package static let `default` = ParentSpec.monitor("pointer")
}

/// A `ParentSpec` that names nothing there is; the command turns it into a one-line message.
package enum ParentError: Error, CustomStringConvertible, Equatable {
    case noSuchWindow(String)
    case noSuchMonitor(String)
    case badGeometry(String)
    case offScreen(String)

    package var description: String {
        switch self {
        case .noSuchWindow(let w): return "no such window: \(w)"
        case .noSuchMonitor(let m): return "no such monitor: \(m) (see `xrandr --listmonitors`)"
        case .badGeometry(let g): return "bad geometry '\(g)': expected WxH+X+Y (whole pixels, sizes 1 to 32767, positions -32768 to 32767)"
        case .offScreen(let g): return "geometry '\(g)' lies outside the screen"
        }
    }
}
