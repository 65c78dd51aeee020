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

    let version: String
    private let addresses: [String]
    private let useSessionBus: Bool
    private let report: @Sendable (Status) -> Void
    private let outbox = BusOutbox<Change>()

    // The bus thread's alone: its events and the answers to calls (the extensions beside this
    // file) read and change them there.
    var lib: LibDBus!
    private var connection: LibDBus.Ptr?
    var me = ""
    var desktop = ("", AccessibilityBus.nullPath)
    var nodes: [(id: Int, hud: AccessibleHUD)] = []
    /// The level each node's last announcement said.
    var spokenLevels: [Int: Int] = [:]
    var appID: Int32 = 0

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

}
