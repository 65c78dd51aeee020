import ArgumentParser
import HUDCore
import HUDSocket

// --mode takes aliases (ring, annular-determinate, ...): the completions offer them too.
extension HUDMode: ExpressibleByArgument {
    public init?(argument: String) { self.init(named: argument) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) + aliasNames }
}
extension HUDStyle: ExpressibleByArgument {}
extension HUDAnimation: ExpressibleByArgument {}
extension SpinnerStyle: ExpressibleByArgument {}

/// `xhud`'s options as `--help` and the shell completions describe them, named after
/// MBProgressHUD's vocabulary. The command parses with `HUDCommandLine` (`OptionTable`), which
/// sets the same options; `OptionTableTests` keeps the two in step.
struct XHUDCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xhud",
        abstract: "Show a progress HUD (MBProgressHUD / SVProgressHUD style) over an X11 desktop.",
        usage: """
        xhud [options]                        until SIGTERM, --hide-after, end of stdin
        xhud [options] -- COMMAND [ARGS...]   a HUD while COMMAND runs
        xhud success|error|info|warning TEXT  a notification that hides itself
        xhud --id NAME [options]              show or update the named HUD NAME
        xhud hide|push|pop --id NAME          named HUDs; xhud list: the names shown
        xhud server                           the display's HUD server, in the foreground
        """,
        discussion: """
        PROGRESS ON STDIN (when stdin is a pipe or a FIFO; one command a line)
          42  42%          a percentage (zenity), clamped to 0-100
          # TEXT           the label (zenity)
          pulsate:true     the spinner (zenity); pulsate:false: a ring
          label=TEXT       details=TEXT (\\n is a newline)
          progress=0.42    progress=42%         mode=bar (any --mode)
          button=TITLE     (empty: no button)   alternate=true|false
          show  hide  hide=SECONDS  done (exit 0)  cancel (exit 1)
          success[=TEXT]  error[=TEXT]  info[=TEXT]  warning[=TEXT]
                           show the icon, hide after a while, exit 0
        Other lines are ignored with a warning (without one after zenity's
        --progress). End of input hides the HUD.
        zenity --progress scripts work with the name changed: --progress (with
        no value), --text (Pango markup, as in zenity), --percentage,
        --pulsate, --auto-close, --auto-kill, --no-cancel, --cancel-label,
        --attach and --timeout (exit 5) are honoured; zenity's other options
        (--title, --width, --gtk-module, ...) are accepted and ignored.

        WRAPPING A COMMAND
        The command's stdin, stdout, stderr and exit status pass through
        untouched, with or without a display. The HUD appears after --grace
        (0.5 s), stays at least --min-show (0.5 s), then shows a success or
        error icon for --result-time. Cancel (--button TITLE, or Escape while
        the HUD blocks input) sends SIGTERM to the command and its children,
        SIGKILL after --kill-timeout, and exits 1.

        NOTIFICATIONS
        xhud success|error|info|warning TEXT, and --mode text|custom, return
        at once (the HUD lives on) unless --wait, and hide after SVProgressHUD's
        duration: 0.06 s a character + 0.5 s, at least --min-duration (5 s),
        at most --max-duration; or after --hide-after. A click dismisses an
        icon notification; text-only ones let clicks through. The display's
        HUD server shows them, stacked with other notifications and named HUDs.

        NAMED HUDS (keybindings)
        xhud --id NAME ... shows NAME, or updates it in place when it is
        showing on this display, and returns at once; only the options given
        change. It hides --hide-after (1.5 s) after the last update. push and
        pop count activities: the HUD stays while the count is above zero.
        Several names stack top to bottom in the order they appeared, centred
        as a group. `xhud server` runs the display's server in the foreground
        (for autostart: it stays when no HUD shows); otherwise the first
        invocation starts one, which exits --linger seconds after its last HUD.
        `xhud server --notifications` (or notifications = true in the
        configuration) also shows desktop notifications (notify-send) as HUDs;
        --replace takes them over from another notification daemon.

        CONFIGURATION
        $XDG_CONFIG_HOME/xhud/config.toml (then $XDG_CONFIG_DIRS) sets the
        default of any option of look, timing and place by its long name
        (ring-thickness, success-image, fade-in, mask = "blur", ...; not
        --progress, --window, --id or zenity's); [notification], [wrap] and
        [id.NAME] sections apply to those HUDs. --theme NAME loads a file of the
        same keys (sv-dark, sv-light, mb-classic, osd). --print-config shows the
        effective value of every key and where it comes from.

        EXIT STATUS
          0      done: the HUD was shown and hidden, or its input ended
          1      cancelled: the button, Escape, `cancel` on stdin (as zenity)
          2      usage error: unknown flag, bad number, unknown colour,
                 unreadable image, unknown window or monitor
          3      no X display: DISPLAY unset or the connection was refused
          5      zenity's --timeout ran out
          N      wrapping: the command's status (128+N: killed by signal N)
          128+N  ended by signal N other than SIGINT/SIGTERM
        """,
        version: XHUDVersion.string)

    @Argument(help: ArgumentHelp("success | error | info | warning (then TEXT), hide | list | push | pop, or server."),
              completion: .list(Verb.allCases.map(\.rawValue)))
    var verb: String?
    @Argument(help: ArgumentHelp("The notification's text (quote it when it has spaces).", valueName: "text"))
    var message: String?

    @Option(help: "indeterminate (spinner) | determinate (pie) | annular (ring: progress) | bar | success | error | info | warning | custom (--image) | text; MBProgressHUD's names too, also in camelCase")
    var mode: HUDMode?
    @Option(help: "The single-line label (ellipsized when too long).")
    var label: String?
    @Option(help: "The multi-line details label.")
    var details: String?
    @Option(help: "Progress 0...1 for determinate, annular and bar.")
    var progress: Double?
    @Option(help: "A button with this title; clicking it cancels (exit 1).")
    var button: String?
    @Option(help: "Image for --mode custom: a PNG or SVG file, or an icon name from the icon theme (dialog-information).",
            completion: .file(extensions: ["png", "svg", "svgz"]))
    var image: String?
    @Option(help: "Size in pixels of the box the image is fitted into (default 37).")
    var imageSize: Double?
    @Flag(inversion: .prefixedNo, help: "Tint the image with the content colour.")
    var tintImage: Bool?
    @Option(help: "An image or icon name drawn instead of the success icon (SVProgressHUD's setSuccessImage).",
            completion: .file(extensions: ["png", "svg", "svgz"]))
    var successImage: String?
    @Option(help: "An image or icon name drawn instead of the error icon.", completion: .file(extensions: ["png", "svg", "svgz"]))
    var errorImage: String?
    @Option(help: "An image or icon name drawn instead of the info icon.", completion: .file(extensions: ["png", "svg", "svgz"]))
    var infoImage: String?
    @Option(help: "An image or icon name drawn instead of the warning icon.", completion: .file(extensions: ["png", "svg", "svgz"]))
    var warningImage: String?
    @Option(help: "ring (SVProgressHUD) | spokes (classic activity indicator)")
    var spinner: SpinnerStyle?
    @Option(help: "Line width of the spinner's ring and the progress ring, 0.5-64 (default 2; SVProgressHUD's ringThickness).")
    var ringThickness: Double?
    @Option(help: "Radius of those rings, 1-256 (default: the indicator's own; SVProgressHUD's ringRadius).")
    var ringRadius: Double?
    @Flag(inversion: .prefixedNo, help: "Show the value (45%) beside a bar or inside a ring.")
    var showValue: Bool?
    @Flag(inversion: .prefixedNo, help: "The bar's alternate state (e.g. muted), drawn in --alternate-color.")
    var alternate: Bool?
    @Option(help: "Colour of the alternate state (default: a muted red).")
    var alternateColor: String?
    @Flag(inversion: .prefixedNo, help: "Interpret label and details as Pango markup (otherwise only zenity's --text is).")
    var markup: Bool?
    @Flag(inversion: .prefixedNo, help: "Ease progress changes over 0.2 s (default: each value is on screen exactly in the next frame).")
    var smooth: Bool?

    @Option(help: "dark | light | custom")
    var style: HUDStyle?
    @Option(help: "Bezel colour: #RRGGBB[AA], rgba(r,g,b,a), a name, NAME/ALPHA.")
    var bezelColor: String?
    @Option(help: "Colour of label, details, button and indicator.")
    var contentColor: String?
    @Option(help: "none (click-through) | clear (blocks input) | black | gradient | COLOR | blur | blur:COLOR (blurred, tinted). Default: clear for spinner and progress, none for notifications.")
    var mask: String?
    @Flag(inversion: .prefixedNo, help: "A drop shadow under the bezel (default on).")
    var shadow: Bool?
    @Option(help: "Blur radius of what shows through the bezel, in pixels (default 20, a material like iOS's; 0: none).")
    var blur: Double?
    @Option(help: "Margin around the content and from the region's edges (default 20).")
    var margin: Double?
    @Option(help: "Space between the indicator, label, details and button (default 4).")
    var spacing: Double?
    @Option(help: "Corner radius of the bezel (default 10).")
    var cornerRadius: Double?
    @Option(help: "Minimum bezel size, WxH.")
    var minSize: String?
    @Flag(inversion: .prefixedNo, help: "Make the bezel square when it fits.")
    var square: Bool?
    @Option(help: "Offset of the bezel from the centre, X,Y; a huge value pins it to that edge.")
    var offset: String?
    @Option(help: "Font of the label (Pango description, e.g. 'Sans Bold 16px').")
    var font: String?
    @Option(help: "Font of the details label.")
    var detailsFont: String?
    @Option(help: "Widest the label and details may be before they wrap or are ellipsized (default 300).")
    var maxTextWidth: Double?

    @Option(help: "A theme: sv-dark, sv-light, mb-classic, osd, or a theme file (see --print-config).")
    var theme: String?
    @Option(help: "Read this configuration file instead of $XDG_CONFIG_HOME/xhud/config.toml.", completion: .file(extensions: ["toml"]))
    var config: String?
    @Flag(help: "Print the effective configuration, and where each value comes from, then exit.")
    var printConfig = false
    @Option(help: "Icon theme for --image NAME (default: GTK's gtk-icon-theme-name, then hicolor).")
    var iconTheme: String?

    @Option(help: "fade | zoom | zoom-in | zoom-out | pop | none")
    var animation: HUDAnimation?
    @Option(help: "Seconds the show animation takes (default: the animation's own, 0.3; pop 0.15).")
    var fadeIn: Double?
    @Option(help: "Seconds the hide animation takes (default as --fade-in).")
    var fadeOut: Double?
    @Option(help: "Seconds to wait before showing; a HUD hidden before then never appears (default 0; 0.5 when wrapping).")
    var grace: Double?
    @Option(help: "Once shown, stay at least this many seconds (default 0; 0.5 when wrapping).")
    var minShow: Double?
    @Option(help: "Hide after this many seconds.")
    var hideAfter: Double?
    @Flag(help: "Notifications: wait until the HUD is hidden instead of returning at once.")
    var wait = false
    @Option(help: "Notifications: shortest display time (SVProgressHUD's minimumDismissTimeInterval).")
    var minDuration: Double = 5
    @Option(help: "Notifications: longest display time.")
    var maxDuration: Double?
    @Flag(inversion: .prefixedNo, help: "Let clicks pass through a notification instead of dismissing it.")
    var clickThrough: Bool?

    @Option(help: "Parent window: ID | active | pointer | root. The HUD follows it and ends with it.")
    var window: String?
    @Option(help: "Parent monitor: pointer | focused | primary | NAME | INDEX (default: pointer).")
    var monitor: String?
    @Option(help: "Parent region WxH+X+Y in screen pixels.")
    var geometry: String?
    @Option(help: "Scale factor (default: Xft.dpi / 96).")
    var scale: Double?

    @Option(help: "Wrapping: seconds the success or error icon stays after the command ends (0: none).")
    var resultTime: Double = 1
    @Option(help: "Wrapping: seconds between SIGTERM and SIGKILL when cancelled.")
    var killTimeout: Double = 5
    @Flag(inversion: .prefixedNo, help: "Wrapping: read progress from the command's output (the last NN% on a line); the output still passes through untouched.")
    var progressFromOutput: Bool?

    @Option(help: "Named HUD: show or update the HUD with this name on this display.")
    var id: String?
    @Option(help: "hide and pop: seconds to wait before hiding.")
    var delay: Double?
    @Option(help: "Named HUD server: seconds it stays after its last HUD is hidden, to serve the next key press warm (default 10).")
    var linger: Double?
    @Flag(inversion: .prefixedNo, help: "xhud server: serve desktop notifications (org.freedesktop.Notifications on the session bus: notify-send) as HUDs.")
    var notifications: Bool?
    @Flag(help: "xhud server --notifications: take the notification name over from the daemon that has it (dunst, ...).")
    var replace = false

    /// Tests: the frame the renderer draws for these options (region from --geometry, time 0,
    /// no shadow, as without a compositor) written to a PNG instead of shown.
    @Option(help: .hidden) var renderPng: String?

    @Flag(name: .customLong("progress-dialog"), help: .hidden) var zenityProgress = false
    @Option(help: "zenity: the label, Pango markup as in zenity (--no-markup: plain text).") var text: String?
    @Option(help: "zenity: initial percentage 0-100 (clamped, as zenity does).") var percentage: Double?
    @Flag(help: "zenity: the spinner.") var pulsate = false
    @Flag(help: "zenity: hide and exit 0 when the percentage reaches 100.") var autoClose = false
    @Flag(help: "zenity: on cancel, also kill the parent process.") var autoKill = false
    @Flag(help: "zenity: no Cancel button (zenity --progress shows one by default).") var noCancel = false
    @Option(help: "zenity: the Cancel button's title.") var cancelLabel: String?
    @Option(help: "zenity: the parent window (an X window ID), as --window.") var attach: String?
    @Option(help: "zenity: hide after this many seconds and exit 5.") var timeout: Double?
    @Option(help: "zenity: accepted and ignored.") var gtkModule: String?
    @Option(help: .hidden) var title: String?
    @Option(help: .hidden) var width: Int?
    @Option(help: .hidden) var height: Int?
    @Flag(help: .hidden) var timeRemaining = false
    // zenity's other general options, accepted and ignored so that its scripts run with the
    // name changed.
    @Option(help: .hidden) var okLabel: String?
    @Option(help: .hidden) var windowIcon: String?
    @Option(help: .hidden) var extraButton: [String] = []
    @Option(help: .hidden) var iconName: String?
    @Option(help: .hidden) var display: String?
    @Option(help: .hidden) var `class`: String?
    @Option(help: .hidden) var name: String?
    @Flag(help: .hidden) var modal = false
    @Flag(help: .hidden) var ellipsize = false
    @Flag(help: .hidden) var noWrap = false

    @Argument(parsing: .postTerminator, help: ArgumentHelp("A command to run while the HUD shows (after --).", valueName: "command"))
    var command: [String] = []

    /// Run without --help: the help all the same (xhud-host runs this only for help).
    mutating func run() throws {
        print(Self.helpMessage())
    }
}
