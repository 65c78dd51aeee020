#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDNotifications
import HUDEngine
import HUDSocket
import HUDSystem

/// The server's side of the notification bus (`xhud server --notifications`): each `Notify` is
/// handled as the `xhud` invocation it stands for, and when its HUD ends the bus hears why
/// (expired, dismissed by a click or its button, closed). No notification is lost: one that
/// finds no room (`limit` on screen, or a screen that is full) waits its turn, a "+N" HUD says
/// how many wait, and what cannot wait goes to the history with reason 4.
/// Owned by the loop's thread; the bus thread reaches it only through `loop.post`.
final class NotificationRelay<Display: HUDDisplay> {
    /// A notification as the bus gave it: enough to show it, again if need be.
    struct Pending {
        var id: UInt32
        var key: String
        var arguments: [String]
        /// The action keys of the HUD's buttons, left to right.
        var buttons: [String]
        var hasDefault: Bool
        var about: Notification.About
    }

    /// A notification the bus shows: what ends it when it ends.
    struct Shown {
        var pending: Pending
        var reason: CloseReason?
        var action: String?
        /// The server found no room for it: it waits again, and the bus hears nothing.
        var refused = false
    }

    private unowned let server: HUDServer<Display>
    private var bus: NotificationBus!
    /// The bus's events not handled yet: filled on the bus thread, drained on the loop's at most
    /// `perTurn` a turn, so that a flood of calls never holds a frame of another HUD.
    private let incoming = Locked<[NotificationBus.Event]>([])
    static var perTurn: Int { 64 }
    /// The "+N" HUD is to be brought up to date (in the next turn).
    private var waitingCountChanged = false
    private var shown: [String: Shown] = [:]
    /// The bus's notifications on screen (OSDs aside), oldest first.
    private var order: [String] = []
    private var waiting: [Pending] = []
    /// The notifications that ended, newest last.
    private(set) var history: [Pending] = []
    private var paused = false
    /// The count the "+N" HUD shows (0: hidden).
    private var waitingShown = 0
    /// At most this many of the bus's notifications on screen at once.
    let limit: Int
    static var maxWaiting: Int { 100 }
    static var maxHistory: Int { 100 }
    static var waitingID: String { "xhud-notifications-waiting" }

    /// `directory`: where the pixels of image-data notifications are written for their HUDs.
    init(server: HUDServer<Display>, directory: String, replace: Bool, limit: Int = 5) {
        self.server = server
        self.limit = max(1, limit)
        bus = nil
        let inbox = LoopInbox(server.loop, owner: self)
        let incoming = self.incoming
        bus = NotificationBus(replace: replace, version: XHUDVersion.string, imageDirectory: directory) { event in
            let first = incoming.withLock { q in
                q.append(event); return q.count == 1
            }
            if first { inbox.post { $0.drain() } }
        }
    }

    /// Handles a turn's share of the bus's events; the rest in the turns after.
    private func drain() {
        let batch = incoming.withLock { q -> [NotificationBus.Event] in
            let n = min(q.count, Self.perTurn)
            defer { q.removeFirst(n) }
            return Array(q.prefix(n))
        }
        for event in batch { receive(event) }
        if !incoming.withLock({ $0.isEmpty }) {
            let inbox = LoopInbox(server.loop, owner: self)
            inbox.post { $0.drain() }
        }
    }

    func start() { bus.start() }

    private func receive(_ event: NotificationBus.Event) {
        switch event {
        case .status(let line):
            Console.error("xhud: \(line)\n")
        case let .show(id, key, arguments, buttons, hasDefault, about):
            let p = Pending(id: id, key: key, arguments: arguments, buttons: buttons, hasDefault: hasDefault, about: about)
            if shown[key] != nil || about.isOSD { return present(p) }  // in place, or an OSD
            if let i = waiting.firstIndex(where: { $0.key == key }) { waiting[i] = p; return }
            if (paused && !about.isCritical) || (order.count >= limit && !makeRoom(for: p)) { return enqueue(p) }
            present(p)
        case let .close(id, key):
            if let i = waiting.firstIndex(where: { $0.key == key }) {
                let p = waiting.remove(at: i)
                record(p)
                bus.ended(id: id, reason: .closed, action: nil)
                return showWaitingCount()
            }
            close(key, reason: .closed)
        }
    }

