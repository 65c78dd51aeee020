#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

/// `--progress-from-output`: a child process that copies the command's stdout and stderr through
/// unchanged and tells the HUD the last `NN%` it saw. It ignores the signals that end xhud and
/// exits when the output ends, so the command's last words reach the terminal even if xhud is
/// killed. It holds nothing else of xhud's open (a HUD's connection closes with xhud), and never
/// waits for xhud: a percentage xhud is not reading is dropped.
enum OutputCopier {
    static func start(from pipes: [(from: Int32, to: Int32)], progressTo hud: Int32) -> pid_t {
        let pid = fork()
        guard pid == 0 else { return pid }
        for s in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { signal(s, SIG_IGN) }
        closeDescriptors(except: Set(pipes.flatMap { [$0.from, $0.to] } + [hud, 0, 1, 2]))
        _ = fcntl(hud, F_SETFL, fcntl(hud, F_GETFL) | O_NONBLOCK)
        var passthrough = pipes
        var meter = PercentScanner()
        var hud = hud
        var buf = [UInt8](repeating: 0, count: 65536)
        while !passthrough.isEmpty {
            var fds = passthrough.map { pollfd(fd: $0.from, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), -1) < 0 { if errno == EINTR { continue }; break }
            for (i, p) in passthrough.enumerated().reversed() where fds[i].revents != 0 {
                let n = read(p.from, &buf, buf.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 || !buf.withUnsafeBytes({ Descriptor.writeAll(p.to, UnsafeRawBufferPointer(rebasing: $0[0..<n])) }) {
                    // End of output, or our reader went away: so does the command's, as if it
                    // wrote there itself.
                    close(p.from); passthrough.remove(at: i); continue
                }
                if hud >= 0, let pct = meter.scan(buf[0..<n]) {
                    var line = Array("progress=\(pct)%\n".utf8)
                    if write(hud, &line, line.count) < 0 && errno != EAGAIN { close(hud); hud = -1 }
                }
            }
        }
        _exit(0)
    }

}
