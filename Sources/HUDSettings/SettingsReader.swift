#if canImport(Glibc)
import Glibc
#endif
import HUDFiles

/// Reads configuration files and themes without linking a TOML parser: `xhud-config` (TOMLKit)
/// parses a file and prints it as `SettingsFile.serialized`; the result is kept in a private
/// cache keyed by the file's path and checked against its stamp (device, inode, size, mtime),
/// so a file is parsed once per version, by whichever process first needs it.
public enum SettingsReader {
    public static func read(path: String, allowsSections: Bool, theme: String?) -> SettingsFile? {
        let stamp = FileText.stamp(path)
        if stamp.isEmpty {
            switch FileText.read(path, limit: 1) {
            case .missing: return nil
            case .failed(let why): return SettingsFile(path: path, warnings: ["\(path): \(why); the file is ignored"])
            case .text: break
            }
        }
        let key = stampLine(stamp, allowsSections: allowsSections)
        // Named after the file itself (device and inode), not its path: fifty spellings of one
        // path share one entry.
        let identity = stamp.count >= 2 ? "\(stamp[0]):\(stamp[1])" : path
        let directory = PrivateCache.directory("settings", preferringRuntime: true)
        let cacheFile = directory.map { $0 + "/" + hash(identity) + (allowsSections ? ".conf" : ".theme") }
        if let cacheFile, case .text(let text) = FileText.read(cacheFile, limit: 4 << 20, ownOnly: true),
           let newline = text.firstIndex(of: "\n"), text[..<newline] == key,
           var f = SettingsFile(serialized: String(text[text.index(after: newline)...]), path: path) {
            f.setTheme(theme)
            return f
        }
        guard var f = parser(path, allowsSections) else {
            return SettingsFile(path: path, warnings: ["\(path): cannot be read: xhud-config (the TOML reader) is missing; the file is ignored"])
        }
        // A file the reader ran out of time on is not kept as read: the next request tries again.
        if let cacheFile, let directory, !f.warnings.contains(where: { $0.hasSuffix(slowFile) }) {
            trim(directory, keeping: maxEntries - 1)
            PrivateCache.write(key + "\n" + f.serialized, to: cacheFile)
        }
        f.setTheme(theme)
        return f
    }

    /// Parsed files kept at most: a user has a configuration and a few themes.
    static let maxEntries = 32

    /// Removes the least recently written entries past `count`.
    static func trim(_ directory: String, keeping count: Int) {
        guard let dir = opendir(directory) else { return }
        var entries: [(name: String, mtime: Int)] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasSuffix(".conf") || name.hasSuffix(".theme") else { continue }
            var st = stat()
            if stat(directory + "/" + name, &st) == 0 { entries.append((name, Int(st.st_mtim.tv_sec))) }
        }
        closedir(dir)
        guard entries.count > count else { return }
        for e in entries.sorted(by: { $0.mtime < $1.mtime }).prefix(entries.count - count) { unlink(directory + "/" + e.name) }
    }

    /// What parses a file on a cache miss: `xhud-config` in a process of its own. Tests that
    /// link the TOML module parse in process instead (set before use, from one thread).
    nonisolated(unsafe) public static var parser: (_ path: String, _ allowsSections: Bool) -> SettingsFile? = runReader

    static let readerSeconds = 2.0
    static let slowFile = " to read; the file is ignored"

    /// Runs `xhud-config` on the file; nil when it cannot be run.
    static func runReader(path: String, allowsSections: Bool) -> SettingsFile? {
        guard let reader = readerPath() else { return nil }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let args = [reader, path] + (allowsSections ? [] : ["--theme"])
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, reader, &actions, nil, &argv, environ)
        close(fds[1])
        guard spawned == 0 else { close(fds[0]); return nil }
        var bytes: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        // A reader that takes longer than this (a file crafted to be slow to parse) is ended:
        // the file is then ignored with a warning.
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let deadline = Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9 + readerSeconds
        var timedOut = false
        while true {
            clock_gettime(CLOCK_MONOTONIC, &ts)
            let left = deadline - (Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9)
            var p = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, Int32(left * 1000) + 1) > 0 else {
                if errno == EINTR && left > 0 { continue }
                timedOut = true
                break
            }
            let n = Glibc.read(fds[0], &buf, buf.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += buf[0..<n]
            if bytes.count > 4 << 20 { break }
        }
        close(fds[0])
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if timedOut { return SettingsFile(path: path, warnings: ["\(path): took more than \(Int(readerSeconds)) s" + slowFile]) }
        return SettingsFile(serialized: String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// `xhud-config`: `$XHUD_CONFIG_READER`, else beside this executable or in `../lib/xhud`.
    static func readerPath() -> String? {
        Locations.env("XHUD_CONFIG_READER") ?? Locations.companion("xhud-config")
    }

    static func stampLine(_ stamp: [Int], allowsSections: Bool) -> String {
        "xhud-config \(SettingsFile.format) " + stamp.map(String.init).joined(separator: " ") + (allowsSections ? "" : " theme")
    }

    /// FNV-1a of the path, in hex: a file name for its cache entry.
    static func hash(_ s: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in s.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return String(h, radix: 16)
    }
}