    /// Shows (or updates) `p` as its invocation says; a server with no room makes it wait.
    private func present(_ p: Pending) {
        // An update starts over: what ended the HUD before it came back no longer does.
        shown[p.key] = Shown(pending: p)
        if !p.about.isOSD && !order.contains(p.key) { order.append(p.key) }
        server.handle(Wire.Request(cwd: "/", arguments: p.arguments)) { [weak self] reply in
            guard let self else { return true }
            if reply.status == 0 && reply.output == HUDServer<Display>.skipped {
                // A rule skips it: to the history, unseen (4: it was not shown).
                guard self.shown.removeValue(forKey: p.key) != nil else { return true }
                self.order.removeAll { $0 == p.key }
                self.record(p)
                self.bus.ended(id: p.id, reason: .undefined, action: nil)
                self.pump()
                return true
            }
            // Shown, with warnings (an image it cannot read: the drawn icon instead): said, as
            // the command line would say them.
            guard reply.status != 0 else { if !reply.error.isEmpty { Console.error(reply.error) }; return true }
            let why = reply.error.isEmpty ? "xhud: notification \(p.id) not shown\n" : reply.error
            // An update refused: the HUD stays as it was.
            guard self.server.huds[p.key] == nil else { Console.error(why); return true }
            self.shown[p.key] = nil
            self.order.removeAll { $0 == p.key }
            // No room while others show: its turn comes when one of them ends.
            if reply.status == Status.noDisplay && !self.order.isEmpty {
                self.waiting.insert(p, at: 0)
                self.showWaitingCount()
                return true
            }
            // Nothing can show it: over, and said so (4: it could not be shown).
            Console.error(why)
            self.record(p)
            self.bus.ended(id: p.id, reason: .undefined, action: nil)
            return true
        }
    }

    /// A critical notification makes the oldest other one on screen give way.
    private func makeRoom(for p: Pending) -> Bool {
        guard p.about.isCritical, let oldest = order.first(where: { shown[$0]?.pending.about.isCritical == false }) else { return false }
        close(oldest, reason: .undefined)
        return true
    }

    /// Waits its turn: critical ones first; the oldest other one goes to the history when too
    /// many wait.
    private func enqueue(_ p: Pending) {
        if p.about.isCritical, let i = waiting.firstIndex(where: { !$0.about.isCritical }) { waiting.insert(p, at: i) } else { waiting.append(p) }
        if waiting.count > Self.maxWaiting {
            let i = waiting.firstIndex { !$0.about.isCritical } ?? 0
            let dropped = waiting.remove(at: i)
            record(dropped)
            bus.ended(id: dropped.id, reason: .undefined, action: nil)
        }
        showWaitingCount()
    }

    /// Shows the waiting ones while there is room.
    private func pump() {
        while order.count < limit, let i = waiting.firstIndex(where: { !paused || $0.about.isCritical }) {
            present(waiting.remove(at: i))
        }
        showWaitingCount()
    }

    /// The "+N" HUD is brought up to date in the next turn, once for all this turn's changes.
    private func showWaitingCount() {
        guard !waitingCountChanged else { return }
        waitingCountChanged = true
        LoopInbox(server.loop, owner: self).post {
            $0.waitingCountChanged = false; $0.updateWaitingCount()
        }
    }

    /// The "+N" HUD below the notifications (none while paused: nothing disturbs then).
    private func updateWaitingCount() {
        let n = paused ? 0 : waiting.count
        guard n != waitingShown else { return }
        waitingShown = n
        let id = "--id=\(Self.waitingID)"
        let arguments =
            n == 0
            ? ["hide", id]
            : [
                id, "--bus-notification", "--mode=text", "--label=+\(n) more", "--details=", "--no-markup",
                "--click-through", "--hide-after=\(Limits.seconds.upperBound)",
            ]
        server.handle(Wire.Request(cwd: "/", arguments: arguments)) { _ in true }
    }

    private func record(_ p: Pending) {
        history.removeAll { $0.key == p.key }
        history.append(p)
        if history.count > Self.maxHistory { history.removeFirst(history.count - Self.maxHistory) }
    }

    /// Hides the notification `key` on screen, the bus to hear `reason` (and `action`).
    private func close(_ key: String, reason: CloseReason, action: String? = nil) {
        guard let e = server.huds[key], shown[key] != nil else { return }
        shown[key]?.reason = reason
        shown[key]?.action = action
        e.activity = 0
        e.hud.hide(animated: true)
    }

