import HUDSocket

/// The shell completions of `xhud` (`--generate-completion-script bash|zsh|fish`), written from
/// `OptionTable`: every option that `--help` lists, its `--no-` form, the words a value may be
/// (modes and their aliases, spinners, styles, animations), files for images and the
/// configuration, the verb first, and a command after `--`.
package enum Completions {
    package static let shells = ["bash", "zsh", "fish"]

    package static func script(for shell: String) -> String? {
        switch shell {
        case "bash": return bash()
        case "zsh": return zsh()
        case "fish": return fish()
        default: return nil
        }
    }

    static var options: [OptionSpec] { OptionTable.all.filter { !$0.isHidden } }
    static var verbs: [String] { Verb.allCases.map(\.rawValue) }
    static let header =
        "xhud's completions, written by `xhud --generate-completion-script %s` from the options the\n# command parses (packaging/completions/generate.sh)."

    static func comment(_ shell: String) -> String {
        "# " + header.replacingPercentS(with: shell) + "\n"
    }

    // MARK: bash

    static func bash() -> String {
        var words: [String] = []
        for o in options { words += o.spellings }
        words += ["--version", "--help", "-h"]
        var cases = ""
        var plain: [String] = []
        for o in OptionTable.all where o.takesValue {
            switch o.completion {
            case .choices(let c):
                cases += "        --\(o.name)) COMPREPLY=($(compgen -W '\(c.joined(separator: " "))' -- \"$cur\")); return ;;\n"
            case .files(let ext):
                cases += "        --\(o.name)) _xhud_files \(ext.joined(separator: " ")); return ;;\n"
            case .none:
                plain.append("--\(o.name)")
            }
        }
        cases += "        " + plain.joined(separator: "|") + ") return ;;\n"
        return """
            #!/bin/bash
            \(comment("bash"))
            # Files ending with one of the extensions given, and directories.
            _xhud_files() {
                local ext
                COMPREPLY=()
                for ext in "$@"; do
                    COMPREPLY+=($(compgen -f -X "!*.$ext" -- "$cur"))
                done
                COMPREPLY+=($(compgen -d -- "$cur"))
                compopt -o filenames 2>/dev/null
            }

            _xhud() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev= i positionals=0 word
                (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
                # After --: the command to wrap, then its arguments.
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    if [[ ${COMP_WORDS[i]} == -- ]]; then
                        if (( i + 1 == COMP_CWORD )); then
                            COMPREPLY=($(compgen -c -- "$cur"))
                        else
                            COMPREPLY=($(compgen -f -- "$cur")); compopt -o filenames 2>/dev/null
                        fi
                        return
                    fi
                done
                # --option=VALUE: one word, or three where '=' breaks words ($COMP_WORDBREAKS).
                if [[ $cur == --*=* ]]; then
                    prev=${cur%%=*}
                    cur=${cur#*=}
                elif [[ $cur == = ]]; then
                    cur=
                elif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then
                    prev=${COMP_WORDS[COMP_CWORD-2]}
                fi
                case $prev in
            \(cases)    esac
                if [[ $cur == -* ]]; then
                    COMPREPLY=($(compgen -W '\(words.joined(separator: " "))' -- "$cur"))
                    return
                fi
                # The verb comes first: count the words before this one that are not options or
                # their values.
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        \(plainAndChoiceOptions)) (( i++ )) ;;
                        -*) ;;
                        *) (( positionals++ )) ;;
                    esac
                done
                if (( positionals == 0 )); then
                    COMPREPLY=($(compgen -W '\(verbs.joined(separator: " "))' -- "$cur"))
                fi
            }
            complete -F _xhud xhud

            """
    }

    /// Every option that takes its value as the next word, as a bash pattern.
    static var plainAndChoiceOptions: String {
        OptionTable.all.filter(\.takesValue).map { "--\($0.name)" }.joined(separator: "|")
    }

    // MARK: zsh

    /// Text inside a zsh `_arguments` spec, itself in single quotes.
    static func zshQuoted(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "'": out += "'\\''"
            case "[", "]", ":", "\\": out += "\\" + String(c)
            default: out.append(c)
            }
        }
        return out
    }

    static func zsh() -> String {
        var specs: [String] = []
        for o in options {
            let help = zshQuoted(OptionSpecHelp.short(o.helpText))
            switch o.kind {
            case .value, .ignored(takesValue: true):
                let action: String
                switch o.completion {
                case .choices(let c): action = "(\(c.joined(separator: " ")))"
                case .files(let ext): action = "_files -g \"*.(\(ext.joined(separator: "|")))\""
                case .none: action = " "
                }
                specs.append("'--\(o.name)=[\(help)]:\(o.name):\(action)'")
            case .flag, .ignored:
                specs.append("'--\(o.name)[\(help)]'")
            case .toggle:
                specs.append("'(--\(o.name) --no-\(o.name))--\(o.name)[\(help)]'")
                specs.append("'(--\(o.name) --no-\(o.name))--no-\(o.name)[\(help)]'")
            }
        }
        specs += [
            "'--version[Show the version.]'", "'(- *)'{-h,--help}'[Show help information.]'",
            "'1:verb:(\(verbs.joined(separator: " ")))'", "'2:text: '", "'*::command:_normal'",
        ]
        return """
            #compdef xhud
            \(comment("zsh"))
            _xhud() {
                local -a args
                args=(
                    \(specs.joined(separator: "\n        "))
                )
                _arguments -S -s : "${args[@]}"
            }

            _xhud "$@"

            """
    }

    // MARK: fish

    static func fishQuoted(_ s: String) -> String {
        "'" + s.replacingBackslashAndQuote() + "'"
    }

    static func fish() -> String {
        var lines = [
            comment("fish"), "complete -c xhud -f",
            "complete -c xhud -n __fish_use_subcommand -a \(fishQuoted(verbs.joined(separator: " "))) -d 'What to do'",
        ]
        for o in options {
            let help = fishQuoted(OptionSpecHelp.short(o.helpText))
            switch o.kind {
            case .value, .ignored(takesValue: true):
                switch o.completion {
                case .choices(let c): lines.append("complete -c xhud -l \(o.name) -x -a \(fishQuoted(c.joined(separator: " "))) -d \(help)")
                case .files: lines.append("complete -c xhud -l \(o.name) -r -F -d \(help)")
                case .none: lines.append("complete -c xhud -l \(o.name) -x -d \(help)")
                }
            case .flag, .ignored:
                lines.append("complete -c xhud -l \(o.name) -d \(help)")
            case .toggle:
                lines.append("complete -c xhud -l \(o.name) -d \(help)")
                lines.append("complete -c xhud -l no-\(o.name) -d \(help)")
            }
        }
        lines += ["complete -c xhud -l version -d 'Show the version.'", "complete -c xhud -s h -l help -d 'Show help information.'"]
        return lines.joined(separator: "\n") + "\n"
    }
}

enum OptionSpecHelp {
    /// A help's first sentence (the rest is for `--help`): a completion menu has a line.
    static func short(_ help: String) -> String {
        var out = ""
        var previous: Character = " "
        for c in help {
            if previous == "." && c == " " && !out.hasSuffix("e.g.") && !out.hasSuffix("...") { return String(out.dropLast()) + "." }
            out.append(c)
            previous = c
        }
        return out
    }
}

extension String {
    func replacingPercentS(with s: String) -> String {
        guard let r = firstRange(of: "%s") else { return self }
        return String(self[..<r.lowerBound]) + s + String(self[r.upperBound...])
    }

    func replacingBackslashAndQuote() -> String {
        var out = ""
        for c in self {
            if c == "\\" || c == "'" { out.append("\\") }
            out.append(c)
        }
        return out
    }
}
