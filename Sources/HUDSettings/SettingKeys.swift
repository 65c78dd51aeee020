/// The keys a configuration file or theme may hold and the kind of value each takes: the options
/// that describe how HUDs look, time themselves and where they go. The list is the option table's
/// (`OptionTable.settingKeys`: the entries that have a key); per-invocation options
/// (`--progress`, `--id`, `--window`, `--geometry`, a wrapped command) are not among them.
package struct SettingKeys: Equatable, Sendable {
    package enum Kind: Sendable, Equatable {
        case text
        case number
        /// `true` or `false`: the option's `--KEY` or `--no-KEY`.
        case flag
        /// A pair of numbers, as an array or as the option writes it ("0,200", "120x120").
        case pair(separator: String)
    }

    /// A setting's value as its option takes it.
    package enum Argument: Equatable, Sendable {
        /// `--KEY` (true) or `--no-KEY` (false).
        case flag(Bool)
        /// `--KEY=TEXT`.
        case text(String)
    }

    /// In the order `--print-config` lists them.
    package let names: [String]
    private let kinds: [String: Kind]

    package init(_ keys: [(name: String, kind: Kind)]) {
        names = keys.map(\.name)
        kinds = Dictionary(keys.map { ($0.name, $0.kind) }, uniquingKeysWith: { a, _ in a })
    }

    package func kind(of key: String) -> Kind? { kinds[key] }

    /// The sections a file may hold besides its top level.
    package static let sections = ["notification", "wrap", "id", "rule"]

    /// What `value` gives `key`'s option, or why it cannot.
    package func argument(key: String, value: SettingValue) -> Result<Argument, SettingError> {
        guard let kind = kinds[key] else { return .failure(SettingError("unknown key '\(key)'")) }
        switch (kind, value) {
        case (.flag, .bool(let on)):
            return .success(.flag(on))
        case (.flag, _):
            return .failure(SettingError("'\(key)' must be true or false, got \(value)"))
        case (.number, .number):
            return .success(.text(value.optionText(separator: "")))
        case (.number, _):
            return .failure(SettingError("'\(key)' must be a number, got \(value)"))
        case (.text, .string(let s)):
            return .success(.text(s))
        case (.text, .number), (.text, .bool):
            // `label = 5`, `mask = false`: the text the user meant.
            return .success(.text(value.optionText(separator: "")))
        case (.text, .list):
            return .failure(SettingError("'\(key)' must be a string, got \(value)"))
        case (.pair(let sep), .list(let l)):
            guard l.count == 2, l.allSatisfy({ if case .number = $0 { return true } else { return false } }) else {
                return .failure(SettingError("'\(key)' must be two numbers, e.g. [0, 200], got \(value)"))
            }
            return .success(.text(value.optionText(separator: sep)))
        case (.pair, .string(let s)):
            return .success(.text(s))
        case (.pair, _):
            return .failure(SettingError("'\(key)' must be two numbers, e.g. [0, 200], got \(value)"))
        }
    }
}

package struct SettingError: Error, Equatable, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}
