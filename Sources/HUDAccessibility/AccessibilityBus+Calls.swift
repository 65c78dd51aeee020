import HUDBus
import HUDSystem

// The calls the registry and screen readers make: each object's properties, children, role and
// states, answered from the bus thread's copy of the tree.
extension AccessibilityBus {
    /// The object a path names: the root (nil index) or a HUD's (its index among the children).
    enum Object { case root, hud(Int), cache, tree }

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

    func handle(_ m: LibDBus.Ptr, on c: LibDBus.Ptr) {
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
    func cacheItem(_ index: Int?) -> BusValue {
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
}
