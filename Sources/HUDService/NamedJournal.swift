#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDEngine
import HUDSocket
import HUDSystem

/// The requests behind the named HUDs and notifications a server shows, kept beside its socket
/// while they show: a server that dies under them (SIGKILL, a crash) leaves the file, and the
/// next server (the next key press, or the service manager's restart) shows them again for the
/// time they had left, as a waiting client shows its own HUD again. A server that ends as it
/// should removes the file.
///
/// The file is a log, as a database's write-ahead log: each change appends one self-checking
/// record (`JournalRecord`), so an update costs the same whatever the log holds; once the log
/// is past twice what is live it is compacted (rewritten aside, made durable, renamed in
/// place) on a thread of its own. Appends are not fsynced: a process that dies loses nothing
/// written, and the runtime directory does not outlive the machine's power anyway. A write
/// that fails is said once on stderr and the file removed (a stale journal would bring back
/// HUDs since hidden); memory stays right, and a rewrite is tried again later.
///
/// Owned by the loop's thread. Its threads (reading the dead server's log, compacting) take
/// plain values and hand back plain values through the loop (`LoopInbox`).
final class NamedJournal {
    /// A HUD kept up by `push` has no deadline: it comes back for this long at most.
    static let pushedFor = 3600.0
    /// A log is compacted once past twice its live records and past this.
    static let compactAfter = 64 << 10

    let path: String
    var tempPath: String { path + ".compact" }
    private let loop: any HUDEventLoop
    /// The live HUDs, as the log folds to (once the dead server's log is read).
    private(set) var state = JournalState()
    private var fd: Int32 = -1
    private(set) var fileBytes = 0
    /// A write failed: there is no file (or an empty one) until a rewrite succeeds.
    private(set) var broken = false
    private var reported = false
    private var failedAt = -Double.infinity
    /// While the dead server's log is read: the records written since, folded over it once read.
    private var sinceLoad: [JournalRecord]?
    /// While a compaction writes its snapshot: the records appended since, for its file too.
    private var sinceSnapshot: [[UInt8]]?
    private var cleared = false
    /// The HUDs read back that are still to show again, the one that changed last first.
    private var pending: [Pending] = []
    /// A replayed request is being answered (its images are drawn): the next one waits for it.
    var replayInFlight = false
    private var onLoaded: (() -> Void)?
    /// `takeOver` was called: what the state lacks is in no log.
    private var tookOver = false
    /// After a failed write, a rewrite is tried again at the first change this long after.
    var retryAfter = 5.0

    struct Pending {
        let key: String
        var requests: ArraySlice<Wire.Request>
        let deadline: Double
        let hideAfter: Double?
    }

    init(path: String, loop: any HUDEventLoop) {
        self.path = path
        self.loop = loop
        // A file size limit (RLIMIT_FSIZE) is a write that fails, not the server's death.
        signal(SIGXFSZ, SIG_IGN)
    }

    // MARK: Changes

    /// `key` showed or changed as `request` says, until `hideAfter` from now (nil: until popped).
    func shown(_ key: String, _ request: Wire.Request, hideAfter: Double?) {
        let deadline = JournalState.now + (hideAfter ?? Self.pushedFor)
        log(.shown(key: key, request: request, deadline: deadline, hideAfter: hideAfter))
    }

    func hidden(_ key: String) {
        pending.removeAll { $0.key == key }
        // Until the dead server's log is read, any key may be in it: a server started by a
        // `hide` reads the log only after answering it, and the log must say it is hidden.
        guard state.entries[key] != nil || sinceLoad != nil || !tookOver else { return }
        log(.hidden(key: key))
    }

    /// The server ends as it should: nothing is to come back.
    func clear() {
        cleared = true
        state = JournalState()
        pending = []
        sinceLoad = nil
        if fd >= 0 { close(fd); fd = -1 }
        unlink(path)
        unlink(tempPath)
    }

    private func log(_ record: JournalRecord) {
        guard !cleared else { return }
        let bytes = record.framed()
        state.apply(record, size: bytes.count)
        sinceLoad?.append(record)
        sinceSnapshot?.append(bytes)
        if !broken { append(bytes) }
        compactIfDue()
    }

    private func append(_ bytes: [UInt8]) {
        if fd < 0 {
            switch JournalFile.openForAppending(path) {
            case .success(let f): (fd, fileBytes) = f
            case .failure(let e): return failed(e)
            }
        }
        if let e = JournalFile.append(fd, bytes, at: fileBytes) { return failed(e) }
        fileBytes += bytes.count
    }

    /// No journal rather than a stale one: memory alone is right from now on.
    private func failed(_ e: JournalFile.Failure) {
        broken = true
        failedAt = MonotonicTime.seconds()
        var removed = unlink(path) == 0 || errno == ENOENT
        if !removed, fd >= 0 { removed = ftruncate(fd, 0) == 0 }
        if fd >= 0 { close(fd); fd = -1 }
        fileBytes = 0
        guard !reported else { return }
        reported = true
        Console.error(
            "xhud: the journal of named HUDs (\(path)) cannot be written (\(e.description)): "
                + (removed
                    ? "they will not come back if this server dies\n"
                    : "it could not be removed either, and may bring back HUDs since hidden if this server dies\n"))
    }

    // MARK: Compaction

    private func compactIfDue() {
        guard sinceLoad == nil, sinceSnapshot == nil, !cleared,
            MonotonicTime.seconds() - failedAt >= retryAfter
        else { return }
        if broken || fileBytes > max(2 * state.bytes, Self.compactAfter) { compact() }
    }

