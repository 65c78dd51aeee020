#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDSettings
import HUDSocket
import HUDRender
import HUDSystem

/// An invocation with the configuration file's and the theme's defaults under it: the command
/// line is parsed once alone (usage errors are the user's, reported as such), then with the
/// settings that apply to it placed before it. A setting is checked by the same parser as the
/// option it names; one that does not parse is dropped with a warning naming its file, line
/// and key, and the rest apply.
package struct ConfiguredInvocation {
    /// The command line over the settings.
    package var options: HUDOptions
    /// The command line alone: an update of a named HUD changes only what it names.
    var userOptions: HUDOptions
    var resolution: Settings.Resolution
    /// The setting keys the command line gave itself.
    var given: Set<String>
    package var warnings: [String] = []

    /// `settings` loads the files (`--config` or the XDG ones); `cwd` resolves relative images.
    /// The configuration file the invocation reads (`--config`, made absolute, else
    /// `$XHUD_CONFIG`); nil for the XDG ones.
    private static func configFile(_ user: HUDOptions) -> String? { user.config ?? Environment.value("XHUD_CONFIG") }

    /// What `make` would pass to its `settings` for these arguments; nil when they do not parse
    /// (`make` then reports why).
    static func configFile(arguments: [String], cwd: String) -> String?? {
        // A key press names no file: no second parse on its way to the screen.
        let options = arguments.prefix { $0 != "--" }
        if !options.contains(where: { $0 == "--config" || $0.hasPrefix("--config=") }) { return .some(Environment.value("XHUD_CONFIG")) }
        guard var user = try? HUDOptions.parse(arguments) else { return nil }
        if let c = user.config, !c.isEmpty, !c.hasPrefix("/") { user.config = cwd + "/" + c }
        return .some(configFile(user))
    }

    /// `defersIconLookups`: an icon name whose answer is not known yet is left as it is, for
    /// `ImagePreparer` to look up off the loop (the server); otherwise it is looked up here.
    /// `desktopStyle`: the style the desktop prefers (its light or dark colour scheme), used
    /// where nothing says how the HUD is coloured. `desktopFontFamily`: the desktop's UI font,
    /// drawn where a font names `system-ui` (the defaults do).
    package static func make(
        arguments: [String], cwd: String, defersIconLookups: Bool = false, desktopStyle: HUDStyle? = nil,
        desktopFontFamily: String? = nil, settings: (String?) -> Settings
    ) throws -> ConfiguredInvocation {
        var user = try HUDOptions.parse(arguments)
        // A relative file is the caller's, wherever the server runs.
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        if let c = user.config, !c.isEmpty { user.config = absolute(c) }
        if let t = user.theme, t.contains("/") { user.theme = absolute(t) }
        // A file or theme the user named that cannot be had is an error, never the built-in look.
        if let c = configFile(user), !c.isEmpty {
            var st = stat()
            let fd = open(c, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            let err = fd < 0 ? errno : fstat(fd, &st) != 0 ? errno : (st.st_mode & S_IFMT) == S_IFDIR ? EISDIR : 0
            if fd >= 0 { close(fd) }
            if err != 0 {
                throw UsageError((user.config != nil ? "--config" : "$XHUD_CONFIG") + " \(c): \(String(cString: strerror(err)))")
            }
        }
        let loaded = settings(configFile(user))
        let kind = Settings.Kind(
            wrapsCommand: !user.command.isEmpty, isNotification: user.isNotification,
            id: user.id, notification: user.notificationFacts)
        let resolution = loaded.resolve(kind, commandLineTheme: user.theme)
        if user.theme != nil, let e = resolution.themeError { throw UsageError("--theme: \(e)") }
        let given = givenKeys(arguments, user)
        var out = ConfiguredInvocation(
            options: user, userOptions: user, resolution: resolution, given: given,
            warnings: loaded.warnings + resolution.warnings)
        let settings = resolution.settings.filter { s in
            s.key != "theme" && !given.contains(s.key)
                && (try? OptionTable.settingKeys.argument(key: s.key, value: s.value).get()) != nil
        }
        // The settings given to their options through the table, the command line parsed over
        // them. Only when that fails (a bad value, or one that does not go with the command
        // line) are they checked one by one, to name the key, and the good ones kept.
        if !settings.isEmpty {
            if let base = try? Self.apply(settings), let parsed = try? HUDOptions.parse(arguments, over: base),
                (try? parsed.hudConfiguration()) != nil
            {
                out.options = parsed
            } else {
                var kept: [Setting] = []
                for s in settings {
                    do {
                        _ = try HUDOptions.parse([], over: Self.apply([s])).hudConfiguration()
                        kept.append(s)
                    } catch {
                        out.warnings.append("\(s.source): '\(s.key)': \(oneLine("\(error)")); ignored")
                    }
                }
                if let base = try? Self.apply(kept), let parsed = try? HUDOptions.parse(arguments, over: base) {
                    out.options = parsed
                } else if !kept.isEmpty {
                    out.warnings.append("the configuration does not go with this command line; it is ignored")
                }
            }
        }
        // The desktop's light or dark preference, where neither the command line nor the
        // configuration colours the HUD (a theme's bezel with the other style's text would
        // not read).
        let colouring: Set<String> = ["style", "bezel-color", "content-color"]
        if let d = desktopStyle, given.isDisjoint(with: colouring), !resolution.settings.contains(where: { colouring.contains($0.key) }) {
            out.options.style = d
            out.userOptions.style = d
        }
        out.options.uiFamily = desktopFontFamily
        out.userOptions.uiFamily = desktopFontFamily
        out.resolveImages(cwd: cwd, defersIconLookups: defersIconLookups)
        return out
    }

    /// The built-in details font (MBProgressHUD's bold 12 px), regular.
    /// Options with `settings` given to them (the command line is parsed over these).
    private static func apply(_ settings: [Setting]) throws(UsageError) -> HUDOptions {
        var o = HUDOptions()
        for s in settings { try OptionTable.apply(s, to: &o) }
        return o
    }

    /// Turns each image option into a file: a relative path against the caller's directory, an
    /// icon name through the icon theme (symbolic icons take the content colour), or, deferred,
    /// the name itself (a value without a leading `/`). A name that no theme has is a warning:
    /// `--image`'s HUD shows its text alone, a replaced result icon is drawn as it would be
    /// without one.
    private mutating func resolveImages(cwd: String, defersIconLookups: Bool) {
        func resolve(_ image: String?, _ o: HUDOptions, option: String, warn: Bool) -> (path: String?, symbolic: Bool) {
            guard let image, !image.isEmpty else { return (image, false) }
            let path = image.hasPrefix("/") ? image : cwd + "/" + image
            if access(path, F_OK) == 0 || !IconTheme.isIconName(image) { return (path, false) }
            let size = Self.iconSize(o)
            let answer =
                defersIconLookups
                ? IconTheme.cached(image, size: size, scale: 1, theme: o.iconTheme)
                : .some(IconTheme.lookup(image, size: size, scale: 1, theme: o.iconTheme))
            guard let known = answer else { return (image, false) }
            if let found = known { return (found, found.contains("-symbolic")) }
            if warn { warnings.append(Self.missingIcon(option, image, o)) }
            return (nil, false)
        }
        func resolveAll(_ o: inout HUDOptions, warn: Bool) {
            let main = resolve(o.image, o, option: "--image", warn: warn)
            if o.image != nil && !o.image!.isEmpty {
                if let p = main.path {
                    o.image = p
                    if o.tintImage == nil && main.symbolic { o.tintImage = true }
                } else {
                    Self.showTextAlone(&o)
                }
            }
            o.successImage = resolve(o.successImage, o, option: "--success-image", warn: warn).path ?? (o.successImage == nil ? nil : "")
            o.errorImage = resolve(o.errorImage, o, option: "--error-image", warn: warn).path ?? (o.errorImage == nil ? nil : "")
            o.infoImage = resolve(o.infoImage, o, option: "--info-image", warn: warn).path ?? (o.infoImage == nil ? nil : "")
            o.warningImage = resolve(o.warningImage, o, option: "--warning-image", warn: warn).path ?? (o.warningImage == nil ? nil : "")
        }
        resolveAll(&options, warn: true)
        resolveAll(&userOptions, warn: false)
    }

    /// The box an icon is looked up for (pixels: twice the image's logical size, sharp at 2x).
    static func iconSize(_ o: HUDOptions) -> Int { Int(((o.imageSize ?? 37) * 2).rounded(.up)) }

    /// `--image` named an icon no theme has: the HUD still says what it was asked to, its text
    /// without an indicator.
    private static func showTextAlone(_ o: inout HUDOptions) {
        o.image = nil
        if o.mode == .custom { o.mode = .text }
    }

    private static func missingIcon(_ option: String, _ name: String, _ o: HUDOptions) -> String {
        let themes = IconTheme.searchOrder(theme: o.iconTheme)
        return "\(option): no icon '\(name)' in the icon themes \(themes.joined(separator: ", ")) or /usr/share/pixmaps; "
            + "showing \(option == "--image" ? "no image" : "the drawn icon")"
    }

    /// The image files this invocation shows (icon names resolved): what is drawn before it is.
    var imageFiles: [String] {
        [options.image, options.successImage, options.errorImage, options.infoImage, options.warningImage]
            .compactMap { $0 }.filter { !$0.isEmpty }
    }

    /// Shows each image as `ImagePreparer` drew it. The image of `--image` that cannot be shown
    /// is the request's error (an icon no theme has is not: the HUD shows its text alone); a
    /// result icon's is a warning, and the drawn icon shows.
    mutating func useImages(_ results: [String: Result<String, ImageProblem>]) -> ImageProblem? {
        var problem: ImageProblem?
        func use(_ path: inout String?, _ o: HUDOptions, option: String, warn: Bool) -> Bool {
            guard let p = path, !p.isEmpty, let r = results[p] else { return true }
            switch r {
            case .success(let png):
                path = png
            case .failure(let e) where e.missingIcon:
                if warn { warnings.append(Self.missingIcon(option, p, o)) }
                path = option == "--image" ? nil : ""
                return false
            case .failure(let e):
                if option == "--image" { problem = e; return false }
                if warn { warnings.append("\(e); showing the drawn icon") }
                path = ""
            }
            return true
        }
        for (i, warn) in [(0, true), (1, false)] {
            var o = i == 0 ? options : userOptions
            let named = o.image.map { !$0.hasPrefix("/") } ?? false
            if !use(&o.image, o, option: "--image", warn: warn), problem == nil { Self.showTextAlone(&o) }
            if named, o.tintImage == nil, o.image?.contains("-symbolic") == true { o.tintImage = true }
            _ = use(&o.successImage, o, option: "--success-image", warn: warn)
            _ = use(&o.errorImage, o, option: "--error-image", warn: warn)
            _ = use(&o.infoImage, o, option: "--info-image", warn: warn)
            _ = use(&o.warningImage, o, option: "--warning-image", warn: warn)
            if i == 0 { options = o } else { userOptions = o }
        }
        return problem
    }

    /// Keys the command line set, by any of their spellings (zenity's included).
    private static func givenKeys(_ arguments: [String], _ user: HUDOptions) -> Set<String> {
        // zenity's --progress is a bar with a Cancel button, --percentage a bar.
        let aliases = [
            "text": ["label"], "pulsate": ["mode"], "cancel-label": ["button"], "cancel": ["button"],
            "progress-dialog": ["mode", "button"], "percentage": ["mode"], "attach": ["monitor"],
            "window": ["monitor"], "geometry": ["monitor"],
        ]
        var keys: Set<String> = []
        for a in arguments {
            if a == "--" { break }
            guard a.hasPrefix("--") else { continue }
            var name = String(a.dropFirst(2).prefix { $0 != "=" })
            if OptionTable.settingKeys.kind(of: name) == nil, name.hasPrefix("no-") { name = String(name.dropFirst(3)) }
            keys.formUnion(aliases[name] ?? [name])
        }
        if user.verb?.isNotification == true {
            keys.insert("mode")
            if user.message != nil { keys.insert("label") }
        }
        return keys
    }

}
