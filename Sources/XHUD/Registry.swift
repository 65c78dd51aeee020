import HUDSystem

/// The HUDs shown over each parent, in the order they were shown; a shown HUD is kept alive here
/// until it is hidden (a HUD that nobody holds still hides, and its completion still runs).
enum Registry {
    private static let lock = Locked()
    nonisolated(unsafe) private static var shown: [HUD] = []

    static func add(_ hud: HUD) {
        lock.lock(); defer { lock.unlock() }
        shown.removeAll { $0 === hud }
        shown.append(hud)
    }

    static func remove(_ hud: HUD) {
        lock.lock(); defer { lock.unlock() }
        shown.removeAll { $0 === hud }
    }

    static func top(over parent: ParentSpec) -> HUD? {
        lock.lock()
        let list = shown
        lock.unlock()
        return list.last { $0.parent == parent && $0.isVisible }
    }

    /// Every HUD shown over `parent` that is not hidden yet, in the order they were shown
    /// (MBProgressHUD 0.9's `allHUDsForView:`).
    static func all(over parent: ParentSpec) -> [HUD] {
        lock.lock()
        let list = shown
        lock.unlock()
        return list.filter { $0.parent == parent }
    }
}
