#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

/// The event loop of one Wayland connection, as `HUDLoop` is of an X connection: any number of
/// HUDs, and descriptors, timers and work posted from other threads (its `LoopSources`), on the
/// thread that calls `run`. Its display link is the compositor's: while something moves, the
/// HUDs tick when a surface's frame callback comes (the compositor showed the last frame and
/// wants the next), or a refresh after the last tick when no frame is awaited; nothing ticks
/// when nothing moves.
package final class WaylandLoop: PollingLoop {
    package let connection: WaylandConnection
    let clock = MonotonicClock()
    package let sources = LoopSources()
    package var now: Double { clock.now }
    /// The backends of the HUDs it runs, from their `attach` to their `detach` (each HUD's
    /// controller holds its backend, and is held by whoever drives the HUD).
    private(set) var huds: [WaylandHUD] = []
    private var quit = false
    private var exitCode: Int32 = 0
    /// Called with the signal number on SIGINT, SIGTERM and SIGHUP (after `installSignalHandlers`).
    package var onSignal: ((Int32) -> Void)?
    /// Where its HUDs' Pango text is laid out, off this loop (a server's); nil: on it.
    package var textShaper: TextShaper?

    package init(connection: WaylandConnection) {
        self.connection = connection
        connection.onButton = { [unowned self] surface, at, button, pressed in
            guard let h = huds.first(where: { $0.output?.surface == surface }) else { return }
            h.pointer(at: at, button: button, pressed: pressed)
        }
        connection.onEscape = { [unowned self] surface in
            huds.first(where: { $0.output?.surface == surface })?.controller?.escapePressed()
        }
        connection.onScreenChanged = { [unowned self] screen in for h in huds { h.screenChanged(screen) } }
        connection.onScreenRemoved = { [unowned self] screen in for h in huds { h.screenRemoved(screen) } }
    }

    func add(_ hud: WaylandHUD) { huds.append(hud) }
    func remove(_ hud: WaylandHUD) { huds.removeAll { $0 === hud } }

    // MARK: The display link

    /// The fastest output's refresh.
    package var framePeriod: Double { 1 / max(1, connection.screens.map(\.refresh).max() ?? 60) }
    package private(set) var isTicking = false
    package private(set) var ticks = 0
    private var lastTick = -Double.infinity
    /// A frame callback came: the HUDs tick at once.
    private var frameCame = false

    func frameShown() { if isTicking { frameCame = true } }

    func updateLink() {
        guard !deferringLink else { return }
        isTicking = huds.contains(where: { $0.controller?.wantsTicks == true })
        if !isTicking { frameCame = false }
    }
    private var deferringLink = false

    /// When the next tick is due without a frame callback: a refresh after the last (nothing
    /// awaited), or a few refreshes after it while a callback is awaited (a compositor that
    /// shows nothing, its output off, sends none).
    private var linkDeadline: Double? {
        guard isTicking else { return nil }
        let awaited = huds.contains { $0.output?.awaitsFrame == true }
        return lastTick + framePeriod * (awaited ? 4 : 1)
    }

    // MARK: HUDEventLoop

    package func stop(exitCode code: Int32 = 0) { exitCode = code; quit = true }

    package func releaseFreedMemory(filePagesAfter delay: Double) { _ = c_malloc_trim(0) }

    // MARK: Running

    /// Runs until `stop` or until the compositor goes away (exit 1); returns the exit code.
    package func run() -> Int32 {
        let lib = connection.lib, d = connection.display
        var fds = [pollfd]()
        while !quit {
            settle()
            if quit { break }
            // Events read while a request waited are handled before sleeping (wl_display_prepare_read).
            while lib.prepareRead(d) != 0 { _ = lib.dispatchPending(d) }
            _ = lib.flush(d)
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0))
            let watched = sources.appendDescriptors(to: &fds)
            let n = LoopSources.sleep(&fds, until: deadline(), now: clock.now)
            if fds[0].revents != 0 { _ = lib.readEvents(d) } else { lib.cancelRead(d) }
            if n < 0 && errno != EINTR { break }
            if lib.dispatchPending(d) < 0 || lib.getError(d) != 0 {
                Console.error("xhud: the Wayland compositor closed the connection\n")
                exitCode = 1
                break
            }
            sources.handleReady(watched, fds, wakeAt: 1)
            _ = sources.runPosted(ifWoken: fds, at: 1)
            let now = clock.now
            if isTicking, frameCame || linkDeadline.map({ now >= $0 }) == true {
                frameCame = false
                ticks += 1
                lastTick = now
                deferringLink = true
                for h in huds { h.controller?.tick() }
                deferringLink = false
                updateLink()
            }
            sources.fireTimers(now: clock.now)
        }
        for h in huds { h.controller?.unmapForExit() }
        _ = lib.roundtrip(d)
        if Environment.isSet("XHUD_STATS") {
            Console.error(
                "xhud-stats: frames=\(huds.map { $0.controller?.framesDrawn ?? 0 }.reduce(0, +)) ticks=\(ticks) refresh=\(1 / framePeriod)\n")
        }
        return exitCode
    }

    /// Brings every HUD's lifecycle up to date; the link runs only while something moves.
    private func settle() {
        deferringLink = true
        let was = isTicking
        for h in huds { h.controller?.afterStateChange() }
        deferringLink = false
        updateLink()
        // A link that starts ticks at once, or a refresh after its last tick.
        if isTicking, !was { frameCame = clock.now - lastTick >= framePeriod }
    }

    /// Timers, grace, min show, delayed hide, animation ends, the next tick; nil: wait for an event.
    private func deadline() -> Double? {
        var deadline = sources.nextTimer
        for h in huds { if let d = h.controller?.lifecycle.nextDeadline { deadline = min(deadline ?? d, d) } }
        if frameCame, isTicking { deadline = clock.now }
        if let l = linkDeadline { deadline = min(deadline ?? l, l) }
        return deadline
    }
}

/// glibc's malloc_trim (malloc.h, which Glibc does not import).
@_silgen_name("malloc_trim")
private func c_malloc_trim(_ pad: Int) -> Int32
