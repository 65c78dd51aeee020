import HUDSystem
import HUDCore
import HUDSettings
import HUDSocket

/// The command line's parser: a table of long options, each with what it sets. It runs for every
/// HUD the server shows (and again with the configuration's settings before the command line),
/// so it is a loop over the arguments and a dictionary look-up each, with no reflection, no
/// metadata to instantiate and no Foundation. The same table describes the options for `--help`
/// and the shell completions (`HelpText`, `Completions`).
///
/// As `getopt_long`: `--name VALUE` or `--name=VALUE`; an option that takes a value takes the
/// next argument whatever it looks like; a repeated option's last value wins (so the command
/// line overrides the settings placed before it); `--flag` / `--no-flag` for switches; words
/// that are not options are the verb, then the notification's text; everything after `--` is the
/// command to wrap. zenity's options that xhud does nothing with are taken (with their value)
/// and ignored.
extension HUDOptions {
    /// `base`: what the configuration's settings gave (`OptionTable.apply`); the command line
    /// goes over it.
    package static func parse(_ arguments: [String], over base: HUDOptions = HUDOptions()) throws(UsageError) -> HUDOptions {
        var o = base
        var positionals = 0
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if a == "--" {
                o.command = Array(arguments[i...])
                break
            }
            guard a.hasPrefix("-"), a.count > 1 else {
                switch positionals {
                case 0:
                    guard let v = Verb(rawValue: a) else {
                        let verbs = Verb.allCases.map(\.rawValue)
                        throw UsageError("unknown verb '\(a)' (expected \(verbs.joined(separator: ", ")))\(Suggestion.hint(for: a, among: verbs))")
                    }
                    o.verb = v
                case 1: o.message = a
                case 2 where o.verb == .notifications: o.argument = a
                default: throw UsageError("Unexpected argument '\(a)'")
                }
                positionals += 1
                continue
            }
            guard a.hasPrefix("--") else {
                // "-label": one dash short of an option.
                let name = String(a.dropFirst().prefix { $0 != "=" })
                let hint =
                    OptionTable.byName[name] != nil
                    ? "; did you mean '--\(name)'?"
                    : Suggestion.hint(for: name, among: OptionTable.suggestible, prefix: "--")
                throw UsageError("Unknown option '\(a)'\(hint)")
            }
            let body = a.dropFirst(2)
            let equals = body.firstIndex(of: "=")
            let name = String(body[..<(equals ?? body.endIndex)])
            let inline = equals.map { String(body[body.index(after: $0)...]) }
            if let option = OptionTable.byName[name] {
                var value = inline
                if option.takesValue && inline == nil {
                    guard i < arguments.count else { throw UsageError("Missing value for '--\(name) <\(name)>'") }
                    value = arguments[i]
                    i += 1
                } else if !option.takesValue && inline != nil {
                    throw UsageError("'--\(name)' takes no value, got '\(a)'")
                }
                switch option.kind {
                case .value(let set): try set(&o, value ?? "")
                case .flag(let set), .toggle(let set): set(&o, true)
                case .ignored: break
                }
            } else if name.hasPrefix("no-"), let option = OptionTable.byName[String(name.dropFirst(3))],
                case .toggle(let set) = option.kind
            {
                guard inline == nil else { throw UsageError("'--\(name)' takes no value, got '\(a)'") }
                set(&o, false)
            } else {
                let hint = Suggestion.hint(for: name, among: OptionTable.suggestible, prefix: "--")
                throw UsageError("Unknown option '--\(name)'" + (hint.isEmpty ? " (xhud --help lists the options)" : hint))
            }
        }
        try o.validate()
        return o
    }
}
