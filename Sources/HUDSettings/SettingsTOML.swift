import HUDTOML

extension SettingsFile {
    /// Parses TOML text (with `HUDTOML`, plain Swift). A file that does not parse costs the file,
    /// with the parser's line and column; a bad key or value costs that key, with its line.
    /// `keys`: the keys it may hold (`OptionTable.settingKeys`).
    package init(path: String, text: String, keys: SettingKeys, allowsSections: Bool = true, theme: String? = nil) {
        self.init(path: path)
        let table: TOMLTable
        do {
            table = try TOML.parse(text)
        } catch {
            warnings.append("\(path):\(error.line):\(error.column): \(error.message); the file is ignored")
            return
        }
        func read(_ t: TOMLTable, section: String?) -> [Setting] {
            var out: [Setting] = []
            for key in t.keys {
                guard let node = t[key] else { continue }
                if section?.hasPrefix("rule.") == true, key.hasPrefix("match-") { continue }  // the rule's patterns
                let where_ = SettingSource(file: path, line: t.line(of: key), theme: theme)
                let place = "\(path)\(where_.line.map { ":\($0)" } ?? "")"
                if section == nil, allowsSections, SettingKeys.sections.contains(key), node.table != nil { continue }
                guard keys.kind(of: key) != nil else {
                    let hint = SettingKeys.sections.contains(key) ? " (a section: write [\(key)])" : ""
                    warnings.append("\(place): unknown key '\(key)'\(hint); ignored")
                    continue
                }
                guard let value = SettingValue(node) else {
                    warnings.append("\(place): '\(key)' has a value of type \(node.typeName), which no option takes; ignored")
                    continue
                }
                if case .failure(let e) = keys.argument(key: key, value: value) {
                    warnings.append("\(place): \(e); ignored")
                    continue
                }
                out.append(Setting(key: key, value: value, source: where_))
            }
            return out.sorted { ($0.source.line ?? 0) < ($1.source.line ?? 0) }
        }
        top = read(table, section: nil)
        guard allowsSections else { return }
        for name in ["notification", "wrap"] {
            if let t = table[name]?.table { sections[name] = read(t, section: name) }
        }
        if let ruleTable = table["rule"]?.table {
            for name in ruleTable.keys {
                guard let t = ruleTable[name]?.table else {
                    warnings.append("\(path):\(ruleTable.line(of: name) ?? 0): 'rule.\(name)' must be a section, [rule.\(name)]; ignored")
                    continue
                }
                var patterns: [String: String] = [:]
                var valid = true
                for key in t.keys where key.hasPrefix("match-") {
                    let what = String(key.dropFirst(6))
                    guard Rule.matchable.contains(what), case .string(let pattern)? = t[key] else {
                        warnings.append(
                            "\(path):\(t.line(of: key) ?? 0): '\(key)' must be one of "
                                + Rule.matchable.map { "match-" + $0 }.joined(separator: ", ") + ", a text; the rule is ignored")
                        valid = false
                        break
                    }
                    patterns[what] = pattern
                }
                // A rule that cannot say what it matches applies to nothing (not to everything).
                if valid { rules.append(Rule(name: name, patterns: patterns, settings: read(t, section: "rule." + name))) }
            }
        }
        if let ids = table["id"]?.table {
            for id in ids.keys {
                if let t = ids[id]?.table {
                    sections["id." + id] = read(t, section: "id." + id)
                } else {
                    warnings.append("\(path):\(ids.line(of: id) ?? 0): 'id.\(id)' must be a section, [id.\(id)]; ignored")
                }
            }
        }
    }
}

extension SettingValue {
    init?(_ node: TOMLValue) {
        switch node {
        case .string(let s): self = .string(s)
        case .bool(let b): self = .bool(b)
        case .integer(let i): self = .number(Double(i))
        case .float(let d): self = .number(d)
        case .array(let a):
            var items: [SettingValue] = []
            for item in a {
                guard let v = SettingValue(item) else { return nil }
                items.append(v)
            }
            self = .list(items)
        case .table: return nil
        }
    }
}
