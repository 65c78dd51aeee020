import CX11
import HUDCore

/// A resolved parent region in root coordinates (device pixels), and the window it tracks.
package struct ParentRegion: Equatable {
    package var rect: Rect
    /// The window followed (moves, resizes, unmap and destroy), nil for a monitor or geometry.
    package var window: Window?
}

extension X11Display {
    package func resolve(_ spec: ParentSpec) throws -> ParentRegion {
        switch spec {
        case .geometry(let g):
            guard let r = parseGeometry(g) else { throw ParentError.badGeometry(g) }
            // A HUD shows on the screen: the part of the region off it is left out.
            let visible = r.intersection(screenRect)
            guard !visible.isEmpty else { throw ParentError.offScreen(g) }
            return ParentRegion(rect: visible, window: nil)
        case .monitor(let which):
            return ParentRegion(rect: try monitor(which).rect, window: nil)
        case .window(let which):
            let w: Window
            switch which.lowercased() {
            case "root":
                return ParentRegion(rect: screenRect, window: nil)
            case "active":
                guard let a = windowProperty(root, "_NET_ACTIVE_WINDOW") else {
                    throw ParentError.noSuchWindow("active (no _NET_ACTIVE_WINDOW: is a window manager running?)")
                }
                w = a
            case "pointer":
                var r: Window = 0, c: Window = 0
                var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
                var mask: UInt32 = 0
                XQueryPointer(handle, root, &r, &c, &rx, &ry, &wx, &wy, &mask)
                guard c != 0 else { throw ParentError.noSuchWindow("pointer (the pointer is over no window)") }
                w = c
            default:
                guard let id = parseWindowID(which) else { throw ParentError.noSuchWindow(which) }
                w = id
            }
            guard let rect = windowRect(w) else { throw ParentError.noSuchWindow(which) }
            return ParentRegion(rect: rect, window: w)
        }
    }

    package func monitor(_ which: String) throws -> Monitor {
        let all = unnamedMonitors()  // names are asked for only to choose by name
        switch which.lowercased() {
        case "pointer":
            if all.count == 1 { return all[0] }  // no question to the server
            let p = pointer()
            return all.first { $0.rect.contains(p) } ?? all[0]
        case "focused":
            if let a = windowProperty(root, "_NET_ACTIVE_WINDOW"), let r = windowRect(a) {
                let c = Point(x: r.midX, y: r.midY)
                if let m = all.first(where: { $0.rect.contains(c) }) { return m }
            }
            return try monitor("pointer")
        case "primary":
            return all.first { $0.primary } ?? all[0]
        default:
            if let i = Int(which) {
                guard i >= 0 && i < all.count else { throw ParentError.noSuchMonitor(which) }
                return all[i]
            }
            guard let m = named(all).first(where: { $0.name == which }) else { throw ParentError.noSuchMonitor(which) }
            return m
        }
    }

    /// A window's rectangle in root coordinates, nil if it does not exist.
    package func windowRect(_ w: Window) -> Rect? {
        var attrs = XWindowAttributes()
        let (status, ok) = checked { XGetWindowAttributes(handle, w, &attrs) }
        guard ok, status != 0 else { return nil }
        var x: Int32 = 0, y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(handle, w, root, 0, 0, &x, &y, &child)
        return Rect(x: Double(x), y: Double(y), width: Double(attrs.width), height: Double(attrs.height))
    }

    /// The ancestor of a window that is a child of the root (the frame a window manager adds).
    package func topLevel(_ w: Window) -> Window {
        var current = w
        while true {
            var rootReturn: Window = 0, parent: Window = 0
            var children: UnsafeMutablePointer<Window>? = nil
            var n: UInt32 = 0
            guard XQueryTree(handle, current, &rootReturn, &parent, &children, &n) != 0 else { return current }
            if let children { XFree(children) }
            if parent == 0 || parent == root { return current }
            current = parent
        }
    }
}

func parseWindowID(_ s: String) -> Window? {
    if s.hasPrefix("0x") || s.hasPrefix("0X") { return Window(s.dropFirst(2), radix: 16) }
    return Window(s)
}
