#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDRender

/// Exit codes, as documented in --help.
enum Status {
    static let done: Int32 = 0
    static let cancelled: Int32 = 1
    static let usage: Int32 = 2
    static let noDisplay: Int32 = 3
    /// zenity's `--timeout` ran out.
    static let timedOut: Int32 = 5
}

/// Prints one line on stderr; text from input in it is escaped (no raw control characters).
func fail(_ message: String, _ code: Int32) -> Int32 {
    fputs("xhud: \(message.escapingControlCharacters)\n", stderr)
    return code
}

/// A message on one line: a list under "...:" (the values a flag accepts) joins the line.
func oneLine(_ s: String) -> String {
    let lines = s.split(separator: "\n").map { line -> String in
        var l = line.drop { $0 == " " }
        if l.hasPrefix("- ") { l = l.dropFirst(2) }   // a list item, not a flag's dashes
        return String(l)
    }.filter { !$0.isEmpty }
    guard let first = lines.first else { return s }
    return first.hasSuffix(":") && lines.count > 1 ? first + " " + lines.dropFirst().joined(separator: ", ") : first
}

func isPipeOrFIFO(_ fd: Int32) -> Bool {
    var st = stat()
    guard fstat(fd, &st) == 0 else { return false }
    return (st.st_mode & S_IFMT) == S_IFIFO
}

/// Points 0, 1 and 2 at /dev/null: a process that outlives its caller must not hold the
/// caller's pipes open (`out=$(xhud ...)` would wait for it).
func detachStandardStreams() {
    let null = open("/dev/null", O_RDWR)
    guard null >= 0 else { return }
    for fd: Int32 in 0...2 { dup2(null, fd) }
    if null > 2 { close(null) }
}

/// Runs `work` in a child that lives on after this process returns. The child reports on a pipe
/// when it is up (or why it could not start); the parent waits for that and exits with it, so
/// errors such as a missing display still reach the caller.
func runDetached(_ work: (_ ready: @escaping (Int32, String) -> Void) -> Int32) -> Int32 {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return fail("pipe: \(String(cString: strerror(errno)))", Status.usage) }
    fflush(stdout); fflush(stderr)
    FontWarmup.join()
    let pid = fork()
    if pid < 0 { return fail("fork: \(String(cString: strerror(errno)))", Status.usage) }
    if pid > 0 {
        close(fds[1])
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buf, 4096)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buf[0..<n]
        }
        guard let first = bytes.first else { return fail("the HUD process ended before it started", Status.usage) }
        let message = String(decoding: bytes.dropFirst(), as: UTF8.self)
        if !message.isEmpty { fputs(message, stderr) }
        return Int32(first)
    }
    close(fds[0])
    setsid()
    let writeFD = fds[1]
    var reported = false
    let ready: (Int32, String) -> Void = { code, message in
        guard !reported else { return }
        reported = true
        var bytes = [UInt8(truncatingIfNeeded: code)] + Array(message.utf8)
        _ = write(writeFD, &bytes, bytes.count)
        close(writeFD)
        // The caller has its answer; whatever this process does next, it must not hold the
        // caller's pipes (a server lingers even after an error reply).
        detachStandardStreams()
    }
    let code = work(ready)
    ready(code, "")
    exit(code)
}
