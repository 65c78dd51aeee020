#if canImport(Glibc)
import Glibc
#endif

/// One configuration file (or theme): its top-level keys, its `[notification]`, `[wrap]` and
/// `[id.NAME]` sections, and what was wrong with it. A bad value or an unknown key costs that
/// key only (with a warning naming file, line and key); a file that does not parse costs the
/// file (with the parser's line and column). Parsed with `HUDTOML`.
public struct SettingsFile: Equatable, Sendable {
    public let path: String
    public var top: [Setting] = []
    public var sections: [String: [Setting]] = [:]
    public var warnings: [String] = []

    /// Files larger than this are not configuration files.
    public static let maxBytes = 1 << 20

    public init(path: String, top: [Setting] = [], sections: [String: [Setting]] = [:], warnings: [String] = []) {
        self.path = path
        self.top = top
        self.sections = sections
        self.warnings = warnings
    }

    /// The file at `path`; nil when there is none. Read and parsed in this process (`HUDTOML`:
    /// microseconds for a configuration file); a server keeps the result until the file's
    /// stamp changes (`SettingsCache`).
    public static func load(path: String, allowsSections: Bool = true, theme: String? = nil) -> SettingsFile? {
        SettingsReader.read(path: path, allowsSections: allowsSections, theme: theme)
    }
}

