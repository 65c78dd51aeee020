import HUDSystem
import HUDCore
import HUDSettings
import HUDSocket

/// One long option: what it sets in `HUDOptions`, how `--help` and the completions describe it,
/// and, when a configuration file may set it too, its key's kind and how `--print-config` reads
/// the value in effect. Adding an option is adding one of these (and the field it sets).
package struct OptionSpec: Sendable {
    /// What a shell offers for the option's value.
    package enum Completion: Sendable, Equatable {
        case none
        /// One of these words.
        case choices([String])
        /// A file, ending with one of these extensions.
        case files([String])
    }
    package enum Kind: Sendable {
        /// `--name VALUE`: the setter checks and stores the value.
        case value(@Sendable (inout HUDOptions, String) throws(UsageError) -> Void)
        /// `--name`: sets true.
        case flag(@Sendable (inout HUDOptions, Bool) -> Void)
        /// `--name` / `--no-name`.
        case toggle(@Sendable (inout HUDOptions, Bool) -> Void)
    }
    package let name: String
    package let kind: Kind
    /// The option's help; empty for the hidden ones (zenity's options xhud takes and ignores,
    /// the tests' own), listed by `--help-hidden` alone.
    package var help = ""
    package var completion = Completion.none
    /// The configuration key of the same name; nil for options of one invocation only.
    package var setting: SettingSpec?
    /// How the option applies to a HUD when it names one property of it (`hudConfiguration`
    /// applies these in the table's order); nil for the rest (what they mean together, or
    /// nothing of a HUD's look).
    package typealias Applier = @Sendable (HUDOptions, inout HUDConfiguration) -> Void
    package var hud: Applier?

    package init(
        name: String, kind: Kind, help: String = "", completion: Completion = .none, setting: SettingSpec? = nil,
        hud: Applier? = nil
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.completion = completion
        self.setting = setting
        self.hud = hud
    }

    package var isHidden: Bool { help.isEmpty }

    /// `--name <name>`, `--name/--no-name`, `--name`.
    package var synopsis: String {
        switch kind {
        case .value: return "--\(name) <\(name)>"
        case .flag: return "--\(name)"
        case .toggle: return "--\(name)/--no-\(name)"
        }
    }

    /// How the option is written in help and completions: `--name`, `--name/--no-name`.
    package var spellings: [String] {
        if case .toggle = kind { return ["--\(name)", "--no-\(name)"] }
        return ["--\(name)"]
    }
}
