#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDX11
import HUDRender

/// `xhud [options] -- COMMAND ARGS...`: the command runs as this process's child with its
/// output passed through, while a second child shows the HUD. The HUD never touches the
/// command's streams, so a HUD that cannot be shown (no display) changes nothing for the script.
struct Wrapper {
    let options: XHUDCommand
    let configuration: HUDConfiguration

    func run() -> Int32 {
        var config = configuration
        config.graceTime = options.grace ?? 0.5     // a quick command never flashes a HUD
        config.minShowTime = options.minShow ?? 0.5 // a shown one never flickers
        signal(SIGPIPE, SIG_IGN)
        var toHUD: [Int32] = [0, 0], fromHUD: [Int32] = [0, 0]
        guard makePipe(&toHUD), makePipe(&fromHUD) else {
            return fail("pipe: \(String(cString: strerror(errno)))", Status.usage)
        }
        fflush(stdout); fflush(stderr)
        FontWarmup.join()
        let hudPID = fork()
        if hudPID == 0 {
            close(toHUD[1]); close(fromHUD[0])
            detachStandardStreams()
            exit(WrappedHUD(options: options, configuration: config, input: toHUD[0], output: fromHUD[1]).run())
        }
        close(toHUD[0]); close(fromHUD[1])
        let status = CommandRunner(options: options, hudInput: hudPID > 0 ? toHUD[1] : -1,
                                   hudOutput: hudPID > 0 ? fromHUD[0] : -1).run()
        return status
    }
}

/// The HUD side: lines from the parent set progress (`progress=42%`) and end it (`exit N`,
/// `signal N`); `cancel` goes back when the user cancels.
struct WrappedHUD {
    let options: XHUDCommand
    let configuration: HUDConfiguration
    let input: Int32
    let output: Int32

    func run() -> Int32 {
        guard let display = try? X11Display(),
              let hud = try? X11HUD(display: display, configuration: configuration, parent: options.parentSpec, scale: options.scale)
        else { return Status.noDisplay }
        hud.loop.installSignalHandlers()
        var ended = false
        let end = { hud.hide(animated: true) { hud.stop(exitCode: 0) } }
        hud.onSignal = { _ in hud.dismiss(animated: true) { hud.stop(exitCode: 0) } }
        let cancel = {
            guard !ended else { return }
            ended = true
            _ = write(output, "cancel\n", 7)
            end()
        }
        hud.onButton = cancel
        hud.onEscape = cancel
        hud.onParentGone = { hud.stop(exitCode: 0) }
        func result(success: Bool, details: String) {
            guard !ended else { return }
            ended = true
            // Still in its grace time: it never appears. Shown: the result, then it goes.
            guard options.resultTime > 0, hud.isVisible else { return end() }
            hud.update { c in
                c.mode = success ? .success : .error
                c.details = details
                c.buttonTitle = ""
            }
            hud.hide(animated: true, afterDelay: options.resultTime) { hud.stop(exitCode: 0) }
        }
        var lines = LineBuffer()
        hud.addReader(fd: input) {
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = read(input, &buf, 4096)
            if n <= 0 {
                hud.removeReader(fd: input)
                if !ended { ended = true; end() }   // the parent is gone
                return
            }
            for l in buf.withUnsafeBytes({ lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) {
                let words = l.line.split(separator: " ")
                if words.count == 2, let v = Int32(words[1]) {
                    if words[0] == "exit" { result(success: v == 0, details: v == 0 ? "" : "Exit status \(v)"); continue }
                    if words[0] == "signal" { result(success: false, details: "Ended by signal \(v)"); continue }
                }
                if case .set(let change) = InputCommand.parse(l.line), !ended { hud.update { change.apply(to: &$0) } }
            }
        }
        hud.show(animated: true)
        return hud.run()
    }
}

/// The parent side: runs the command, passes its output through, forwards signals, and
/// terminates it when the HUD says `cancel`.
struct CommandRunner {
    let options: XHUDCommand
    var hudInput: Int32
    var hudOutput: Int32

