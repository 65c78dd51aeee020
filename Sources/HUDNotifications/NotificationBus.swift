import HUDBus
#if canImport(Glibc)
import Glibc
import HUDSystem
#endif

/// `org.freedesktop.Notifications` on the session bus (the Desktop Notifications Specification
/// 1.2), served on a thread of its own: it connects once the server is up, only when
/// notifications are turned on, and whatever the bus does (refuses the name, takes it away,
/// goes away) the server and its HUDs go on.
///
/// Threads: the bus thread owns the connection, the ids and the image files; `deliver` is called
/// on it (the server posts each event to its loop); `ended` is called on the server's loop and
/// hands its signal to the bus thread through `outbox` and a pipe that wakes it.
package final class NotificationBus: @unchecked Sendable {
    /// What the server is to do, in the order the calls came.
    package enum Event: Sendable {
        /// Show (or update in place) the HUD `key` as the `xhud` invocation `arguments` would.
        /// `buttons`: the action keys of the HUD's buttons, left to right.
        case show(id: UInt32, key: String, arguments: [String], buttons: [String], hasDefault: Bool, about: Notification.About)
        /// `CloseNotification`.
        case close(id: UInt32, key: String)
        /// A line for the server's stderr: the name is served, refused or lost.
        case status(String)
    }

    package static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let capabilities = [
        "body", "body-markup", "body-hyperlinks", "actions", "icon-static", "persistence",
        "x-canonical-private-synchronous", "x-dunst-stack-tag", "synchronous",
    ]

    private let replace: Bool
    private let version: String
    private let imageDirectory: String
    private let deliver: @Sendable (Event) -> Void
    private let outbox = BusOutbox<Ended>()
    private struct Ended: Sendable {
        let id: UInt32
        let reason: CloseReason
        let action: String?
    }

    // The bus thread's alone.
    private var lib: LibDBus!
    private var connection: LibDBus.Ptr?
    private var ids = NotificationIDs()
    private var imageFiles: [UInt32: String] = [:]
    private var imagesWritten = 0
    private var owns = false

    /// `replace`: take the name from the daemon that has it (if it allows that), as
    /// `dunst --replace` does. `imageDirectory`: where raw pixels are written as PNGs (private).
    package init(replace: Bool, version: String, imageDirectory: String, deliver: @escaping @Sendable (Event) -> Void) {
        self.replace = replace
        self.version = version
        self.imageDirectory = imageDirectory
        self.deliver = deliver
    }

    /// Connects and serves on a new thread.
    package func start() {
        if !DetachedThread.start({ self.run() }) { deliver(.status("notifications are off: no thread for the bus")) }
    }

    /// The HUD of `id` is gone (on the server's loop): `ActionInvoked` first when an action
    /// ended it, then `NotificationClosed`.
    package func ended(id: UInt32, reason: CloseReason, action: String?) {
        outbox.post(Ended(id: id, reason: reason, action: action))
    }

    // MARK: The bus thread

    private func run() {
        switch LibDBus.load() {
        case .success(let l): lib = l
        case .failure(let e): return deliver(.status("notifications are off: \(e)"))
        }
        let error = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { error.deallocate() }
        lib.errorInit(error)
        guard let c = lib.busGetPrivate(0 /* DBUS_BUS_SESSION */, error) else {
            let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? "no session bus"
            lib.errorFree(error)
            return deliver(.status("notifications are off: cannot connect to the session bus: \(message)"))
        }
        connection = c
        // libdbus would otherwise _exit the whole server when the bus goes away.
        lib.setExitOnDisconnect(c, 0)
        defer { lib.close(c); lib.connectionUnref(c); connection = nil }
        // ALLOW_REPLACEMENT (1): another daemon started with --replace may take it from us;
        // REPLACE_EXISTING (2): take it from its owner if the owner allows it, else wait in the
        // bus's queue for it; DO_NOT_QUEUE (4): without --replace, a name another daemon keeps
        // is not waited for.
        let flags: UInt32 = replace ? 1 | 2 : 1 | 4
        let answer = lib.busRequestName(c, Self.name, flags, error)
        switch answer {
        case 1, 4:
            owns = true
            deliver(.status("serving \(Self.name)"))
        case 2:
            deliver(.status("\(Self.name) belongs to another daemon that does not let it be replaced; it is ours once that daemon quits"))
        default:
            let message = error.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) }
            lib.errorFree(error)
            let why = message ?? "another notification daemon owns it; `xhud server --notifications --replace` takes it over"
            return deliver(.status("notifications are off: \(Self.name) is not ours: \(why)"))
        }
        var fd: Int32 = -1
        _ = lib.getUnixFD(c, &fd)
        var lost = false
        while true {
            // What ended before the calls that came meanwhile were read goes first: a Notify
            // replacing an id that just closed then starts it anew.
            sendEnded(on: c)
            while !lost, let m = lib.popMessage(c) {
                lost = handle(m, on: c)
                lib.messageUnref(m)
            }
            sendEnded(on: c)
            lib.flush(c)
            if lost { return deliver(.status("notifications are off: another daemon took \(Self.name)")) }
            if lib.isConnected(c) == 0 { return deliver(.status("notifications are off: the session bus closed")) }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: outbox.readFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 && errno != EINTR { return deliver(.status("notifications are off: poll failed")) }
            if lib.readWrite(c, 0) == 0 { return deliver(.status("notifications are off: the session bus closed")) }
        }
    }

    private func sendEnded(on c: LibDBus.Ptr) {
        for e in outbox.take() {
            if let a = e.action, let s = lib.newSignal(Self.path, Self.name, "ActionInvoked") {
                let it = BusIter.appending(lib, s)
                it.append(e.id)
                it.append(a)
                _ = lib.send(c, s, nil)
                lib.messageUnref(s)
            }
            if let s = lib.newSignal(Self.path, Self.name, "NotificationClosed") {
                let it = BusIter.appending(lib, s)
                it.append(e.id)
                it.append(e.reason.rawValue)
                _ = lib.send(c, s, nil)
                lib.messageUnref(s)
            }
            ids.ended(e.id)
            if let f = imageFiles.removeValue(forKey: e.id) { unlink(f) }
        }
    }

    /// Answers one message; true when it says the name was taken from us.
    private func handle(_ m: LibDBus.Ptr, on c: LibDBus.Ptr) -> Bool {
        let str = { (p: UnsafePointer<CChar>?) in p.map { String(cString: $0) } }
        let type = lib.messageType(m)
        let interface = str(lib.interface(m)), member = str(lib.member(m)) ?? ""
        if type == 4 /* signal */ {
            guard interface == "org.freedesktop.DBus", BusIter.reading(lib, m)?.string == Self.name else { return false }
            if member == "NameLost" { return true }
            // Waited for in the queue (--replace of a daemon that does not allow it).
            if member == "NameAcquired", !owns {
                owns = true
                deliver(.status("serving \(Self.name)"))
            }
            return false
        }
        guard type == 1 /* method call */ else { return false }
        let signature = str(lib.signature(m)) ?? ""
        let reply: LibDBus.Ptr?
        switch (interface ?? Self.name, member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            reply = lib.newReturn(m)
            if let r = reply { BusIter.appending(lib, r).append(str(lib.path(m)) == Self.path ? Self.introspection : Self.rootIntrospection) }
        case ("org.freedesktop.DBus.Peer", "Ping"):
            reply = lib.newReturn(m)
        case (Self.name, _) where str(lib.path(m)) != Self.path:
            reply = lib.newError(m, "org.freedesktop.DBus.Error.UnknownObject", "no object \(str(lib.path(m)) ?? "")")
        case (Self.name, "GetCapabilities"):
            reply = lib.newReturn(m)
            if let r = reply { BusIter.appending(lib, r).append(strings: Self.capabilities) }
        case (Self.name, "GetServerInformation"):
            reply = lib.newReturn(m)
            if let r = reply {
                let it = BusIter.appending(lib, r)
                for s in ["xhud", "xhud", version, "1.2"] { it.append(s) }
            }
        case (Self.name, "Notify"):
            reply = notify(m, signature: signature)
        case (Self.name, "CloseNotification"):
            guard signature == "u", let it = BusIter.reading(lib, m), let id = it.integer else {
                reply = invalid(m, "CloseNotification takes (u id), got (\(signature))")
                break
            }
            reply = lib.newReturn(m)
            if let key = ids.key(of: UInt32(truncatingIfNeeded: id)) { deliver(.close(id: UInt32(truncatingIfNeeded: id), key: key)) }
        default:
            reply = lib.newError(
                m, "org.freedesktop.DBus.Error.UnknownMethod",
                "no method \(member) in \(interface ?? "any interface") (xhud serves \(Self.name))")
        }
        if let reply {
            if lib.noReply(m) == 0 { _ = lib.send(c, reply, nil) }
            lib.messageUnref(reply)
        }
        return false
    }

    private func invalid(_ m: LibDBus.Ptr, _ text: String) -> LibDBus.Ptr? {
        lib.newError(m, "org.freedesktop.DBus.Error.InvalidArgs", text)
    }

    /// At most this many actions (pairs) and hints are read from one call.
    static let maxActions = 32, maxHints = 64

    private func notify(_ m: LibDBus.Ptr, signature: String) -> LibDBus.Ptr? {
        guard signature == "susssasa{sv}i", let it = BusIter.reading(lib, m) else {
            return invalid(
                m, "Notify takes (susssasa{sv}i: app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout), got (\(signature))")
        }
        var n = Notification()
        n.appName = it.string ?? ""; it.next()
        n.replacesID = UInt32(truncatingIfNeeded: it.integer ?? 0); it.next()
        n.appIcon = it.string ?? ""; it.next()
        n.summary = it.string ?? ""; it.next()
        n.body = it.string ?? ""; it.next()
        var flat: [String] = []
        let actions = it.recurse()
        while actions.type == BusIter.Code.string, flat.count < 2 * Self.maxActions {
            flat.append(actions.string ?? "")
            actions.next()
        }
        n.actions = Notification.actions(flat)
        it.next()
        var raw: [String: HintValue] = [:]
        let hints = it.recurse()
        while hints.type == BusIter.Code.dictEntry, raw.count < Self.maxHints {
            let entry = hints.recurse()
            if let key = entry.string {
                entry.next()
                raw[key] = entry.value
            }
            hints.next()
        }
        n.hints = Hints(raw)
        it.next()
        n.expireTimeout = Int32(truncatingIfNeeded: it.integer ?? -1)

        let (id, key) = ids.assign(replaces: n.replacesID, tag: n.hints.tag)
        var imageFile: String?
        if let pixels = n.hints.imageData {
            imagesWritten += 1
            let file = imageDirectory + "/notification-\(getpid())-\(id)-\(imagesWritten).png"
            if pixels.writePNG(to: file) {
                if let old = imageFiles[id] { unlink(old) }
                imageFiles[id] = file
                imageFile = file
            }
        }
        guard let reply = lib.newReturn(m) else { return nil }
        BusIter.appending(lib, reply).append(id)
        deliver(
            .show(
                id: id, key: key, arguments: n.arguments(key: key, imageFile: imageFile),
                buttons: n.hints.value == nil ? n.buttonActions.map(\.key) : [], hasDefault: n.hasDefaultAction, about: n.about))
        return reply
    }

    static let rootIntrospection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node><node name="org/freedesktop/Notifications"/></node>
        """

    static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.Notifications">
            <method name="Notify">
              <arg name="app_name" type="s" direction="in"/>
              <arg name="replaces_id" type="u" direction="in"/>
              <arg name="app_icon" type="s" direction="in"/>
              <arg name="summary" type="s" direction="in"/>
              <arg name="body" type="s" direction="in"/>
              <arg name="actions" type="as" direction="in"/>
              <arg name="hints" type="a{sv}" direction="in"/>
              <arg name="expire_timeout" type="i" direction="in"/>
              <arg name="id" type="u" direction="out"/>
            </method>
            <method name="CloseNotification"><arg name="id" type="u" direction="in"/></method>
            <method name="GetCapabilities"><arg name="capabilities" type="as" direction="out"/></method>
            <method name="GetServerInformation">
              <arg name="name" type="s" direction="out"/>
              <arg name="vendor" type="s" direction="out"/>
              <arg name="version" type="s" direction="out"/>
              <arg name="spec_version" type="s" direction="out"/>
            </method>
            <signal name="NotificationClosed"><arg name="id" type="u"/><arg name="reason" type="u"/></signal>
            <signal name="ActionInvoked"><arg name="id" type="u"/><arg name="action_key" type="s"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
          </interface>
        </node>
        """
}
