import HUDCore
import HUDSettings

extension OptionTable {
    static let appearance = OptionGroup(
        "Appearance",
        [
            choice("style", HUDStyle.self, "dark | light | custom", key: .text { c, _ in c.style.rawValue }, hud: sets(\.style, \.style)) {
                $0.style = $1
            }.man(
                value: "style",
                """
                `dark`, `light` or `custom`. By default, the desktop's preference (the settings portal's `color-scheme`, as GNOME \
                and KDE set it, followed as it changes; else a theme named dark in XSETTINGS' `Net/ThemeName`, else GTK's \
                *settings.ini* `gtk-application-prefer-dark-theme`) where neither the configuration nor the command line colours the \
                HUD; else `{default}`.
                """),
            text(
                "bezel-color", "Bezel colour: #RRGGBB[AA], rgba(r,g,b,a), a name, NAME/ALPHA.",
                key: .text { c, _ in c.effectiveBezelColor.description }
            ) { $0.bezelColor = $1 }.man(
                value: "colour",
                "The bezel colour. A colour is `#RGB`, `#RRGGBB`[`AA`], `rgba(*r*,*g*,*b*,*a*)`, a colour name, or `*name*/*alpha*`."),
            text("content-color", "Colour of label, details, button and indicator.", key: .text { c, _ in c.effectiveContentColor.description }) {
                $0.contentColor = $1
            }.man(value: "colour", "The colour of the label, details, button and indicator."),
            text(
                "mask",
                "none (click-through) | clear (blocks input) | black | gradient | COLOR | blur | blur:COLOR (blurred, tinted). Default: clear for spinner and progress, none for notifications.",
                key: .text { c, _ in c.effectiveMask.settingText }
            ) { $0.mask = $1 }.man(
                value: "mask",
                """
                What covers the parent region: `none` (nothing; clicks pass through), `clear` (invisible, but blocks pointer input), \
                `black`, `gradient`, a colour, `blur` (the region blurred behind the HUD, as MBProgressHUD's background view with \
                the blur style) or `blur:*colour*` (blurred and tinted with the colour). The default is `clear` for spinners and \
                progress and `none` for notifications.
                """),
            toggle("shadow", "A drop shadow under the bezel (default {default}).", key: .flag { c, _ in c.shadow }, hud: sets(\.shadow, \.shadow)) {
                $0.shadow = $1
            }.man("A drop shadow under the bezel, or none (default {default})."),
            number(
                "blur", "Blur radius of what shows through the bezel, in pixels (default {default}, a material like iOS's; 0: none).",
                range: Limits.blur, key: .number { c, _ in c.blur }, hud: sets(\.blur, \.blur)
            ) { $0.blur = $1 }.man(
                value: "pixels",
                """
                Blur what shows through the bezel with this radius, {range}, as iOS's HUDs do (default {default}; 0: a flat \
                bezel). Without a compositor the bezel blurs the windows beneath it and its fill is lighter, as iOS's materials are.
                """),
            number(
                "margin", "Margin around the content and from the region's edges (default {default}).", range: Limits.margin,
                key: .number { c, _ in c.margin }, hud: sets(\.margin, \.margin)
            ) { $0.margin = $1 }.man(value: "pixels", "The margin around the content and from the region's edges, {range} (default {default})."),
            number(
                "spacing", "Space between the indicator, label, details and button (default {default}).", range: Limits.margin,
                key: .number { c, _ in c.spacing }, hud: sets(\.spacing, \.spacing)
            ) { $0.spacing = $1 }.man(
                value: "pixels", "The space between the indicator, the label, the details and the button, {range} (default {default})."),
            number(
                "corner-radius", "Corner radius of the bezel (default {default}).", range: Limits.cornerRadius,
                key: .number { c, _ in c.cornerRadius }, hud: sets(\.cornerRadius, \.cornerRadius)
            ) { $0.cornerRadius = $1 }.man(value: "pixels", "The corner radius of the bezel, {range} (default {default})."),
            text("min-size", "Minimum bezel size, WxH.", key: .pair("x") { c, _ in [c.minSize.width, c.minSize.height] }) { $0.minSize = $1 }
                .man(value: "*width*`x`*height*", "The minimum size of the bezel, for example `120x120`."),
            toggle("square", "Make the bezel square when it fits.", key: .flag { c, _ in c.square }, hud: sets(\.square, \.square)) {
                $0.square = $1
            },
            choice(
                "position", HUDPosition.self,
                "Where the bezel sits: {default} (default), an edge or a corner (notifications from other programs: top-right); --offset moves it from there.",
                key: .text { _, o in (o.position ?? .center).rawValue }
            ) { $0.position = $1 }.man(
                value: "where",
                """
                Where the bezel sits in its region: `center`, `top`, `bottom`, `left`, `right`, or a corner (`top-left`, \
                `top-right`, `bottom-left`, `bottom-right`), `--margin` from the edges; by default `{default}`. Notifications from \
                other programs (`xhud server --notifications`) sit in the top right corner unless the configuration's \
                `[notification]` section says otherwise.
                """),
            text(
                "offset", "Offset of the bezel from the centre, X,Y; a huge value pins it to that edge.",
                key: .pair(",") { c, _ in [c.offset.x, c.offset.y] }
            ) { $0.offset = $1 }.man(
                value: "*x*`,`*y*",
                """
                The offset of the bezel from the centre of the region. An offset beyond an edge pins the bezel `--margin` pixels \
                from that edge: `--offset 0,10000` puts it at the bottom.
                """),
            text(
                "font", "Font of the label (Pango description, e.g. 'Sans Bold 16px'; system-ui: the desktop's).",
                key: .text { c, _ in c.labelFont }, hud: sets(\.font, \.labelFont)
            ) { $0.font = $1 }.man(
                value: "font",
                """
                The label's font, a Pango font description (default “`{default}`”). The family `system-ui` is the desktop's UI \
                font: the one the settings portal, XSETTINGS (`Gtk/FontName`) or GTK's *settings.ini* (`gtk-font-name`) names, else \
                fontconfig's alias of that name (Cantarell, Noto Sans UI, ..., else the default sans).
                """),
            text("details-font", "Font of the details label.", key: .text { c, _ in c.detailsFont }, hud: sets(\.detailsFont, \.detailsFont)) {
                $0.detailsFont = $1
            }.man(value: "font", "The details label's font (default “`{default}`”, regular as iOS draws it)."),
            number(
                "max-text-width", "Widest the label and details may be before they wrap or are ellipsized (default {default}).",
                range: Limits.textWidth, key: .number { c, _ in c.maxTextWidth }, hud: sets(\.maxTextWidth, \.maxTextWidth)
            ) { $0.maxTextWidth = $1 }.man(
                value: "pixels",
                """
                The widest the label and details may be, {range} (default {default}, as SVProgressHUD's 200 by 300 status): the \
                label is ellipsized and the details wrap there, not at the screen's edge.
                """),
        ])

