#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import HUDRender
import HUDSettings
import HUDCore
import HUDSocket

// Fonts load on a second thread while options are parsed and X is connected.
FontWarmup.start()

// A server started by a client (`ServerLauncher`): its first request is already waiting. It
// goes straight to serving, and the argument parser's first parse (type metadata, a few ms
// that every later parse is spared) is made on a third thread while X connects.
if CommandLine.arguments.dropFirst().elementsEqual(["server"]), getenv(ServerLauncher.listenFDVariable) != nil,
   let paths = ServerPaths.current() {
    ParserWarmup.start()
    exit(HUDServer.runForeground(paths: paths))
}

// Parse by hand so that every usage error exits 2 with one line, as documented.
do {
    let arguments = translatingZenityFlags(Array(CommandLine.arguments.dropFirst()))
    // --help and --version: before any configuration is read.
    if arguments.prefix(while: { $0 != "--" }).contains(where: { ["-h", "--help", "--version"].contains($0) || $0.hasPrefix("--generate-completion-script") }) {
        var command = try XHUDCommand.parseAsRoot(arguments)
        try command.run()
    }
    var cwd = [CChar](repeating: 0, count: 4096)
    let invocation = try ConfiguredInvocation.make(arguments: arguments, cwd: getcwd(&cwd, cwd.count) != nil ? String(cString: cwd) : "/",
                                                   settings: { Settings.load(path: $0) })
    if invocation.options.printConfig {
        for w in invocation.warnings { fputs("xhud: \(w.escapingControlCharacters)\n", stderr) }
        print(invocation.printedConfiguration(), terminator: "")
        exit(0)
    }
    exit(Runner(invocation: invocation).run())
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
