import HUDCommandLine
import HUDCore
import HUDSettings

extension ConfiguredInvocation {
    /// `xhud --print-config`: every key with its effective value for this invocation, and where
    /// the value comes from, as a TOML file that can be read back.
    package func printedConfiguration() -> String {
        let c = (try? options.hudConfiguration()) ?? HUDConfiguration()
        var out = "# The effective configuration of this invocation: each key, its value, where it comes from.\n"
        let files = resolutionFiles
        out +=
            "# files: "
            + (files.isEmpty ? "none (\(Locations.configFiles.reversed().joined(separator: ", ")) do not exist)" : files.joined(separator: ", "))
            + "\n"
        out += "# themes: " + Theme.available.joined(separator: ", ") + " (in " + Theme.searchPath.joined(separator: ", ") + ")\n"
        let winners = Dictionary(resolution.settings.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        for key in OptionTable.settingKeys.names {
            let value: SettingValue? =
                key == "theme"
                ? .string(options.theme ?? resolution.theme?.name ?? "default")
                : OptionTable.byName[key]?.setting?.read(c, options)
            let source: String
            if given.contains(key) {
                source = "command line"
            } else if key == "theme", let t = resolution.theme {
                source = winners["theme"]?.source.description ?? "theme \(t.name)"
            } else if let s = winners[key] {
                source = s.source.description
            } else {
                source = "built-in"
            }
            let text = value.map { "\(key) = \($0)" } ?? "# \(key) (not set)"
            out += text.padding(to: 44) + " # " + source + "\n"
        }
        return out
    }

    private var resolutionFiles: [String] {
        var seen: [String] = []
        for s in resolution.settings { if let f = s.source.file, s.source.theme == nil, !seen.contains(f) { seen.append(f) } }
        return seen
    }
}

private extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
