import HUDSystem

/// Which display a server draws on, chosen when it starts: Wayland when `XHUD_BACKEND` (the
/// client's `--backend`) says so, or, unset, when `WAYLAND_DISPLAY` is set and its compositor
/// offers layer-shell; X11 otherwise (XWayland under a compositor without it, GNOME's).
package enum BackendChoice {
    /// The Wayland connection to serve on; nil: X11. Throws when Wayland was asked for and
    /// cannot be had, or when it is the only display there is.
    package static func wayland() throws(WaylandError) -> WaylandConnection? {
        let asked = Environment.value("XHUD_BACKEND")
        if asked == "x11" { return nil }
        guard asked == "wayland" || Environment.value("WAYLAND_DISPLAY").map({ !$0.isEmpty }) == true else { return nil }
        do { return try WaylandConnection() } catch {
            if asked == "wayland" || Environment.value("DISPLAY") == nil { throw error }
            return nil
        }
    }
}
