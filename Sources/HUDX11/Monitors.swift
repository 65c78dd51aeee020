import CX11
import HUDCore

/// An XRandR monitor (or the whole screen when XRandR has none), in device pixels.
public struct Monitor: Equatable {
    public var name: String
    public var rect: Rect
    public var primary: Bool
}

extension X11Display {
    public func monitors() -> [Monitor] {
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
        guard let res = XRRGetScreenResourcesCurrent(handle, root) else { return 60 }
        defer { XRRFreeScreenResources(res) }
        for i in 0..<Int(res.pointee.ncrtc) {
            guard let crtc = XRRGetCrtcInfo(handle, res, res.pointee.crtcs[i]) else { continue }
            defer { XRRFreeCrtcInfo(crtc) }
            let c = crtc.pointee
            let r = Rect(x: Double(c.x), y: Double(c.y), width: Double(c.width), height: Double(c.height))
            guard c.mode != 0, r.contains(p) else { continue }
            for j in 0..<Int(res.pointee.nmode) where res.pointee.modes[j].id == c.mode {
                let m = res.pointee.modes[j]
                let total = Double(m.hTotal) * Double(m.vTotal)
                if total > 0 && m.dotClock > 0 {
                    let hz = Double(m.dotClock) / total
                    if hz >= 20 && hz <= 500 { return hz }
                }
            }
        }
        return 60
    }
}
