#if canImport(Glibc)
import Glibc
#endif
import HUDSocket

// The `xhud` command starts lean: it links neither X11, Cairo, Pango nor the argument parser.
// An update of a named HUD (a key press) goes straight to the display's server over its socket;
// everything else, and the first invocation of a name, runs `xhud-host`, which does the work.

let arguments = Array(CommandLine.arguments.dropFirst())
let own = arguments.prefix { $0 != "--" }          // a wrapped command's arguments are not ours
let verb = own.first.flatMap(Verb.init(rawValue:)).flatMap { $0.isNamed ? $0 : nil }
let wantsHelp = own.contains { ["-h", "--help", "--version", "--print-config", "--generate-completion-script"].contains($0) || $0.hasPrefix("--generate-completion-script=") }
let named = verb != nil || own.contains { $0 == "--id" || $0.hasPrefix("--id=") }

/// Replaces this process with xhud-host: next to this executable, or in ../lib/xhud (packaged).
func execHost() -> Never {
    var candidates: [String] = []
    if let env = getenv("XHUD_HOST") { candidates.append(String(cString: env)) }
    var buf = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buf, buf.count - 1)
    if n > 0 {
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let dir = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        candidates += [dir + "/xhud-host", dir + "/../lib/xhud/xhud-host"]
    }
    for path in candidates where access(path, X_OK) == 0 {
        var argv: [UnsafeMutablePointer<CChar>?] = (["xhud"] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(path, &argv)
    }
    fputs("xhud: cannot run xhud-host (looked in \(candidates.joined(separator: ", ")))\n", stderr)
    exit(2)
}

if !named || wantsHelp { execHost() }
guard let paths = ServerPaths.current() else { execHost() }   // the host reports the missing display
let stopsWithoutServer = verb?.succeedsWithoutServer == true
do {
    try paths.checkPrivateDirectory()
} catch .noServer {
    if stopsWithoutServer { exit(0) }   // nothing is showing
    execHost()
} catch {
    execHost()   // the host explains what is wrong with the directory
}

var cwd = [CChar](repeating: 0, count: 4096)
let request = Wire.Request(cwd: getcwd(&cwd, cwd.count) != nil ? String(cString: cwd) : "/", arguments: arguments)
do {
    let reply = try ServerClient.send(request, to: paths.socket)
    if !reply.output.isEmpty { fputs(reply.output, stdout) }
    if !reply.error.isEmpty { fputs(reply.error, stderr) }
    exit(reply.status)
} catch .noServer {
    if stopsWithoutServer { exit(0) }
    execHost()   // becomes the server (or finds the one that won a race)
} catch {
    fputs("xhud: \(error)\n", stderr)
    exit(2)
}