    /// Writes the live records aside on a thread of their own; the loop then appends what
    /// changed meanwhile and renames the file in place (`compacted`).
    private func compact() {
        sinceSnapshot = []
        let records = state.records
        let temp = tempPath
        let inbox = LoopInbox(loop, owner: self)
        let work: @Sendable () -> Void = {
            let bytes = records.flatMap { $0.framed() }
            let failure = JournalFile.writeDurably(bytes, to: temp)
            inbox.post { $0.compacted(failure) }
        }
        if !DetachedThread.start(name: "xhud-journal", work) { work() }
    }

    private func compacted(_ failure: JournalFile.Failure?) {
        guard let since = sinceSnapshot else { return }
        sinceSnapshot = nil
        guard !cleared else { unlink(tempPath); return }
        let outcome: Result<(fd: Int32, size: Int), JournalFile.Failure>
        if let failure { outcome = .failure(failure) } else { outcome = JournalFile.openForAppending(tempPath) }
        switch outcome {
        case .failure(let e):
            unlink(tempPath)
            compactionFailed(e)
        case .success(var t):
            for b in since {
                if let e = JournalFile.append(t.fd, b, at: t.size) {
                    close(t.fd)
                    unlink(tempPath)
                    return compactionFailed(e)
                }
                t.size += b.count
            }
            guard rename(tempPath, path) == 0 else {
                let e = JournalFile.Failure(errno)
                close(t.fd)
                unlink(tempPath)
                return compactionFailed(e)
            }
            if fd >= 0 { close(fd) }
            (fd, fileBytes) = t
            broken = false
            // What was appended meanwhile may already be past the bound (a burst of updates
            // while a slow thread wrote): no later change is certain to come and ask.
            compactIfDue()
        }
    }

    /// The log as it was still holds everything (unless a write failed too): tried again later.
    private func compactionFailed(_ e: JournalFile.Failure) {
        if broken { failedAt = MonotonicTime.seconds(); return }
        failed(e)
    }

    // MARK: Taking over

    /// Reads what a server that died left, on a thread of its own (the loop answers and draws
    /// meanwhile); `then` runs on the loop once it is read, with `nextReplay` to show it again.
    func takeOver(then: @escaping () -> Void) {
        tookOver = true
        unlink(tempPath)  // a compaction the dead server did not finish
        guard let (readFD, size) = JournalFile.openForReading(path) else {
            unlink(path)  // not the user's own, or not a file: never trusted
            return then()
        }
        sinceLoad = []
        onLoaded = then
        let inbox = LoopInbox(loop, owner: self)
        let work: @Sendable () -> Void = {
            let read = JournalFile.read(fd: readFD, size: size)
            inbox.post { $0.loaded(read.state) }
        }
        if !DetachedThread.start(name: "xhud-journal", work) { work() }
    }

    /// The dead server's HUDs still due, with what changed since folded over them (as a
    /// reader of the log would): they are to show again, the one that changed last first.
    private func loaded(_ old: JournalState) {
        guard let since = sinceLoad else { return }
        sinceLoad = nil
        var s = old
        s.dropFinished(now: JournalState.now)
        for r in since { s.apply(r, size: r.framedSize) }
        state = s
        pending = s.newestFirst.filter { old.entries[$0.key] != nil }.map {
            Pending(key: $0.key, requests: $0.requests[...], deadline: $0.deadline, hideAfter: $0.hideAfter)
        }
        // The file becomes what is live: no finished HUDs, no torn record.
        if !cleared, sinceSnapshot == nil { compact() }
        let then = onLoaded
        onLoaded = nil
        then?()
    }

    /// Still reading, or showing again, what the dead server left.
    var isReplaying: Bool { sinceLoad != nil || !pending.isEmpty || replayInFlight }
    var hasPending: Bool { !pending.isEmpty }
    var pendingKeys: [String] { pending.map(\.key) }

    /// The next request to show again (`last`: its HUD's last), made to hide when it would
    /// have; a HUD whose time ran out meanwhile is dropped.
    func nextReplay() -> (key: String, request: Wire.Request, last: Bool)? {
        while let head = pending.first {
            guard let r = head.requests.first, let request = replayed(head, r) else {
                pending.removeFirst()
                hidden(head.key)
                continue
            }
            pending[0].requests.removeFirst()
            let last = pending[0].requests.isEmpty
            if last { pending.removeFirst() }
            return (head.key, request, last)
        }
        return nil
    }

    /// Every request still to replay for `key`, at once: a request for it arrived.
    func takeReplay(_ key: String) -> [Wire.Request] {
        guard let i = pending.firstIndex(where: { $0.key == key }) else { return [] }
        let p = pending.remove(at: i)
        let out = p.requests.compactMap { replayed(p, $0) }
        if out.isEmpty { hidden(key) }
        return out
    }

    /// A request read back, as it is replayed (`HUDServer.isReplay` knows it by its flags).
    private func replayed(_ p: Pending, _ r: Wire.Request) -> Wire.Request? {
        var args = r.arguments
        if let after = p.hideAfter {
            // The wall clock may have been set back: never longer than the HUD's own time.
            let left = min(p.deadline - JournalState.now, after)
            guard left > 0.05 else { return nil }
            args += ["--hide-after", String(left)]
        } else if p.deadline <= JournalState.now {
            return nil
        }
        return Wire.Request(cwd: r.cwd, arguments: args, resumes: true)
    }
}
