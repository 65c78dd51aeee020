/// The keys a configuration file or theme may hold: the long names of the options that describe
/// how HUDs look, time themselves and where they go. Per-invocation options (`--progress`,
/// `--id`, `--window`, `--geometry`, a wrapped command) are not among them.
package enum SettingKeys {
    package enum Kind: Sendable, Equatable {
        case text
        case number
        /// `true` gives `--KEY`, `false` gives `--no-KEY`.
        case flag
        /// A pair of numbers, as an array or as the option writes it ("0,200", "120x120").
        case pair(separator: String)
    }

    /// In the order `--print-config` lists them.
    package static let all: [(name: String, kind: Kind)] = [
        ("theme", .text),
        ("mode", .text), ("spinner", .text), ("label", .text), ("details", .text), ("button", .text),
        ("image", .text), ("image-size", .number), ("tint-image", .flag),
        ("success-image", .text), ("error-image", .text), ("info-image", .text), ("warning-image", .text),
        ("ring-thickness", .number), ("ring-radius", .number), ("show-value", .flag),
        ("alternate-color", .text), ("markup", .flag), ("smooth", .flag),
        ("style", .text), ("bezel-color", .text), ("content-color", .text), ("mask", .text),
        ("shadow", .flag), ("blur", .number),
        ("margin", .number), ("spacing", .number), ("corner-radius", .number),
        ("min-size", .pair(separator: "x")), ("square", .flag), ("offset", .pair(separator: ",")),
        ("max-text-width", .number),
        ("font", .text), ("details-font", .text),
        ("animation", .text), ("fade-in", .number), ("fade-out", .number), ("grace", .number), ("min-show", .number), ("hide-after", .number),
        ("min-duration", .number), ("max-duration", .number), ("click-through", .flag),
        ("monitor", .text), ("scale", .number),
        ("result-time", .number), ("kill-timeout", .number), ("progress-from-output", .flag),
        ("linger", .number), ("notifications", .flag), ("icon-theme", .text),
    ]

    private static let kinds: [String: Kind] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0.kind) })

    package static func kind(of key: String) -> Kind? { kinds[key] }

    /// The sections a file may hold besides its top level.
    package static let sections = ["notification", "wrap", "id"]

    /// The command-line arguments that give `value` to `key`, or why it cannot.
    package static func arguments(key: String, value: SettingValue) -> Result<[String], SettingError> {
        guard let kind = kinds[key] else { return .failure(SettingError("unknown key '\(key)'")) }
        switch (kind, value) {
        case (.flag, .bool(let on)):
            return .success([on ? "--\(key)" : "--no-\(key)"])
        case (.flag, _):
            return .failure(SettingError("'\(key)' must be true or false, got \(value)"))
        case (.number, .number(let n)):
            return .success(["--\(key)=\(SettingValue.number(n).optionText(separator: ""))"])
        case (.number, _):
            return .failure(SettingError("'\(key)' must be a number, got \(value)"))
        case (.text, .string(let s)):
            return .success(["--\(key)=\(s)"])
        case (.text, .number), (.text, .bool):
            // `label = 5`, `mask = false`: the text the user meant.
            return .success(["--\(key)=\(value.optionText(separator: ""))"])
        case (.text, .list):
            return .failure(SettingError("'\(key)' must be a string, got \(value)"))
        case (.pair(let sep), .list(let l)):
            guard l.count == 2, l.allSatisfy({ if case .number = $0 { return true } else { return false } }) else {
                return .failure(SettingError("'\(key)' must be two numbers, e.g. [0, 200], got \(value)"))
            }
            return .success(["--\(key)=\(value.optionText(separator: sep))"])
        case (.pair, .string(let s)):
            return .success(["--\(key)=\(s)"])
        case (.pair, _):
            return .failure(SettingError("'\(key)' must be two numbers, e.g. [0, 200], got \(value)"))
        }
    }
}

package struct SettingError: Error, Equatable, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
