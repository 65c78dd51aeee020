import HUDSystem
import HUDCore
import HUDSettings
import HUDSocket

/// One long option: what it sets in `HUDOptions` (checking the value's range as it parses it),
/// how `--help`, the completions and the man page describe it, and, when a configuration file
/// may set it too, its key's kind and how `--print-config` reads the value in effect. Adding an
/// option is adding one of these (and the field it sets).
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
        /// zenity's options that xhud takes so that its scripts run, and does nothing with: the
        /// value, if any, is consumed and nothing is stored.
        case ignored(takesValue: Bool)
    }
    package let name: String
    package let kind: Kind
    /// The option's help, in which `{default}` and `{range}` stand for the entry's own (see
    /// `helpText`); empty for the hidden ones (zenity's options xhud takes and ignores, the
    /// tests' own), listed by `--help-hidden` alone.
    package var help = ""
    package var completion = Completion.none
    /// The configuration key of the same name; nil for options of one invocation only.
    package var setting: SettingSpec?
    /// How the option applies to a HUD when it names one property of it (`hudConfiguration`
    /// applies these in the table's order); nil for the rest (what they mean together, or
    /// nothing of a HUD's look).
    package typealias Applier = @Sendable (HUDOptions, inout HUDConfiguration) -> Void
    package var hud: Applier?
    /// The values a number may take (checked as it is parsed, from the command line and the
    /// configuration alike), and their unit in messages ("seconds").
    package var range: ClosedRange<Double>?
    package var unit = ""
    /// The man page's name for the value, in `ManualMarkup` ("pixels", "*file*|*name*"); nil: the
    /// unit, else the option's name.
    package var placeholder: String?
    /// The man page's text, in `ManualMarkup`, with the placeholders of `help`; nil: the help.
    /// Empty: described with the next option (one item, both named).
    package var manual: String?

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

    /// Whether the option takes the next argument (or `=VALUE`) as its value.
    package var takesValue: Bool {
        switch kind {
        case .value, .ignored(takesValue: true): return true
        case .flag, .toggle, .ignored: return false
        }
    }

    package var isIgnored: Bool {
        if case .ignored = kind { return true }
        return false
    }

    /// `--name <name>`, `--name/--no-name`, `--name`.
    package var synopsis: String {
        if case .toggle = kind { return "--\(name)/--no-\(name)" }
        return takesValue ? "--\(name) <\(name)>" : "--\(name)"
    }

    /// How the option is written in help and completions: `--name`, `--name/--no-name`.
    package var spellings: [String] {
        if case .toggle = kind { return ["--\(name)", "--no-\(name)"] }
        return ["--\(name)"]
    }

    /// The help as `--help` shows it, its placeholders filled in.
    package var helpText: String { filled(help) }

    /// The man page's text (`ManualMarkup`), its placeholders filled in.
    package var manualText: String { filled(manual ?? help) }

    /// The default a text states: the value `--print-config` reads when nothing sets it (a
    /// switch's as on or off), else `defaultText`.
    package var defaultValue: String? {
        switch setting?.read(HUDConfiguration(), HUDOptions()) {
        case .bool(let on)?: return on ? "on" : "off"
        case let v?: return v.optionText(separator: ",")
        case nil: return nil
        }
    }

    /// "0.5 to 64".
    package var rangeText: String? { range.map { "\(Limits.format($0.lowerBound)) to \(Limits.format($0.upperBound))" } }

    /// `{default}` and `{range}` replaced by the entry's own, so that no text restates a number
    /// the code holds; a placeholder the entry has no value for stays, for the tests to find.
    private func filled(_ text: String) -> String {
        guard text.contains("{") else { return text }
        var out = text
        if out.contains("{default}"), let d = defaultValue { out = out.replacing("{default}", with: d) }
        if let r = rangeText { out = out.replacing("{range}", with: r) }
        return out
    }
}

extension OptionSpec {
    /// The entry with the man page's name for its value and its text (`ManualMarkup`).
    package func man(value: String? = nil, _ text: String? = nil) -> OptionSpec {
        var o = self
        if let value { o.placeholder = value }
        if let text { o.manual = text }
        return o
    }
}
