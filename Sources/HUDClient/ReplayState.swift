import HUDCore

/// The least list of input lines that rebuilds a HUD's state: the last line of each kind
/// (label, details, progress, mode, button, alternate, shown or hidden), in the order they came.
/// zenity's lines are kinds of their own: the client does not know which reading its server
/// applies, and each reading ignores the other's lines, so both are kept, in order.
struct ReplayState {
    private(set) var lines: [String] = []
    private var kinds: [String] = []

    mutating func record(_ line: String) {
        let kind: String
        switch (InputCommand.parseZenity(line), InputCommand.parse(line)) {
        case (.set(.text), _): kind = "zenity text"
        case (.set(.percentage), _): kind = "zenity percentage"
        case (.set(.pulsate), _): kind = "zenity pulsate"
        case (_, .set(let change)):
            switch change {
            case .label, .text: kind = "label"
            case .details: kind = "details"
            case .progress, .percentage: kind = "progress"
            case .mode, .pulsate: kind = "mode"
            case .button: kind = "button"
            case .alternate: kind = "alternate"
            }
        case (_, .show), (_, .hide): kind = "visibility"
        default: return
        }
        if let i = kinds.firstIndex(of: kind) { kinds.remove(at: i); lines.remove(at: i) }
        kinds.append(kind)
        lines.append(line)
    }
}
