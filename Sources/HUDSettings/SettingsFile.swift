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

/// Small text files read without blocking on a FIFO or reading without bound.
public enum FileText {
    public enum Result { case missing, failed(String), text(String) }

    public static func read(_ path: String, limit: Int) -> Result {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .failed(String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failed(String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failed("not a regular file") }
        guard Int(st.st_size) <= limit else { return .failed("larger than \(limit >> 10) KB") }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        return .text(String(decoding: bytes[0..<got], as: UTF8.self))
    }

    /// Identity of a file's current contents (device, inode, size, modification time), to
    /// notice that it changed without reading it.
    public static func stamp(_ path: String) -> [Int] {
        var st = stat()
        guard stat(path, &st) == 0 else { return [] }
        return [Int(st.st_dev), Int(st.st_ino), Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)]
    }
}
