#if canImport(Glibc)
import Glibc
#endif
import TOMLKit

/// One configuration file (or theme), read with TOMLKit: its top-level keys, its `[notification]`,
/// `[wrap]` and `[id.NAME]` sections, and what was wrong with it. A bad value or an unknown key
/// costs that key only (with a warning naming file, line and key); a file that does not parse
/// costs the file (with the parser's line and column).
public struct SettingsFile: Equatable, Sendable {
    public let path: String
    public var top: [Setting] = []
    public var sections: [String: [Setting]] = [:]
    public var warnings: [String] = []

    /// Files larger than this are not configuration files.
    static let maxBytes = 1 << 20

    public init(path: String, text: String, allowsSections: Bool = true, theme: String? = nil) {
        self.path = path
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let e as TOMLParseError {
            warnings.append("\(path):\(e.source.begin.line): \(e.description); the file is ignored")
            return
        } catch {
            warnings.append("\(path): \(error); the file is ignored")
            return
        }
        let lines = KeyLines(text: text)
        func source(_ section: String?, _ key: String) -> SettingSource {
            SettingSource(file: path, line: lines.line(of: key, in: section), theme: theme)
        }
        func read(_ t: TOMLTable, section: String?) -> [Setting] {
            var out: [Setting] = []
            for key in t.keys {
                guard let node = t[key] else { continue }
                let where_ = source(section, key)
                let place = "\(path)\(where_.line.map { ":\($0)" } ?? "")"
                if section == nil, allowsSections, SettingKeys.sections.contains(key), node.table != nil { continue }
                guard SettingKeys.kind(of: key) != nil else {
                    let hint = SettingKeys.sections.contains(key) ? " (a section: write [\(key)])" : ""
                    warnings.append("\(place): unknown key '\(key)'\(hint); ignored")
                    continue
                }
                guard let value = SettingValue(node) else {
                    warnings.append("\(place): '\(key)' has a value of type \(node.type), which no option takes; ignored")
                    continue
                }
                if case .failure(let e) = SettingKeys.arguments(key: key, value: value) {
                    warnings.append("\(place): \(e); ignored")
                    continue
                }
                out.append(Setting(key: key, value: value, source: where_))
            }
            return out.sorted { ($0.source.line ?? 0) < ($1.source.line ?? 0) }
        }
        top = read(table, section: nil)
        guard allowsSections else { return }
        for name in ["notification", "wrap"] {
            if let t = table[name]?.table { sections[name] = read(t, section: name) }
        }
        if let ids = table["id"]?.table {
            for id in ids.keys {
                if let t = ids[id]?.table { sections["id." + id] = read(t, section: "id." + id) }
                else { warnings.append("\(path):\(lines.line(of: id, in: "id") ?? 0): 'id.\(id)' must be a section, [id.\(id)]; ignored") }
            }
        }
    }

    /// The file at `path`; nil when there is none. Unreadable or oversized files are a warning.
    public static func load(path: String, allowsSections: Bool = true, theme: String? = nil) -> SettingsFile? {
        switch FileText.read(path, limit: maxBytes) {
        case .missing: return nil
        case .failed(let why):
            var f = SettingsFile(path: path, text: "", allowsSections: allowsSections, theme: theme)
            f.warnings.append("\(path): \(why); the file is ignored")
            return f
        case .text(let text):
            return SettingsFile(path: path, text: text, allowsSections: allowsSections, theme: theme)
        }
    }
}

extension SettingValue {
    init?(_ node: TOMLValueConvertible) {
        if let s = node.string { self = .string(s) }
        else if let b = node.bool { self = .bool(b) }
        else if let i = node.int { self = .number(Double(i)) }
        else if let d = node.double { self = .number(d) }
        else if let a = node.array {
            var items: [SettingValue] = []
            for item in a {
                guard let v = SettingValue(item) else { return nil }
                items.append(v)
            }
            self = .list(items)
        } else { return nil }
    }
}

/// Where each key of each section sits: TOMLKit gives a parse error's position but not a value's,
/// and a warning about a value should name its line.
struct KeyLines {
    private var lines: [String: Int] = [:]

    init(text: String) {
        var section = ""
        var number = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[") {
                let name = line.dropFirst().prefix { $0 != "]" }
                section = Self.unquote(name.split(separator: ".").map { Self.unquote(String($0).trimmed) }.joined(separator: "."))
                continue
            }
            guard let eq = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            let key = Self.unquote(String(line[..<eq]).trimmed)
            let full = section.isEmpty ? key : section + "." + key
            if lines[full] == nil { lines[full] = number }
        }
    }

    func line(of key: String, in section: String?) -> Int? {
        lines[section.map { $0 + "." + key } ?? key]
    }

    private static func unquote(_ s: String) -> String {
        s.count >= 2 && (s.hasPrefix("\"") && s.hasSuffix("\"") || s.hasPrefix("'") && s.hasSuffix("'"))
            ? String(s.dropFirst().dropLast()) : s
    }
}

extension StringProtocol {
    var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}

/// Small text files read without blocking on a FIFO or reading without bound.
enum FileText {
    enum Result { case missing, failed(String), text(String) }

    static func read(_ path: String, limit: Int) -> Result {
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
    static func stamp(_ path: String) -> [Int] {
        var st = stat()
        guard stat(path, &st) == 0 else { return [] }
        return [Int(st.st_dev), Int(st.st_ino), Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)]
    }
}
