#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

/// The event loop of one Wayland connection, as `HUDLoop` is of an X connection: any number of
/// HUDs, descriptors, timers and work posted from other threads, on the thread that calls
/// `run`. Its display link is the compositor's: while something moves, the HUDs tick when a
/// surface's frame callback comes (the compositor showed the last frame and wants the next),
/// or a refresh after the last tick when no frame is awaited; nothing ticks when nothing moves.
package final class WaylandLoop: HUDEventLoop {
    package let connection: WaylandConnection
    let clock = MonotonicClock()
    /// The backends of the HUDs it runs, from their `attach` to their `detach` (each HUD's
    /// controller holds its backend, and is held by whoever drives the HUD).
    private(set) var huds: [WaylandHUD] = []
    private var readers: [(fd: Int32, events: Int16, handler: () -> Void)] = []
    private var timers: [(id: Int, at: Double, handler: () -> Void)] = []
    private var nextTimerID = 0
    private var quit = false
    private var exitCode: Int32 = 0
    private let wake: (read: Int32, write: Int32)
    private let posted = Locked<(work: [() -> Void], woken: Bool)>(([], false))
    /// Called with the signal number on SIGINT, SIGTERM and SIGHUP (after `installSignalHandlers`).
    package var onSignal: ((Int32) -> Void)?
    /// Where its HUDs' Pango text is laid out, off this loop (a server's); nil: on it.
    package var textShaper: TextShaper?

    package init(connection: WaylandConnection) {
        self.connection = connection
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wake = (fds[0], fds[1])
        connection.onButton = { [unowned self] surface, at, button, pressed in
            guard let h = huds.first(where: { $0.output?.surface == surface }) else { return }
            h.pointer(at: at, button: button, pressed: pressed)
        }
    }

    deinit { close(wake.read); close(wake.write) }

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

    package func addReader(fd: Int32, _ handler: @escaping () -> Void) { readers.append((fd, Int16(POLLIN), handler)) }
    package func removeReader(fd: Int32) { readers.removeAll { $0.fd == fd && $0.events == Int16(POLLIN) } }
    package func addWriter(fd: Int32, _ handler: @escaping () -> Void) { readers.append((fd, Int16(POLLOUT), handler)) }
    package func removeWriter(fd: Int32) { readers.removeAll { $0.fd == fd && $0.events == Int16(POLLOUT) } }

    @discardableResult
    package func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> Int {
        nextTimerID += 1
        timers.append((nextTimerID, clock.now + delay, handler))
        return nextTimerID
    }
    package func cancelTimer(_ id: Int) { timers.removeAll { $0.id == id } }

    /// Safe from any thread: the work runs on the loop's thread.
    package func post(_ work: @escaping () -> Void) {
        let first = posted.withLock { p in
            p.work.append(work)
            defer { p.woken = true }
            return !p.woken
        }
        if first {
            var b: UInt8 = 1
            _ = write(wake.write, &b, 1)
        }
    }

    private func runPosted() {
        var buf = [UInt8](repeating: 0, count: 64)
        while read(wake.read, &buf, 64) > 0 {}
        let work = posted.withLock { p in
            defer { p.work.removeAll(); p.woken = false }
            return p.work
        }
        for w in work { w() }
    }

    package func stop(exitCode code: Int32 = 0) { exitCode = code; quit = true }

    package func releaseFreedMemory(filePagesAfter delay: Double) { _ = c_malloc_trim(0) }

    /// SIGINT, SIGTERM and SIGHUP end the loop (`onSignal` decides how).
    package func installSignalHandlers() {
        let signals = SignalPipe(for: [SIGINT, SIGTERM, SIGHUP])
        addReader(fd: signals.readFD) { [unowned self] in
            for s in signals.drain() {
                if let onSignal { onSignal(s.signal) } else { stop(exitCode: 128 + s.signal) }
            }
        }
        signal(SIGPIPE, SIG_IGN)
    }

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
            fds.append(pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0))
            let watched = readers
            for r in watched { fds.append(pollfd(fd: r.fd, events: r.events, revents: 0)) }
            var wait = timespec()
            let n = timeout(&wait) ? sleep(&fds, &wait) : sleep(&fds, nil)
            if fds[0].revents != 0 { _ = lib.readEvents(d) } else { lib.cancelRead(d) }
            if n < 0 && errno != EINTR { break }
            if lib.dispatchPending(d) < 0 || lib.getError(d) != 0 {
                Console.error("xhud: the Wayland compositor closed the connection\n")
                exitCode = 1
                break
            }
            for (i, r) in watched.enumerated() where fds[i + 2].revents != 0 {
                if readers.contains(where: { $0.fd == r.fd && $0.events == r.events }) { r.handler() }
            }
            if fds[1].revents != 0 { runPosted() }
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
            fireTimers()
        }
        for h in huds { h.controller?.unmapForExit() }
        _ = lib.roundtrip(d)
        if getenv("XHUD_STATS") != nil {
            Console.error("xhud-stats: frames=\(huds.map { $0.controller?.framesDrawn ?? 0 }.reduce(0, +)) ticks=\(ticks) refresh=\(1 / framePeriod)\n")
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

    private func timeout(_ wait: inout timespec) -> Bool {
        var deadline = timers.map(\.at).min()
        for h in huds { if let d = h.controller?.lifecycle.nextDeadline { deadline = min(deadline ?? d, d) } }
        if frameCame, isTicking { deadline = clock.now }
        if let l = linkDeadline { deadline = min(deadline ?? l, l) }
        guard let deadline else { return false }
        let left = max(0, deadline - clock.now)
        wait = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
        return true
    }

    private func sleep(_ fds: inout [pollfd], _ wait: UnsafePointer<timespec>?) -> Int32 {
        fds.withUnsafeMutableBufferPointer { c_ppoll($0.baseAddress!, nfds_t($0.count), wait, nil) }
    }

    private func fireTimers() {
        let now = clock.now
        let due = timers.filter { $0.at <= now }
        guard !due.isEmpty else { return }
        timers.removeAll { $0.at <= now }
        for t in due { t.handler() }
    }
}

/// poll with a timeout in nanoseconds; Glibc declares it only for _GNU_SOURCE.
@_silgen_name("ppoll")
private func c_ppoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: UnsafePointer<timespec>?,
                     _ sigmask: UnsafeRawPointer?) -> Int32

/// glibc's malloc_trim (malloc.h, which Glibc does not import).
@_silgen_name("malloc_trim")
private func c_malloc_trim(_ pad: Int) -> Int32
