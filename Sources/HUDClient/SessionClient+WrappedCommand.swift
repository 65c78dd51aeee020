#if canImport(Glibc)
import Glibc
#endif
import HUDSocket
import HUDSystem

// A wrapped command's session: the command starts at once or on the server's answer, and the
// HUD follows it (`HUDLink`, what CommandRunner calls).
extension SessionClient {
    /// The command starts when the server answers or `commandGrace` has passed, whichever is
    /// first, and never waits for the HUD after that: an answer that comes later brings the HUD
    /// in while the command runs; none within `answerTime` leaves the command without one.
    func runWrapped() -> Outcome {
        let (fd, started): (Int32, Bool)
        do { (fd, started) = try send(request) } catch { return .drawItYourself }
        let now = MonotonicTime.seconds()
        self.fd = fd
        awaiting = ([], now + (started ? Self.startedAnswerTime : Self.answerTime), started)
        let startBy = now + Self.commandGrace
        while awaiting != nil {
            let left = startBy - MonotonicTime.seconds()
            if left <= 0 { break }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(saturatingMilliseconds: left)) < 0 && errno != EINTR { break }
            switch readAnswer(starting: true) {
            case .waiting: continue
            case .answered(let reply):
                guard reply.plan != nil else { return .exit(reply.status) }
            case .refused, .failed:
                // Nothing has run yet: a private server draws the HUD, and runs the command.
                return .drawItYourself
            }
        }
        Console.flush()
        signal(SIGPIPE, SIG_IGN)
        scanning = awaiting == nil ? planScans : Self.scansOutputAsked(request.arguments)
        let killTimeout = planKillTimeout ?? Session.Plan().killTimeout
        return .exit(CommandRunner(command: command, scansOutput: scanning, killTimeout: killTimeout, hud: self).run())
    }

    private enum Answer { case waiting, answered(Wire.Reply), refused, failed }

    /// Reads what came of the awaited answer, without waiting. An answer is acted on here: its
    /// text printed, its plan taken (`fd` becomes the session's), a refusal or failure closes
    /// `fd`. `starting`: the command has not started (a failure then leaves `answerMissing` to
    /// be said by whoever draws the HUD instead).
    private func readAnswer(starting: Bool) -> Answer {
        guard var a = awaiting else { return .failed }
        var chunk = [UInt8](repeating: 0, count: 8192)
        var outcome: Answer = .waiting
        while true {
            let want =
                a.bytes.count < 8
                ? 8 - a.bytes.count : (try? Wire.frameLength(header: Array(a.bytes.prefix(8)), tag: Wire.replyTag)).map { $0 - a.bytes.count } ?? -1
            if want < 0 { answerMissing = "the display's HUD server's answer broke the rules"; outcome = .failed; break }
            if want == 0 {
                guard let reply = try? Wire.Reply.decode(a.bytes) else {
                    answerMissing = "the display's HUD server's answer broke the rules"; outcome = .failed; break
                }
                if reply.plan == nil, reply.status == Wire.Reply.unavailable {
                    answerMissing = Self.trimmed(reply.error); outcome = .refused; break
                }
                outcome = .answered(reply)
                break
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min(8192, want), Int32(MSG_DONTWAIT)) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            if n <= 0 { answerMissing = "the display's HUD server closed the connection unanswered"; outcome = .failed; break }
            a.bytes += chunk[0..<n]
        }
        switch outcome {
        case .waiting:
            if MonotonicTime.seconds() < a.deadline {
                awaiting = a
                return .waiting
            }
            answerMissing = Self.noAnswer(started: a.started)
            awaiting = nil
            close(fd); fd = -1
            if !starting { Console.error("xhud: \(answerMissing!); the command runs on without a HUD\n") }
            return .failed
        case .answered(let reply):
            awaiting = nil
            if !reply.output.isEmpty { Console.output(reply.output) }
            if !reply.error.isEmpty { Console.error(reply.error) }
            if let plan = reply.plan {
                planKillTimeout = plan.killTimeout
                planScans = plan.scansOutput
                if !starting {
                    // The HUD comes in while the command runs: it is told what the command's
                    // output said so far.
                    for line in state.lines { write(Array(line.utf8) + [10]) }
                    if plan.scansOutput && !scanning {
                        Console.error(
                            "xhud: the display's HUD server answered after the command started; its output is not scanned for progress this time\n")
                    }
                }
            } else {
                close(fd); fd = -1
            }
            return outcome
        case .refused, .failed:
            awaiting = nil
            close(fd); fd = -1
            if !starting { Console.error("xhud: \(answerMissing!); the command runs on without a HUD\n") }
            return outcome
        }
    }

    /// Whether the command line asks for `--progress-from-output` (the last of it and its `--no-`
    /// form wins): what a command started before the server's answer goes by.
    static func scansOutputAsked(_ arguments: [String]) -> Bool {
        var asked = false
        for a in arguments.prefix(while: { $0 != "--" }) {
            if a == "--progress-from-output" { asked = true } else if a == "--no-progress-from-output" { asked = false }
        }
        return asked
    }

    package var wakeAt: Double? { awaiting?.deadline }
    package var killTimeout: Double? { planKillTimeout }

    package func readCancelled() -> Bool {
        if awaiting != nil { _ = readAnswer(starting: false); return false }
        guard fd >= 0 else { return false }
        switch listen() {
        case .nothing: return false
        case .cancel: return true
        case .done(_, _, let cancelled):
            // The HUD is over (hidden after a cancel, its parent window gone): the command is
            // not, unless the user cancelled it.
            close(fd); fd = -1
            return cancelled
        case .gone:
            if !resume() { fd = -1 }
            return false
        }
    }

    package func send(_ line: String) {
        state.record(line)
        write(Array(line.utf8) + [10])
    }

    package func commandEnded(_ status: Int32) {
        if awaiting != nil {
            // Ended before the server answered: closing the connection tells it the client is gone.
            awaiting = nil
            close(fd); fd = -1
            return
        }
        write((status > 128 ? Session.Control.signal(status - 128) : .exit(status)).line)
        if fd >= 0 { close(fd); fd = -1 }
    }
}
