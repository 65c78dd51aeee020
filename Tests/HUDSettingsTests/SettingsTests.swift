#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HUDSettings
import HUDSystem
import HUDCommandLine

/// The configuration keys: the option table's.
let keys = OptionTable.settingKeys

/// A scratch directory with files, removed at the end.
final class Scratch {
    let path: String
    init() {
        var template = Array("/tmp/xhud-settings-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }
    deinit { _ = system("rm -rf '\(path)'") }
    @discardableResult
    func write(_ relative: String, _ text: String) -> String {
        let full = path + "/" + relative
        _ = system("mkdir -p \"$(dirname '\(full)')\"")
        let f = fopen(full, "w")!
        fputs(text, f)
        fclose(f)
        return full
    }
}

@Suite struct SettingsFileTests {
    @Test func readsTopLevelAndSectionsWithLines() {
        let f = SettingsFile(
            path: "c.toml",
            text: """
                # xhud
                mode = "bar"
                margin = 12
                shadow = false
                offset = [0, 200]

                [notification]
                min-duration = 3

                [id.volume]
                label = "Volume"
                """, keys: keys)
        #expect(f.warnings.isEmpty)
        #expect(f.top.map(\.key) == ["mode", "margin", "shadow", "offset"])
        #expect(f.top[0].source.line == 2)
        #expect(f.top[3].value == .list([.number(0), .number(200)]))
        #expect(f.sections["notification"]?.first?.key == "min-duration")
        #expect(f.sections["id.volume"]?.first?.value == .string("Volume"))
        #expect(f.sections["id.volume"]?.first?.source.line == 11)
    }

    @Test func unknownKeysAndBadTypesAreWarningsNamingFileAndLine() {
        let f = SettingsFile(
            path: "c.toml",
            text: """
                mode = "bar"
                colour = "red"
                margin = "wide"
                square = 3
                """, keys: keys)
        #expect(f.top.map(\.key) == ["mode"])
        #expect(f.warnings.count == 3)
        #expect(f.warnings[0].contains("c.toml:2") && f.warnings[0].contains("unknown key 'colour'"))
        #expect(f.warnings.contains { $0.contains("c.toml:3") && $0.contains("'margin' must be a number") })
        #expect(f.warnings.contains { $0.contains("c.toml:4") && $0.contains("'square' must be true or false") })
    }

    @Test func aSyntaxErrorCostsTheFileWithItsLine() {
        let f = SettingsFile(path: "c.toml", text: "mode = \"bar\"\nmargin = = 3\n", keys: keys)
        #expect(f.top.isEmpty)
        #expect(f.warnings.count == 1)
        #expect(f.warnings[0].hasPrefix("c.toml:2:"))
    }

    @Test func themesHaveNoSections() {
        let f = SettingsFile(path: "t.toml", text: "style = \"light\"\n[id.x]\nlabel = \"a\"\n", keys: keys, allowsSections: false, theme: "t")
        #expect(f.top.map(\.key) == ["style"])
        #expect(f.sections.isEmpty)
        #expect(f.warnings.count == 1)
        #expect(f.top[0].source.description == "theme t (t.toml:1)")
    }

    @Test func argumentsFollowTheOptionSpelling() throws {
        #expect(try keys.argument(key: "shadow", value: .bool(false)).get() == .flag(false))
        #expect(try keys.argument(key: "square", value: .bool(true)).get() == .flag(true))
        #expect(try keys.argument(key: "margin", value: .number(12)).get() == .text("12"))
        #expect(try keys.argument(key: "grace", value: .number(0.25)).get() == .text("0.25"))
        #expect(try keys.argument(key: "offset", value: .list([.number(0), .number(-40)])).get() == .text("0,-40"))
        #expect(try keys.argument(key: "min-size", value: .list([.number(200), .number(200)])).get() == .text("200x200"))
        #expect((try? keys.argument(key: "offset", value: .list([.number(1)])).get()) == nil)
        #expect((try? keys.argument(key: "progress", value: .number(1)).get()) == nil)
    }

    @Test func printsAsTOML() {
        #expect(SettingValue.string("a \"b\"\n").description == "\"a \\\"b\\\"\\n\"")
        #expect(SettingValue.number(20).description == "20")
        #expect(SettingValue.number(0.5).description == "0.5")
        #expect(SettingValue.list([.number(0), .number(200)]).description == "[0, 200]")
    }
}

@Suite(.serialized) struct SettingsResolutionTests {
    @Test func rulesMatchNotificationsAndLayerAfterTheirSection() {
        let f = SettingsFile(
            path: "u.toml",
            text: """
                margin = 10
                [notification]
                margin = 12
                [rule.music]
                match-app-name = "Spot*"
                match-urgency = "normal"
                margin = 14
                position = "bottom-left"
                [rule.all]
                corner-radius = 3
                [rule.bad]
                match-colour = "red"
                margin = 99
                """, keys: keys)
        #expect(f.rules.map(\.name) == ["music", "all"])
        #expect(f.warnings.count == 1 && f.warnings[0].contains("'match-colour' must be one of"))
        let settings = Settings(files: [f], keys: keys)
        func value(_ r: Settings.Resolution, _ key: String) -> SettingValue? { r.settings.first { $0.key == key }?.value }
        let song = settings.resolve(.init(isNotification: true, notification: ["app-name": "Spotify", "urgency": "normal"]))
        #expect(value(song, "margin") == .number(14))
        #expect(value(song, "position") == .string("bottom-left"))
        #expect(value(song, "corner-radius") == .number(3))  // a rule without patterns: every one
        let critical = settings.resolve(.init(isNotification: true, notification: ["app-name": "Spotify", "urgency": "critical"]))
        #expect(value(critical, "margin") == .number(12))
        #expect(value(settings.resolve(.init(isNotification: true)), "corner-radius") == nil)  // xhud's own: no rules
    }

    @Test func layersGoThemeFileSectionsInOrder() {
        let dir = Scratch()
        dir.write("themes/big.toml", "margin = 30\ncorner-radius = 18\nstyle = \"light\"\n")
        let user = SettingsFile(
            path: "u.toml",
            text: """
                theme = "\(dir.path)/themes/big.toml"
                margin = 10
                [wrap]
                grace = 1
                [id.volume]
                margin = 5
                label = "Volume"
                """, keys: keys)
        let settings = Settings(files: [user], keys: keys)
        func value(_ r: Settings.Resolution, _ key: String) -> SettingValue? { r.settings.first { $0.key == key }?.value }

        let plain = settings.resolve(.init())
        #expect(plain.warnings.isEmpty)
        #expect(value(plain, "margin") == .number(10))  // the file over the theme
        #expect(value(plain, "corner-radius") == .number(18))  // the theme under everything
        #expect(value(plain, "grace") == nil)  // [wrap] only when wrapping
        #expect(plain.settings.first { $0.key == "corner-radius" }?.source.theme != nil)

        let volume = settings.resolve(.init(id: "volume"))
        #expect(value(volume, "margin") == .number(5))
        #expect(value(volume, "label") == .string("Volume"))
        #expect(value(settings.resolve(.init(wrapsCommand: true)), "grace") == .number(1))
    }

    @Test func aMissingThemeFallsBackWithAWarning() {
        let settings = Settings(files: [SettingsFile(path: "u.toml", text: "theme = \"no-such-theme\"\nmargin = 3\n", keys: keys)], keys: keys)
        let r = settings.resolve(.init())
        #expect(r.theme == nil)
        #expect(r.warnings.count == 1 && r.warnings[0].contains("no theme 'no-such-theme'"))
        #expect(r.settings.contains { $0.key == "margin" })
    }

    @Test func theCacheReadsAgainOnlyWhenTheFileChanges() {
        let dir = Scratch()
        let path = dir.write("config.toml", "margin = 3\n")
        let cache = SettingsCache(path: path, keys: keys)
        #expect(cache.current().files.first?.top.first?.value == .number(3))
        #expect(cache.generation == 0)
        _ = cache.current()
        #expect(cache.generation == 0)
        dir.write("config.toml", "margin = 4\nbogus = 1\n")
        #expect(cache.current().files.first?.top.first?.value == .number(4))
        #expect(cache.generation == 1)
        let w = cache.current().warnings
        #expect(cache.unseen(w).count == 1)
        #expect(cache.unseen(w).isEmpty)
    }
}

@Suite(.serialized) struct IconThemeTests {
    @Test func findsTheBestFileAndFollowsInheritance() {
        let dir = Scratch()
        dir.write(
            "icons/Base/index.theme",
            """
            [Icon Theme]
            Name=Base
            Directories=16x16/status,48x48/status,scalable/status

            [16x16/status]
            Size=16
            Type=Fixed

            [48x48/status]
            Size=48
            Type=Fixed

            [scalable/status]
            Size=48
            MinSize=8
            MaxSize=512
            Type=Scalable
            """)
        dir.write("icons/Base/16x16/status/audio-volume-high.png", "x")
        dir.write("icons/Base/48x48/status/audio-volume-high.png", "x")
        dir.write("icons/Base/scalable/status/dialog-information.svg", "x")
        dir.write("icons/Child/index.theme", "[Icon Theme]\nName=Child\nInherits=Base\nDirectories=\n")
        setenv("XDG_DATA_DIRS", dir.path, 1)
        setenv("XDG_DATA_HOME", dir.path + "/none", 1)
        defer { unsetenv("XDG_DATA_DIRS"); unsetenv("XDG_DATA_HOME") }

        // Exact size wins; else the bitmap at least as large (scaled down, never up).
        #expect(
            IconTheme.lookup("audio-volume-high", size: 16, scale: 1, theme: "Child") == dir.path + "/icons/Base/16x16/status/audio-volume-high.png")
        #expect(
            IconTheme.lookup("audio-volume-high", size: 37, scale: 1, theme: "Child") == dir.path + "/icons/Base/48x48/status/audio-volume-high.png")
        #expect(
            IconTheme.lookup("dialog-information", size: 37, scale: 2, theme: "Child") == dir.path
                + "/icons/Base/scalable/status/dialog-information.svg")
        // GTK's fallback: the last part of the name dropped.
        #expect(
            IconTheme.lookup("audio-volume-high-extra", size: 48, scale: 1, theme: "Base") == dir.path
                + "/icons/Base/48x48/status/audio-volume-high.png")
        #expect(IconTheme.lookup("no-such-icon-at-all", size: 48, scale: 1, theme: "Base") == nil)
        #expect(!IconTheme.isIconName("./a.png") && !IconTheme.isIconName("a/b") && IconTheme.isIconName("dialog-information"))
    }

    /// What a hostile name or theme can cost is bounded: a name of a hundred dashes tries a few
    /// shorter names, not a hundred; an index naming a hundred thousand parents keeps sixteen.
    @Test func aHostileNameOrIndexCostsLittle() {
        let dir = Scratch()
        let parents = (0..<5_000).map { "p\($0)" }.joined(separator: ",")
        dir.write("icons/Greedy/index.theme", "[Icon Theme]\nName=Greedy\nInherits=\(parents)\nDirectories=\n")
        let more = (0..<120_000).map { "p\($0)" }.joined(separator: ",")
        dir.write("icons/Huge/index.theme", "[Icon Theme]\nName=Huge\nInherits=\(more)\nDirectories=\n")
        dir.write("icons/Base/index.theme", "[Icon Theme]\nName=Base\nDirectories=48x48/status\n\n[48x48/status]\nSize=48\nType=Fixed\n")
        dir.write("icons/Base/48x48/status/a.png", "x")
        setenv("XDG_DATA_DIRS", dir.path, 1)
        setenv("XDG_DATA_HOME", dir.path + "/none", 1)
        defer { unsetenv("XDG_DATA_DIRS"); unsetenv("XDG_DATA_HOME") }
        #expect(IconTheme.index(of: "Greedy")?.inherits.count == IconTheme.maxInherits)
        #expect(IconTheme.index(of: "Huge") == nil, "an index of a megabyte is no theme's")
        let dashes = "a" + String(repeating: "-b", count: 100)
        // Within the fallbacks, the shortest name is found; past them it is not tried at all.
        #expect(IconTheme.lookup("a-b-b-b", size: 48, scale: 1, theme: "Base") == dir.path + "/icons/Base/48x48/status/a.png")
        #expect(IconTheme.lookup(dashes, size: 48, scale: 1, theme: "Base") == nil)
        #expect(IconTheme.lookup(String(repeating: "x", count: 500), size: 48, scale: 1, theme: "Base") == nil)
        #expect(IconTheme.index(of: "../Base") == nil, "a theme is a name, not a path")
    }
}

