import HUDSystem

extension OptionTable {
    /// The names a user may be trying to type: the options `--help` lists, `no-` toggles too.
    static var suggestible: [String] {
        all.filter { !$0.isHidden }.flatMap { o -> [String] in
            if case .toggle = o.kind { return [o.name, "no-" + o.name] }
            return [o.name]
        }
    }
}
