#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDX11

/// Exit codes, as documented in --help.
enum Status {
    static let done: Int32 = 0
    static let cancelled: Int32 = 1
    static let usage: Int32 = 2
    static let noDisplay: Int32 = 3
}

func fail(_ message: String, _ code: Int32) -> Int32 {
    fputs("xhud: \(message)\n", stderr)
    return code
}

/// Shows one HUD from the command line and runs it until it is done.
struct Runner {
    let options: XHUDCommand

    func run() -> Int32 {
        let config: HUDConfiguration
        do { config = try options.hudConfiguration() } catch { return fail("\(error)", Status.usage) }
        if let path = options.image, access(path, R_OK) != 0 {
            return fail("cannot read image '\(path)': \(String(cString: strerror(errno)))", Status.usage)
        }
        let display: X11Display
        do { display = try X11Display() } catch { return fail("\(error)", Status.noDisplay) }
        let hud: X11HUD
        do {
            hud = try X11HUD(display: display, configuration: config, parent: options.parentSpec, scale: options.scale)
        } catch {
            return fail("\(error)", Status.usage)
        }
        X11HUD.installSignalHandlers(hud)
        hud.onSignal = { sig in
            // SIGINT and SIGTERM are the normal way to end a HUD: hide it, then exit 0.
            let code: Int32 = (sig == SIGINT || sig == SIGTERM) ? Status.done : 128 + sig
            hud.hide(animated: true) { hud.stop(exitCode: code) }
        }
        hud.onButton = { hud.hide(animated: true) { hud.stop(exitCode: Status.cancelled) } }
        hud.onParentGone = { hud.stop(exitCode: Status.done) }
        if isPipeOrFIFO(0) { readProgress(into: hud) }
        hud.show(animated: true)
        if let after = options.hideAfter {
            hud.hide(animated: true, afterDelay: after) { hud.stop(exitCode: Status.done) }
        }
        return hud.run()
    }

    /// zenity-style progress lines on stdin; end of input hides the HUD.
    private func readProgress(into hud: X11HUD) {
        var lines = LineBuffer()
        _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK)
        func apply(_ line: String, truncated: Bool) {
            if truncated { fputs("xhud: input line longer than \(lines.limit) bytes was cut\n", stderr) }
            switch ProgressCommand.parse(line) {
            case .percent(let p):
                hud.update { c in
                    c.progress = p / 100
                    if !c.mode.showsProgress && c.mode == .indeterminate { c.mode = .annular }
                }
            case .label(let text): hud.update { $0.label = text }
            case .pulsate(let on): hud.update { $0.mode = on ? .indeterminate : .annular }
            case .ignored(let l): if !l.isEmpty { fputs("xhud: ignoring input line: \(l.prefix(80))\n", stderr) }
            }
        }
        hud.addReader(fd: 0) {
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress, 65536) }
                if n > 0 {
                    let got = buf.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                    for (l, t) in got { apply(l, truncated: t) }
                    continue
                }
                if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    if let (l, t) = lines.finish() { apply(l, truncated: t) }
                    hud.removeReader(fd: 0)
                    hud.hide(animated: true) { hud.stop(exitCode: Status.done) }
                }
                return
            }
        }
    }
}

func isPipeOrFIFO(_ fd: Int32) -> Bool {
    var st = stat()
    guard fstat(fd, &st) == 0 else { return false }
    return (st.st_mode & S_IFMT) == S_IFIFO
}
