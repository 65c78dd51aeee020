#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDSocket
import HUDEngine
import HUDRender

/// The server's side of a HUD that lives as long as its client (`Session`): a plain HUD, one fed
/// on stdin, a wrapped command's, a notification that waits. The client sends its lines and gets
/// back `cancel`, warnings and the status it exits with.
final class ClientSession<Display: HUDDisplay> {
    let fd: Int32
    let hud: HUDController
    private let loop: any HUDEventLoop
    private let options: HUDOptions
    private let plan: Session.Plan
    private var input: InputApplier!
    private var lines = LineBuffer(limit: 64 * 1024 + 64)
    /// The wrapped command ended: the client may leave, its HUD shows the result on its own.
    private var released = false
    /// The HUD is on its way out: nothing the client says changes it.
    private var ended = false
    private var over = false
    /// Takes the HUD off the server (disposes it); called once, when the session is over.
    private let remove: () -> Void

    /// The HUD was showing when its server died: it comes back without an animation.
    private let resumed: Bool
    /// A HUD fed on stdin waits for its first lines (their end, or `firstLinesWait`) before it
    /// shows: it never maps with the bar alone, then grows with the label its lines give it.
    private var showPending = false
    static var firstLinesWait: Double { 0.15 }
    /// The client asked for frame counts (`XHUD_STATS`): the display link's ticks at the start.
    private let ticksAtStart: Int?

    init(
        fd: Int32, hud: HUDController, loop: any HUDEventLoop, options: HUDOptions, plan: Session.Plan, request: Wire.Request,
        remove: @escaping () -> Void
    ) {
        self.fd = fd; self.hud = hud; self.loop = loop; self.options = options; self.plan = plan; self.remove = remove
        resumed = request.resumes
        ticksAtStart = request.wantsStats ? loop.ticks : nil
        input = InputApplier(
            hud: hud, options: options,
            finish: { [weak self] code, delay in
                guard let self else { return }; self.finish(code, after: delay)
            },
            warn: { [weak self] in
                guard let self else { return }; self.tell(.warn("xhud: " + $0))
            })
    }

    /// Shows the HUD as the invocation says and starts listening to the client.
    func start() {
        let hud = self.hud
        let cancel = { [weak self] in
            guard let self else { return }
            guard !self.ended else { return }
            self.ended = true
            self.showPending = false
            if self.plan.wraps {
                // The client ends the command; the HUD goes now, its status is the client's.
                self.tell(.cancel)
                hud.hide(animated: true) { [weak self] in
                    guard let self else { return }; self.done(Status.cancelled)
                }
            } else {
                hud.dismiss(animated: true) { [weak self] in
                    guard let self else { return }; self.done(Status.cancelled, killParent: self.options.autoKill)
                }
            }
        }
        hud.onButton = cancel
        // zenity's --extra-button: its title on stdout, then as the Cancel button (exit 1).
        hud.onExtraButton = { [weak self] i in
            guard let self, !self.ended, i < hud.configuration.extraButtons.count else { return }
            self.tell(.say(hud.configuration.extraButtons[i]))
            cancel()
        }
        // Whatever blocks input gives it back on Escape (the key is grabbed only while it does).
        hud.onEscape = cancel
        hud.onParentGone = { [weak self] in
            guard let self else { return }; self.done(Status.done)
        }
        if plan.readsStdin && !resumed {
            showPending = true
            _ = loop.addTimer(after: Self.firstLinesWait) { [weak self] in self?.showIfPending() }
        } else {
            hud.show(animated: !resumed)
            scheduleEnd()
        }
        loop.addReader(fd: fd) { [weak self] in
            guard let self else { return }; self.receive()
        }
    }

    /// When the HUD goes on its own, counted from its show (a hide asked before the show would
    /// be forgotten by it).
    private func scheduleEnd() {
        if options.isNotification {
            if options.clickThrough != true && hud.configuration.mode != .text {
                hud.onClick = { [weak self] in
                    guard let self else { return }; self.finish(Status.done)
                }
            }
            finish(Status.done, after: options.notificationDuration(for: hud.configuration))
        } else if !plan.wraps {
            if let after = options.hideAfter {
                finish(Status.done, after: after)
            } else if let t = options.timeout {
                finish(Status.timedOut, after: t)  // zenity --timeout: closes the dialog and exits 5
            }
        }
    }

    // MARK: The client's lines

