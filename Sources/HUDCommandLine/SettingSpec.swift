import HUDSystem
import HUDCore
import HUDSettings
import HUDSocket

extension OptionTable {
    /// The configuration's keys: the options that have one, `theme` first, then in `--help`'s
    /// order (which `--print-config` follows).
    package static let settingKeys = SettingKeys(
        all.filter { $0.name == "theme" }.compactMap(\.settingKey) + all.filter { $0.name != "theme" }.compactMap(\.settingKey))

    /// Gives a setting's value to its option, as the command line would give it: the entry checks
    /// it (a number's range) as it checks the command line's.
    package static func apply(_ setting: Setting, to options: inout HUDOptions) throws(UsageError) {
        guard let spec = byName[setting.key], spec.setting != nil else { throw UsageError("unknown key '\(setting.key)'") }
        let argument: SettingKeys.Argument
        switch settingKeys.argument(key: setting.key, value: setting.value) {
        case .success(let a): argument = a
        case .failure(let e): throw UsageError(e.description)
        }
        switch (spec.kind, argument) {
        case (.toggle(let set), .flag(let on)): set(&options, on)
        case (.value(let set), .text(let text)): try set(&options, text)
        default: throw UsageError("'\(setting.key)' cannot take \(setting.value)")
        }
    }
}

extension OptionSpec {
    fileprivate var settingKey: (name: String, kind: SettingKeys.Kind)? { setting.map { (name, $0.kind) } }
}

/// An option that is a configuration key too: the kind of value a file gives it, and how
/// `--print-config` reads the value in effect from the HUD's configuration and the options.
package struct SettingSpec: Sendable {
    package let kind: SettingKeys.Kind
    package let read: @Sendable (HUDConfiguration, HUDOptions) -> SettingValue?

    static func text(_ read: @escaping @Sendable (HUDConfiguration, HUDOptions) -> String?) -> SettingSpec {
        SettingSpec(kind: .text) { read($0, $1).map { .string($0) } }
    }
    static func number(_ read: @escaping @Sendable (HUDConfiguration, HUDOptions) -> Double?) -> SettingSpec {
        SettingSpec(kind: .number) { read($0, $1).map { .number($0) } }
    }
    static func flag(_ read: @escaping @Sendable (HUDConfiguration, HUDOptions) -> Bool?) -> SettingSpec {
        SettingSpec(kind: .flag) { read($0, $1).map { .bool($0) } }
    }
    /// Two numbers, written with `separator` on the command line ("0,200", "120x120").
    static func pair(_ separator: String, _ read: @escaping @Sendable (HUDConfiguration, HUDOptions) -> [Double]) -> SettingSpec {
        SettingSpec(kind: .pair(separator: separator)) { .list(read($0, $1).map { .number($0) }) }
    }
}

extension HUDMask {
    /// As `--mask` and the `mask` key spell it.
    var settingText: String {
        switch self {
        case .none: return "none"
        case .clear: return "clear"
        case .black: return "black"
        case .gradient: return "gradient"
        case .color(let v): return v.description
        case .blur(let v): return v.a == 0 ? "blur" : "blur:" + v.description
        }
    }
}
