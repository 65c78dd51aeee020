#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDService
import HUDSystem

/// `--help`, `--help-hidden`, `--version`, `--generate-completion-script SHELL` and
/// `--generate-manual-options`, written from the option table the parser runs on (`HelpText`,
/// `Completions`, `ManualOptions`): no other program, no argument parser.
enum HelpTool {
    static func handles(_ argument: String) -> Bool {
        ["-h", "--help", "--help-hidden", "--version", "--generate-manual-options"].contains(argument)
            || argument.hasPrefix("--generate-completion-script")
    }

    /// Prints what was asked for; the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        let own = Array(arguments.prefix { $0 != "--" })
        if own.contains("--generate-manual-options") { return write(ManualOptions.section()) }
        if let i = own.firstIndex(where: { $0.hasPrefix("--generate-completion-script") }) {
            let a = own[i]
            let shell: String?
            if a.hasPrefix("--generate-completion-script=") {
                shell = String(a.dropFirst("--generate-completion-script=".count))
            } else if a == "--generate-completion-script" {
                shell = i + 1 < own.count ? own[i + 1] : nil
            } else {
                return fail("Unknown option '\(a)'", Status.usage)
            }
            guard let shell, let script = Completions.script(for: shell) else {
                let given = shell.map { "'\($0)'" } ?? "no shell"
                return fail("--generate-completion-script takes one of \(Completions.shells.joined(separator: ", ")), got \(given)", Status.usage)
            }
            return write(script)
        }
        if own.contains("--version") && !own.contains("--help") && !own.contains("-h") && !own.contains("--help-hidden") {
            return write(HelpText.version + "\n")
        }
        return write(HelpText.message(includeHidden: own.contains("--help-hidden")))
    }

    /// All of `text` on stdout; a closed pipe (`xhud --help | head`) is not an error.
    static func write(_ text: String) -> Int32 {
        Descriptor.writeAll(1, Array(text.utf8)) || errno == EPIPE ? Status.done : Status.usage
    }
}
