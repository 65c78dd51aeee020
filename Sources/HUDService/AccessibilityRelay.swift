#if canImport(Glibc)
import Glibc
#endif
import HUDAccessibility
import HUDEngine
import HUDSocket
import HUDSystem

/// The server's side of the accessibility bus: every HUD on screen (named, notifications,
/// clients') as an AT-SPI object a screen reader reads, as GTK's notifications are.
///
/// Costs nothing on the way to a first frame: until the server has drawn its first HUDs (or
/// has been up a while without any) the hooks return at once; then the bus is looked for on a
/// thread of its own (`AccessibilityBus`), and when none runs every hook returns at once again
/// for the rest of the server's life. `NO_AT_BRIDGE=1` (GTK's switch) turns it off.
///
/// Owned by the loop's thread: the keys, the objects' ids and what each said last. The bus
/// thread gets values (`AccessibilityBus.Change`) and answers only with its status, posted here.
final class AccessibilityRelay<Display: HUDDisplay> {
    private enum State { case waiting, on, off }

    private unowned let server: HUDServer<Display>
    private var state = State.waiting
    private var bus: AccessibilityBus?
    private var ids: [String: Int] = [:]
    private var said: [Int: AccessibleHUD] = [:]
    private var lastID = 0

    init(server: HUDServer<Display>) {
        self.server = server
        _ = server.loop.addTimer(after: 0.1) { [weak self] in self?.server.afterFirstFrames { [weak self] in self?.start() } }
    }

    /// A HUD the server made (before it shows): what it says and whether it shows is followed.
    func track(_ key: String, _ hud: HUDController) {
        hud.onChange = { [weak self] in self?.changed(key) }
    }

    /// The HUD `key` left the server.
    func ended(_ key: String) {
        guard state == .on, let id = ids.removeValue(forKey: key) else { return }
        if said.removeValue(forKey: id) != nil { post(.remove(id)) }
    }

    private func changed(_ key: String) {
        guard state == .on, let e = server.huds[key] else { return }
        let now = AccessibleHUD(e.hud.configuration, showing: e.hud.isVisible)
        let id: Int
        if let known = ids[key] {
            id = known
        } else {
            // A HUD becomes an object once it is on screen (not while its grace time runs).
            guard now.showing else { return }
            lastID += 1
            id = lastID
            ids[key] = id
        }
        guard said[id] != now else { return }
        said[id] = now
        post(.set(id, now))
    }

    private func post(_ change: AccessibilityBus.Change) {
        if bus?.post(change) != true { off() }
    }

    private func off() {
        state = .off
        bus = nil
        ids = [:]
        said = [:]
    }

    private func start() {
        if Environment.value("NO_AT_BRIDGE") == "1" { return off() }
        let addresses = [Environment.value("AT_SPI_BUS_ADDRESS"), server.display.rootString("AT_SPI_BUS")]
        let inbox = LoopInbox(server.loop, owner: self)
        let bus = AccessibilityBus(version: XHUDVersion.string, addresses: addresses.compactMap { $0 }) { status in
            inbox.post { $0.heard(status) }
        }
        self.bus = bus
        state = .on
        for key in server.huds.keys { changed(key) }
        bus.start()
    }

    private func heard(_ status: AccessibilityBus.Status) {
        switch status {
        case .serving(let address):
            if Environment.isSet("XHUD_DEBUG_ACCESSIBILITY") { Console.error("xhud: accessible on \(address)\n") }
        case .off(let why):
            // Quiet when no screen reader's bus runs (the usual case); said when one runs and failed.
            if Environment.isSet("XHUD_DEBUG_ACCESSIBILITY") || why != "no accessibility bus" {
                Console.error("xhud: accessibility is off: \(why)\n")
            }
            off()
        }
    }
}