    static let configuration = OptionGroup(
        "Configuration",
        [
            text("theme", "A theme: sv-dark, sv-light, mb-classic, osd, or a theme file (see --print-config).", key: .text { _, o in o.theme }) {
                $0.theme = $1
            }.man(
                value: "*name*|*file*",
                """
                A theme: a file of configuration keys (see `CONFIGURATION`). Shipped: `sv-dark` and `sv-light` (SVProgressHUD), \
                `mb-classic` (MBProgressHUD 0.9) and `osd` (a large square on-screen display).
                """),
            text("config", "Read this configuration file instead of $XDG_CONFIG_HOME/xhud/config.toml.", completion: .files(["toml"])) {
                $0.config = $1
            }.man(value: "file", "Read this configuration file instead of the XDG ones (*$XDG_CONFIG_HOME/xhud/config.toml*, ...)."),
            flag("print-config", "Print the effective configuration, and where each value comes from, then exit.") { $0.printConfig = $1 }.man(
                """
                Print the effective configuration of the invocation, each key with its value and where the value comes from \
                (command line, a file and line, a theme, or built in), and exit.
                """),
            text(
                "icon-theme", "Icon theme for --image NAME (default: GTK's gtk-icon-theme-name, then hicolor).",
                key: .text { _, o in o.iconTheme ?? IconTheme.userTheme ?? "hicolor" }
            ) { $0.iconTheme = $1 }.man(value: "name", "The icon theme for icon names (default: GTK's `gtk-icon-theme-name`, then hicolor)."),
        ])
}
