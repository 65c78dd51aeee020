/// A parsed settings file as lines of text, from `xhud-config` to the processes that use it:
///
///     W <warning>
///     T <key> <line> <value>              a top-level setting
///     S <section> <key> <line> <value>    a section's
///
/// fields separated by tabs, each escaped (`\\`, `\t`, `\n`); a value is `s:TEXT`, `n:NUMBER`,
/// `b:1`/`b:0` or `l:` and items separated by `\u{1F}`. Anything else makes the whole text
/// invalid (then it is read again).
extension SettingsFile {
    static let format = 1

    public var serialized: String {
        var out = ""
        for w in warnings { out += "W\t" + w.escapedField + "\n" }
        func line(_ s: Setting) -> String { "\(s.key.escapedField)\t\(s.source.line ?? 0)\t\(s.value.encoded.escapedField)\n" }
        for s in top { out += "T\t" + line(s) }
        for name in sections.keys.sorted() { for s in sections[name]! { out += "S\t\(name.escapedField)\t" + line(s) } }
        return out
    }

    public init?(serialized text: String, path: String) {
        self.init(path: path)
        for raw in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let f = raw.split(separator: "\t", omittingEmptySubsequences: false).map { String($0).unescapedField }
            func setting(_ i: Int) -> Setting? {
                guard f.count == i + 3, let line = Int(f[i + 1]), let value = SettingValue(encoded: f[i + 2]) else { return nil }
                return Setting(key: f[i], value: value, source: SettingSource(file: path, line: line > 0 ? line : nil))
            }
            switch f.first {
            case "W" where f.count == 2: warnings.append(f[1])
            case "T": guard let s = setting(1) else { return nil }; top.append(s)
            case "S" where f.count > 1: guard let s = setting(2) else { return nil }; sections[f[1], default: []].append(s)
            default: return nil
            }
        }
    }

    /// Names the theme in every setting's source (`theme sv-dark (…/sv-dark.toml:3)`).
    mutating func setTheme(_ name: String?) {
        guard let name else { return }
        top = top.map { Setting(key: $0.key, value: $0.value, source: SettingSource(file: $0.source.file, line: $0.source.line, theme: name)) }
    }
}

extension SettingValue {
    var encoded: String {
        switch self {
        case .string(let s): return "s:" + s
        case .number(let n): return "n:" + String(n)
        case .bool(let b): return b ? "b:1" : "b:0"
        case .list(let l): return "l:" + l.map(\.encoded).joined(separator: "\u{1F}")
        }
    }

    init?(encoded e: String) {
        let body = String(e.dropFirst(2))
        switch e.prefix(2) {
        case "s:": self = .string(body)
        case "n:": guard let n = Double(body) else { return nil }; self = .number(n)
        case "b:": self = .bool(body == "1")
        case "l:":
            if body.isEmpty { self = .list([]); return }
            var items: [SettingValue] = []
            for part in body.split(separator: "\u{1F}", omittingEmptySubsequences: false) {
                guard let v = SettingValue(encoded: String(part)), !String(part).hasPrefix("l:") else { return nil }
                items.append(v)
            }
            self = .list(items)
        default: return nil
        }
    }
}

extension String {
    var escapedField: String {
        escaping { u in
            switch u {
            case "\\": return "\\\\"
            case "\t": return "\\t"
            case "\n": return "\\n"
            case "\r": return "\\r"
            default: return nil
            }
        }
    }

    var unescapedField: String {
        var out = ""
        var escaping = false
        for c in unicodeScalars {
            if escaping {
                switch c {
                case "t": out += "\t"
                case "n": out += "\n"
                case "r": out += "\r"
                default: out.unicodeScalars.append(c)
                }
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
