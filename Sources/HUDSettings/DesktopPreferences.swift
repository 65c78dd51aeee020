import HUDSystem

/// What the desktop says of its look outside the settings portal: whether it prefers dark, and
/// its UI font as it names it (`Cantarell 11`). Two places, the first that says wins:
/// XSETTINGS (`Net/ThemeName`, `Gtk/FontName`: Xfce, MATE, Cinnamon, LXDE, and xsettingsd under
/// i3 or bspwm) and GTK's `settings.ini` (`gtk-application-prefer-dark-theme`, `gtk-theme-name`,
/// `gtk-font-name`: what lxappearance and nwg-look write). The portal, where there is one, is
/// asked beside these and comes first (`AppearanceWatch`).
package struct DesktopPreferences: Equatable, Sendable {
    /// true: dark; false: light; nil: no preference.
    package var prefersDark: Bool?
    /// The UI font as the desktop names it, a Pango description (`Noto Sans 10`).
    package var fontName: String?

    package init(prefersDark: Bool? = nil, fontName: String? = nil) {
        self.prefersDark = prefersDark
        self.fontName = fontName
    }

    /// What `self` says, and what `other` says where `self` is silent.
    package func over(_ other: DesktopPreferences) -> DesktopPreferences {
        DesktopPreferences(prefersDark: prefersDark ?? other.prefersDark, fontName: fontName ?? other.fontName)
    }

    /// From XSETTINGS' strings (`Net/ThemeName`, `Gtk/FontName`).
    package init(xsettings: [String: String]) {
        self.init(
            prefersDark: xsettings["Net/ThemeName"].flatMap(Self.themeIsDark),
            fontName: xsettings["Gtk/FontName"].flatMap(Self.nonEmpty))
    }

    /// GTK 4's `settings.ini`, then GTK 3's, in `$XDG_CONFIG_HOME`: the first that says.
    package static func gtkSettings(configHome: String? = Locations.configHome) -> DesktopPreferences {
        guard let home = configHome else { return DesktopPreferences() }
        var out = DesktopPreferences()
        for version in ["gtk-4.0", "gtk-3.0"] {
            guard case .text(let text) = FileText.read(home + "/" + version + "/settings.ini", limit: 64 << 10) else { continue }
            out = out.over(DesktopPreferences(settingsINI: text))
        }
        return out
    }

    /// The `[Settings]` group of a GTK `settings.ini`.
    package init(settingsINI text: String) {
        var values: [String: String] = [:]
        var inSettings = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingSpaces
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { inSettings = line == "[Settings]"; continue }
            guard inSettings, let eq = line.firstIndex(of: "=") else { continue }
            var value = line[line.index(after: eq)...].trimmingSpaces
            if value.count >= 2, value.first == "\"", value.last == "\"" { value = String(value.dropFirst().dropLast()) }
            values[line[..<eq].trimmingSpaces] = value
        }
        var dark: Bool?
        switch values["gtk-application-prefer-dark-theme"]?.lowercased() {
        case "1", "true", "yes": dark = true
        case "0", "false", "no": dark = values["gtk-theme-name"].flatMap(Self.themeIsDark) ?? false
        default: dark = values["gtk-theme-name"].flatMap(Self.themeIsDark)
        }
        self.init(prefersDark: dark, fontName: values["gtk-font-name"].flatMap(Self.nonEmpty))
    }

    /// A theme named dark (`Adwaita-dark`, `Arc-Dark`, `Yaru:dark`) is; any other says nothing.
    static func themeIsDark(_ name: String) -> Bool? {
        let n = name.lowercased()
        return n.hasSuffix("-dark") || n.hasSuffix(":dark") || n.hasSuffix("_dark") || n.contains("-dark-") ? true : nil
    }

    private static func nonEmpty(_ s: String) -> String? { s.trimmingSpaces.isEmpty ? nil : s.trimmingSpaces }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
