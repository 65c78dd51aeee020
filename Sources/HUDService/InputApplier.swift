#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDEngine
import HUDSocket

/// The stdin protocol applied to a HUD a line at a time (a client's lines, on the server).
/// `finish(status, delay)` hides the HUD after `delay` and ends it.
struct InputApplier {
    let hud: HUDController
    let options: HUDOptions
    let finish: (Int32, Double) -> Void
    /// One line for the user's stderr, without the "xhud: " prefix, input in it escaped.
    let warn: (String) -> Void
    private(set) var lineNumber = 0
    /// Finished: later lines change nothing.
    private(set) var ended = false

    init(hud: HUDController, options: HUDOptions, finish: @escaping (Int32, Double) -> Void, warn: @escaping (String) -> Void) {
        self.hud = hud; self.options = options; self.finish = finish; self.warn = warn
    }

    mutating func apply(_ input: LineBuffer.Line) {
        lineNumber += 1
        if ended { return }
        let zenity = options.readsZenityInput
        var command = zenity ? InputCommand.parseZenity(input.line) : InputCommand.parse(input.line)
        // zenity's pulsation stops on the bar (or the determinate mode asked for), at its last value.
        if zenity, case .set(.pulsate(false)) = command { command = .set(.mode(zenityBar)) }
        let truncated = input.truncated, valid = input.valid && !input.hadNUL
        func say(_ s: String) { warn("stdin line \(lineNumber): \(s)".escapingControlCharacters) }
        // One warning a line: what was wrong with its bytes, else what was wrong with it.
        if let problem = input.byteProblem(limit: LineBuffer().limit) { say(problem) }
        switch command {
        case .empty: break
        case .set(let change):
            hud.update { change.apply(to: &$0) }
            switch change {
            case .progress(let p), .percentage(let p):
                if options.autoClose && p >= 1 { ended = true; finish(Status.done, 0) }
            default: break
            }
        case .show: hud.show(animated: true)
        case .hide(let delay): hud.hide(animated: true, afterDelay: delay)
        case .finish(.done): ended = true; finish(Status.done, 0)
        case .finish(.cancel): ended = true; finish(Status.cancelled, 0)
        case .finish(.result(let mode, let text)):
            ended = true
            hud.update { c in
                c.mode = mode; if let text { c.label = text }
            }
            hud.show(animated: true)
            finish(Status.done, options.notificationDuration(for: hud.configuration))
        case .invalid(let l, let reason):
            if valid && !truncated { say("\(reason): ignored '\(l.prefix(80))'") }
        }
    }

    /// What zenity's pulsating bar stops on: the determinate mode asked for, else the bar.
    private var zenityBar: HUDMode { options.mode.flatMap { $0.showsProgress ? $0 : nil } ?? .bar }

    /// The input ended: the HUD goes, unless a line already ended it (zenity's bar fills first).
    mutating func end() {
        guard !ended else { return }
        ended = true
        if options.readsZenityInput {
            hud.update { c in
                if c.mode == .indeterminate { c.mode = zenityBar }
                if c.mode.showsProgress { c.progress = 1 }
            }
        }
        finish(Status.done, 0)
    }
}
