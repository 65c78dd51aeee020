#if canImport(Glibc)
import Glibc
#endif
import HUDNotifications
import HUDEngine
import HUDSocket
import HUDX11
import HUDSystem

/// The server's side of the notification bus (`xhud server --notifications`): each `Notify` is
/// handled as the `xhud` invocation it stands for, and when its HUD ends the bus hears why
/// (expired, dismissed by a click or its button, closed). Owned by the loop's thread; the bus
/// thread reaches it only through `loop.post`.
final class NotificationRelay<Display: ServerDisplay> {
    /// A notification the bus shows: its id, and what ends it when it ends.
    struct Shown {
        var id: UInt32
        var button: String?
        var hasDefault: Bool
        var reason: CloseReason?
        var action: String?
    }

    private unowned let server: HUDServer<Display>
    private var bus: NotificationBus!
    private var shown: [String: Shown] = [:]

    /// `directory`: where the pixels of image-data notifications are written for their HUDs.
    init(server: HUDServer<Display>, directory: String, replace: Bool) {
        self.server = server
        bus = nil
        let inbox = LoopInbox(server.loop, owner: self)
        bus = NotificationBus(replace: replace, version: XHUDVersion.string, imageDirectory: directory) { event in
            inbox.post { $0.receive(event) }
        }
    }

    func start() { bus.start() }

    private func receive(_ event: NotificationBus.Event) {
        switch event {
        case .status(let line):
            Console.error("xhud: \(line)\n")
        case let .show(id, key, arguments, button, hasDefault):
            // An update starts over: what ended the HUD before it came back no longer does.
            shown[key] = Shown(id: id, button: button, hasDefault: hasDefault)
            server.handle(Wire.Request(cwd: "/", arguments: arguments)) { [weak self] reply in
                if reply.status != 0 {
                    Console.error(reply.error.isEmpty ? "xhud: notification \(id) not shown\n" : reply.error)
                    // Refused (no room, an image it cannot show) with no HUD to show it: over.
                    if let self, self.server.huds[key] == nil, self.shown.removeValue(forKey: key) != nil {
                        self.bus.ended(id: id, reason: .undefined, action: nil)
                    }
                }
                return true
            }
        case let .close(_, key):
            guard let e = server.huds[key], shown[key] != nil else { return }
            shown[key]?.reason = .closed
            e.activity = 0
            e.hud.hide(animated: true)
        }
    }

    /// A HUD the server made: when it is a notification of the bus, its button invokes the
    /// notification's action and a click on it the `default` one.
    func attach(_ key: String, _ hud: Display.HUD) {
        guard shown[key] != nil else { return }
        hud.onButton = { [weak self, unowned hud] in
            if let self, var e = self.shown[key] {
                e.action = e.button
                e.reason = .dismissed
                self.shown[key] = e
            }
            hud.dismiss()
        }
        if hud.onClick != nil || shown[key]?.hasDefault == true {
            hud.onClick = { [weak self, unowned hud] in
                if let self, var e = self.shown[key] {
                    if e.hasDefault { e.action = "default" }
                    e.reason = .dismissed
                    self.shown[key] = e
                }
                hud.hide(animated: true)
            }
        }
    }

    /// The HUD `key` is gone.
    func ended(_ key: String) {
        guard let e = shown.removeValue(forKey: key) else { return }
        bus.ended(id: e.id, reason: e.reason ?? .expired, action: e.action)
    }
}
