#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDBus
import HUDCore
import HUDSocket
import HUDEngine
import HUDRender
import HUDSettings
import HUDSystem

/// A display's HUD server: one process, one X connection and one display link for every HUD of
/// the display (named, notifications, and each client's own: `ClientSession`), so that they
/// stack as one group. It answers invocations on its socket and exits `--linger` seconds after
/// its last HUD is hidden. Its rules know nothing of X11 (`HUDDisplay`): the X11 server is
/// `X11Server` (HUDServer+X11.swift), the tests' runs on a recording backend.
package final class HUDServer<Display: HUDDisplay> {
    /// Nil for a private server (`runPrivate`): no socket, no journal, no other client.
    let paths: ServerPaths?
    package let display: Display
    var loop: any HUDEventLoop { display.loop }
    /// The socket's descriptor; -1 for a private server.
    let listener: Int32
    /// Every HUD shown, under its name (a named HUD) or a key no `--id` can spell (ids have no
    /// spaces): their stacking order, activity counts, and what hidden named HUDs looked like
    /// for as long as the server lingers (the next `xhud --id vol --progress 0.9` brings back the
    /// volume bar with its label).
    package let huds = HUDRegistry<HUDController, ParentSpec>()
    var lingerTimer: Int?
    package var linger = OptionDefaults.linger
    private var connections: [Int32: (bytes: [UInt8], timer: Int)] = [:]
    /// The configuration files, read again when they change (`--config` files each on their own).
    private var settings: [String: SettingsCache] = [:]
    private var settingsGeneration = 0
    /// Notifications and clients' HUDs have no name: they are counted for their keys.
    var notificationCount = 0
    var sessionCount = 0
    /// `org.freedesktop.Notifications`, when `xhud server --notifications` serves it.
    var notifications: NotificationRelay<Display>?
    /// Every HUD as an AT-SPI object, once an accessibility bus is found after the first frame.
    var accessibility: AccessibilityRelay<Display>?
    /// The desktop's look as the settings portal says it, followed on a thread of its own.
    var appearance: AppearanceWatch?
    /// The desktop's look as XSETTINGS and GTK's settings say it, read when the server starts.
    var desktop = DesktopPreferences()
    /// The style a HUD takes where nothing colours it: the desktop's preference, if it has one.
    var desktopStyle: HUDStyle? {
        switch appearance?.current {
        case AppearanceWatch.dark?: return .dark
        case AppearanceWatch.light?: return .light
        default: return desktop.prefersDark.map { $0 ? .dark : .light }
        }
    }
    /// The family a font naming `system-ui` draws with: the desktop's UI font, if it names one.
    var desktopFontFamily: String? {
        (appearance?.fontName ?? desktop.fontName).flatMap { FontDescription($0)?.families ?? $0 }
    }
    /// The HUDs that live as long as their client's connection, by key.
    var sessions: [String: ClientSession<Display>] = [:]
    /// The session the request being answered opened: started once its reply is sent. (Not
    /// looked up by descriptor: a session whose client has gone keeps its HUD a while, and the
    /// descriptor number it had is given to the next connection.)
    var opened: ClientSession<Display>?
    /// Caches whose files are being read, with the requests waiting for them.
    private var settingsReading: [ObjectIdentifier: (cache: SettingsCache, waiting: [() -> Void])] = [:]
    /// Draws the images of requests off the loop.
    private(set) lazy var images = ImagePreparer(loop: loop)
    /// The requests behind what shows without a client, for a server that takes over after this
    /// one dies.
    private(set) lazy var journal: NamedJournal? = paths.map { NamedJournal(path: $0.journal, loop: loop) }

    /// A server started by `xhud server` stays when its last HUD is hidden.
    var lingersForever = false

    /// A server of `display` answering on `listener` (-1: none; `accept` hands it connections).
    package init(paths: ServerPaths?, display: Display, listener: Int32) {
        self.paths = paths
        self.display = display
        self.listener = listener
        let loop = display.loop
        if listener >= 0 {
            _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
            loop.addReader(fd: listener) { [unowned self] in self.acceptAll() }
            spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        // What starting up allocated and freed (fontconfig's parse of its configuration, the
        // first layouts) goes back to the system once the first HUDs are up, off their path.
        _ = loop.addTimer(after: 1) { [unowned loop] in loop.releaseFreedMemory(filePagesAfter: 0) }
    }

    // MARK: Connections

    /// A descriptor kept open to be given up when the process has no other: the newest client
    /// is then accepted on it and told why it is refused, instead of left queued while the
    /// listener, always readable, spins the loop. Owned by the loop's thread, as the listener.
    private var spare: Int32 = -1

    private func acceptAll() {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd < 0, errno == EMFILE || errno == ENFILE {
                refuseNewest(errno)
                return
            }
            guard fd >= 0 else { return }
            guard UnixSocket.peerUID(fd) == getuid() else {
                _ = UnixSocket.writeAll(fd, usageError("refused: the server belongs to another user").encoded())
                close(fd)
                continue
            }
            accept(fd)
        }
    }

    /// Out of descriptors: the spare one makes room for the newest client, which gets a reply it
    /// goes on without this server by; the spare is taken again for the next time. Without a
    /// spare (it could not be taken back), the listener is left alone until a descriptor is
    /// closed, so the loop never spins on it.
    private func refuseNewest(_ error: Int32) {
        let reason = String(cString: strerror(error))
        if spare >= 0 {
            close(spare)
            spare = -1
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                let reply = Wire.Reply(
                    status: Wire.Reply.unavailable,
                    error: "xhud: the display's HUD server cannot take another client (\(reason))\n")
                _ = UnixSocket.sendNonBlocking(fd, reply.encoded())
                close(fd)
            }
            spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        if spare < 0 {
            loop.removeReader(fd: listener)
            listenerPaused = true
        }
    }

    /// The listener is not watched (no spare descriptor): watched again once one is closed.
    private var listenerPaused = false

    private func resumeListening() {
        guard listenerPaused, listener >= 0 else { return }
        spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard spare >= 0 else { return }
        listenerPaused = false
        loop.addReader(fd: listener) { [unowned self] in self.acceptAll() }
    }

    /// Waits for `fd`'s request.
    package func accept(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // A client that never finishes its message is dropped, not waited for; past
        // `maxPending` unanswered connections the oldest goes first, so that a flood of idle
        // connections never takes the descriptors every HUD needs.
        if connections.count >= HUDServer.maxPending, let oldest = connections.min(by: { $0.value.timer < $1.value.timer }) {
            drop(oldest.key)
        }
        let timer = loop.addTimer(after: 2) { [unowned self] in self.drop(fd) }
        connections[fd] = ([], timer)
        loop.addReader(fd: fd) { [unowned self] in self.receive(fd) }
    }

    /// Connections waiting for their request to arrive (or their reply to leave), at most.
    static var maxPending: Int { 64 }

    private func receive(_ fd: Int32) {
        guard var c = connections[fd] else { return }
        var buf = [UInt8](repeating: 0, count: 8192)
        let n = read(fd, &buf, buf.count)
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard n > 0 else { return drop(fd) }
        c.bytes += buf[0..<n]
        connections[fd] = c
        do {
            guard c.bytes.count >= 8 else { return }
            let total = try Wire.frameLength(header: Array(c.bytes.prefix(8)), tag: Wire.requestTag)
            guard c.bytes.count >= total else { return }
            guard c.bytes.count == total else { throw ServerError.protocolError("bytes after the message") }
            let request = try Wire.Request.decode(c.bytes)
            // Answered now, or once its images are drawn (the connection's own timer is then
            // the images' to keep: it is answered only if still the same connection).
            let token = c.timer
            handle(request, connection: fd) { [unowned self] reply in
                guard self.connections[fd]?.timer == token else { return false }
                self.answer(fd, reply)
                return true
            }
        } catch {
            answer(fd, usageError("\(error)"))
        }
    }

    private func answer(_ fd: Int32, _ reply: Wire.Reply) {
        let session = opened
        opened = nil
        let bytes = reply.encoded()
        let sent = UnixSocket.sendNonBlocking(fd, bytes)
        guard reply.plan != nil, sent == bytes.count, let c = connections.removeValue(forKey: fd) else {
            if reply.plan != nil, let session {
                // The client left before its answer (it gave up on a server that was stopped):
                // its HUD is never shown, and the server is free to go when nothing else shows.
                session.abandon()
            }
            // A reply larger than the socket's buffer (a long `list`) goes out as the client
            // reads it; a client that does not read within the connection's time is dropped,
            // never waited on.
            if sent >= 0 && sent < bytes.count, reply.plan == nil, let c = connections[fd] {
                loop.removeReader(fd: fd)
                var rest = Array(bytes[sent...])
                loop.cancelTimer(c.timer)
                connections[fd] = ([], loop.addTimer(after: 2) { [unowned self] in self.drop(fd) })
                loop.addWriter(fd: fd) { [unowned self] in
                    let n = UnixSocket.sendNonBlocking(fd, rest)
                    if n < 0 { return self.drop(fd) }
                    rest.removeFirst(n)
                    if rest.isEmpty { self.drop(fd) }
                }
                return
            }
            return drop(fd)
        }
        // A session: the connection is its HUD's now (ClientSession reads it, and closes it).
        loop.cancelTimer(c.timer)
        loop.removeReader(fd: fd)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        session?.start()
    }

    private func drop(_ fd: Int32) {
        guard let c = connections.removeValue(forKey: fd) else { return }
        loop.cancelTimer(c.timer)
        loop.removeReader(fd: fd)
        loop.removeWriter(fd: fd)
        close(fd)
        resumeListening()
        // A private server's one client is answered (an error, a `list`) and shows nothing.
        if listener < 0, huds.isEmpty, connections.isEmpty { scheduleExit() }
    }

    // MARK: Requests

    /// Parses an invocation exactly as the command line would be, then applies it, once the
    /// images it names are drawn at their size (`ImagePreparer`: SVGs and large bitmaps are
    /// drawn by a child process while every other HUD goes on). `reply` is called once, and
    /// says whether the reply could still be given (the client may be gone meanwhile): a
    /// request that is not answered changes nothing.
    func handle(_ request: Wire.Request, connection: Int32? = nil, reply: @escaping (Wire.Reply) -> Bool) {
        let arguments = translatingZenityFlags(request.arguments)
        // The configuration files are read first, off the loop when they changed (a file not
        // parsed before runs the TOML reader in a process of its own).
        if case .some(let path) = ConfiguredInvocation.configFile(arguments: arguments, cwd: request.cwd) {
            let c = settingsCache(path)
            // Files that are not there parse nothing: read at once (a cold server's first HUD,
            // with no configuration, waits on no thread).
            if !c.isCurrent, c.filesAbsent { c.install(SettingsCache.read(path: c.path, keys: OptionTable.settingKeys)) }
            if !c.isCurrent {
                return whenRead(c) { [unowned self] in self.handle(request, connection: connection, reply: reply) }
            }
        }
        let invocation: ConfiguredInvocation
        var cache: SettingsCache?
        do {
            invocation = try ConfiguredInvocation.make(
                arguments: arguments, cwd: request.cwd,
                defersIconLookups: true, desktopStyle: desktopStyle,
                desktopFontFamily: desktopFontFamily
            ) { path in
                let c = self.settingsCache(path)
                cache = c
                return c.current()
            }
        } catch {
            _ = reply(usageError("\(oneLine("\(error)"))"))
            return
        }
        let files = invocation.imageFiles
        if files.isEmpty { return apply(invocation, request, connection: connection, cache: cache, reply: reply) }
        let scale = invocation.options.scale ?? ((display.dpi ?? 96) / 96)
        let side = Int(((invocation.options.imageSize ?? 37) * Limits.scale.clamp(scale)).rounded(.up))
        let o = invocation.options
        images.prepare(files, side: side, icons: (ConfiguredInvocation.iconSize(o), o.iconTheme)) { [unowned self] results in
            var invocation = invocation
            if let problem = invocation.useImages(results) { _ = reply(usageError(problem.description)); return }
            self.apply(invocation, request, connection: connection, cache: cache, reply: reply)
        }
    }

    /// The cache of a configuration file (nil: the XDG ones). A few `--config` files at most
    /// are kept: a client naming a new file each time costs a read, not memory.
    private func settingsCache(_ path: String?) -> SettingsCache {
        if settings[path ?? ""] == nil, settings.count >= 8 { settings = settings.filter { $0.key.isEmpty } }
        let c = settings[path ?? ""] ?? SettingsCache(path: path, keys: OptionTable.settingKeys)
        settings[path ?? ""] = c
        return c
    }

    /// Reads `cache`'s files on a thread of their own, then calls `then` on the loop (once for
    /// every request that waited for the same files).
    private func whenRead(_ cache: SettingsCache, then: @escaping () -> Void) {
        let id = ObjectIdentifier(cache)
        if settingsReading[id] != nil { settingsReading[id]!.waiting.append(then); return }
        settingsReading[id] = (cache, [then])
        let path = cache.path
        let inbox = LoopInbox(loop, owner: self)
        let read: @Sendable () -> Void = {
            let result = SettingsCache.read(path: path, keys: OptionTable.settingKeys)
            inbox.post { server in
                guard let r = server.settingsReading.removeValue(forKey: id) else { return }
                r.cache.install(result)
                for w in r.waiting { w() }
            }
        }
        if !DetachedThread.start(read) { read() }
    }

    private func apply(
        _ invocation: ConfiguredInvocation, _ request: Wire.Request, connection: Int32?, cache: SettingsCache?,
        reply: (Wire.Reply) -> Bool
    ) {
        // An edited file applies to the next HUD: what hidden HUDs looked like is forgotten.
        let generation = settings.values.reduce(0) { $0 + $1.generation }
        if generation != settingsGeneration { settingsGeneration = generation; huds.forgetLooks() }
        let warnings = Self.bounded(cache?.unseen(invocation.warnings) ?? [])
        if let l = invocation.options.linger { linger = l }
        var answer: Wire.Reply
        if let fd = connection, request.staysConnected, let plan = sessionPlan(invocation.options, request) {
            answer = openSession(invocation.options, plan: plan, request: request, fd: fd)
        } else {
            answer = respond(invocation, request: request)
        }
        answer.error = warnings + answer.error
        if !reply(answer), let session = opened {
            // The client went while its images were drawn: its HUD goes too.
            opened = nil
            session.abandon()
        }
    }

    /// Warnings as the client prints them: each at most 1 000 characters, at most 20, then how
    /// many more there were (a file of a thousand bad lines is still a readable reply).
    static func bounded(_ warnings: [String]) -> String {
        var out = warnings.prefix(20).map { w -> String in
            let line = w.count > 1000 ? String(w.prefix(1000)) + "…" : w
            return "xhud: \(line.escapingControlCharacters)\n"
        }.joined()
        if warnings.count > 20 { out += "xhud: and \(warnings.count - 20) more warnings\n" }
        return out
    }

    /// Takes a HUD off the server once it is gone (its look is kept when it is a named one).
    func remove(_ id: String) {
        journal?.hidden(id)
        guard let e = huds.remove(id) else { return }
        notifications?.ended(id)
        accessibility?.ended(id)
        e.hud.dispose()
        // The HUD's surfaces, layouts and image are freed by now; give the pages back, so that a
        // server that has shown a thousand HUDs is as small as one that has shown one.
        // The pages of files a little later: neither this hide's frames nor a private server's
        // exit wait on the reading of the mappings.
        loop.releaseFreedMemory(filePagesAfter: 2)
        if huds.isEmpty { scheduleExit() }
    }

    /// A HUD arrives: the server stays.
    func keep() {
        if let t = lingerTimer { loop.cancelTimer(t); lingerTimer = nil }
    }

    func scheduleExit() {
        if lingersForever { return }
        if let t = lingerTimer { loop.cancelTimer(t) }
        lingerTimer = loop.addTimer(after: linger) { [unowned self] in
            // Not while what a dead server showed is still to show again.
            if self.huds.isEmpty { self.journal?.isReplaying == true ? self.scheduleExit() : self.exit() }
        }
    }

    /// Stops answering first (the socket goes), then ends: a client that connected just before
    /// reads EOF and starts a new server.
    func exit() {
        journal?.clear()
        if let paths { unlink(paths.socket) }
        if listener >= 0 {
            close(listener)
            loop.removeReader(fd: listener)
        }
        loop.stop(exitCode: 0)
    }
}
