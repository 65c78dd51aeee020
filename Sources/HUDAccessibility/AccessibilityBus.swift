#if canImport(Glibc)
import Glibc
#endif
import HUDBus
import HUDSystem

/// The server as an AT-SPI application on the accessibility bus, as a GTK application is to
/// Orca: a root object (role APPLICATION, name "xhud") embedded in the registry's desktop, one
/// child per HUD on screen (NOTIFICATION, or ALERT for an error or a warning) named by its label,
/// and the events a screen reader speaks from: `ChildrenChanged`, `PropertyChange`
/// (accessible-name), `StateChanged` (showing) and `Announcement`.
///
/// Threads: everything here but `start` and `post` runs on the bus's own thread, which owns the
/// connection, the copy of the tree the calls are answered from and the registry's reference.
/// The server's loop owns what each HUD says (it makes the `AccessibleHUD` values) and hands the
/// changes over with `post`: a `BusOutbox` (a locked queue and a pipe that wakes the thread).
/// The thread calls nothing of the server's; `report` (once, when it is serving or is off) is the one way
/// back, and the server posts it to its loop. Nothing blocks the loop: the waits for the bus
/// (finding its address, `Embed`) are the thread's.
package final class AccessibilityBus: @unchecked Sendable {
    /// A HUD's object: made or changed (`set`), or gone.
    package enum Change: Sendable, Equatable {
        case set(Int, AccessibleHUD)
        case remove(Int)
    }

    package enum Status: Sendable, Equatable {
        /// Registered: the accessibility bus's address.
        case serving(String)
        /// Why nothing is served (no accessibility bus: the usual case without a screen reader).
        case off(String)
    }

    package static let rootPath = "/org/a11y/atspi/accessible/root"
    static let nodePrefix = "/org/a11y/atspi/accessible/hud/"
    static let cachePath = "/org/a11y/atspi/cache"
    static let nullPath = "/org/a11y/atspi/null"
    static let eventObject = "org.a11y.atspi.Event.Object"
    static let accessible = "org.a11y.atspi.Accessible", application = "org.a11y.atspi.Application"
    static let properties = "org.freedesktop.DBus.Properties"

    private let version: String
    private let addresses: [String]
    private let useSessionBus: Bool
    private let report: @Sendable (Status) -> Void
    private let outbox = BusOutbox<Change>()

    // The bus thread's alone.
    private var lib: LibDBus!
    private var connection: LibDBus.Ptr?
    private var me = ""
    private var desktop = ("", AccessibilityBus.nullPath)
    private var nodes: [(id: Int, hud: AccessibleHUD)] = []
    /// The level each node's last announcement said.
    private var spokenLevels: [Int: Int] = [:]
    private var appID: Int32 = 0

    /// `addresses`: the accessibility bus's, as the server found them without asking a bus
    /// (`AT_SPI_BUS_ADDRESS`, the root window's `AT_SPI_BUS`), tried in order; then, when
    /// `useSessionBus`, `org.a11y.Bus.GetAddress` on the session bus if a bus launcher runs.
    package init(version: String, addresses: [String], useSessionBus: Bool = true, report: @escaping @Sendable (Status) -> Void) {
        self.version = version
        self.addresses = addresses.filter { !$0.isEmpty }
        self.useSessionBus = useSessionBus
        self.report = report
    }

    /// Finds the bus, registers and serves, on a new thread.
    package func start() {
        if !DetachedThread.start({ self.run() }) { finish(.off("no thread for the accessibility bus")) }
    }

    /// Hands a change to the bus thread (from the server's loop, or any thread). False once the
    /// thread has stopped: the caller stops posting.
    @discardableResult
    package func post(_ change: Change) -> Bool { outbox.post(change) }

    private func finish(_ status: Status) {
        if case .off = status { outbox.close() }
        report(status)
    }

    // MARK: The bus thread

    private func run() {
        // No address and no session bus to ask: libdbus (and the libraries it brings, about a
        // MiB resident) is never loaded.
        let session = useSessionBus ? LibDBus.sessionBusAddress() : nil
        if addresses.isEmpty && session == nil { return finish(.off("no accessibility bus")) }
        switch LibDBus.load() {
        case .success(let l): lib = l
        case .failure(let e): return finish(.off("\(e)"))
        }
        let error = BusError(lib)
        var found: (LibDBus.Ptr, String)?
        for address in addresses + (session.flatMap(accessibilityAddress(askingOn:)).map { [$0] } ?? []) {
            guard let c = lib.openPrivate(address, error.raw) else { _ = error.take(otherwise: ""); continue }
            lib.setExitOnDisconnect(c, 0)  // else libdbus would _exit the server when the bus goes
            if lib.busRegister(c, error.raw) != 0 { found = (c, address); break }
            _ = error.take(otherwise: "")
            lib.close(c)
            lib.connectionUnref(c)
        }
        guard let (c, address) = found else { return finish(.off("no accessibility bus")) }
        connection = c
        defer { lib.close(c); lib.connectionUnref(c); connection = nil }
        me = lib.uniqueName(c).map { String(cString: $0) } ?? ""
        // The HUDs on screen now are there before the registry (and any screen reader) asks.
        for change in takeChanges() { apply(change, on: c, announcing: false) }
        guard embed(on: c) else { return }
        finish(.serving(address))
        // A server started by a HUD's client registers after that HUD's first frame: what shows
        // is said now (the registry has told screen readers the application came).
        for n in nodes where n.hud.showing {
            emit(path(of: n.id), "StateChanged", "showing", 1, 0, .int32(0), on: c)
            announce(n.hud, n.id, on: c)
        }
        var fd: Int32 = -1
        _ = lib.getUnixFD(c, &fd)
        while true {
            for change in takeChanges() { apply(change, on: c, announcing: true) }
            while let m = lib.popMessage(c) {
                handle(m, on: c)
                lib.messageUnref(m)
            }
            lib.flush(c)
            if lib.isConnected(c) == 0 { return finish(.off("the accessibility bus closed")) }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: outbox.readFD, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 2, -1) < 0 && errno != EINTR { return finish(.off("poll failed")) }
            if lib.readWrite(c, 0) == 0 { return finish(.off("the accessibility bus closed")) }
        }
    }

    private func takeChanges() -> [Change] { outbox.take() }

    /// The accessibility bus's address, asked of its launcher on the session bus
    /// (`org.a11y.Bus.GetAddress`) when one has the name: it is never started for us (activating
    /// it would start a bus for every desktop's HUDs, screen reader or not; a desktop that runs
    /// one has it running already).
    private func accessibilityAddress(askingOn session: String) -> String? {
        let error = BusError(lib)
        guard let s = lib.openPrivate(session, error.raw) else { return nil }
        lib.setExitOnDisconnect(s, 0)
        defer { lib.close(s); lib.connectionUnref(s) }
        guard lib.busRegister(s, error.raw) != 0 else { return nil }
        let owned = call(
            s, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
            [.string("org.a11y.Bus")]
        ) { $0.integer }
        guard owned == 1 else { return nil }
        return call(s, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", []) { $0.string }
    }

    /// A call that waits for its reply (the bus thread's own waits), its first value read.
    private func call<T>(
        _ c: LibDBus.Ptr, _ destination: String, _ path: String, _ interface: String, _ member: String,
        _ args: [BusValue], timeout: Int32 = 2000, read: (BusIter) -> T?
    ) -> T? {
        lib.callAndWait(c, destination, path, interface, member, args, timeout: timeout, read: read)
    }

    /// `org.a11y.atspi.Socket.Embed` on the registry: our root joins the desktop, whose
    /// reference comes back (our root's parent).
    private func embed(on c: LibDBus.Ptr) -> Bool {
        let parent = call(
            c, "org.a11y.atspi.Registry", Self.rootPath, "org.a11y.atspi.Socket", "Embed",
            [.reference(me, Self.rootPath)], timeout: 5000
        ) { it -> (String, String)? in
            guard it.type == BusIter.Code.structure else { return nil }
            let s = it.recurse()
            guard let name = s.string else { return nil }
            s.next()
            return s.string.map { (name, $0) }
        }
        guard let parent else {
            finish(.off("the accessibility registry did not take xhud (Embed failed)"))
            return false
        }
        desktop = parent
        return true
    }

    // MARK: Events

    private func path(of id: Int) -> String { Self.nodePrefix + String(id) }
    private var root: BusValue { .reference(me, Self.rootPath) }
    private func reference(_ id: Int) -> BusValue { .reference(me, path(of: id)) }

    private func apply(_ change: Change, on c: LibDBus.Ptr, announcing: Bool) {
        switch change {
        case let .set(id, hud):
            guard let i = nodes.firstIndex(where: { $0.id == id }) else {
                nodes.append((id, hud))
                guard announcing else { return }
                emit(Self.rootPath, "ChildrenChanged", "add", Int32(nodes.count - 1), 0, reference(id), on: c)
                emitCache("AddAccessible", cacheItem(nodes.count - 1), on: c)
                if hud.showing {
                    emit(path(of: id), "StateChanged", "showing", 1, 0, .int32(0), on: c)
                    announce(hud, id, on: c)
                }
                return
            }
            let old = nodes[i].hud
            nodes[i].hud = hud
            guard announcing else { return }
            let p = path(of: id)
            if old.role != hud.role { emit(p, "PropertyChange", "accessible-role", 0, 0, .uint32(hud.role.rawValue), on: c) }
            if old.name != hud.name { emit(p, "PropertyChange", "accessible-name", 0, 0, .string(hud.name), on: c) }
            if old.description != hud.description {
                emit(p, "PropertyChange", "accessible-description", 0, 0, .string(hud.description), on: c)
            }
            if old.showing != hud.showing {
                emit(p, "StateChanged", "showing", hud.showing ? 1 : 0, 0, .int32(0), on: c)
                emit(p, "StateChanged", "visible", hud.showing ? 1 : 0, 0, .int32(0), on: c)
            }
            // What a screen reader says again: new words, or a result (the role changes to an
            // alert), or the HUD coming back.
            if hud.showing
                && (old.name != hud.name || old.description != hud.description || old.role != hud.role || !old.showing
                    || hud.levelWorthSaying(after: spokenLevels[id]))
            {
                announce(hud, id, on: c)
            }
        case .remove(let id):
            guard let i = nodes.firstIndex(where: { $0.id == id }) else { return }
            let hud = nodes.remove(at: i).hud
            spokenLevels[id] = nil
            guard announcing else { return }
            if hud.showing { emit(path(of: id), "StateChanged", "showing", 0, 0, .int32(0), on: c) }
            emit(Self.rootPath, "ChildrenChanged", "remove", Int32(i), 0, reference(id), on: c)
            emitCache("RemoveAccessible", reference(id), on: c)
        }
    }

    /// What Orca speaks of it: its name and level ("Volume 45%"), then its description.
    static func announcement(_ hud: AccessibleHUD) -> String {
        let name = hud.level.map { hud.name.isEmpty ? "\($0)%" : hud.name + " \($0)%" } ?? hud.name
        return hud.description.isEmpty ? name : name + ". " + hud.description
    }

    private func announce(_ hud: AccessibleHUD, _ id: Int, on c: LibDBus.Ptr) {
        spokenLevels[id] = hud.level
        emit(path(of: id), "Announcement", "", hud.politeness, 0, .string(Self.announcement(hud)), on: c)
    }

    /// An `org.a11y.atspi.Event.Object` signal: (s detail, i, i, v any_data, a{sv} properties).
    private func emit(
        _ path: String, _ member: String, _ detail: String, _ d1: Int32, _ d2: Int32, _ data: BusValue,
        on c: LibDBus.Ptr
    ) {
        guard let s = lib.newSignal(path, Self.eventObject, member) else { return }
        let it = BusIter.appending(lib, s)
        for v in [BusValue.string(detail), .int32(d1), .int32(d2), .variant(data), .dictionary([])] { it.append(v) }
        _ = lib.send(c, s, nil)
        lib.messageUnref(s)
    }

    private func emitCache(_ member: String, _ value: BusValue, on c: LibDBus.Ptr) {
        guard let s = lib.newSignal(Self.cachePath, "org.a11y.atspi.Cache", member) else { return }
        BusIter.appending(lib, s).append(value)
        _ = lib.send(c, s, nil)
        lib.messageUnref(s)
    }

    // MARK: Calls

    /// The object a path names: the root (nil index) or a HUD's (its index among the children).
    private enum Object { case root, hud(Int), cache, tree }

    private func object(at path: String) -> Object? {
        switch path {
        case Self.rootPath: return .root
        case Self.cachePath: return .cache
        case "/", "/org", "/org/a11y", "/org/a11y/atspi", "/org/a11y/atspi/accessible", "/org/a11y/atspi/accessible/hud": return .tree
        default:
            guard path.hasPrefix(Self.nodePrefix), let id = Int(path.dropFirst(Self.nodePrefix.count)),
                let i = nodes.firstIndex(where: { $0.id == id })
            else { return nil }
            return .hud(i)
        }
    }

    private enum Reply {
        case values([BusValue])
        case error(String, String)
        static func invalid(_ text: String) -> Reply { .error("org.freedesktop.DBus.Error.InvalidArgs", text) }
    }

    private func handle(_ m: LibDBus.Ptr, on c: LibDBus.Ptr) {
        guard lib.messageType(m) == 1 /* method call */ else { return }
        let str = { (p: UnsafePointer<CChar>?) in p.map { String(cString: $0) } }
        let path = str(lib.path(m)) ?? "", member = str(lib.member(m)) ?? ""
        let interface = str(lib.interface(m)), signature = str(lib.signature(m)) ?? ""
        let reply: Reply
        if let o = object(at: path) {
            reply = answer(o, interface: interface, member: member, signature: signature, m)
        } else {
            reply = .error("org.freedesktop.DBus.Error.UnknownObject", "no object \(path)")
        }
        guard lib.noReply(m) == 0 else { return }
        let r: LibDBus.Ptr?
        switch reply {
        case .values(let values) where !values.allSatisfy(\.isWellFormed):
            r = lib.newError(m, "org.freedesktop.DBus.Error.Failed", "xhud made a malformed reply to \(member)")
        case .values(let values):
            r = lib.newReturn(m)
            if let r {
                let it = BusIter.appending(lib, r)
                for v in values { it.append(v) }
            }
        case let .error(name, text):
            r = lib.newError(m, name, text)
        }
        if let r {
            _ = lib.send(c, r, nil)
            lib.messageUnref(r)
        }
    }

    private func answer(_ o: Object, interface: String?, member: String, signature: String, _ m: LibDBus.Ptr) -> Reply {
        let args = BusIter.reading(lib, m)
        func expect(_ s: String, _ what: String) -> Reply? { signature == s ? nil : .invalid("\(member) takes (\(s)\(what)), got (\(signature))") }
        switch (interface, member) {
        case ("org.freedesktop.DBus.Introspectable", "Introspect"), (nil, "Introspect"):
            return .values([.string(introspection(o))])
        case ("org.freedesktop.DBus.Peer", "Ping"), (nil, "Ping"):
            return .values([])
        case (Self.properties, "Get"):
            if let e = expect("ss", ": interface, property") { return e }
            let iface = args?.string ?? ""
            args?.next()
            let name = args?.string ?? ""
            guard let v = properties(o, iface)?.first(where: { $0.0 == name })?.1 else {
                return .error("org.freedesktop.DBus.Error.UnknownProperty", "no property \(name) in \(iface)")
            }
            return .values([.variant(v)])
        case (Self.properties, "GetAll"):
            if let e = expect("s", ": interface") { return e }
            let iface = args?.string ?? ""
            guard let props = properties(o, iface) else {
                return .error("org.freedesktop.DBus.Error.UnknownInterface", "no interface \(iface)")
            }
            return .values([.dictionary(props)])
        case (Self.properties, "Set"):
            if let e = expect("ssv", ": interface, property, value") { return e }
            let iface = args?.string ?? ""
            args?.next()
            let name = args?.string ?? ""
            args?.next()
            // The registry may number the application (`Id`); everything else is read-only.
            if case .root = o, iface == Self.application, name == "Id", let v = args?.recurse().integer {
                appID = Int32(truncatingIfNeeded: v)
                return .values([])
            }
            return .error("org.freedesktop.DBus.Error.PropertyReadOnly", "\(iface).\(name) cannot be set")
        case (Self.accessible, _),
            (nil, _) where isAccessibleMethod(member):
            return accessibleCall(o, member, signature, args)
        case (Self.application, "GetLocale"):
            guard case .root = o else { break }
            if let e = expect("u", ": locale type") { return e }
            return .values([.string(locale)])
        case (Self.application, "GetApplicationBusAddress"):
            guard case .root = o else { break }
            return .values([.string("")])  // no peer-to-peer bus: calls come over the accessibility bus
        case ("org.a11y.atspi.Cache", "GetItems"):
            guard case .cache = o else { break }
            return .values([.array(element: Self.cacheItemSignature, [cacheItem(nil)] + nodes.indices.map { cacheItem($0) })])
        default:
            break
        }
        return .error("org.freedesktop.DBus.Error.UnknownMethod", "no method \(member) in \(interface ?? "any interface") here")
    }

    private static let accessibleMethods: Set<String> = [
        "GetChildAtIndex", "GetChildren", "GetIndexInParent", "GetRelationSet", "GetRole", "GetRoleName",
        "GetLocalizedRoleName", "GetState", "GetAttributes", "GetApplication", "GetInterfaces",
    ]
    private func isAccessibleMethod(_ m: String) -> Bool { Self.accessibleMethods.contains(m) }

    private func accessibleCall(_ o: Object, _ member: String, _ signature: String, _ args: BusIter?) -> Reply {
        let index: Int?
        switch o {
        case .root: index = nil
        case .hud(let i): index = i
        case .cache, .tree: return .error("org.freedesktop.DBus.Error.UnknownMethod", "\(Self.accessible) is not served here")
        }
        guard Self.accessibleMethods.contains(member) else {
            return .error("org.freedesktop.DBus.Error.UnknownMethod", "no method \(member) in \(Self.accessible)")
        }
        let wanted = member == "GetChildAtIndex" ? "i" : ""
        guard signature == wanted else { return .invalid("\(member) takes (\(wanted)), got (\(signature))") }
        switch member {
        case "GetChildAtIndex":
            let i = args?.integer ?? -1
            guard index == nil, i >= 0, i < nodes.count else { return .values([.reference("", Self.nullPath)]) }
            return .values([reference(nodes[Int(i)].id)])
        case "GetChildren":
            return .values([.array(element: "(so)", index == nil ? nodes.map { reference($0.id) } : [])])
        case "GetIndexInParent": return .values([.int32(index.map { Int32($0) } ?? -1)])
        case "GetRelationSet": return .values([.array(element: "(ua(so))", [])])
        case "GetRole": return .values([.uint32(role(index).rawValue)])
        case "GetRoleName", "GetLocalizedRoleName": return .values([.string(role(index).name)])
        case "GetState": return .values([.array(element: "u", states(index).words.map(BusValue.uint32))])
        case "GetAttributes":
            return .values([.dictionary(strings: index == nil ? [("toolkit", "xhud")] : [])])
        case "GetApplication": return .values([root])
        default: return .values([.array(element: "s", interfaces(index).map(BusValue.string))])
        }
    }

    private func role(_ index: Int?) -> AccessibleRole { index.map { nodes[$0].hud.role } ?? .application }
    private func states(_ index: Int?) -> AccessibleStateSet { index.map { nodes[$0].hud.states } ?? AccessibleStateSet() }
    private func interfaces(_ index: Int?) -> [String] { index == nil ? [Self.accessible, Self.application] : [Self.accessible] }

    private var locale: String {
        for v in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let p = Environment.value(v) { return p }
        }
        return "C"
    }

    /// An interface's properties on an object, or nil when it has not that interface.
    private func properties(_ o: Object, _ interface: String) -> [(String, BusValue)]? {
        let index: Int?
        switch o {
        case .root: index = nil
        case .hud(let i): index = i
        case .cache, .tree: return nil
        }
        switch interface {
        case Self.accessible:
            let hud = index.map { nodes[$0].hud }
            return [
                ("Name", .string(hud?.name ?? "xhud")),
                ("Description", .string(hud?.description ?? "")),
                ("Parent", index == nil ? .reference(desktop.0, desktop.1) : root),
                ("ChildCount", .int32(index == nil ? Int32(nodes.count) : 0)),
                ("Locale", .string(locale)),
                ("AccessibleId", .string(index.map { "hud-\(nodes[$0].id)" } ?? "xhud")),
            ]
        case Self.application where index == nil:
            return [
                ("ToolkitName", .string("xhud")), ("Version", .string(version)), ("AtspiVersion", .string("2.1")),
                ("Id", .int32(appID)),
            ]
        default:
            return nil
        }
    }

    static let cacheItemSignature = "((so)(so)(so)iiassusau)"

    /// One object as `GetItems` and `AddAccessible` give it (nil: the root).
    private func cacheItem(_ index: Int?) -> BusValue {
        let hud = index.map { nodes[$0].hud }
        return .structure([
            index.map { reference(nodes[$0].id) } ?? root,
            root,
            index == nil ? .reference(desktop.0, desktop.1) : root,
            .int32(index.map { Int32($0) } ?? -1),
            .int32(index == nil ? Int32(nodes.count) : 0),
            .array(element: "s", interfaces(index).map(BusValue.string)),
            .string(hud?.name ?? "xhud"),
            .uint32(role(index).rawValue),
            .string(hud?.description ?? ""),
            .array(element: "u", states(index).words.map(BusValue.uint32)),
        ])
    }

    private func introspection(_ o: Object) -> String {
        let head = """
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
            """
        let standard = """
              <interface name="org.freedesktop.DBus.Introspectable"><method name="Introspect"><arg type="s" direction="out"/></method></interface>
              <interface name="org.freedesktop.DBus.Peer"><method name="Ping"/></interface>
            """
        switch o {
        case .tree:
            return head + standard + "</node>"
        case .cache:
            return head + standard + """
                  <interface name="org.a11y.atspi.Cache">
                    <method name="GetItems"><arg name="nodes" type="a\(Self.cacheItemSignature)" direction="out"/></method>
                    <signal name="AddAccessible"><arg name="nodeAdded" type="\(Self.cacheItemSignature)"/></signal>
                    <signal name="RemoveAccessible"><arg name="nodeRemoved" type="(so)"/></signal>
                  </interface>
                </node>
                """
        case .root, .hud:
            var s = head + standard + Self.accessibleXML
            if case .root = o { s += Self.applicationXML }
            return s + "</node>"
        }
    }

    static let accessibleXML = """
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
            <method name="Set"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="in"/></method>
          </interface>
          <interface name="org.a11y.atspi.Accessible">
            <property name="Name" type="s" access="read"/>
            <property name="Description" type="s" access="read"/>
            <property name="Parent" type="(so)" access="read"/>
            <property name="ChildCount" type="i" access="read"/>
            <property name="Locale" type="s" access="read"/>
            <property name="AccessibleId" type="s" access="read"/>
            <method name="GetChildAtIndex"><arg direction="in" type="i"/><arg direction="out" type="(so)"/></method>
            <method name="GetChildren"><arg direction="out" type="a(so)"/></method>
            <method name="GetIndexInParent"><arg direction="out" type="i"/></method>
            <method name="GetRelationSet"><arg direction="out" type="a(ua(so))"/></method>
            <method name="GetRole"><arg direction="out" type="u"/></method>
            <method name="GetRoleName"><arg direction="out" type="s"/></method>
            <method name="GetLocalizedRoleName"><arg direction="out" type="s"/></method>
            <method name="GetState"><arg direction="out" type="au"/></method>
            <method name="GetAttributes"><arg direction="out" type="a{ss}"/></method>
            <method name="GetApplication"><arg direction="out" type="(so)"/></method>
            <method name="GetInterfaces"><arg direction="out" type="as"/></method>
          </interface>
          <interface name="org.a11y.atspi.Event.Object">
            <signal name="ChildrenChanged"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
            <signal name="PropertyChange"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
            <signal name="StateChanged"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
            <signal name="Announcement"><arg type="s"/><arg type="i"/><arg type="i"/><arg type="v"/><arg type="a{sv}"/></signal>
          </interface>

        """

    static let applicationXML = """
          <interface name="org.a11y.atspi.Application">
            <property name="ToolkitName" type="s" access="read"/>
            <property name="Version" type="s" access="read"/>
            <property name="AtspiVersion" type="s" access="read"/>
            <property name="Id" type="i" access="readwrite"/>
            <method name="GetLocale"><arg direction="in" type="u"/><arg direction="out" type="s"/></method>
            <method name="GetApplicationBusAddress"><arg direction="out" type="s"/></method>
          </interface>

        """
}
