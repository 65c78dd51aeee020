#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HUDCore
import HUDSocket
import HUDX11
import HUDRender
import HUDSettings

/// A display's HUD server: one process, one X connection and one display link for every HUD of
/// the display (named, notifications, and each client's own: `ClientSession`), so that they
/// stack as one group. It answers invocations on its socket and exits `--linger` seconds after
/// its last HUD is hidden.
final class NamedServer {
    let paths: ServerPaths
    let loop: HUDLoop
    let listener: Int32
    private var entries: [String: Entry] = [:]
    /// What a hidden named HUD looked like, for as long as the server lingers: the next
    /// `xhud --id vol --progress 0.9` brings back the volume bar with its label. The last 64.
    private var remembered: [String: (config: HUDConfiguration, parent: ParentSpec)] = [:]
    private var rememberedOrder: [String] = []
    private var order: [String] = []          // the stacking order: the order names appeared
    private var lingerTimer: Int?
    private var linger: Double = 10
    private var connections: [Int32: (bytes: [UInt8], timer: Int)] = [:]
    /// The configuration files, read again when they change (`--config` files each on their own).
    private var settings: [String: SettingsCache] = [:]
    private var settingsGeneration = 0
    /// Notifications and clients' HUDs have no name: each gets a key no `--id` can spell (ids
    /// have no spaces).
    private var notificationCount = 0
    private var sessionCount = 0
    /// The HUDs that live as long as their client's connection, by key.
    private var sessions: [String: ClientSession] = [:]

    final class Entry {
        let hud: X11HUD
        let parent: ParentSpec
        var activity = 0
        /// Kept for the next invocation of the name once hidden (not a notification's).
        var remembered = false
        init(hud: X11HUD, parent: ParentSpec) { self.hud = hud; self.parent = parent }
    }

    /// Binds the socket, then forks: the caller gets the first request's reply and exits at
    /// once, the child serves.
    static func start(paths: ServerPaths, lock: ServerLock, first: Wire.Request) -> Int32 {
        unlink(paths.socket)   // a dead server's; we hold the lock, so no live one uses it
        let listener: Int32
        do { listener = try UnixSocket.listen(paths.socket) } catch { return fail("\(error)", Status.usage) }
        return runDetached { ready in
            let display: X11Display
            do { display = try X11Display() } catch {
                unlink(paths.socket)
                ready(Status.noDisplay, "xhud: \(error)\n")
                return Status.noDisplay
            }
            let server = NamedServer(paths: paths, loop: HUDLoop(display: display), listener: listener)
            let reply = server.handle(first)
            ready(reply.status, reply.output + reply.error)
            if server.entries.isEmpty { server.scheduleExit() }
            _ = lock   // held until this process exits
            return server.loop.run()
        }
    }

    /// `xhud server`: serves in the foreground (for autostart and systemd) until SIGTERM or
    /// SIGINT, whether or not HUDs show; exit 0 when another server already serves the display.
    static func runForeground(paths: ServerPaths) -> Int32 {
        if let fd = getenv(ServerLauncher.listenFDVariable).flatMap({ Int32(String(cString: $0)) }) {
            return runStarted(paths: paths, listener: fd)
        }
        guard let lock = ServerLock(path: paths.lock) else {
            fputs("xhud: a server already serves \(paths.socket)\n", stderr)
            return Status.done
        }
        unlink(paths.socket)
        let listener: Int32
        do { listener = try UnixSocket.listen(paths.socket) } catch { return fail("\(error)", Status.usage) }
        let display: X11Display
        do { display = try X11Display() } catch {
            unlink(paths.socket)
            return fail("\(error)", Status.noDisplay)
        }
        let server = NamedServer(paths: paths, loop: HUDLoop(display: display), listener: listener)
        server.lingersForever = true
        _ = lock   // held until this process exits
        return server.loop.run()
    }

    /// A server started by a client (`ServerLauncher`): the client bound the socket and took the
    /// lock, passed here as descriptors 3 and 4. It serves until `--linger` after its last HUD.
    /// Without a display it exits at once: its clients read the end of the connection and draw
    /// their HUDs themselves.
    private static func runStarted(paths: ServerPaths, listener: Int32) -> Int32 {
        unsetenv(ServerLauncher.listenFDVariable)
        _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
        _ = fcntl(4, F_SETFD, FD_CLOEXEC)   // the lock: held until this process exits
        let display: X11Display
        do { display = try X11Display() } catch { return Status.noDisplay }
        let server = NamedServer(paths: paths, loop: HUDLoop(display: display), listener: listener)
        server.scheduleExit()
        return server.loop.run()
    }

