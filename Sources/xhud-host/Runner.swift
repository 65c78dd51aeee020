#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDX11
import HUDRender
import CCairo
import HUDSocket

/// Decides what an invocation is (named HUD, wrapped command, notification, a HUD fed on stdin)
/// and runs it.
struct Runner {
    let invocation: ConfiguredInvocation
    var options: HUDOptions { invocation.options }

    func run() -> Int32 {
        if options.action == .server {
            guard let paths = ServerPaths.current() else {
                return fail("cannot open display '': is an X server running and DISPLAY set?", Status.noDisplay)
            }
            do { try paths.preparePrivateDirectory() } catch { return fail("\(error)", Status.usage) }
            for w in invocation.warnings { fputs("xhud: \(w.escapingControlCharacters)\n", stderr) }
            return HUDServer.runForeground(paths: paths, notifications: options.notifications == true, replace: options.replace)
        }
        if options.id != nil || options.action?.isNamed == true {
            return NamedInvocation(options: options).run()   // the server reports the configuration's warnings
        }
        let config: HUDConfiguration
        do { config = try options.hudConfiguration() } catch { return fail("\(error)", Status.usage) }
        if let path = config.imagePath, let problem = ImageFile.problem(at: path) { return fail(problem, Status.usage) }
        let readsStdin = options.verb == nil && isPipeOrFIFO(0)
        // A notification is shown by the display's server, under any other notification or
        // named HUD (a HUD of its own would sit on top of them); the invocation returns at once.
        let toServer = options.command.isEmpty && options.isNotification && !readsStdin && !options.wait
        // The configuration's warnings, once: the server reports them for what it shows.
        if !toServer { for w in invocation.warnings { fputs("xhud: \(w.escapingControlCharacters)\n", stderr) } }
        if let png = options.renderPng { return renderPNG(config, to: png) }
        if !options.command.isEmpty { return Wrapper(options: options, configuration: config).run() }
        if toServer {
            return NamedInvocation(options: options).run()
        }
        return showStandalone(config, readsStdin: readsStdin)
    }

    /// One HUD in this process until it is hidden, cancelled, signalled, or its input ends.
    private func showStandalone(_ config: HUDConfiguration, readsStdin: Bool) -> Int32 {
        let hud: X11HUD
        do {
            hud = try X11HUD(display: X11Display(), configuration: config, parent: options.parentSpec, scale: options.scale)
        } catch let e as X11Error {
            if case .cannotOpenDisplay = e { return fail("\(e)", Status.noDisplay) }
            return fail("\(e)", Status.usage)
        } catch {
            return fail("\(error)", Status.usage)
        }
        hud.loop.installSignalHandlers()
        hud.easesProgress = options.smooth ?? false
        let finish = { (code: Int32) in hud.hide(animated: true) { hud.stop(exitCode: code) } }
        var signalled = false
        hud.onSignal = { sig in
            // SIGINT and SIGTERM are the normal way to end a HUD: hide it now (min show time
            // is for the task's end, not for the user's), then exit 0. A second signal does not
            // wait for the animation.
            let code = (sig == SIGINT || sig == SIGTERM) ? Status.done : 128 + sig
            if signalled { return hud.stop(exitCode: code) }
            signalled = true
            hud.dismiss(animated: true) { hud.stop(exitCode: code) }
        }
        let cancel = {
            if options.autoKill { kill(getppid(), SIGHUP) }   // zenity --auto-kill
            hud.dismiss(animated: true) { hud.stop(exitCode: Status.cancelled) }
        }
        hud.onButton = cancel
        // Whatever blocks input gives it back on Escape (the key is grabbed only while it does).
        hud.onEscape = cancel
        hud.onParentGone = { hud.stop(exitCode: Status.done) }
        if options.isNotification {
            if options.clickThrough != true && config.mode != .text { hud.onClick = { finish(Status.done) } }
            hud.show(animated: true)
            hud.hide(animated: true, afterDelay: options.notificationDuration(for: config)) { hud.stop(exitCode: Status.done) }
        } else {
            if readsStdin { StdinProgress(hud: hud, options: options, finish: finish).start() }
            hud.show(animated: true)
            if let after = options.hideAfter {
                hud.hide(animated: true, afterDelay: after) { hud.stop(exitCode: Status.done) }
            } else if let t = options.timeout {
                // zenity --timeout: closes the dialog and exits 5.
                hud.hide(animated: true, afterDelay: t) { hud.stop(exitCode: Status.timedOut) }
            }
        }
        return hud.run()
    }
}

