/// One value from a configuration file or a theme, and where it came from.
package struct Setting: Equatable, Sendable {
    package let key: String
    package let value: SettingValue
    package let source: SettingSource

    package init(key: String, value: SettingValue, source: SettingSource) {
        self.key = key
        self.value = value
        self.source = source
    }
}

package enum SettingValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case list([SettingValue])

    /// As TOML writes it (`--print-config` prints a file that can be read back).
    package var description: String {
        switch self {
        case .string(let s): return "\"" + s.tomlEscaped + "\""
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        case .list(let l): return "[" + l.map(\.description).joined(separator: ", ") + "]"
        }
    }

    /// The text an option takes: numbers without a needless ".0", lists joined with `separator`.
    package func optionText(separator: String) -> String {
        switch self {
        case .string(let s): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        case .list(let l): return l.map { $0.optionText(separator: separator) }.joined(separator: separator)
        }
    }
}

/// A file and line (a theme's name too), or the command line, or xhud's own default.
package struct SettingSource: Equatable, Sendable, CustomStringConvertible {
    package var file: String?
    package var line: Int?
    package var theme: String?

    package init(file: String? = nil, line: Int? = nil, theme: String? = nil) {
        self.file = file
        self.line = line
        self.theme = theme
    }

    package static let commandLine = SettingSource()

    package var description: String {
        guard let file else { return "command line" }
        let place = line.map { "\(file):\($0)" } ?? file
        return theme.map { "theme \($0) (\(place))" } ?? place
    }
}

extension String {
    /// Each scalar that `replacement` names replaced, the rest kept.
    func escaping(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        for u in unicodeScalars {
            if let r = replacement(u) { out += r } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// A TOML basic string's body: quotes, backslashes and control characters escaped.
    var tomlEscaped: String {
        escaping { u in
            switch u {
            case "\"": return "\\\""
            case "\\": return "\\\\"
            case "\n": return "\\n"
            case "\t": return "\\t"
            case "\r": return "\\r"
            default:
                guard u.value < 0x20 || u.value == 0x7F else { return nil }
                let hex = String(u.value, radix: 16, uppercase: true)
                return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
    }
}