    /// A server started by `xhud server` stays when its last HUD is hidden.
    private var lingersForever = false

    private init(paths: ServerPaths, loop: HUDLoop, listener: Int32) {
        self.paths = paths
        self.loop = loop
        self.listener = listener
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        loop.installSignalHandlers()
        loop.onSignal = { [unowned self] _ in self.exit() }
        loop.addReader(fd: listener) { [unowned self] in self.acceptAll() }
    }

    // MARK: Connections

    private func acceptAll() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            guard UnixSocket.peerUID(fd) == getuid() else {
                _ = UnixSocket.writeAll(fd, usageError("refused: the server belongs to another user").encoded())
                close(fd)
                continue
            }
            // A client that never finishes its message is dropped, not waited for.
            let timer = loop.addTimer(after: 2) { [unowned self] in self.drop(fd) }
            connections[fd] = ([], timer)
            loop.addReader(fd: fd) { [unowned self] in self.receive(fd) }
        }
    }

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
            answer(fd, handle(request, connection: fd))
        } catch {
            answer(fd, usageError("\(error)"))
        }
    }

    private func answer(_ fd: Int32, _ reply: Wire.Reply) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        _ = UnixSocket.writeAll(fd, reply.encoded())
        guard reply.plan != nil, let c = connections.removeValue(forKey: fd) else { return drop(fd) }
        // A session: the connection is its HUD's now (ClientSession reads it, and closes it).
        loop.cancelTimer(c.timer)
        loop.removeReader(fd: fd)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        sessions.values.first { $0.fd == fd }?.start()
    }

    private func drop(_ fd: Int32) {
        guard let c = connections.removeValue(forKey: fd) else { return }
        loop.cancelTimer(c.timer)
        loop.removeReader(fd: fd)
        close(fd)
    }

    // MARK: Requests

    /// Parses an invocation exactly as the command line would be, then applies it. A request
    /// that does not parse changes nothing.
    func handle(_ request: Wire.Request, connection: Int32? = nil) -> Wire.Reply {
        let invocation: ConfiguredInvocation
        var cache: SettingsCache?
        do {
            invocation = try ConfiguredInvocation.make(arguments: translatingZenityFlags(request.arguments), cwd: request.cwd) { path in
                // A few `--config` files at most are kept: a client naming a new file each time
                // costs a read, not memory.
                if self.settings[path ?? ""] == nil, self.settings.count >= 8 { self.settings = self.settings.filter { $0.key.isEmpty } }
                let c = self.settings[path ?? ""] ?? SettingsCache(path: path)
                self.settings[path ?? ""] = c
                cache = c
                return c.current()
            }
        } catch {
            return usageError("\(oneLine(XHUDCommand.message(for: error)))")
        }
        // An edited file applies to the next HUD: what hidden HUDs looked like is forgotten.
        let generation = settings.values.reduce(0) { $0 + $1.generation }
        if generation != settingsGeneration { settingsGeneration = generation; remembered = [:]; rememberedOrder = [] }
        let warnings = (cache?.unseen(invocation.warnings) ?? []).map { "xhud: \($0.escapingControlCharacters)\n" }.joined()
        var reply: Wire.Reply
        if let fd = connection, request.staysConnected, let plan = sessionPlan(invocation.options, request) {
            reply = openSession(invocation.options, plan: plan, request: request, fd: fd)
        } else {
            reply = respond(invocation, cwd: request.cwd)
        }
        reply.error = warnings + reply.error
        return reply
    }

    private func respond(_ invocation: ConfiguredInvocation, cwd: String) -> Wire.Reply {
        let options = invocation.options
        if let l = options.linger { linger = l }
        switch options.action {
        case .list?:
            let names = order.filter { entries[$0]?.hud.isVisible == true && !$0.hasPrefix(" ") }
            return Wire.Reply(status: 0, output: names.map { $0 + "\n" }.joined())
        case .hide?:
            guard let id = options.id, let e = entries[id] else { return Wire.Reply(status: 0) }
            e.activity = 0
            e.hud.hide(animated: true, afterDelay: options.delay ?? 0)
            return Wire.Reply(status: 0)
        case .pop?:
            guard let id = options.id, let e = entries[id] else { return Wire.Reply(status: 0) }
            e.activity = max(0, e.activity - 1)
            if e.activity == 0 { e.hud.hide(animated: true, afterDelay: options.delay ?? 0) }
            return Wire.Reply(status: 0)
        default:
            return show(invocation, cwd: cwd)
        }
    }

    private func show(_ invocation: ConfiguredInvocation, cwd: String) -> Wire.Reply {
        let options = invocation.options
        let id: String
        if let name = options.id {
            id = name
        } else if options.isNotification {
            notificationCount += 1
            id = " notification \(notificationCount)"
        } else {
            return usageError("--id NAME is missing")
        }
        var existing = entries[id]
        if let e = existing, let p = options.explicitParent, p != e.parent {
            e.hud.dispose()       // moved to another region: start over there
            remove(id)
            existing = nil
        }
        var config: HUDConfiguration
        let recalled = existing == nil ? remembered[id].flatMap { r in
            options.explicitParent == nil || options.explicitParent == r.parent ? r : nil
        } : nil
        let parent = options.explicitParent ?? recalled?.parent ?? options.parentSpec
        do {
            // A HUD that exists or is remembered changes only what the command line names; a new
            // one starts from the configuration file.
            if let base = existing?.hud.configuration ?? recalled?.config {
                config = try invocation.userOptions.hudConfiguration(base: base)
            } else {
                var base = HUDConfiguration()
                base.mask = HUDMask.none   // an OSD never blocks input unless --mask says so
                config = try options.hudConfiguration(base: base)
            }
        } catch {
            return usageError("\(error)")
        }
        if let path = config.imagePath, !path.hasPrefix("/") { config.imagePath = cwd + "/" + path }
        // Checked without blocking and within bounds (a FIFO, a huge PNG): one request's image
        // never stalls the HUDs of others.
        if let path = config.imagePath, options.image != nil, let problem = ImageFile.problem(at: path) {
            return usageError("\(problem)")
        }
        let entry: Entry
        if let e = existing {
            entry = e
            e.hud.update { $0 = config }
        } else {
            do {
                let hud = try X11HUD(loop: loop, configuration: config, parent: parent, scale: options.scale)
                entry = Entry(hud: hud, parent: parent)
                entry.remembered = !options.isNotification
            } catch {
                return usageError("\(error)")
            }
            entries[id] = entry
            order.append(id)
            entry.hud.easesProgress = options.smooth ?? false   // else a key press shows its value in the next frame
            // The HUD's closures never hold its entry (the entry holds the HUD): a hidden HUD and
            // everything it drew with are freed when the entry goes.
            let hud = entry.hud
            hud.onHidden = { [unowned self] in self.hidden(id) }
            hud.onParentGone = { [unowned self, unowned hud] in hud.dispose(); self.remove(id) }
            hud.onClick = options.isNotification && options.clickThrough != true && config.mode != .text
                ? { [unowned hud] in hud.hide(animated: true) } : nil
            // A named HUD that blocks input (`--mask clear`) gives it back on Escape.
            hud.onEscape = { [unowned hud] in hud.dismiss() }
        }
        if options.action == .push { entry.activity += 1 }
        if let t = lingerTimer { loop.cancelTimer(t); lingerTimer = nil }
        restack()   // before showing: a new HUD's window is made where it will stay
        entry.hud.show(animated: true)
        if entry.activity == 0 {
            let after = options.isNotification ? options.notificationDuration(for: config) : (options.hideAfter ?? 1.5)
            entry.hud.hide(animated: true, afterDelay: after)
        }
        return Wire.Reply(status: 0)
    }

    // MARK: HUDs that live as long as their client

    /// What a staying client does, or nil when its invocation is answered at once (a named HUD,
    /// a verb, a notification that does not wait).
    private func sessionPlan(_ options: XHUDCommand, _ request: Wire.Request) -> Session.Plan? {
        guard options.id == nil, options.action == nil || options.isNotification else { return nil }
        let wraps = !options.command.isEmpty
        let readsStdin = options.verb == nil && request.stdinIsPipe && !wraps
        if options.isNotification && !wraps && !readsStdin && !options.wait { return nil }
        return Session.Plan(readsStdin: readsStdin, wraps: wraps, scansOutput: options.progressFromOutput ?? false,
                            killTimeout: options.killTimeout)
    }

    private func openSession(_ options: XHUDCommand, plan: Session.Plan, request: Wire.Request, fd: Int32) -> Wire.Reply {
        var config: HUDConfiguration
        do { config = try options.hudConfiguration() } catch { return usageError("\(error)") }
        if let path = config.imagePath, !path.hasPrefix("/") { config.imagePath = request.cwd + "/" + path }
        if let path = config.imagePath, let problem = ImageFile.problem(at: path) { return usageError("\(problem)") }
        if plan.wraps {
            config.graceTime = options.grace ?? 0.5     // a quick command never flashes a HUD
            config.minShowTime = options.minShow ?? 0.5 // a shown one never flickers
        }
        // A HUD that was showing when its server died comes back at once.
        if request.resumes { config.graceTime = 0 }
        let hud: X11HUD
        do {
            hud = try X11HUD(loop: loop, configuration: config, parent: options.parentSpec, scale: options.scale)
        } catch {
            return usageError("\(error)")
        }
        hud.easesProgress = options.smooth ?? false
        sessionCount += 1
        let id = " client \(sessionCount)"
        sessions[id] = ClientSession(fd: fd, hud: hud, options: options, plan: plan, request: request) { [unowned self, unowned hud] in
            hud.dispose()
            self.sessions[id] = nil
            self.remove(id)
        }
        entries[id] = Entry(hud: hud, parent: options.parentSpec)
        order.append(id)
        if let t = lingerTimer { loop.cancelTimer(t); lingerTimer = nil }
        restack()   // before showing: a new HUD's window is made where it will stay
        return Wire.Reply(status: 0, plan: plan)
    }

    private func hidden(_ id: String) {
        guard let e = entries[id], !e.hud.isVisible else { return }
        if e.remembered {
            remembered[id] = (e.hud.configuration, e.parent)
            rememberedOrder.removeAll { $0 == id }
            rememberedOrder.append(id)
            if rememberedOrder.count > 64 { remembered[rememberedOrder.removeFirst()] = nil }
        }
        e.hud.dispose()
        remove(id)
    }

    private func remove(_ id: String) {
        entries[id] = nil
        order.removeAll { $0 == id }
        restack()
        // The HUD's surfaces, layouts and image are freed by now; give the pages back, so that a
        // server that has shown a thousand HUDs is as small as one that has shown one.
        loop.releaseFreedMemory()
        if entries.isEmpty { scheduleExit() }
    }

    /// Names in one region stack top to bottom in the order they appeared, `gap` apart, the
    /// group centred where one HUD would be; when the first sits below the centre (an OSD pinned
    /// to the bottom) they grow upwards from it instead.
    private func restack() {
        let gap = 8.0
        var groups: [String: [Entry]] = [:], keys: [String] = []
        for id in order {
            guard let e = entries[id] else { continue }
            let key = "\(e.parent)"
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(e)
        }
        for key in keys {
            let group = groups[key]!
            let heights = group.map { $0.hud.bezelSize.height }
            let total = heights.reduce(0, +) + gap * Double(group.count - 1)
            let upwards = group[0].hud.configuration.offset.y > 0
            var top = upwards ? 0 : -total / 2 + heights[0] / 2
            for (i, e) in group.enumerated() {
                if i > 0 { top += heights[i - 1] / 2 + gap + heights[i] / 2 }
                e.hud.stackShift = upwards ? -top : top
            }
        }
    }

    private func scheduleExit() {
        if lingersForever { return }
        if let t = lingerTimer { loop.cancelTimer(t) }
        lingerTimer = loop.addTimer(after: linger) { [unowned self] in
            if self.entries.isEmpty { self.exit() }
        }
    }

    /// Stops answering first (the socket goes), then ends: a client that connected just before
    /// reads EOF and starts a new server.
    private func exit() {
        unlink(paths.socket)
        close(listener)
        loop.removeReader(fd: listener)
        loop.stop(exitCode: 0)
    }
}

/// A refused request's reply: one line, its input escaped (the client prints it on a terminal).
private func usageError(_ message: String) -> Wire.Reply {
    Wire.Reply(status: Status.usage, error: "xhud: \(message.escapingControlCharacters)\n")
}
