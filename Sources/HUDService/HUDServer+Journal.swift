import HUDCore
import HUDSocket
import HUDSystem

/// A server that takes over from one that died shows again what it showed without a client
/// (named HUDs, notifications), each for the time it had left: read off the loop, then replayed
/// a slice at a time between frames, the HUD that changed last first, so that no HUD stands
/// still and the first request is answered at once however much the journal holds.
extension HUDServer {
    /// The most a slice of replay takes before the loop draws and answers again (a quarter of
    /// a 60 Hz frame; a request takes about a millisecond).
    static var replaySlice: Double { 0.004 }

    /// A request the journal read back (a client never sends `resumes` without staying
    /// connected): it is in the journal already.
    static func isReplay(_ request: Wire.Request) -> Bool { request.resumes && !request.staysConnected }

    func takeOverFromDeadServer() {
        journal?.takeOver { [unowned self] in self.replaySome() }
    }

    /// Replays requests for a slice, then lets the loop run; again at its next pass.
    func replaySome() {
        guard let journal else { return }
        let start = MonotonicTime.seconds()
        while !journal.replayInFlight, let next = journal.nextReplay() {
            replay(next.key, next.request, last: next.last)
            if MonotonicTime.seconds() - start >= Self.replaySlice { break }
        }
        if journal.replayInFlight { return }  // its answer goes on
        if journal.hasPending {
            _ = loop.addTimer(after: 0) { [unowned self] in self.replaySome() }
        } else if huds.isEmpty {
            scheduleExit()
        }
    }

    private func replay(_ key: String, _ request: Wire.Request, last: Bool) {
        guard let journal else { return }
        // A notification has no name: it shows under a new key, journaled as such.
        let named = !key.hasPrefix(" ")
        if !named { journal.hidden(key) }
        journal.replayInFlight = true
        var returned = false
        handle(request) { [unowned self] _ in
            journal.replayInFlight = false
            // Not shown again (no room, an option this server refuses): not to come back either.
            if named, last, self.huds[key] == nil { journal.hidden(key) }
            if returned { self.replaySome() }
            return true
        }
        returned = true
    }

    /// A request for `id` arrived while what the dead server showed of it is still to replay:
    /// that comes first, so the request changes the HUD as it was.
    func replayNow(_ id: String) {
        guard let journal, journal.hasPending else { return }
        for r in journal.takeReplay(id) { handle(r) { _ in true } }
    }
}
