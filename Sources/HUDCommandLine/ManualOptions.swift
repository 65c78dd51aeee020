/// The man page's OPTIONS section (`xhud-host --generate-manual-options`), written from
/// `OptionTable` as `--help` is: each group a subsection, each option that `--help` lists an
/// item with its man page text, zenity's ignored options in one sentence, then the help's own
/// options. packaging/generate-manual.sh puts it into packaging/xhud.1.
package enum ManualOptions {
    static let preamble = """
        Options that take a value accept it as the next argument or after an equals sign (`--label=Saving`). Numbers are \
        seconds, pixels or fractions as stated; a number out of its range, or not finite, is a usage error. A switch of the \
        form `--`[`no-`]`*name*` can be turned off explicitly, which matters when updating a named HUD.
        """

    /// Options that are the help's own, listed last.
    static let general: [(term: String, text: String)] = [
        ("`-h`, `--help`", "Show a summary of the options and exit (`--help-hidden`: with the options xhud takes and ignores)."),
        ("`--version`", "Print the version and exit."),
    ]

    package static func section() -> String {
        var out = [".SH OPTIONS", ManualMarkup.roff(preamble)]
        for group in OptionTable.groups {
            out += [".", ".SS " + (group.title.contains(" ") ? "\"\(group.title)\"" : group.title)]
            if let intro = group.manual { out.append(ManualMarkup.roff(intro)) }
            var terms: [String] = []
            for o in group.options where !o.isHidden && !o.isIgnored {
                terms.append(term(o))
                let text = o.manualText
                guard !text.isEmpty else { continue }  // described with the next
                out += [".TP", terms[0]]
                for t in terms.dropFirst() { out += [".TQ", t] }
                out.append(ManualMarkup.roff(text))
                terms = []
            }
            let ignored = group.options.filter(\.isIgnored).map { "`--\($0.name)`" }
            if let last = ignored.last {
                out += [
                    ".PP",
                    ManualMarkup.roff("zenity's other options are accepted and ignored: \(ignored.dropLast().joined(separator: ", ")) and \(last)."),
                ]
            }
        }
        out += [".", ".SS General"]
        for g in general { out += [".TP", ManualMarkup.roff(g.term), ManualMarkup.roff(g.text)] }
        return out.joined(separator: "\n") + "\n"
    }

    /// `--name value`, `--[no-]name`, `--name`.
    static func term(_ o: OptionSpec) -> String {
        if case .toggle = o.kind { return ManualMarkup.roff("`--`[`no-`]`\(o.name)`") }
        guard o.takesValue else { return ManualMarkup.roff("`--\(o.name)`") }
        let value = o.placeholder ?? (o.unit.isEmpty ? o.name : o.unit)
        let marked = value.contains("*") || value.contains("`") ? value : "*\(value)*"
        return ManualMarkup.roff("`--\(o.name)` " + marked)
    }
}
