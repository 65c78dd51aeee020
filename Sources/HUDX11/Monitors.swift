#if canImport(Glibc)
import Glibc
#endif
import CX11
import CXPrefetch
import HUDCore
import HUDSystem

/// An XRandR monitor (or the whole screen when XRandR has none), in device pixels.
package struct Monitor: Equatable {
    package var name: String
    package var rect: Rect
    package var primary: Bool
    /// The atom of XRandR's name, looked up (a round trip the first time) only when a monitor is
    /// chosen by name: `name` is "monitor-INDEX" until `named` fills it.
    var nameAtom: Atom = 0

    package init(name: String, rect: Rect, primary: Bool) {
        self.name = name
        self.rect = rect
        self.primary = primary
    }
}

extension X11Display {
    /// Kept while the root is watched, until an XRandR event or a ConfigureNotify of the root
    /// (what `xrandr --setmonitor` brings) forgets them: a new HUD on a running server asks no
    /// round trip for them. A list older than `RootState.monitorsLifetime` is still used, and read
    /// again once the loop has sent the frame (`revalidateMonitors`), off the first paint's path:
    /// a monitor set by a client that changes nothing else announces itself to no one.
    package func monitors() -> [Monitor] { named(unnamedMonitors()) }

    /// The monitors with their XRandR names (Xlib keeps the atoms' names it has looked up).
    func named(_ list: [Monitor]) -> [Monitor] {
        list.map { m in
            var m = m
            if m.nameAtom != 0, let cname = XGetAtomName(handle, m.nameAtom) { m.name = String(cString: cname); XFree(cname) }
            return m
        }
    }

    /// The monitors, their names not looked up (see `Monitor.nameAtom`).
    func unnamedMonitors() -> [Monitor] {
        let now = MonotonicTime.seconds()
        if rootState.watched, let known = rootState.monitors {
            if now - rootState.monitorsRead >= RootState.monitorsLifetime { rootState.monitorsStale = true }
            return known
        }
        let list = readMonitors()
        if rootState.watched { rootState.monitors = list; rootState.monitorsRead = now }
        return list
    }

    /// Reads the monitors again when a HUD used a list kept for longer than its lifetime (the
    /// loop calls it after sending what it drew).
    func revalidateMonitors() {
        guard rootState.monitorsStale else { return }
        rootState.monitorsStale = false
        rootState.monitors = readMonitors()
        rootState.monitorsRead = MonotonicTime.seconds()
    }

    /// Sends the question of the monitors, unless it is on its way: its answer is read by the
    /// next `readMonitors`, with the next reply anything waits for.
    func askMonitors() {
        if rootState.monitorsAsked == nil { rootState.monitorsAsked = xhud_monitors_send(handle, root) }
    }

    private func readMonitors() -> [Monitor] {
        askMonitors()
        let asked = rootState.monitorsAsked!
        rootState.monitorsAsked = nil
        var list: [Monitor] = []
        var n: Int32 = 0
        if asked != 0, let infos = xhud_monitors_take(handle, asked, &n) {
            defer { free(infos) }
            for (i, m) in UnsafeBufferPointer(start: infos, count: Int(n)).enumerated() {
                var monitor = Monitor(
                    name: "monitor-\(i)",
                    rect: Rect(
                        x: Double(m.x), y: Double(m.y), width: Double(m.width),
                        height: Double(m.height)), primary: m.primary != 0)
                monitor.nameAtom = m.name
                list.append(monitor)
            }
        }
        if list.isEmpty {
            let s = screenSize
            list = [Monitor(name: "screen", rect: Rect(x: 0, y: 0, width: Double(s.width), height: Double(s.height)), primary: true)]
        }
        return list
    }

    package func pointer() -> Point {
        var r: Window = 0, c: Window = 0
        var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
        var mask: UInt32 = 0
        XQueryPointer(handle, root, &r, &c, &rx, &ry, &wx, &wy, &mask)
        return Point(x: Double(rx), y: Double(ry))
    }

    /// The refresh rate at a point when the CRTCs' rates are kept already (no round trip), nil
    /// when they would have to be asked for.
    func knownRefreshRate(at p: Point) -> Double? {
        guard rootState.randrEventBase != nil, let known = rootState.crtcRates else { return nil }
        return known.first { $0.rect.contains(p) }?.hz ?? 60
    }

    /// The refresh rate of the CRTC that shows a point, from its mode line; 60 when unknown.
    package func refreshRate(at p: Point) -> Double {
        let rates: [(rect: Rect, hz: Double)]
        if rootState.randrEventBase != nil, let known = rootState.crtcRates {
            rates = known
        } else {
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
