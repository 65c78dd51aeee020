#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser

// Parse by hand so that every usage error exits 2 with one line, as documented.
do {
    var command = try XHUDCommand.parseAsRoot()
    try command.run()
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let status = XHUDCommand.exitCode(for: error)
    if status == .success {
        print(XHUDCommand.fullMessage(for: error))
        exit(0)
    }
    let message = XHUDCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
    fputs("xhud: \(message)\n", stderr)
    exit(2)
}
