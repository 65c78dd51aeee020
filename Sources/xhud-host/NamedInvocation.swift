#if canImport(Glibc)
import Glibc
#endif
import HUDCommandLine
import HUDCore
import HUDSocket

/// `--id NAME`, the hide/list/push/pop verbs and notifications: send the invocation to the
/// display's server, or become that server. The server lock decides races: whoever holds it serves; the others
/// retry until its socket answers. A killed server's lock dies with it, and its stale socket
/// is replaced by the next one.
struct NamedInvocation {
    let options: HUDOptions

    func run() -> Int32 {
        // Usage errors are reported here, synchronously, before any server is involved.
        do { _ = try options.hudConfiguration() } catch { return fail("\(error)", Status.usage) }
        guard let paths = ServerPaths.current() else {
            return fail("cannot open display '': is an X server running and DISPLAY set?", Status.noDisplay)
        }
        do { try paths.preparePrivateDirectory() } catch { return fail("\(error)", Status.usage) }
        var cwd = [CChar](repeating: 0, count: 4096)
        let request = Wire.Request(cwd: getcwd(&cwd, cwd.count) != nil ? String(cString: cwd) : "/",
                                   arguments: translatingZenityFlags(Array(CommandLine.arguments.dropFirst())))
        let stopsWithoutServer = options.action?.succeedsWithoutServer == true
        let deadline = MonotonicClock.seconds() + 5
        while MonotonicClock.seconds() < deadline {
            do {
                let reply = try ServerClient.send(request, to: paths.socket)
                if !reply.output.isEmpty { fputs(reply.output, stdout) }
                if !reply.error.isEmpty { fputs(reply.error, stderr) }
                return reply.status
            } catch .noServer {
                if stopsWithoutServer { return Status.done }   // nothing is showing
                if let lock = ServerLock(path: paths.lock) {
                    return HUDServer.start(paths: paths, lock: lock, first: request)
                }
                usleep(2000)   // another invocation is becoming the server
            } catch {
                return fail("\(error)", Status.usage)
            }
        }
        return fail("no answer from the xhud server at \(paths.socket)", Status.usage)
    }
}
