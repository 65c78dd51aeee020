/// Errors the backend reports; the command turns them into one-line messages and exit codes.
package enum X11Error: Error, CustomStringConvertible, Equatable {
    case cannotOpenDisplay(String)
    case noSuchWindow(String)
    case noSuchMonitor(String)
    case badGeometry(String)
    case offScreen(String)

    package var description: String {
        switch self {
        case .cannotOpenDisplay(let name): return "cannot open display '\(name)': is an X server running and DISPLAY set?"
        case .noSuchWindow(let w): return "no such window: \(w)"
        case .noSuchMonitor(let m): return "no such monitor: \(m) (see `xrandr --listmonitors`)"
        case .badGeometry(let g): return "bad geometry '\(g)': expected WxH+X+Y (whole pixels, sizes 1 to 32767, positions -32768 to 32767)"
        case .offScreen(let g): return "geometry '\(g)' lies outside the screen"
        }
    }
}