    func run() -> Int32 {
        var hudInput = self.hudInput, hudOutput = self.hudOutput
        let events = SignalPipe(for: [SIGCHLD, SIGINT, SIGTERM, SIGHUP])
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        let scan = options.progressFromOutput
        if scan { _ = makePipe(&outPipe); _ = makePipe(&errPipe) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if scan {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGCHLD, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, s) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var argv: [UnsafeMutablePointer<CChar>?] = options.command.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let err = posix_spawnp(&child, options.command[0], &actions, &attr, &argv, environ)
        if scan { close(outPipe[1]); close(errPipe[1]) }
        if err != 0 {
            tell(&hudInput, "exit 127\n")
            return fail("cannot run '\(options.command[0])': \(String(cString: strerror(err)))", 127)
        }

        var passthrough = [(from: outPipe[0], to: Int32(1)), (from: errPipe[0], to: Int32(2))].filter { $0.from >= 0 }
        var meter = PercentScanner()
        var status: Int32? = nil
        var cancelled = false
        var killAt: Double? = nil
        var tree: [pid_t] = []
        var drainUntil: Double? = nil
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let drained = passthrough.isEmpty || (drainUntil.map { now() > $0 } ?? false)
            if status != nil && drained {
                // The command has ended: what is left of its tree after a cancel goes now.
                if killAt != nil { for p in tree where p != child && kill(p, 0) == 0 { kill(p, SIGKILL) } }
                break
            }
            var fds = [pollfd(fd: events.readFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: hudOutput, events: Int16(POLLIN), revents: 0)]
            for p in passthrough { fds.append(pollfd(fd: p.from, events: Int16(POLLIN), revents: 0)) }
            var timeout: Int32 = -1
            if let k = killAt { timeout = Int32(saturatingMilliseconds: k - now()) }
            if let d = drainUntil { timeout = Int32(saturatingMilliseconds: d - now()) }
            if poll(&fds, nfds_t(fds.count), timeout) < 0 && errno != EINTR { break }
            if fds[0].revents != 0 {
                // SIGTERM and SIGHUP are passed on; Ctrl-C's SIGINT already reached the whole
                // foreground process group, the command included.
                for sig in events.drain() where sig == SIGTERM || sig == SIGHUP { if status == nil { kill(child, sig) } }
                var ws: Int32 = 0
                if status == nil, waitpid(child, &ws, WNOHANG) == child {
                    status = exitStatus(ws)
                    drainUntil = now() + 0.2   // output a background grandchild holds open is not waited for
                }
                while waitpid(-1, nil, WNOHANG) > 0 {}
            }
            if fds[1].revents != 0 {
                var b = [UInt8](repeating: 0, count: 64)
                let n = read(hudOutput, &b, 64)
                if n > 0, status == nil, String(decoding: b[0..<n], as: UTF8.self).contains("cancel") {
                    cancelled = true
                    tree = [child] + descendants(of: child)
                    for p in tree { kill(p, SIGTERM) }
                    killAt = now() + options.killTimeout
                } else if n <= 0 {
                    close(hudOutput); hudOutput = -1   // the HUD is gone: the command carries on
                }
            }
            if let k = killAt, now() >= k {
                // Whatever of the command's tree ignored SIGTERM (a shell's children included).
                for p in tree where p == child ? status == nil : kill(p, 0) == 0 { kill(p, SIGKILL) }
                killAt = nil
            }
            for (i, p) in passthrough.enumerated().reversed() where fds[i + 2].revents != 0 {
                let n = read(p.from, &buf, buf.count)
                if n <= 0 { close(p.from); passthrough.remove(at: i); continue }
                if !writeAll(p.to, buf, n) {
                    // Our reader went away: so does the command's, as if it wrote there itself.
                    close(p.from); passthrough.remove(at: i); continue
                }
                if scan, let pct = meter.scan(buf[0..<n]) { tell(&hudInput, "progress=\(pct)%\n") }
            }
            if status != nil { drainUntil = drainUntil ?? now() + 0.2 }
        }
        for p in passthrough { close(p.from) }
        let code = status ?? 1
        if code > 128 { tell(&hudInput, "signal \(code - 128)\n") } else { tell(&hudInput, "exit \(code)\n") }
        if hudInput >= 0 { close(hudInput) }
        return cancelled ? Status.cancelled : code
    }

