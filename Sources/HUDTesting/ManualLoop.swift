#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDEngine
import HUDSystem

/// An event loop the test drives by hand on a manual clock, the way swift-nio's
/// `EmbeddedEventLoop` is driven: each frame it handles the descriptors that are ready, the work
/// posted to it (from any thread), the timers that are due, and ticks every HUD on it. As a
/// real loop, it holds the backends of its HUDs from their `attach` to their `detach`.
package final class ManualLoop: HUDEventLoop {
    package let clock = ManualClock(1000)
    package let framePeriod = 1.0 / 60
    package private(set) var ticks = 0
    /// The exit code `stop` was called with.
    package private(set) var stopped: Int32?
    package private(set) var huds: [RecordingBackend] = []
    private var readers: [(fd: Int32, events: Int16, handler: () -> Void)] = []
    private var timers: [(id: Int, at: Double, handler: () -> Void)] = []
    private var nextTimer = 0
    private let posted = Locked<[() -> Void]>([])

    package init() {}

    func add(_ hud: RecordingBackend) { huds.append(hud) }
    func remove(_ hud: RecordingBackend) { huds.removeAll { $0 === hud } }

    package func addReader(fd: Int32, _ handler: @escaping () -> Void) { readers.append((fd, Int16(POLLIN), handler)) }
    package func removeReader(fd: Int32) { readers.removeAll { $0.fd == fd && $0.events == Int16(POLLIN) } }
    package func addWriter(fd: Int32, _ handler: @escaping () -> Void) { readers.append((fd, Int16(POLLOUT), handler)) }
    package func removeWriter(fd: Int32) { readers.removeAll { $0.fd == fd && $0.events == Int16(POLLOUT) } }
    package func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> Int {
        nextTimer += 1
        timers.append((nextTimer, clock.now + delay, handler))
        return nextTimer
    }
    package func cancelTimer(_ id: Int) { timers.removeAll { $0.id == id } }
    package func post(_ work: @escaping () -> Void) { posted.withLock { $0.append(work) } }
    package func stop(exitCode code: Int32) { if stopped == nil { stopped = code } }
    package func releaseFreedMemory(filePagesAfter delay: Double) {}

    /// One frame: ready descriptors, posted work, due timers, then every HUD ticks.
    package func frame() {
        var fds = readers.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        if !fds.isEmpty, poll(&fds, nfds_t(fds.count), 0) > 0 {
            let ready = zip(readers, fds).filter { $0.1.revents != 0 }.map(\.0)
            for r in ready where readers.contains(where: { $0.fd == r.fd && $0.events == r.events }) { r.handler() }
        }
        for w in posted.withLock({ p in
            defer { p.removeAll() }; return p
        }) { w() }
        while let i = timers.indices.filter({ timers[$0].at <= clock.now }).min(by: { timers[$0].at < timers[$1].at }) {
            let t = timers.remove(at: i)
            t.handler()
        }
        for h in huds {
            h.controller?.tick()
            h.controller?.afterStateChange()
        }
        ticks += 1
        clock.advance(by: framePeriod)
    }

    /// Frames for `seconds` of the loop's clock.
    package func run(for seconds: Double) {
        let end = clock.now + seconds
        while clock.now < end { frame() }
    }

    /// Frames until `condition` holds, for at least `seconds` of the loop's clock and as much
    /// real time (30 s at most): a thread the loop waits on (the configuration reader, a
    /// journal's compaction) runs in real time, and a loaded machine gives it little of it.
    @discardableResult
    package func run(until condition: () -> Bool, within seconds: Double = 10) -> Bool {
        let end = clock.now + seconds
        let realEnd = MonotonicTime.seconds() + min(seconds, 30)
        while clock.now < end || MonotonicTime.seconds() < realEnd {
            if condition() { return true }
            frame()
            usleep(200)
        }
        return condition()
    }
}

/// A loop that only takes work posted to it, run when the test says (`runPosted`).
package final class PostedWork: HUDEventLoop {
    private let posted = Locked<[() -> Void]>([])
    package init() {}
    package func addReader(fd: Int32, _ handler: @escaping () -> Void) {}
    package func removeReader(fd: Int32) {}
    package func addWriter(fd: Int32, _ handler: @escaping () -> Void) {}
    package func removeWriter(fd: Int32) {}
    package func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> Int { 0 }
    package func cancelTimer(_ id: Int) {}
    package func post(_ work: @escaping () -> Void) { posted.withLock { $0.append(work) } }
    package func stop(exitCode code: Int32) {}
    package var ticks: Int { 0 }
    package func releaseFreedMemory(filePagesAfter delay: Double) {}
    package var isEmpty: Bool { posted.withLock { $0.isEmpty } }
    package func runPosted() {
        for w in posted.withLock({ p in
            defer { p.removeAll() }; return p
        }) { w() }
    }
}