extension Runner {
    /// The renderer's own picture of the HUD (what the screen must show without a compositor):
    /// the region of --geometry at --scale, the frame at time 0, no shadow, premultiplied ARGB.
    func renderPNG(_ config: HUDConfiguration, to path: String) -> Int32 {
        guard let g = options.geometry.flatMap(parseGeometry) else { return fail("--render-png needs --geometry", Status.usage) }
        let scale = options.scale ?? 1
        var c = config
        c.shadow = false
        let renderer = HUDRenderer()
        let region = Size(width: Double(g.width) / scale, height: Double(g.height) / scale)
        let layout = HUDLayout.compute(c, region: region, measurer: renderer.text).snapped(toScale: scale)
        var f = HUDFrame(configuration: c, layout: layout)
        f.scale = scale
        f.progress = c.progress
        f.drawsMask = c.effectiveMask.paintsBackground
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(g.width), Int32(g.height))!
        renderer.render(f, replacing: s)
        let status = cairo_surface_write_to_png(s, path)
        cairo_surface_destroy(s)
        return status == CAIRO_STATUS_SUCCESS ? Status.done : fail("cannot write \(path)", Status.usage)
    }
}

/// Progress lines on stdin (zenity's and xhud's protocol); the end of input hides the HUD.
struct StdinProgress {
    let hud: X11HUD
    let options: HUDOptions
    let finish: (Int32) -> Void

    func start() {
        var lines = LineBuffer()
        let finish = self.finish
        // Input is echoed escaped: a warning never sends raw control sequences to a terminal.
        var input = InputApplier(hud: hud, options: options,
                                 finish: { [hud] code, delay in
                                     delay > 0 ? hud.hide(animated: true, afterDelay: delay) { hud.stop(exitCode: code) } : finish(code)
                                 },
                                 warn: { fputs("xhud: \($0)\n", stderr) })
        _ = fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK)
        hud.addReader(fd: 0) { [hud] in
            var buf = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buf.withUnsafeMutableBytes { read(0, $0.baseAddress, 65536) }
                if n > 0 {
                    let got = buf.withUnsafeBytes { lines.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                    for l in got { input.apply(l) }
                    continue
                }
                if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    if let l = lines.finish() { input.apply(l) }
                    hud.removeReader(fd: 0)
                    input.end()
                }
                return
            }
        }
    }
}

/// The stdin protocol applied to a HUD a line at a time: this process's stdin, or a client's
/// lines on the server. `finish(status, delay)` hides the HUD after `delay` and ends it.
struct InputApplier {
    let hud: X11HUD
    let options: HUDOptions
    let finish: (Int32, Double) -> Void
    /// One line for the user's stderr, without the "xhud: " prefix, input in it escaped.
    let warn: (String) -> Void
    private(set) var lineNumber = 0
    /// Finished: later lines change nothing.
    private(set) var ended = false

    init(hud: X11HUD, options: HUDOptions, finish: @escaping (Int32, Double) -> Void, warn: @escaping (String) -> Void) {
        self.hud = hud; self.options = options; self.finish = finish; self.warn = warn
    }

    mutating func apply(_ input: LineBuffer.Line) {
        lineNumber += 1
        if ended { return }
        let command = InputCommand.parse(input.line)
        let truncated = input.truncated, valid = input.valid && !input.hadNUL
        func say(_ s: String) { warn("stdin line \(lineNumber): \(s)".escapingControlCharacters) }
        // One warning a line: what was wrong with its bytes, else what was wrong with it.
        if let problem = input.byteProblem(limit: LineBuffer().limit) { say(problem) }
        switch command {
        case .empty: break
        case .set(let change):
            hud.update { change.apply(to: &$0) }
            if options.autoClose, case .progress(let p) = change, p >= 1 { ended = true; finish(Status.done, 0) }
        case .show: hud.show(animated: true)
        case .hide(let delay): hud.hide(animated: true, afterDelay: delay)
        case .finish(.done): ended = true; finish(Status.done, 0)
        case .finish(.cancel): ended = true; finish(Status.cancelled, 0)
        case .finish(.result(let mode, let text)):
            ended = true
            hud.update { c in c.mode = mode; if let text { c.label = text } }
            hud.show(animated: true)
            finish(Status.done, options.notificationDuration(for: hud.configuration))
        case .invalid(let l, let reason):
            // zenity ignores lines it does not understand, without a word; so does its mode here.
            if valid && !truncated && !options.zenityProgress { say("\(reason): ignored '\(l.prefix(80))'") }
        }
    }

    /// The input ended: the HUD goes, unless a line already ended it.
    mutating func end() {
        if !ended { ended = true; finish(Status.done, 0) }
    }
}
