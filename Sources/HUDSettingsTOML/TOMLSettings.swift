import HUDSettings
import TOMLKit

extension SettingsFile {
    /// Parses TOML text (with TOMLKit). Lines of values come from `KeyLines`: TOMLKit gives a
    /// parse error's position but not a value's.
    public init(path: String, text: String, allowsSections: Bool = true, theme: String? = nil) {
        self.init(path: path)
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


