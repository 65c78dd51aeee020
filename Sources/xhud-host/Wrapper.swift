#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDX11
import HUDRender
import HUDClient
import HUDSocket

/// `xhud [options] -- COMMAND ARGS...` where no server can draw it: the command runs as this
/// process's child with its output passed through, while a second child shows the HUD. The HUD
/// never touches the command's streams, so a HUD that cannot be shown (no display) changes
/// nothing for the script. The two speak the server's session lines over a pair of pipes.
struct Wrapper {
    let options: HUDOptions
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
        let link = PipeLink(input: hudPID > 0 ? toHUD[1] : -1, output: hudPID > 0 ? fromHUD[0] : -1)
        return CommandRunner(command: options.command, scansOutput: options.progressFromOutput ?? false,
                             killTimeout: options.killTimeout, hud: link).run()
    }
}

/// The HUD child of `Wrapper`, through its pipes.
final class PipeLink: HUDLink {
    private(set) var fd: Int32
    private var input: Int32
    init(input: Int32, output: Int32) { self.input = input; fd = output }

    func readCancelled() -> Bool {
        var b = [UInt8](repeating: 0, count: 256)
        let n = read(fd, &b, b.count)
        if n > 0 { return String(decoding: b[0..<n], as: UTF8.self).contains("cancel") }
        if n == 0 || (errno != EINTR && errno != EAGAIN) { close(fd); fd = -1 }   // the HUD is gone: the command carries on
        return false
    }

    func send(_ line: String) { tell(Array(line.utf8) + [10]) }

    func commandEnded(_ status: Int32) {
        tell((status > 128 ? Session.Control.signal(status - 128) : .exit(status)).line)
        if input >= 0 { close(input); input = -1 }
        if fd >= 0 { close(fd); fd = -1 }
    }

    private func tell(_ bytes: [UInt8]) {
        guard input >= 0 else { return }
        if bytes.withUnsafeBytes({ write(input, $0.baseAddress, $0.count) }) < 0 { close(input); input = -1 }
    }
}

/// The HUD side: lines from the parent set progress (`progress=42%`) and end it (`exit N`,
/// `signal N`); `cancel` goes back when the user cancels.
struct WrappedHUD {
    let options: HUDOptions
    let configuration: HUDConfiguration
    let input: Int32
    let output: Int32

    func run() -> Int32 {
        guard let display = try? X11Display(),
              let hud = try? X11HUD(display: display, configuration: configuration, parent: options.parentSpec, scale: options.scale)
        else { return Status.noDisplay }
        hud.loop.installSignalHandlers()
        hud.easesProgress = options.smooth ?? false
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
                if l.hadNUL {   // a control line
                    switch Session.Control(l.line) {
                    case .exit(let v)?: result(success: v == 0, details: v == 0 ? "" : "Exit status \(v)")
                    case .signal(let v)?: result(success: false, details: "Ended by signal \(v)")
                    default: break
                    }
                } else if case .set(let change) = InputCommand.parse(l.line), !ended {
                    hud.update { change.apply(to: &$0) }
                }
            }
        }
        hud.show(animated: true)
        return hud.run()
    }
}
