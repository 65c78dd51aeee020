#if canImport(Glibc)
import Glibc
#endif
import CX11
import CPresent
import CXPrefetch
import HUDCore
import HUDSystem

/// One connection to an X server, its default screen and the atoms xhud uses.
package final class X11Display {
    /// The outputs of this connection's HUDs (what lies under each, to take copies of the screen
    /// without them).
    var outputs: [Weak<X11Output>] = []
    package let handle: OpaquePointer
    package let screen: Int32
    package let root: Window
    private var atoms: [String: Atom] = [:]
    /// What a new HUD asks of the root, kept while the loop hears of its changes.
    var rootState = RootState()
    /// Drawing on the screen, watched while a HUD blends over a copy of it (see `DamageWatch`).
    /// Solid-colour pictures, made once per connection (the blur's saturation uses three per
    /// blur, and twenty HUDs arriving at once blur again at every move).
    private var solids: [[UInt16]: Picture] = [:]
    func solidPicture(grey v: Double, alpha: Double = 1) -> Picture {
        let c16 = UInt16((v * 65535).rounded()), a16 = UInt16((alpha * 65535).rounded())
        if let p = solids[[c16, a16]] { return p }
        var c = XRenderColor(red: c16, green: c16, blue: c16, alpha: a16)
        let p = XRenderCreateSolidFill(handle, &c)
        solids[[c16, a16]] = p
        return p
    }

    /// The Present extension's major opcode, nil where the display has none (or XHUD_NO_PRESENT
    /// is set): asked once, when a spinner first holds still (a round trip).
    private var presentQuery: Int32??
    var presentOpcode: Int32? {
        if let known = presentQuery { return known }
        var op: Int32 = 0
        let found: Int32? = !Environment.isSet("XHUD_NO_PRESENT") && xhud_present_query(handle, &op) != 0 ? op : nil
        presentQuery = .some(found)
        return found
    }
    /// The opcode once asked for, without asking (events are looked at with it).
    var knownPresentOpcode: Int32? { presentQuery ?? nil }

    /// Made when first needed (asking for the extension is a round trip).
    private var madeDamageWatch: DamageWatch??
    /// The watch while it watches, else nil (never made for it).
    var damageWatch: DamageWatch? {
        guard case .some(.some(let w)) = madeDamageWatch, w.isWatching else { return nil }
        return w
    }

    /// Watches drawing on the screen exactly while some output blends over a copy of it;
    /// `mapped`: a HUD just mapped.
    func updateDamageWatch(mapped: Bool = false) {
        let needed = outputs.contains { $0.value?.watchesBeneath == true }
        if needed {
            if madeDamageWatch == nil { madeDamageWatch = .some(DamageWatch(display: self)) }
            guard case .some(.some(let w)) = madeDamageWatch else { return }
            w.start()
            if mapped { w.clear() }
        } else {
            damageWatch?.stop()
        }
    }

    /// `keyboardExtension: false` opens the connection without XKB: Xlib's XOpenDisplay then
    /// skips two round trips (XKEYBOARD's QueryExtension and UseExtension), which a HUD server,
    /// needing only the Escape key's code (from the core keyboard mapping, asked when first
    /// needed), does without. Xlib's switch is global: set for this XOpenDisplay only.
    package init(name: String? = nil, keyboardExtension: Bool = true) throws {
        let displayName = name ?? String(cString: XDisplayName(nil))
        // Every extension xhud uses asked at once, the atoms with them, and with the next round
        // trip what the root's questions need selected or asked first: in xhud-host while
        // XOpenDisplay waits on its own questions, elsewhere right after (see CXPrefetch).
        let names = X11Display.knownAtoms
        let strings: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
        let cname = name.flatMap { strdup($0) }
        defer { strings.forEach { free($0) }; cname.map { free($0) } }
        var first = XHUDFirstQuestions()
        first.atomCount = Int32(names.count)
        first.rootEventMask = X11Display.rootEventMask
        if !keyboardExtension { _ = XkbIgnoreExtension(1) }
        let opened: OpaquePointer? = strings.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: names.count) { atoms in
                first.atomNames = atoms
                first.name = cname.map { UnsafePointer($0) }
                defer { first.atomNames = nil; first.name = nil }
                return xhud_open_display(&first)
            }
        }
        if !keyboardExtension { _ = XkbIgnoreExtension(0) }
        guard let d = opened else { throw X11Error.cannotOpenDisplay(displayName) }
        handle = d
        screen = XDefaultScreen(d)
        root = XRootWindow(d, screen)
        X11Display.installErrorHandler(for: d)
        if first.asked != 0 {
            let atoms = withUnsafeBytes(of: first.atoms) { Array($0.bindMemory(to: Atom.self)) }
            let interned = min(names.count, atoms.count - 1)
            for (n, a) in zip(names.prefix(interned), atoms) where a != 0 { rememberAtom(n, a) }
            if atoms[interned] != 0 { rememberAtom("_NET_WM_CM_S\(first.screen)", atoms[interned]) }
            if first.ownerName != 0 { rootState.nameAsked = (first.ownerName, first.earlyOwner) }
        }
        registerEventDecoders()
    }

    deinit {
        X11Display.forgetErrors(of: handle)
        XCloseDisplay(handle)
    }

    /// Xlib has one error handler per process. Ours records errors on xhud's own connections
    /// (instead of Xlib's default, which exits) and hands every other connection's errors to the
    /// handler that was there before: an application with its own Xlib connection keeps its own.
    private static func installErrorHandler(for d: OpaquePointer) {
        xErrors.withLock { r in
            r.own.insert(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(d))))
            guard !r.installed else { return }
            r.installed = true
            r.previous = XSetErrorHandler(handleXError)
        }
    }

    private static func forgetErrors(of d: OpaquePointer) {
        xErrors.withLock { _ = $0.own.remove(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(d)))) }
    }

    package var fd: Int32 { XConnectionNumber(handle) }
    package var screenSize: (width: Int, height: Int) {
        (Int(XDisplayWidth(handle, screen)), Int(XDisplayHeight(handle, screen)))
    }

    package var screenRect: Rect {
        let s = screenSize
        return Rect(x: 0, y: 0, width: Double(s.width), height: Double(s.height))
    }

    package func atom(_ name: String) -> Atom {
        if let a = atoms[name] { return a }
        let a = XInternAtom(handle, name, 0)
        atoms[name] = a
        return a
    }

    func rememberAtom(_ name: String, _ atom: Atom) { atoms[name] = atom }

    /// Runs `body` and reports whether the server answered it with an error.
    package func checked<T>(_ body: () -> T) -> (T, ok: Bool) {
        let first = XNextRequest(handle), errors = xErrors.withLock { $0.count }
        let value = body()
        XSync(handle, 0)
        return (value, xErrors.withLock { $0.count == errors || $0.lastSerial < first })
    }

    /// The first window of a property of type WINDOW (e.g. `_NET_ACTIVE_WINDOW`).
    package func windowProperty(_ window: Window, _ name: String) -> Window? {
        var type: Atom = 0, format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>? = nil
        let status = XGetWindowProperty(handle, window, atom(name), 0, 1, 0, XA_WINDOW, &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, count == 1, format == 32, let data else { return nil }
        let w = UnsafeRawPointer(data).load(as: UInt.self)
        return w == 0 ? nil : w
    }

    /// A text property of the root window (`AT_SPI_BUS`: the accessibility bus's address, as
    /// at-spi-bus-launcher sets it), at most 4 KiB; nil when unset or empty.
    package func rootString(_ name: String) -> String? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>? = nil
        let status = XGetWindowProperty(handle, root, atom(name), 0, 1024, 0, 0 /* AnyPropertyType */, &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 8, count > 0, let data else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }

    /// Dots per inch from `Xft.dpi` in the root's RESOURCE_MANAGER property, as desktops set it
    /// for HiDPI. Read at each call, not the copy Xlib took at connection: a long-lived server
    /// sees `xrdb` changes.
    /// The first read while the root is watched takes the copy Xlib read at connection (no round
    /// trip: a change since then is a PropertyNotify that forgets it, and later reads ask).
    package var xftDPI: Double? {
        if rootState.watched, let known = rootState.dpi { return known }
        let dpi: Double?
        if rootState.watched && !rootState.resourcesChanged {
            dpi = XResourceManagerString(handle).flatMap { X11Display.xftDPI(in: String(cString: $0)) }
        } else {
            dpi = readXftDPI()
        }
        if rootState.watched { rootState.dpi = .some(dpi) }
        return dpi
    }

    static func xftDPI(in text: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix("Xft.dpi:") {
            return Double(line.dropFirst("Xft.dpi:".count).trimmingCharacters(in: " \t"))
        }
        return nil
    }

    private func readXftDPI() -> Double? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>? = nil
        let status = XGetWindowProperty(handle, root, XA_RESOURCE_MANAGER, 0, 65536, 0, XA_STRING, &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 8, let data else { return nil }
        return X11Display.xftDPI(in: String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self))
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var s = self
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
