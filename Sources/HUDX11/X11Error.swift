/// Errors the backend reports; the command turns them into one-line messages and exit codes.
/// A parent that names nothing is a `ParentError` (HUDCore): every backend reports those.
package enum X11Error: Error, CustomStringConvertible, Equatable {
    case cannotOpenDisplay(String)

    package var description: String {
        switch self {
        case .cannotOpenDisplay(let name): return "cannot open display '\(name)': is an X server running and DISPLAY set?"
        }
    }
}
