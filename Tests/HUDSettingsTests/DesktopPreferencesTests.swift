#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HUDSettings

@Suite struct DesktopPreferencesTests {
    @Test func settingsINIGivesTheFontAndThePreference() {
        let p = DesktopPreferences(
            settingsINI: """
                # lxappearance
                [Settings]
                gtk-theme-name=Arc-Dark
                gtk-font-name = "Noto Sans 10"
                gtk-application-prefer-dark-theme=0
                [Other]
                gtk-font-name=Wrong 9
                """)
        #expect(p.fontName == "Noto Sans 10")
        #expect(p.prefersDark == true)  // the theme is dark, whatever the application flag says
    }

    @Test func theDarkFlagAndALightThemeSayLightOrDark() {
        #expect(DesktopPreferences(settingsINI: "[Settings]\ngtk-application-prefer-dark-theme=1\n").prefersDark == true)
        #expect(DesktopPreferences(settingsINI: "[Settings]\ngtk-application-prefer-dark-theme=false\ngtk-theme-name=Adwaita\n").prefersDark == false)
        #expect(DesktopPreferences(settingsINI: "[Settings]\ngtk-theme-name=Adwaita\n").prefersDark == nil)
        #expect(DesktopPreferences(settingsINI: "gtk-application-prefer-dark-theme=1\n").prefersDark == nil)  // no group
    }

    @Test func xsettingsThemeNames() {
        #expect(
            DesktopPreferences(xsettings: ["Net/ThemeName": "Adwaita-dark", "Gtk/FontName": "Cantarell 11"])
                == DesktopPreferences(prefersDark: true, fontName: "Cantarell 11"))
        #expect(DesktopPreferences(xsettings: ["Net/ThemeName": "Yaru:dark"]).prefersDark == true)
        #expect(DesktopPreferences(xsettings: ["Net/ThemeName": "Darkroom", "Gtk/FontName": " "]) == DesktopPreferences())
    }

    @Test func theFirstSourceThatSaysWins() {
        let xs = DesktopPreferences(prefersDark: nil, fontName: "Inter 10")
        let ini = DesktopPreferences(prefersDark: false, fontName: "Noto Sans 10")
        #expect(xs.over(ini) == DesktopPreferences(prefersDark: false, fontName: "Inter 10"))
    }

    @Test func gtk4BeforeGtk3() throws {
        var template = Array("/tmp/xhud-gtk-XXXXXX".utf8CString)
        let dir = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { _ = system("rm -rf '\(dir)'") }
        for (v, font) in [("gtk-3.0", "Three 10"), ("gtk-4.0", "Four 10")] {
            mkdir(dir + "/" + v, 0o700)
            let f = fopen(dir + "/" + v + "/settings.ini", "w")
            fputs("[Settings]\ngtk-font-name=\(font)\n", f)
            fclose(f)
        }
        #expect(DesktopPreferences.gtkSettings(configHome: dir).fontName == "Four 10")
        #expect(DesktopPreferences.gtkSettings(configHome: dir + "/none") == DesktopPreferences())
    }
}
