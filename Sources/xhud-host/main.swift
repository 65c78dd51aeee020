#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HUDRender

// Fonts load on a second thread while options are parsed and X is connected.
FontWarmup.start()

// Parse by hand so that every usage error exits 2 with one line, as documented.
do {
    let arguments = translatingZenityFlags(Array(CommandLine.arguments.dropFirst()))
    var command = try XHUDCommand.parseAsRoot(arguments)
    try command.run()
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let status = XHUDCommand.exitCode(for: error)
    if status == .success {
        print(XHUDCommand.fullMessage(for: error))
        exit(0)
    }
    exit(fail(oneLine(XHUDCommand.message(for: error)), Status.usage))
}
