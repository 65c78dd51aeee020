#if canImport(Glibc)
import Glibc
#endif
import HUDSettings

/// `xhud-help`, which formats `--help`, `--version` and the shell completions with
/// swift-argument-parser: a program of its own, so that neither the parser nor the Foundation
/// it brings is loaded by the command or its server.
enum HelpTool {
    static func handles(_ argument: String) -> Bool {
        ["-h", "--help", "--help-hidden", "--version", "--experimental-dump-help"].contains(argument)
            || argument.hasPrefix("--generate-completion-script")
    }

    /// Runs xhud-help in this process's place; returns only when it cannot.
    static func run(_ arguments: [String]) -> Int32 {
        guard let path = Locations.companion("xhud-help") else {
            return fail("cannot show help: xhud-help is not installed beside xhud-host", Status.usage)
        }
        let argv = (["xhud"] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        return fail("cannot run \(path): \(String(cString: strerror(errno)))", Status.usage)
    }
}
