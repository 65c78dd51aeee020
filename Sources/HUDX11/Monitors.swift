import CX11
import HUDCore

/// An XRandR monitor (or the whole screen when XRandR has none), in device pixels.
public struct Monitor: Equatable {
    public var name: String
    public var rect: Rect
    public var primary: Bool
}

extension X11Display {
    /// Kept (while the root is watched) for `RootState.monitorsLifetime` at most: a monitor set
    /// with `xrandr --setmonitor` sends no XRandR event that would say a kept list is out of date.
    public func monitors() -> [Monitor] {
        let now = MonotonicClock().now
        if rootState.watched, let known = rootState.monitors, now - rootState.monitorsRead < RootState.monitorsLifetime {
            return known
        }
        let list = readMonitors()
        if rootState.watched { rootState.monitors = list; rootState.monitorsRead = now }
        return list
    }

    private func readMonitors() -> [Monitor] {
        var n: Int32 = 0
        var list: [Monitor] = []
        if let infos = XRRGetMonitors(handle, root, 1, &n) {
            for i in 0..<Int(n) {
                let m = infos[i]
                var name = "monitor-\(i)"
                if let cname = XGetAtomName(handle, m.name) { name = String(cString: cname); XFree(cname) }
                list.append(Monitor(name: name, rect: Rect(x: Double(m.x), y: Double(m.y), width: Double(m.width), height: Double(m.height)),
                                    primary: m.primary != 0))
            }
            XRRFreeMonitors(infos)
        }
        if list.isEmpty {
            let s = screenSize
            list = [Monitor(name: "screen", rect: Rect(x: 0, y: 0, width: Double(s.width), height: Double(s.height)), primary: true)]
        }
        return list
    }

    public func pointer() -> Point {
        var r: Window = 0, c: Window = 0
        var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(handle, root, &r, &c, &rx, &ry, &wx, &wy, &mask)
        return Point(x: Double(rx), y: Double(ry))
    }

    /// The refresh rate of the CRTC that shows a point, from its mode line; 60 when unknown.
    public func refreshRate(at p: Point) -> Double {
        let rates: [(rect: Rect, hz: Double)]
        if rootState.randrEventBase != nil, let known = rootState.crtcRates { rates = known } else {
            rates = readCRTCRates()
            if rootState.randrEventBase != nil { rootState.crtcRates = rates }
        }
        return rates.first { $0.rect.contains(p) }?.hz ?? 60
    }

    /// Each lit CRTC's rectangle and the refresh rate of its mode line (those between 20 and 500 Hz).
    private func readCRTCRates() -> [(rect: Rect, hz: Double)] {
        guard let res = XRRGetScreenResourcesCurrent(handle, root) else { return [] }
        defer { XRRFreeScreenResources(res) }
        var out: [(rect: Rect, hz: Double)] = []
        for i in 0..<Int(res.pointee.ncrtc) {
            guard let crtc = XRRGetCrtcInfo(handle, res, res.pointee.crtcs[i]) else { continue }
            defer { XRRFreeCrtcInfo(crtc) }
            let c = crtc.pointee
            guard c.mode != 0 else { continue }
            let r = Rect(x: Double(c.x), y: Double(c.y), width: Double(c.width), height: Double(c.height))
            for j in 0..<Int(res.pointee.nmode) where res.pointee.modes[j].id == c.mode {
                let m = res.pointee.modes[j]
                let total = Double(m.hTotal) * Double(m.vTotal)
                if total > 0 && m.dotClock > 0 {
                    let hz = Double(m.dotClock) / total
                    if hz >= 20 && hz <= 500 { out.append((r, hz)) }
                }
            }
        }
        return out
    }
}
