import HUDCore
import HUDSocket

/// A HUD that would be off screen, or past the most a display shows at once: not shown, said.
func noRoom() -> Wire.Reply {
    Wire.Reply(
        status: Status.noDisplay,
        error: "xhud: no room for another HUD on this monitor (the HUDs shown fill it); hide some first\n")
}

/// A refused request's reply: one line, its input escaped (the client prints it on a terminal).
func usageError(_ message: String) -> Wire.Reply {
    Wire.Reply(status: Status.usage, error: "xhud: \(message.escapingControlCharacters)\n")
}
