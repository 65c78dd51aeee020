import HUDSystem
/// Every configuration file that applies, and the defaults they give one invocation.
///
/// Precedence, lowest first: xhud's built-in defaults; the theme in effect (the last one named:
/// the command line's, else a section's, else the top level's); each file's top level (the
/// system's under the user's); the sections that match the invocation (`[wrap]`,
/// `[notification]`, then `[id.NAME]`); the command line.
package struct Settings: Equatable, Sendable {
    package let files: [SettingsFile]
    /// The keys the files may hold, in the order of their settings.
    package let keys: SettingKeys
    /// Warnings about the files (each once per version of the files).
    package var warnings: [String] { files.flatMap(\.warnings) }

    package init(files: [SettingsFile], keys: SettingKeys) {
        self.files = files
        self.keys = keys
    }

    /// `path` alone (`--config`), else the XDG configuration files.
    package static func load(path: String? = nil, keys: SettingKeys) -> Settings {
        let paths = path.map { [$0] } ?? Locations.configFiles
        var files: [SettingsFile] = []
        for p in paths {
            if let f = SettingsFile.load(path: p, keys: keys) {
                files.append(f)
            } else if path != nil {
                files.append(SettingsFile(path: p, warnings: ["\(p): no such file"]))
            }
        }
        return Settings(files: files, keys: keys)
    }

    /// What the invocation is, for choosing sections.
    package struct Kind: Equatable, Sendable {
        package var wrapsCommand = false
        package var isNotification = false
        package var id: String?
        /// Another program's notification, by what rules match (`Rule.matchable`).
        package var notification: [String: String]?
        package init(
            wrapsCommand: Bool = false, isNotification: Bool = false, id: String? = nil,
            notification: [String: String]? = nil
        ) {
            self.wrapsCommand = wrapsCommand
            self.isNotification = isNotification
            self.id = id
            self.notification = notification
        }
        var sections: [String] {
            (wrapsCommand ? ["wrap"] : []) + (isNotification ? ["notification"] : []) + (id.map { ["id." + $0] } ?? [])
        }
    }

    package struct Resolution: Equatable, Sendable {
        /// The winning setting of each key, in the keys' order.
        package var settings: [Setting] = []
        package var theme: Theme?
        /// The theme named could not be loaded (the built-in look applies meanwhile).
        package var themeError: SettingError?
        package var warnings: [String] = []
    }

    /// The settings for an invocation of `kind`; `commandLineTheme` is `--theme`.
    package func resolve(_ kind: Kind, commandLineTheme: String? = nil) -> Resolution {
        var layers: [[Setting]] = []
        for f in files { layers.append(f.top) }
        for section in kind.sections { for f in files { if let s = f.sections[section] { layers.append(s) } } }
        if let facts = kind.notification {
            for f in files { for r in f.rules where r.matches(facts) { layers.append(r.settings) } }
        }
        var winners: [String: Setting] = [:]
        for layer in layers { for s in layer { winners[s.key] = s } }
        var out = Resolution()
        let themeName: String?
        if let t = commandLineTheme {
            themeName = t
        } else if case .string(let t)? = winners["theme"]?.value {
            themeName = t
        } else {
            themeName = nil
        }
        if let name = themeName, !name.isEmpty, name != "default" {
            switch Theme.load(name, keys: keys) {
            case .success(let theme):
                out.theme = theme
                out.warnings += theme.file.warnings
                for s in theme.file.top where winners[s.key] == nil { winners[s.key] = s }
            case .failure(let e):
                out.themeError = e
                out.warnings.append("\(e); using the built-in look")
            }
        }
        out.settings = keys.names.compactMap { winners[$0] }
        return out
    }
}

/// A theme: a file of the same keys as the configuration (no sections), found by name in the
/// user's `xhud/themes`, the system's, then xhud's data; or a path.
package struct Theme: Equatable, Sendable {
    package let name: String
    package let file: SettingsFile

    package static var searchPath: [String] {
        (Locations.configHome.map { [$0 + "/xhud/themes"] } ?? []) + Locations.configDirs.map { $0 + "/xhud/themes" }
            + (Locations.dataDirectory.map { [$0 + "/themes"] } ?? [])
    }

    package static func load(_ name: String, keys: SettingKeys) -> Result<Theme, SettingError> {
        let candidates = name.contains("/") ? [name] : searchPath.map { $0 + "/" + name + ".toml" }
        for path in candidates {
            guard let file = SettingsFile.load(path: path, keys: keys, allowsSections: false, theme: name) else { continue }
            if file.top.isEmpty && !file.warnings.isEmpty {
                return .failure(SettingError(file.warnings.joined(separator: "; ")))
            }
            return .success(Theme(name: name, file: file))
        }
        let found = available
        let hint = Suggestion.hint(for: name, among: found)
        return .failure(
            SettingError(
                "no theme '\(name)'\(hint) (looked in \(candidates.joined(separator: ", ")); "
                    + (found.isEmpty
                        ? "no themes found: install xhud's data, share/xhud/themes, beside its binaries or in $XDG_DATA_HOME/xhud)"
                        : "installed: \(found.joined(separator: ", ")))")))
    }

    /// The names of the themes found on the search path.
    package static var available: [String] {
        var names: [String] = []
        for dir in searchPath {
            for n in Directory.names(at: dir) where n.hasSuffix(".toml") {
                let name = String(n.dropLast(5))
                if !names.contains(name) { names.append(name) }
            }
        }
        return names.sorted()
    }
}

/// Caches `Settings.load` for a long-running server: the files are read again only when one of
/// them changed (a stat each request, no read), and each warning is given once per version.
package final class SettingsCache {
    private var stamps: [[Int]] = []
    private var cached: Settings?
    private var given: Set<String> = []
    /// The `--config` file; nil for the XDG ones.
    package let path: String?
    package let keys: SettingKeys
    /// Bumped whenever the files changed since the last `current()`.
    package private(set) var generation = 0

    package init(path: String? = nil, keys: SettingKeys) {
        self.path = path
        self.keys = keys
    }

    package func current() -> Settings {
        if isCurrent, let c = cached { return c }
        return install(Self.read(path: path, keys: keys))
    }

    /// Whether `current()` answers without reading a file: the files are as they were read
    /// (a stat each).
    package var isCurrent: Bool { cached != nil && Self.stamps(path) == stamps }

    /// Whether none of its files is there (a stat each): reading them parses nothing.
    package var filesAbsent: Bool { Self.stamps(path).allSatisfy(\.isEmpty) }

    /// Reads the files as `current()` of the cache of `path` would, without touching a cache: on
    /// any thread (a file not parsed before runs the TOML reader, which may take its time);
    /// `install` then keeps the result, on the cache's own thread.
    package static func read(path: String?, keys: SettingKeys) -> (settings: Settings, stamps: [[Int]]) {
        let now = Self.stamps(path)  // before: a file changed while it is read is read again
        return (Settings.load(path: path, keys: keys), now)
    }

    @discardableResult
    package func install(_ r: (settings: Settings, stamps: [[Int]])) -> Settings {
        if cached != nil { generation += 1 }
        cached = r.settings
        stamps = r.stamps
        given = []
        return r.settings
    }

    private static func stamps(_ path: String?) -> [[Int]] {
        (path.map { [$0] } ?? Locations.configFiles).map(FileText.stamp)
    }

    /// The warnings not given yet for this version of the files.
    package func unseen(_ warnings: [String]) -> [String] {
        warnings.filter { given.insert($0).inserted }
    }
}
