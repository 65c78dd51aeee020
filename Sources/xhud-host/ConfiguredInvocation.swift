#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDSettings
import HUDSocket
import HUDRender

/// An invocation with the configuration file's and the theme's defaults under it: the command
/// line is parsed once alone (usage errors are the user's, reported as such), then with the
/// settings that apply to it placed before it. A setting is checked by the same parser as the
/// option it names; one that does not parse is dropped with a warning naming its file, line
/// and key, and the rest apply.
struct ConfiguredInvocation {
    /// The command line over the settings.
    var options: HUDOptions
    /// The command line alone: an update of a named HUD changes only what it names.
    var userOptions: HUDOptions
    var resolution: Settings.Resolution
    /// The setting keys the command line gave itself.
    var given: Set<String>
    var warnings: [String] = []

    /// `settings` loads the files (`--config` or the XDG ones); `cwd` resolves relative images.
    static func make(arguments: [String], cwd: String, settings: (String?) -> Settings) throws -> ConfiguredInvocation {
        let user = try HUDOptions.parse(arguments)
        let loaded = settings(user.config ?? env("XHUD_CONFIG"))
        let kind = Settings.Kind(wrapsCommand: !user.command.isEmpty, isNotification: user.isNotification,
                                 id: user.id)
        let resolution = loaded.resolve(kind, commandLineTheme: user.theme)
        let given = givenKeys(arguments, user)
        var out = ConfiguredInvocation(options: user, userOptions: user, resolution: resolution, given: given,
                                       warnings: loaded.warnings + resolution.warnings)
        var settings: [(Setting, [String])] = []
        for s in resolution.settings where s.key != "theme" && !given.contains(s.key) {
            if case .success(let args) = SettingKeys.arguments(key: s.key, value: s.value) { settings.append((s, args)) }
        }
        // The settings under the command line, parsed once: a parse costs about what a start of
        // the argument parser does. Only when that fails (a bad value, or one that does not go
        // with the command line) are they checked key by key, to name the key, and the good ones
        // kept.
        let all = settings.flatMap(\.1)
        if !all.isEmpty {
            if let parsed = try? HUDOptions.parse(all + arguments), (try? parsed.hudConfiguration()) != nil {
                out.options = parsed
            } else {
                var prefix: [String] = []
                for (s, args) in settings {
                    do {
                        _ = try HUDOptions.parse(args).hudConfiguration()
                        prefix += args
                    } catch {
                        out.warnings.append("\(s.source): '\(s.key)': \(oneLine("\(error)")); ignored")
                    }
                }
                if let parsed = try? HUDOptions.parse(prefix + arguments) {
                    out.options = parsed
                } else if !prefix.isEmpty {
                    out.warnings.append("the configuration does not go with this command line; it is ignored")
                }
            }
        }
        out.resolveImages(cwd: cwd)
        return out
    }

    /// Turns an icon name into its file (`--image dialog-information`), and makes symbolic icons
    /// take the content colour. A name that no theme has is a warning, and the HUD shows no image.
    private mutating func resolveImages(cwd: String) {
        func resolve(_ o: inout HUDOptions, warn: Bool) {
            guard let image = o.image, !image.isEmpty else { return }
            let path = image.hasPrefix("/") ? image : cwd + "/" + image
            if access(path, F_OK) == 0 || !IconTheme.isIconName(image) { return }
            let size = Int(((o.imageSize ?? 37) * 2).rounded(.up))
            if let found = IconTheme.lookup(image, size: size, scale: 1, theme: o.iconTheme) {
                o.image = found
                if o.tintImage == nil && found.contains("-symbolic") { o.tintImage = true }
            } else {
                if warn { warnings.append("no icon '\(image)' in the icon theme \(o.iconTheme ?? IconTheme.userTheme ?? "hicolor") or hicolor; showing no image") }
                o.image = nil
                if o.mode == .custom { o.mode = nil }
            }
        }
        resolve(&options, warn: true)
        resolve(&userOptions, warn: false)
    }

    /// Keys the command line set, by any of their spellings (zenity's included).
    private static func givenKeys(_ arguments: [String], _ user: HUDOptions) -> Set<String> {
        // zenity's --progress is a bar with a Cancel button, --percentage a bar.
        let aliases = ["text": ["label"], "pulsate": ["mode"], "cancel-label": ["button"], "cancel": ["button"],
                       "progress-dialog": ["mode", "button"], "percentage": ["mode"], "attach": ["monitor"],
                       "window": ["monitor"], "geometry": ["monitor"]]
        var keys: Set<String> = []
        for a in arguments {
            if a == "--" { break }
            guard a.hasPrefix("--") else { continue }
            var name = String(a.dropFirst(2).prefix { $0 != "=" })
            if SettingKeys.kind(of: name) == nil, name.hasPrefix("no-") { name = String(name.dropFirst(3)) }
            keys.formUnion(aliases[name] ?? [name])
        }
        if user.action?.isNotification == true {
            keys.insert("mode")
            if user.message != nil { keys.insert("label") }
        }
        return keys
    }

    private static func env(_ name: String) -> String? {
        guard let v = getenv(name), v.pointee != 0 else { return nil }
        return String(cString: v)
    }
}
