/// Why a Wayland display cannot be drawn on: its library, its connection, a global it lacks, or
/// an option that has no meaning there.
package enum WaylandError: Error, CustomStringConvertible {
    case library(String)
    case noDisplay(String)
    case missing(String)
    case notOnWayland(String)

    package var description: String {
        switch self {
        case .library(let s), .noDisplay(let s), .missing(let s), .notOnWayland(let s): return s
        }
    }
}