@Suite(.serialized) struct SettingsReaderTests {
    @Test func readsAFileInProcessEachTimeItIsAsked() {
        let dir = Scratch()
        let path = dir.write("config.toml", "margin = 3\n")
        #expect(SettingsReader.read(path: path, keys: keys, allowsSections: true, theme: nil)?.top.first?.value == .number(3))
        dir.write("config.toml", "margin = 4\n# a longer file\n")
        #expect(SettingsReader.read(path: path, keys: keys, allowsSections: true, theme: nil)?.top.first?.value == .number(4))
        #expect(SettingsReader.read(path: dir.path + "/none.toml", keys: keys, allowsSections: true, theme: nil) == nil)
        let theme = SettingsReader.read(path: path, keys: keys, allowsSections: false, theme: "mine")
        #expect(theme?.top.first?.source.description == "theme mine (\(path):1)")
    }

    @Test func aFIFOOrAHugeFileIsRefusedNotWaitedOn() {
        let dir = Scratch()
        let fifo = dir.path + "/fifo.toml"
        #expect(mkfifo(fifo, 0o600) == 0)
        let f = SettingsReader.read(path: fifo, keys: keys, allowsSections: true, theme: nil)
        #expect(f?.top.isEmpty == true && f?.warnings.first?.contains("not a regular file") == true)
        let huge = dir.write("huge.toml", String(repeating: "# a comment of a line\n", count: 50_000))
        #expect(SettingsReader.read(path: huge, keys: keys, allowsSections: true, theme: nil)?.warnings.first?.contains("larger than 1 MB") == true)
    }

    /// Every shipped file parses without a warning: the example configuration and the themes.
    @Test func theShippedFilesParseCleanly() {
        let here = String(#filePath)
        let top = String(here[..<here.firstRange(of: "/Tests/")!.lowerBound])
        var paths = [top + "/Resources/config.example.toml"]
        for n in Directory.names(at: top + "/Resources/themes") where n.hasSuffix(".toml") { paths.append(top + "/Resources/themes/" + n) }
        #expect(paths.count >= 5)
        for p in paths {
            let f = SettingsReader.read(path: p, keys: keys, allowsSections: !p.contains("/themes/"), theme: nil)
            #expect(f != nil && f!.warnings.isEmpty && !(f!.top.isEmpty && f!.sections.isEmpty), "\(p): \(f?.warnings ?? [])")
        }
    }
}
