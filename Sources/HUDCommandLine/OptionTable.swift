import HUDSystem
import HUDCore
import HUDSettings
import HUDSocket

/// Every long option, once: its kind, range, help, man page text, completion, configuration
/// key and how it applies to a HUD (`OptionSpec`), grouped by subject as `--help` and the man
/// page list them. The groups are in the files named after them (`OptionTable+Content`, ...);
/// the kinds of entry are made here.
package enum OptionTable {
    /// The options by subject, as `--help` and the man page list them.
    package static let groups: [OptionGroup] = [
        content, appearance, configuration, timing, parentRegion, wrapping, notifications, named, zenity,
    ]

    /// Every option, in the order of `--help`.
    package static let all: [OptionSpec] = groups.flatMap(\.options)

    package static let byName: [String: OptionSpec] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    static let images = OptionSpec.Completion.files(["png", "svg", "svgz", "jpg", "jpeg", "gif", "bmp", "webp"])

    /// `--name TEXT`; `check` refuses what the option cannot take.
    static func text(
        _ name: String, _ help: String = "", completion: OptionSpec.Completion = .none, key: SettingSpec? = nil,
        hud: OptionSpec.Applier? = nil, check: (@Sendable (String) throws(UsageError) -> Void)? = nil,
        _ set: @escaping @Sendable (inout HUDOptions, String) -> Void
    ) -> OptionSpec {
        OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                try check?(v)
                set(&o, v)
            }, help: help, completion: completion, setting: key, hud: hud)
    }

    /// `--name NUMBER`, within `range` (in `unit`s) where it has one, else any finite number.
    static func number(
        _ name: String, _ help: String = "", range: ClosedRange<Double>? = nil, unit: String = "", key: SettingSpec? = nil,
        hud: OptionSpec.Applier? = nil, _ set: @escaping @Sendable (inout HUDOptions, Double) -> Void
    ) -> OptionSpec {
        var spec = OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                // Swift's own reading of a Double: "1e3", "inf" and "nan" are numbers (the range
                // refuses them), "12px" and "" are not.
                guard let d = Double(v) else { throw invalid(v, name) }
                try check(name, d, range, unit)
                set(&o, d)
            }, help: help, setting: key, hud: hud)
        spec.range = range
        spec.unit = unit
        return spec
    }

    /// A number within its range: past this point no conversion can trap and no deadline is
    /// out of reach.
    static func check(_ name: String, _ v: Double, _ range: ClosedRange<Double>?, _ unit: String) throws(UsageError) {
        guard let range else {
            guard v.isFinite else { throw UsageError("--\(name) must be a number, got \(v)") }
            return
        }
        guard v.isFinite, range.contains(v) else {
            throw UsageError("--\(name) must be \(Limits.describe(range))\(unit.isEmpty ? "" : " " + unit), got \(v)")
        }
    }

    static func integer(_ name: String, _ set: @escaping @Sendable (inout HUDOptions, Int) -> Void) -> OptionSpec {
        OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                guard let n = Int(v) else { throw invalid(v, name) }
                set(&o, n)
            })
    }

    static func choice<E: RawRepresentable & CaseIterable & Sendable>(
        _ name: String, _ type: E.Type, _ help: String, key: SettingSpec? = nil, hud: OptionSpec.Applier? = nil,
        _ set: @escaping @Sendable (inout HUDOptions, E) -> Void
    ) -> OptionSpec where E.RawValue == String {
        OptionSpec(
            name: name,
            kind: .value { o, v throws(UsageError) in
                guard let e = E(rawValue: v) else {
                    throw UsageError("\(invalid(v, name)). Please provide one of \(E.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")).")
                }
                set(&o, e)
            }, help: help, completion: .choices(E.allCases.map(\.rawValue)), setting: key, hud: hud)
    }

    /// The value is quoted up to 80 characters: a message stays a line whatever was given.
    static func invalid(_ value: String, _ name: String) -> UsageError {
        let shown = value.count > 80 ? String(value.prefix(80)) + "… (\(value.utf8.count) bytes)" : value
        return UsageError("The value '\(shown)' is invalid for '--\(name) <\(name)>'")
    }

    static func flag(_ name: String, _ help: String = "", _ set: @escaping @Sendable (inout HUDOptions, Bool) -> Void) -> OptionSpec {
        OptionSpec(name: name, kind: .flag(set), help: help)
    }

    static func toggle(
        _ name: String, _ help: String, key: SettingSpec? = nil, hud: OptionSpec.Applier? = nil,
        _ set: @escaping @Sendable (inout HUDOptions, Bool) -> Void
    ) -> OptionSpec {
        OptionSpec(name: name, kind: .toggle(set), help: help, setting: key, hud: hud)
    }

    /// One of zenity's options that xhud takes and does nothing with.
    static func ignored(_ name: String, takesValue: Bool, _ help: String = "") -> OptionSpec {
        OptionSpec(name: name, kind: .ignored(takesValue: takesValue), help: help)
    }

    /// How an option that names one property of the HUD applies to it: its value, when given,
    /// becomes the property.
    static func sets<V>(
        _ field: WritableKeyPath<HUDOptions, V?> & Sendable,
        _ property: WritableKeyPath<HUDConfiguration, V> & Sendable
    ) -> OptionSpec.Applier {
        { o, c in if let v = o[keyPath: field] { c[keyPath: property] = v } }
    }

    static func sets<V>(
        _ field: WritableKeyPath<HUDOptions, V?> & Sendable,
        _ property: WritableKeyPath<HUDConfiguration, V?> & Sendable
    ) -> OptionSpec.Applier {
        { o, c in if let v = o[keyPath: field] { c[keyPath: property] = v } }
    }

    /// Seconds as the texts write them.
    static func seconds(_ v: Double) -> String { OptionDefaults.text(v) }
}
