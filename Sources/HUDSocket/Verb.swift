/// What an invocation does besides showing a HUD: the first word of the command line. One
/// type for the lean front door, the command and the server, so that no file compares strings.
package enum Verb: String, CaseIterable, Sendable {
    // Notifications: an icon and TEXT, hidden after SVProgressHUD's display time.
    case success, error, info, warning
    // Named HUDs, answered by the display's server.
    case hide, list, push, pop
    /// The display's server in the foreground.
    case server
    /// `notifications WORD`: the notification daemon's queue, history and pause, as dunstctl.
    case notifications

    /// What `notifications` does: the words dunstctl's commands have here.
    package static let notificationCommands = [
        "count", "history", "history-pop", "close", "close-all", "action",
        "context", "pause", "resume", "toggle", "is-paused",
    ]

    package var isNotification: Bool {
        switch self {
        case .success, .error, .info, .warning: return true
        default: return false
        }
    }

    /// Verbs about named HUDs: sent to the server.
    package var isNamed: Bool {
        switch self {
        case .hide, .list, .push, .pop, .notifications: return true
        default: return false
        }
    }

    /// Without a server nothing is showing: these succeed without starting one.
    package var succeedsWithoutServer: Bool { self == .hide || self == .list || self == .pop }

    /// `list` is the only named verb without `--id`.
    package var needsID: Bool { isNamed && self != .list && self != .notifications }
}
