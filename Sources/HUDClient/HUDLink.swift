/// The HUD a wrapped command reports to: a session with the display's server, or a HUD process
/// of this command's own. It may go away at any time; the command never notices.
package protocol HUDLink: AnyObject {
    /// Polled for what the HUD says; -1 once there is no HUD.
    var fd: Int32 { get }
    /// When `readCancelled` must be called even if `fd` says nothing (a server's answer that is
    /// late: the client stops waiting for it then); nil: only when `fd` is readable.
    var wakeAt: Double? { get }
    /// The command's time between SIGTERM and SIGKILL once the HUD said it (nil: not said yet).
    var killTimeout: Double? { get }
    /// Reads what the HUD said: true when the user cancelled. A HUD that went away is the
    /// link's to handle (it may come back, or `fd` becomes -1).
    func readCancelled() -> Bool
    /// A progress line from the command's output (`progress=42%`).
    func send(_ line: String)
    /// The command ended with this status (128+N: signal N). The last call.
    func commandEnded(_ status: Int32)
}

extension HUDLink {
    package var wakeAt: Double? { nil }
    package var killTimeout: Double? { nil }
}
