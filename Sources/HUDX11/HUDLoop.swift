#if canImport(Glibc)
import Glibc
#endif
import CX11
import CPresent
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem

/// The event loop of one X connection: it runs any number of HUDs (a named-HUD server stacks
/// several), one display link for all of them, file descriptors to watch and timers (its
/// `LoopSources`). Everything runs on the thread that calls `run`, which sleeps in ppoll until
/// the next frame's deadline, a timer, an event or a wake (work posted from another thread, a
/// signal).
package final class HUDLoop: PollingLoop {
    package let display: X11Display
    let clock = MonotonicClock()
    package let sources = LoopSources()
    package var now: Double { clock.now }
    /// The backends of the HUDs it runs, from their `attach` to their `detach` (each HUD's
    /// controller holds its backend, and is held by whoever drives the HUD).
    private(set) var huds: [X11HUD] = []
    private var quit = false
    private var exitCode: Int32 = 0
    private var link: DisplayLink?
    /// Called with the signal number on SIGINT, SIGTERM and SIGHUP (after `installSignalHandlers`).
    package var onSignal: ((Int32) -> Void)?
    /// Where its HUDs' Pango text is laid out, off this loop (a server's); nil: on it.
    package var textShaper: TextShaper?

    package init(display: X11Display) {
        self.display = display
        display.watchRoot()
    }

    /// One link for every HUD, ticking at the fastest refresh rate among their monitors when
    /// it is first needed.
    private func makeLink() -> DisplayLink {
        if let link { return link }
        let l = DisplayLink(hz: huds.map(\.refreshRate).max() ?? 60)
        link = l
        return l
    }

    package var framePeriod: Double { makeLink().period }
    package var isTicking: Bool { link?.isRunning ?? false }

    private func startLink() {
        if link == nil { link = makeLink() }
        link!.start(now: clock.now)
    }

    func add(_ hud: X11HUD) { huds.append(hud) }
    func remove(_ hud: X11HUD) { huds.removeAll { $0 === hud } }

    /// Display-link ticks so far (the link runs only while something moves).
    package var ticks: Int { link?.ticks ?? 0 }

    /// Ends `run` with an exit code.
    package func stop(exitCode code: Int32 = 0) { exitCode = code; quit = true }

    /// Runs until `stop`; returns the exit code (128+N after signal N without an `onSignal`).
    package func run() -> Int32 {
        var fds = [pollfd]()
        while !quit {
            settle()
            if quit { break }
            XFlush(display.handle)
            // Questions that a HUD's first frame did not wait for, once its frames are sent and
            // nothing moves (a round trip then delays no frame).
            if !isTicking, huds.allSatisfy({ ($0.controller?.framesDrawn ?? 1) > 0 }) { display.revalidateMonitors() }
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: display.fd, events: Int16(POLLIN), revents: 0))
            let watched = sources.appendDescriptors(to: &fds)
            // Events already read from the socket (while a reply was awaited): look, do not
            // wait. One read of the socket a pass, not one per question: a spinner's frame is
            // four system calls.
            let queued = XEventsQueued(display.handle, QueuedAfterReading) > 0
            let n = LoopSources.sleep(&fds, until: queued ? clock.now : deadline(), now: clock.now)
            if n < 0 && errno != EINTR { break }
            if queued || fds[0].revents != 0 { handleXEvents() }
            let read = sources.handleReady(watched, fds, wakeAt: 1)
            var tick = link?.fire(now: clock.now) == true
            if sources.runPosted(ifWoken: fds, at: 1) { tick = true }
            if tick {
                // What the readers did (a new HUD's window and first frame, a new value) goes
                // to the X server before this tick's frames, which it would otherwise execute
                // first: under a burst of new HUDs, each is mapped without waiting for every
                // fade-in already running.
                if read { XFlush(display.handle) }
                deferringLink = true
                for h in huds { h.controller?.tick() }
                deferringLink = false
                updateLink()
            }
            sources.fireTimers(now: clock.now)
            learnRefreshRates()
        }
        link?.stop()
        for h in huds { h.controller?.unmapForExit() }
        XSync(display.handle, 0)
        if Environment.isSet("XHUD_STATS") {
            let rate = huds.first?.refreshRate ?? 60
            Console.error(
                "xhud-stats: frames=\(huds.map { $0.controller?.framesDrawn ?? 0 }.reduce(0, +)) ticks=\(link?.ticks ?? 0) refresh=\(rate)\n")
        }
        return exitCode
    }

    /// Brings every HUD's lifecycle up to date and runs the display link only while something moves.
    /// A HUD that wants ticks starts the link at once (a later HUD then waits for the tick, as
    /// when the link already ran); whether it may stop is asked of every HUD once, at the end:
    /// asked after each HUD, twenty HUDs made four hundred questions a pass.
    func settle() {
        deferringLink = true
        for h in huds {
            h.controller?.afterStateChange()
            if h.controller?.wantsTicks == true { startLink() }
        }
        deferringLink = false
        updateLink()
    }

    /// Set while every HUD is visited (`settle`, the ticks): the link is updated after the visit.
    private var deferringLink = false
    /// When `releaseFreedMemory` last gave back pages of files, and its timer for the next.
    var pagesReleasedAt = -Double.infinity
    var pageRelease: Int?

    func updateLink() {
        guard !deferringLink else { return }
        if huds.contains(where: { $0.controller?.wantsTicks == true }) { startLink() } else { link?.stop() }
    }

    /// The monitors' refresh rates, asked for once a HUD's first frame is on its way (two
    /// round trips, a cold server's first frame would wait on them); the display link then
    /// ticks at the fastest HUD's rate.
    private func learnRefreshRates() {
        guard huds.contains(where: { !$0.refreshRateKnown && ($0.controller?.framesDrawn ?? 0) > 0 }) else { return }
        for h in huds where !h.refreshRateKnown {
            h.refreshRate = display.refreshRate(at: Point(x: h.region.rect.midX, y: h.region.rect.midY))
            h.refreshRateKnown = true
        }
        let hz = huds.map(\.refreshRate).max() ?? 60
        guard let old = link, abs(1 / old.period - hz) > 0.5 else { return }
        var l = DisplayLink(hz: hz)
        if old.isRunning { l.start(now: clock.now) }
        link = l
    }

    /// The wait honours every deadline (the next frame's while the link runs, timers, grace,
    /// min show, delayed hide, animation ends); nil: wait for an event.
    private func deadline() -> Double? {
        var deadline = sources.nextTimer
        for h in huds { if let d = h.controller?.lifecycle.nextDeadline { deadline = min(deadline ?? d, d) } }
        if let l = link, l.isRunning { deadline = min(deadline ?? l.deadline, l.deadline) }
        return deadline
    }

    private func handleXEvents() {
        let d = display.handle
        var ev = XEvent()
        var outputs: [X11Output]?
        while XEventsQueued(d, QueuedAfterReading) > 0 {
            XNextEvent(d, &ev)
            display.noteEvent(&ev)
            if ev.type == GenericEvent, let op = display.knownPresentOpcode {
                var c = XHUDPresentComplete()
                if xhud_present_complete(d, &ev, op, &c) != 0 {
                    for o in display.outputs { o.value?.presentCompleted(c) }
                    continue
                }
            }
            if let w = display.damageWatch {
                // Once a batch: a desktop's drawing comes as hundreds of reports a frame.
                if outputs == nil { outputs = display.outputs.compactMap(\.value) }
                let outdated = w.outdated(by: &ev, outputs: outputs!, now: clock.now)
                if ev.type == w.eventBase + XDamageNotify {
                    for o in outdated { o.beneathDrew() }
                    continue
                }
            }
            for h in huds { h.handle(&ev) }
        }
    }
}

extension HUDLoop {
    /// Returns freed heap pages to the system (a long-lived server after a HUD goes), and, after
    /// `delay` and at most every half minute, the pages of code and data its files no longer
    /// need: reading the mappings takes a millisecond or two (more in a debug build), and a
    /// request faults back in what it runs.
    package func releaseFreedMemory(filePagesAfter delay: Double) {
        _ = malloc_trim(0)
        let wait = max(delay, pagesReleasedAt + 30 - clock.now)
        guard wait > 0 else {
            if let pageRelease { cancelTimer(pageRelease) }
            return releaseFilePages()
        }
        guard pageRelease == nil else { return }
        pageRelease = addTimer(after: wait) { [unowned self] in releaseFilePages() }
    }

    private func releaseFilePages() {
        pageRelease = nil
        pagesReleasedAt = clock.now
        ResidentPages.releaseUnwrittenFilePages()
    }
}