    /// The command's descendants, from /proc (a cancelled `make` takes its compilers with it).
    private func descendants(of root: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), let f = fopen("/proc/\(name)/stat", "r") else { continue }
            var line = [CChar](repeating: 0, count: 512)
            if fgets(&line, 512, f) != nil {
                // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
                let text = String(cString: line)
                if let close = text.lastIndex(of: ")") {
                    let fields = text[text.index(after: close)...].split(separator: " ")
                    if fields.count > 1, let ppid = pid_t(fields[1]) { parents[pid] = ppid }
                }
            }
            fclose(f)
        }
        var out: [pid_t] = []
        var frontier: Set<pid_t> = [root]
        while !frontier.isEmpty {
            let next = parents.filter { frontier.contains($0.value) }.map(\.key)
            out += next
            frontier = Set(next)
        }
        return out
    }

    private func tell(_ fd: inout Int32, _ line: String) {
        guard fd >= 0 else { return }
        var bytes = Array(line.utf8)
        if write(fd, &bytes, bytes.count) < 0 { close(fd); fd = -1 }
    }

    private func exitStatus(_ ws: Int32) -> Int32 {
        let sig = ws & 0x7f
        return sig == 0 ? (ws >> 8) & 0xff : 128 + sig
    }

    private func writeAll(_ fd: Int32, _ buf: [UInt8], _ count: Int) -> Bool {
        var off = 0
        while off < count {
            let n = buf.withUnsafeBytes { write(fd, $0.baseAddress! + off, count - off) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            off += n
        }
        return true
    }

    private func now() -> Double { MonotonicClock.seconds() }
}

/// Finds the last "NN%" (or "NN.N%") in output, across chunk boundaries: make's "[ 42%]",
/// curl's and rsync's meters (which redraw with \r).
struct PercentScanner {
    private var tail: [UInt8] = []
    private var last: Int? = nil

    /// The new percentage when it changed.
    mutating func scan(_ chunk: ArraySlice<UInt8>) -> Int? {
        let bytes = tail + chunk
        var found: Double? = nil
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                var j = i
                if j > 0 && bytes[j - 1] == UInt8(ascii: " ") { j -= 1 }
                var k = j
                while k > 0 && (isDigit(bytes[k - 1]) || bytes[k - 1] == UInt8(ascii: ".")) && j - k < 8 { k -= 1 }
                if k < j, let v = Double(String(decoding: bytes[k..<j], as: UTF8.self)), v >= 0, v <= 100 { found = v }
            }
            i += 1
        }
        // Keep a partial number that may end in the next chunk.
        var start = bytes.count
        while start > 0 && bytes.count - start < 12 && (isDigit(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") || bytes[start - 1] == UInt8(ascii: " ")) { start -= 1 }
        tail = Array(bytes[start...])
        guard let f = found else { return nil }
        let v = Int(f.rounded(.down))
        if v == last { return nil }
        last = v
        return v
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
}

/// Signals as bytes on a pipe, for a poll loop (SIGCHLD included).
final class SignalPipe {
    let readFD: Int32
    init(for signals: [Int32]) {
        var fds: [Int32] = [0, 0]
        _ = makePipe(&fds, nonBlocking: true)
        readFD = fds[0]
        signalWriteFD = fds[1]
        for s in signals {
            signal(s) { sig in
                var b = UInt8(truncatingIfNeeded: sig)
                _ = write(signalWriteFD, &b, 1)
            }
        }
    }
    func drain() -> [Int32] {
        var out: [Int32] = []
        var b = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readFD, &b, 64)
            if n <= 0 { break }
            out += b[0..<n].map { Int32($0) }
        }
        return out
    }
}

nonisolated(unsafe) private var signalWriteFD: Int32 = -1
