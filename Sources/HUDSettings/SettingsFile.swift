#if canImport(Glibc)
import Glibc
#endif

/// One configuration file (or theme): its top-level keys, its `[notification]`, `[wrap]`,
/// `[id.NAME]` and `[rule.NAME]` sections, and what was wrong with it. A bad value or an unknown key costs that
/// key only (with a warning naming file, line and key); a file that does not parse costs the
/// file (with the parser's line and column). Parsed with `HUDTOML`.
package struct SettingsFile: Equatable, Sendable {
    package let path: String
    package var top: [Setting] = []
    package var sections: [String: [Setting]] = [:]
    /// `[rule.NAME]` sections, in the file's order.
    package var rules: [Rule] = []
    package var warnings: [String] = []

    /// Files larger than this are not configuration files.
    package static let maxBytes = 1 << 20

    package init(path: String, top: [Setting] = [], sections: [String: [Setting]] = [:], warnings: [String] = []) {
        self.path = path
        self.top = top
        self.sections = sections
        self.warnings = warnings
    }

    /// The file at `path`; nil when there is none. Read and parsed in this process (`HUDTOML`:
    /// microseconds for a configuration file); a server keeps the result until the file's
    /// stamp changes (`SettingsCache`).
    package static func load(path: String, keys: SettingKeys, allowsSections: Bool = true, theme: String? = nil) -> SettingsFile? {
        SettingsReader.read(path: path, keys: keys, allowsSections: allowsSections, theme: theme)
    }
}
