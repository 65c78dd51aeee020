#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDRender
import HUDSettings
import HUDCore
import HUDService
import HUDSocket
import HUDSystem

@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32

/// xhud-host: the display's HUD server (`xhud server`, or started by a client), a private server
/// and its client, an image drawn for a server, help, `--print-config` and `--render-png`.
package enum HostCommand {
    package static func main() -> Never {
        // Two malloc arenas: the font warm-up's thread takes the second. With one, fontconfig's
        // parse (an allocation per XML token) and the main thread's start took turns at the arena's
        // lock, each wait a sleep and a wake-up, on the way to a first frame. The other threads
        // share the two.
        _ = mallopt(-8 /* M_ARENA_MAX, <malloc.h> */, 2)

        // A child of the server drawing one image within its limits (ImagePreparer): nothing else.
        if CommandLine.arguments.count > 1, CommandLine.arguments[1] == "--prepare-image" {
            ImagePreparer.runChild(Array(CommandLine.arguments.dropFirst(2)))
        }

        // A server started by a client (`ServerLauncher`): its first request is already waiting.
        let started = CommandLine.arguments.dropFirst().elementsEqual(["server"]) && Environment.isSet(ServerLauncher.listenFDVariable)

        // Fonts load on a second thread while options are parsed and X is connected; a started
        // server may have the font helper's matches to read instead.
        FontWarmup.start(helper: started ? ServerLauncher.takeFontMatches() : nil)

        if started, let paths = ServerPaths.current() {
            exit(X11Server.runForeground(paths: paths))
        }

        let given = Array(CommandLine.arguments.dropFirst())
        let arguments = translatingZenityFlags(given)
        // --help, --version and the completion scripts: before any configuration is read, from the option table.
        if arguments.prefix(while: { $0 != "--" }).contains(where: HelpTool.handles) {
            exit(HelpTool.run(arguments))
        }
        // A HUD: the server parses it (once), as it parses every client's.
        guard Runner.handles(arguments) else { exit(PrivateServer.run(arguments: given)) }
        do {
            let invocation = try ConfiguredInvocation.make(
                arguments: arguments, cwd: Environment.currentDirectory,
                settings: { Settings.load(path: $0, keys: OptionTable.settingKeys) })
            if invocation.options.printConfig {
                for w in invocation.warnings { Console.error("xhud: \(w.escapingControlCharacters)\n") }
                print(invocation.printedConfiguration(), terminator: "")
                exit(0)
            }
            exit(Runner(invocation: invocation).run())
        } catch {
            // Every usage error exits 2 with one line, as documented.
            exit(fail(oneLine("\(error)"), Status.usage))
        }
    }
}