    /// A HUD the server made: when it is a notification of the bus, its button invokes the
    /// notification's action and a click on it the `default` one.
    func attach(_ key: String, _ hud: HUDController) {
        guard shown[key] != nil else { return }
        // The "+N" HUD stays under the notification that comes out of the queue (the HUD is
        // added to the stack once this returns).
        if waitingShown > 0 { LoopInbox(server.loop, owner: self).post { $0.server.huds.moveToEnd(Self.waitingID) } }
        // Button i invokes the i-th action shown as a button.
        let pressed = { [weak self, unowned hud] (i: Int) in
            if let self, var e = self.shown[key] {
                e.action = i < e.pending.buttons.count ? e.pending.buttons[i] : nil
                e.reason = .dismissed
                self.shown[key] = e
            }
            hud.dismiss()
        }
        hud.onButton = { pressed(0) }
        hud.onExtraButton = { pressed($0 + 1) }
        // A click on a link of the body opens it (a web or mail address); anywhere else it
        // invokes the `default` action, if there is one.
        let body = shown[key]?.pending.about.body ?? ""
        if hud.onClick != nil || shown[key]?.pending.hasDefault == true || !NotificationMarkup.links(body).isEmpty {
            hud.onClick = { [weak self, unowned hud] in
                let link = hud.clickedLink.map { LinkOpener.link($0, in: body) }
                if let opened = link, let url = opened { LinkOpener.open(url) }
                if let self, var e = self.shown[key] {
                    if e.pending.hasDefault && link == nil { e.action = "default" }
                    e.reason = .dismissed
                    self.shown[key] = e
                }
                hud.hide(animated: true)
            }
        }
    }

    /// `xhud notifications WORD`, as dunstctl's commands: `count`, `history`, `history-pop`,
    /// `close`, `close-all`, `action`, `pause`, `resume`, `toggle`, `is-paused`.
    func control(_ word: String, _ argument: String? = nil) -> Wire.Reply {
        // The newest on screen that is not on its way out already.
        let newest = order.last { shown[$0]?.reason == nil }
        switch word {
        case "count":
            return Wire.Reply(status: 0, output: "displayed \(order.count)\nwaiting \(waiting.count)\nhistory \(history.count)\n")
        case "history":
            func field(_ s: String) -> String {
                String(s.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 }).escapingControlCharacters
            }
            let lines = history.reversed().map { "\($0.id)\t\(field($0.about.appName))\t\(field($0.about.summary))\t\(field($0.about.body))\n" }
            return Wire.Reply(status: 0, output: lines.joined())
        case "history-pop":
            guard let p = history.popLast() else { return Wire.Reply(status: 1, error: "xhud: the notification history is empty\n") }
            present(p)
        case "close":
            if let k = newest { close(k, reason: .dismissed) }
        case "close-all":
            for k in order { close(k, reason: .dismissed) }
        case "action", "context":
            guard let k = newest, let p = shown[k]?.pending else { return Wire.Reply(status: 1, error: "xhud: no notification is shown\n") }
            let about = p.about
            if word == "context" {
                let lines = zip(about.actionKeys, about.actionLabels).map { "\($0.escapingControlCharacters)\t\($1.escapingControlCharacters)\n" }
                return Wire.Reply(status: 0, output: lines.joined())
            }
            // By key or label (a menu's choice), else the default one, else the button's.
            let chosen =
                argument.map { a in
                    zip(about.actionKeys, about.actionLabels).first { $0.0 == a || $0.1.lowercased() == a.lowercased() }?.0
                } ?? (p.hasDefault ? "default" : p.buttons.first)
            guard let action = chosen else {
                let what = argument.map { "no action '\($0)' (it has \(about.actionLabels.joined(separator: ", ")))" } ?? "no action"
                return Wire.Reply(status: 1, error: "xhud: notification \(p.id) has \(what.escapingControlCharacters)\n")
            }
            close(k, reason: .dismissed, action: action)
        case "pause", "resume", "toggle":
            paused = word == "toggle" ? !paused : word == "pause"
            if paused { showWaitingCount() } else { pump() }
        case "is-paused":
            return Wire.Reply(status: 0, output: "\(paused)\n")
        default:
            return usageError("unknown notifications command '\(word)' (expected \(Verb.notificationCommands.joined(separator: ", ")))")
        }
        return Wire.Reply(status: 0)
    }

    /// The server found no room for the HUD `key` it had made: it is taken off again.
    func refused(_ key: String) { shown[key]?.refused = true }

    /// The HUD `key` is gone.
    func ended(_ key: String) {
        guard let e = shown.removeValue(forKey: key) else { return }
        order.removeAll { $0 == key }
        guard !e.refused else { return }
        if !e.pending.about.isOSD { record(e.pending) }
        bus.ended(id: e.pending.id, reason: e.reason ?? .expired, action: e.action)
        pump()
    }
}
