#if canImport(Glibc)
import Glibc
#endif

// Small files of the user's own: read without blocking or without bound, told apart by their
// stamp, and kept in a private cache written whole. Plain Glibc: the configuration reader, the
// kept font matches and the client all use them.

/// Small text files read without blocking on a FIFO or reading without bound.
package enum FileText {
    package enum Result { case missing, failed(String), text(String) }

    package static func read(_ path: String, limit: Int, ownOnly: Bool = false) -> Result {
        switch bytes(path, limit: limit, ownOnly: ownOnly) {
        case .missing: return .missing
        case .failed(let why): return .failed(why)
        case .bytes(let b): return .text(String(decoding: b, as: UTF8.self))
        }
    }

    package enum Bytes { case missing, failed(String), bytes([UInt8]) }

    /// A regular file's bytes, up to `limit`: a FIFO or a device is refused, not waited on.
    /// `ownOnly`: a file xhud trusts (what it keeps itself) must be the user's own, checked on
    /// the open file, not on its path.
    package static func bytes(_ path: String, limit: Int, ownOnly: Bool = false) -> Bytes {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            return errno == ENOENT || errno == ENOTDIR ? .missing : .failed(String(cString: strerror(errno)))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failed(String(cString: strerror(errno))) }
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .failed("not a regular file") }
        if ownOnly && (st.st_uid != getuid() || st.st_mode & 0o022 != 0) { return .failed("not the user's own file") }
        guard Int(st.st_size) <= limit else {
            return .failed(limit >= 1 << 20 ? "larger than \(limit >> 20) MB" : "larger than \(limit >> 10) KB")
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        bytes.removeSubrange(got...)
        return .bytes(bytes)
    }

    /// Identity of a file's current contents (device, inode, size, modification time), to
    /// notice that it changed without reading it.
    package static func stamp(_ path: String) -> [Int] {
        var st = stat()
        guard stat(path, &st) == 0 else { return [] }
        return [Int(st.st_dev), Int(st.st_ino), Int(st.st_size), Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)]
    }
}

/// A directory of xhud's own for what it keeps between processes, and files written there
/// whole or not at all.
package enum PrivateCache {
    /// `BASE/xhud/NAME`, made 0700, where BASE is `$XDG_RUNTIME_DIR` (when preferred and set),
    /// `$XDG_CACHE_HOME` or `~/.cache`; nil unless both directories are the user's own and
    /// private (a cache others could write would be trusted input).
    package static func directory(_ name: String, preferringRuntime: Bool) -> String? {
        guard let place = location(name, preferringRuntime: preferringRuntime) else { return nil }
        if let parent = place.parent { _ = mkdir(parent, 0o700) }
        for d in [place.base, place.directory] {
            if mkdir(d, 0o700) != 0 && errno != EEXIST { return nil }
            var st = stat()
            guard lstat(d, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid == getuid(), st.st_mode & 0o077 == 0 else { return nil }
        }
        return place.directory
    }

    /// Where `directory` is, made or not: its parent (`$XDG_CACHE_HOME` or `~/.cache`, made
    /// with it), `BASE/xhud` and `BASE/xhud/NAME`.
    private static func location(_ name: String, preferringRuntime: Bool) -> (parent: String?, base: String, directory: String)? {
        func env(_ n: String) -> String? { Environment.value(n).flatMap { $0.hasPrefix("/") ? $0 : nil } }
        if preferringRuntime, let r = env("XDG_RUNTIME_DIR") { return (nil, r + "/xhud", r + "/xhud/" + name) }
        let parent: String
        if let c = env("XDG_CACHE_HOME") { parent = c } else if let h = env("HOME") { parent = h + "/.cache" } else { return nil }
        return (parent, parent + "/xhud", parent + "/xhud/" + name)
    }

    /// The kept font matches' file (HUDRender's FontMatchCache): a client that starts a server
    /// without them starts the font helper beside it.
    package static var fontMatchesPath: String? {
        directory("fonts", preferringRuntime: false).map { $0 + "/matches" }
    }

    /// Whether kept font matches are there to read, looked for without making their directory
    /// (a client on its way to start a server: two new directories on a first start cost it
    /// more than the rest of its way there; the server makes them when it writes the file).
    package static var fontMatchesKept: Bool {
        guard let place = location("fonts", preferringRuntime: false) else { return false }
        return access(place.directory + "/matches", F_OK) == 0
    }

    /// Written whole or not at all (a rename), so a reader never sees half a file.
    @discardableResult
    package static func write(_ text: String, to path: String) -> Bool { write(Array(text.utf8), to: path) }

    @discardableResult
    package static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let tmp = path + ".\(getpid()).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        let written = Descriptor.writeAll(fd, bytes)
        close(fd)
        if written, rename(tmp, path) == 0 { return true }
        unlink(tmp)
        return false
    }
}
