import HUDSettings
import HUDSocket

/// The defaults of options that no `HUDConfiguration` property holds, each declared once: the
/// code that applies it, `--print-config`'s reader and the help's and man page's text use these.
package enum OptionDefaults {
    /// A wrapped command's HUD waits this long before showing (a quick command never flashes
    /// one) and, once shown, stays at least this long (it never flickers).
    package static let wrappingGrace = 0.5
    package static let wrappingMinShow = 0.5
    /// A named HUD hides this long after its last update.
    package static let namedHideAfter = 1.5
    /// The shortest time a notification shows (SVProgressHUD's minimumDismissTimeInterval).
    package static let minDuration = 5.0
    /// How long the success or error icon stays after a wrapped command ends.
    package static let resultTime = 1.0
    /// Between SIGTERM and SIGKILL for a cancelled command: the client's plan holds it.
    package static let killTimeout = Session.Plan.defaultKillTimeout
    /// How long the server stays after its last HUD, to serve the next key press warm.
    package static let linger = 10.0

    /// A number as the help writes it: "5", "0.5".
    package static func text(_ v: Double) -> String { SettingValue.number(v).optionText(separator: "") }
}
