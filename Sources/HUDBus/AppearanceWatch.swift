#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

/// The desktop's look as the settings portal says it, read on a thread of its own and followed
/// as it changes: its colour scheme (`org.freedesktop.appearance` `color-scheme`: 0 no
/// preference, 1 dark, 2 light; GNOME, KDE and others set it, the portal serves it to every
/// toolkit) and GNOME's UI font (`org.gnome.desktop.interface` `font-name`, `Cantarell 11`).
/// The bus starts the portal where one is installed, as for any GTK application (on its own
/// thread: nothing waits); no bus is started: without one nothing is known here.
package final class AppearanceWatch: Sendable {
    package static let noPreference: UInt32 = 0, dark: UInt32 = 1, light: UInt32 = 2
    private let scheme = Locked<UInt32>(AppearanceWatch.noPreference)
    private let font = Locked<String?>(nil)
    /// Told on the watch's thread each time the scheme is learnt or changes.
    private let changed: @Sendable (UInt32) -> Void

    package init(changed: @escaping @Sendable (UInt32) -> Void = { _ in }) { self.changed = changed }

    /// The scheme now (any thread).
    package var current: UInt32 { scheme.withLock { $0 } }
    /// The desktop's UI font as it names it, when the portal says (any thread).
    package var fontName: String? { font.withLock { $0 } }

    package func start() { _ = DetachedThread.start(name: "xhud-appearance") { self.run() } }

    private static let portal = "org.freedesktop.portal.Desktop", path = "/org/freedesktop/portal/desktop"
    private static let interface = "org.freedesktop.portal.Settings"

    private func set(_ v: UInt32) {
        let v = v <= 2 ? v : Self.noPreference
        scheme.withLock { $0 = v }
        changed(v)
    }

    private func run() {
        guard let address = LibDBus.sessionBusAddress(), case .success(let lib) = LibDBus.load() else { return }
        let error = BusError(lib)
        guard let c = lib.openPrivate(address, error.raw) else { return }
        lib.setExitOnDisconnect(c, 0)  // else libdbus would _exit the server when the bus goes
        defer { lib.close(c); lib.connectionUnref(c) }
        guard lib.busRegister(c, error.raw) != 0 else { return }
        // Signals first, so that no change between the read and the match is missed.
        for (namespace, key) in [Self.schemeKey, Self.fontKey] {
            let rule = "type='signal',interface='\(Self.interface)',member='SettingChanged',arg0='\(namespace)',arg1='\(key)'"
            _ = lib.callAndWait(c, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch", [.string(rule)], timeout: 500)
            { _ in true }
        }
        // Portals before version 2 have Read alone, which answers a variant in a variant.
        func read<T>(_ key: (String, String), _ value: (BusIter) -> T?) -> T? {
            lib.callAndWait(c, Self.portal, Self.path, Self.interface, "ReadOne", [.string(key.0), .string(key.1)], timeout: 500, read: value)
                ?? lib.callAndWait(c, Self.portal, Self.path, Self.interface, "Read", [.string(key.0), .string(key.1)], timeout: 500, read: value)
        }
        if let f = read(Self.fontKey, Self.string(in:)) { font.withLock { $0 = f } }
        if let v = read(Self.schemeKey, Self.scheme(in:)) { set(v) }
        var fd: Int32 = -1
        _ = lib.getUnixFD(c, &fd)
        while true {
            while let m = lib.popMessage(c) {
                defer { lib.messageUnref(m) }
                guard lib.messageType(m) == 4, lib.member(m).map({ String(cString: $0) }) == "SettingChanged",
                    let it = BusIter.reading(lib, m), let namespace = it.string, it.next(), let key = it.string, it.next()
                else { continue }
                if (namespace, key) == Self.fontKey, let f = Self.string(in: it) {
                    font.withLock { $0 = f }
                } else if (namespace, key) == Self.schemeKey, let v = Self.scheme(in: it) {
                    set(v)
                }
            }
            if lib.isConnected(c) == 0 { return }
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, -1) < 0 && errno != EINTR { return }
            if lib.readWrite(c, 0) == 0 { return }
        }
    }

    private static let schemeKey = ("org.freedesktop.appearance", "color-scheme")
    private static let fontKey = ("org.gnome.desktop.interface", "font-name")

    /// A `u` in a variant, or in a variant in a variant.
    private static func scheme(in it: BusIter) -> UInt32? {
        var it = it
        while it.type == BusIter.Code.variant { it = it.recurse() }
        return it.integer.flatMap { UInt32(exactly: $0) }
    }

    /// A non-empty `s` in a variant, or in a variant in a variant.
    private static func string(in it: BusIter) -> String? {
        var it = it
        while it.type == BusIter.Code.variant { it = it.recurse() }
        return it.string.flatMap { $0.isEmpty ? nil : $0 }
    }
}
