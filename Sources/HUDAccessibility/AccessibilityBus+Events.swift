import HUDBus

// The events a screen reader speaks from: a HUD's object added, changed or removed, and what
// is announced of it.
extension AccessibilityBus {
    func path(of id: Int) -> String { Self.nodePrefix + String(id) }
    var root: BusValue { .reference(me, Self.rootPath) }
    func reference(_ id: Int) -> BusValue { .reference(me, path(of: id)) }

    func apply(_ change: Change, on c: LibDBus.Ptr, announcing: Bool) {
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

    func announce(_ hud: AccessibleHUD, _ id: Int, on c: LibDBus.Ptr) {
        spokenLevels[id] = hud.level
        emit(path(of: id), "Announcement", "", hud.politeness, 0, .string(Self.announcement(hud)), on: c)
    }

    /// An `org.a11y.atspi.Event.Object` signal: (s detail, i, i, v any_data, a{sv} properties).
    func emit(
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
}