    private func receive() {
        var buf = [UInt8](repeating: 0, count: 65536)
        let n = read(fd, &buf, buf.count)
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard n > 0 else { return clientGone() }
        for l in buf.withUnsafeBytes({ lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) {
            if l.hadNUL {
                if let c = Session.Control(l.line) { control(c) }
            } else if plan.wraps {
                // A wrapped command's percentages (`--progress-from-output`).
                if case .set(let change) = InputCommand.parse(l.line), !ended { hud.update { change.apply(to: &$0) } }
            } else if plan.readsStdin {
                input.apply(l)
            }
        }
        showIfPending()
    }

    private func showIfPending() {
        guard showPending, !over else { return }
        showPending = false
        hud.show(animated: true)
        scheduleEnd()
    }

    private func control(_ c: Session.Control) {
        switch c {
        case .end:
            showIfPending()
            if plan.readsStdin { input.end() }
        case .quit:
            // SIGINT or SIGTERM: the normal way to end a HUD. It goes now (min show time is for
            // the task's end, not for the user's).
            ended = true
            showPending = false
            hud.dismiss(animated: true) { [weak self] in
                guard let self else { return }; self.done(Status.done)
            }
        case .exit(let v):
            released = true
            result(success: v == 0, details: v == 0 ? "" : "Exit status \(v)")
        case .signal(let v):
            released = true
            result(success: false, details: "Ended by signal \(v)")
        }
    }

    /// The wrapped command's end: a command still in its grace time never shows a HUD; a shown
    /// one shows its result, then goes.
    private func result(success: Bool, details: String) {
        guard !ended else { return }
        ended = true
        guard options.resultTime > 0, hud.isVisible else { return finish(Status.done) }
        hud.update { c in
            c.mode = success ? .success : .error
            c.details = details
            c.button = ""
            c.extraButtons = []
        }
        finish(Status.done, after: options.resultTime)
    }

    /// The client went away without ending its HUD (SIGKILL, a crash, a closed socket): the HUD
    /// goes at once, in the next frame, without an animation.
    private func clientGone() {
        closeConnection()
        guard !released, !over else { return }
        ended = true
        done(Status.done)
    }

    // MARK: Ending

    private func finish(_ status: Int32, after delay: Double = 0) {
        if delay == 0 { showIfPending() }  // as it was when the input ended
        ended = true
        hud.hide(animated: true, afterDelay: delay) { [weak self] in
            guard let self else { return }; self.done(status)
        }
    }

    /// The HUD is gone: the client hears its status, the server drops it.
    private func done(_ status: Int32, killParent: Bool = false) {
        guard !over else { return }
        over = true
        if let t = ticksAtStart {
            tell(.warn("xhud-stats: frames=\(hud.framesDrawn) ticks=\(loop.ticks - t) refresh=\(hud.backend.refreshRate)"))
        }
        tell(.done(status, killParent: killParent))
        closeConnection()
        remove()
    }

    private var connected = true

    /// The client went before its reply was given (its connection is closed already): the HUD
    /// that was made for it goes without being shown.
    func abandon() {
        connected = false
        ended = true
        done(Status.done)
    }

    private func tell(_ event: Session.Event) {
        guard connected else { return }
        // Never blocks the server: a client that does not read loses its lines, not the display.
        let bytes = event.line
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    private func closeConnection() {
        guard connected else { return }
        connected = false
        loop.removeReader(fd: fd)
        close(fd)
    }
}

/// HUDs that live as long as their client.
extension HUDServer {
    /// What a staying client does, or nil when its invocation is answered at once (a named HUD,
    /// a verb, a notification that does not wait).
    func sessionPlan(_ options: HUDOptions, _ request: Wire.Request) -> Session.Plan? {
        guard options.id == nil, options.verb == nil || options.isNotification else { return nil }
        let wraps = !options.command.isEmpty
        let pipedIn = options.verb == nil && request.stdinIsPipe && !wraps
        // A notification never reads stdin; with stdin a pipe (`--mode text` in a pipeline) it
        // stays for its duration, as it always has.
        if options.isNotification && !wraps && !pipedIn && !options.wait { return nil }
        let readsStdin = pipedIn && !options.isNotification
        return Session.Plan(
            readsStdin: readsStdin, wraps: wraps, scansOutput: options.progressFromOutput ?? false,
            killTimeout: options.killTimeout)
    }

    func openSession(_ options: HUDOptions, plan: Session.Plan, request: Wire.Request, fd: Int32) -> Wire.Reply {
        var config: HUDConfiguration
        do { config = try options.hudConfiguration() } catch { return usageError("\(error)") }
        if plan.wraps {
            config.graceTime = options.grace ?? OptionDefaults.wrappingGrace  // a quick command never flashes a HUD
            config.minShowTime = options.minShow ?? OptionDefaults.wrappingMinShow  // a shown one never flickers
        }
        // A HUD that was showing when its server died comes back at once.
        if request.resumes { config.graceTime = 0 }
        if huds.isFull { return noRoom() }
        let hud: HUDController
        var parent = options.parentSpec
        var warning = ""
        do {
            hud = try display.makeHUD(configuration: config, parent: parent, scale: options.scale)
        } catch let error as ParentError where options.attach != nil && options.window == nil {
            // zenity ignores a window to attach to that is not there; so does its spelling here.
            parent = .monitor("pointer")
            warning = "xhud: --attach: \("\(error)".escapingControlCharacters); the HUD covers the pointer's monitor\n"
            do { hud = try display.makeHUD(configuration: config, parent: parent, scale: options.scale) } catch { return usageError("\(error)") }
        } catch {
            return usageError("\(error)")
        }
        hud.smooth = options.smooth ?? false
        sessionCount += 1
        let id = " client \(sessionCount)"
        let session = ClientSession<Display>(fd: fd, hud: hud, loop: loop, options: options, plan: plan, request: request) { [unowned self] in
            self.sessions[id] = nil
            self.remove(id)
        }
        sessions[id] = session
        opened = session
        huds.add(hud, key: id, parent: parent)  // before it shows: its window is made where it will stay
        accessibility?.track(id, hud)
        if huds.crowded.contains(hud.stackRegion) {
            sessions[id] = nil
            opened = nil
            huds.remove(id)
            hud.dispose()
            return noRoom()
        }
        keep()
        return Wire.Reply(status: 0, error: warning, plan: plan)
    }
}
