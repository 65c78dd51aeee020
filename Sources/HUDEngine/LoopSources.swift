#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

/// What wakes an event loop, whatever its display: descriptors watched, timers, work posted from
/// other threads (through a `WakePipe`), and the wait in ppoll until the next deadline. Written
/// once for `HUDLoop` (X11) and `WaylandLoop`, which add their display's connection, their
/// display link and their HUDs. Owned by its loop, on the loop's thread; only `post` may be
/// called from another.
package final class LoopSources {
    package typealias Watch = (fd: Int32, events: Int16, handler: () -> Void)
    private var readers: [Watch] = []
    private var timers: [(id: Int, at: Double, handler: () -> Void)] = []
    private var nextTimerID = 0
    private let wake = WakePipe()
    private let posted = Locked<[() -> Void]>([])

    package init() {}

    // MARK: Descriptors

    package func addWatch(fd: Int32, events: Int16, _ handler: @escaping () -> Void) { readers.append((fd, events, handler)) }
    package func removeWatch(fd: Int32, events: Int16) { readers.removeAll { $0.fd == fd && $0.events == events } }

    /// The wake pipe's descriptor and every watched one, appended to `fds` after the loop's own
    /// (the connection's); the watches as they are now, for `handleReady`.
    package func appendDescriptors(to fds: inout [pollfd]) -> [Watch] {
        fds.append(pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0))
        let watched = readers
        for r in watched { fds.append(pollfd(fd: r.fd, events: r.events, revents: 0)) }
        return watched
    }

    /// Calls the handlers of the descriptors that are ready (`fds` from `appendDescriptors`,
    /// the wake pipe's at `first`); whether any was. A handler may have removed its watch (end
    /// of input) or another one: only those still watched are called.
    @discardableResult
    package func handleReady(_ watched: [Watch], _ fds: [pollfd], wakeAt first: Int) -> Bool {
        var any = false
        for (i, r) in watched.enumerated() where fds[first + 1 + i].revents != 0 {
            if readers.contains(where: { $0.fd == r.fd && $0.events == r.events }) { r.handler(); any = true }
        }
        return any
    }

    // MARK: Work from other threads

    /// Runs `work` on the loop's thread soon (the only way in from another thread). Safe from
    /// any thread.
    package func post(_ work: @escaping () -> Void) {
        posted.withLock { $0.append(work) }
        wake.wake()
    }

    /// Runs the work posted, if the wake pipe (at `index` of `fds`) woke the loop; whether it did.
    package func runPosted(ifWoken fds: [pollfd], at index: Int) -> Bool {
        guard fds[index].revents != 0 else { return false }
        wake.drain()
        let work = posted.withLock { p in
            defer { p.removeAll() }
            return p
        }
        for w in work { w() }
        return true
    }

    // MARK: Timers

    package func addTimer(at time: Double, _ handler: @escaping () -> Void) -> Int {
        nextTimerID += 1
        timers.append((nextTimerID, time, handler))
        return nextTimerID
    }
    package func cancelTimer(_ id: Int) { timers.removeAll { $0.id == id } }

    /// The earliest timer's time.
    package var nextTimer: Double? { timers.map(\.at).min() }

    /// Runs the timers due at `now` (a timer a handler adds waits for the next pass).
    package func fireTimers(now: Double) {
        let due = timers.filter { $0.at <= now }
        guard !due.isEmpty else { return }
        timers.removeAll { $0.at <= now }
        for t in due { t.handler() }
    }

    // MARK: Waiting

    /// Sleeps in ppoll until one of `fds` is ready or `deadline` (nil: none) has come, to the
    /// nanosecond (a frame's deadline is not a whole millisecond).
    package static func sleep(_ fds: inout [pollfd], until deadline: Double?, now: Double) -> Int32 {
        guard let deadline else {
            return fds.withUnsafeMutableBufferPointer { c_ppoll($0.baseAddress!, nfds_t($0.count), nil, nil) }
        }
        let left = max(0, deadline - now)
        var wait = timespec(tv_sec: Int(left), tv_nsec: Int((left - left.rounded(.down)) * 1e9))
        return fds.withUnsafeMutableBufferPointer { c_ppoll($0.baseAddress!, nfds_t($0.count), &wait, nil) }
    }
}

/// An event loop that polls its `LoopSources`: the descriptors, timers and signals of
/// `HUDEventLoop` come from here, once for every backend's loop.
package protocol PollingLoop: HUDEventLoop {
    var sources: LoopSources { get }
    /// The loop's clock, which its timers run on.
    var now: Double { get }
    /// Called with the signal number on SIGINT, SIGTERM and SIGHUP (after `installSignalHandlers`).
    var onSignal: ((Int32) -> Void)? { get }
}

extension PollingLoop {
    /// Watches a file descriptor (progress on stdin, a socket) from the loop.
    package func addReader(fd: Int32, _ handler: @escaping () -> Void) { sources.addWatch(fd: fd, events: Int16(POLLIN), handler) }
    package func removeReader(fd: Int32) { sources.removeWatch(fd: fd, events: Int16(POLLIN)) }
    /// Calls `handler` when `fd` can be written to (a reply that did not fit the socket's buffer).
    package func addWriter(fd: Int32, _ handler: @escaping () -> Void) { sources.addWatch(fd: fd, events: Int16(POLLOUT), handler) }
    package func removeWriter(fd: Int32) { sources.removeWatch(fd: fd, events: Int16(POLLOUT)) }

    /// Runs `handler` on the loop after `delay` seconds; returns an id for `cancelTimer`.
    @discardableResult
    package func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> Int {
        sources.addTimer(at: now + delay, handler)
    }
    package func cancelTimer(_ id: Int) { sources.cancelTimer(id) }

    /// Runs `work` on the loop's thread soon. Safe from any thread.
    package func post(_ work: @escaping () -> Void) { sources.post(work) }

    /// SIGINT, SIGTERM and SIGHUP end the loop (`onSignal` decides how), each in its turn.
    package func installSignalHandlers() {
        let signals = SignalPipe(for: [SIGINT, SIGTERM, SIGHUP])
        addReader(fd: signals.readFD) { [unowned self] in
            for s in signals.drain() {
                if let onSignal { onSignal(s.signal) } else { stop(exitCode: 128 + s.signal) }
            }
        }
        signal(SIGPIPE, SIG_IGN)
    }
}

/// poll with a timeout in nanoseconds; Glibc declares it only for _GNU_SOURCE.
@_silgen_name("ppoll")
private func c_ppoll(
    _ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: UnsafePointer<timespec>?,
    _ sigmask: UnsafeRawPointer?
) -> Int32
