#if canImport(Glibc)
import Glibc
#endif

/// One configuration file (or theme): its top-level keys, its `[notification]`, `[wrap]` and
/// `[id.NAME]` sections, and what was wrong with it. A bad value or an unknown key costs that
/// key only (with a warning naming file, line and key); a file that does not parse costs the
/// file (with the parser's line). Parsed with TOMLKit in `HUDSettingsTOML`.
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

    /// The file at `path`; nil when there is none. Parsed by `xhud-config` (TOMLKit, which
    /// brings Foundation and ICU: 50 MB and 4 ms at every start of a process that links it),
    /// once per version of the file: the result is kept in a private cache, so an invocation
    /// reads a few lines of text, and a server stats the file.
    public static func load(path: String, allowsSections: Bool = true, theme: String? = nil) -> SettingsFile? {
        SettingsReader.read(path: path, allowsSections: allowsSections, theme: theme)
    }
}

