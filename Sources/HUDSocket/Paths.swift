#if canImport(Glibc)
import Glibc
import HUDSystem
#endif

/// Where a display's named-HUD server listens: `$XDG_RUNTIME_DIR/xhud/<display>.sock`, next to
/// the lock its server holds for life. The directory is private to the user (0700, owned by
/// them); anything else there is refused rather than trusted.
///
/// Without `XDG_RUNTIME_DIR` the directory is `$XDG_CACHE_HOME/xhud` (`~/.cache/xhud`): inside
/// the user's home, where no other user can create it first (a fixed name in the shared /tmp
/// could be taken by anyone, denying the service). A home directory may be shared between
/// machines, so there the host name is part of the socket's name.
package struct ServerPaths: Equatable, Sendable {
    package let directory: String
    package let socket: String
    package let lock: String
    /// The named HUDs a server shows without a client (`NamedJournal`): left behind when it dies.
    package let journal: String

    package init(directory: String, display: String, host: String? = nil) {
        self.directory = directory
        var key = ServerPaths.key(forDisplay: display)
        if let host, !host.isEmpty { key = ServerPaths.key(forDisplay: host) + "-" + key }
        socket = directory + "/" + key + ".sock"
        lock = directory + "/" + key + ".lock"
        journal = directory + "/" + key + ".named"
    }

    /// `$XDG_RUNTIME_DIR/xhud`; else `$XDG_CACHE_HOME/xhud` or `~/.cache/xhud` (then `inHome`).
    package static func defaultDirectory() -> (path: String, inHome: Bool)? {
        if let r = Environment.value("XDG_RUNTIME_DIR"), r.hasPrefix("/") { return (r + "/xhud", false) }
        if let c = Environment.value("XDG_CACHE_HOME"), c.hasPrefix("/") { return (c + "/xhud", true) }
        guard let home = Environment.value("HOME") ?? passwdHome(), home.hasPrefix("/") else { return nil }
        return (home + "/.cache/xhud", true)
    }

    /// The paths for `$WAYLAND_DISPLAY` when it is set (its server draws there when the
    /// compositor has layer-shell, else through XWayland) unless `XHUD_BACKEND` is `x11`, else
    /// for `$DISPLAY` (nil when it is unset or no display could have its name
    /// (`displayProblem`): there is no display to serve).
    package static func current() -> ServerPaths? {
        if let w = waylandDisplay, let dir = defaultDirectory() {
            return ServerPaths(directory: dir.path, display: w, host: dir.inHome ? hostName() : nil)
        }
        guard let d = Environment.value("DISPLAY"), displayProblem(d) == nil, let dir = defaultDirectory() else { return nil }
        return ServerPaths(directory: dir.path, display: d, host: dir.inHome ? hostName() : nil)
    }

    /// The Wayland display whose server serves this process's HUDs: `$WAYLAND_DISPLAY` (or
    /// libwayland's default under `XHUD_BACKEND=wayland`), nil under `XHUD_BACKEND=x11`.
    package static var waylandDisplay: String? {
        let backend = Environment.value("XHUD_BACKEND")
        guard backend != "x11" else { return nil }
        return Environment.value("WAYLAND_DISPLAY").flatMap { $0.isEmpty ? nil : $0 } ?? (backend == "wayland" ? "wayland-0" : nil)
    }

    /// What is wrong with a display name, nil when Xlib could open it: `[HOST]:NUMBER[.SCREEN]`
    /// (the host may hold colons: IPv6, DECnet's `::`), at most 255 bytes before the colon.
    package static func displayProblem(_ display: String) -> String? {
        let bytes = Array(display.utf8)
        if bytes.count > 300 { return "DISPLAY is \(bytes.count) bytes long; a display's name is at most 300" }
        guard let colon = bytes.lastIndex(of: UInt8(ascii: ":")) else { return "DISPLAY has no ':' before the display's number" }
        let number = bytes[(colon + 1)...].split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let digits = { (part: ArraySlice<UInt8>) in !part.isEmpty && part.count <= 9 && part.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard let first = number.first, digits(first), number.count == 1 || digits(number[1]) else {
            return "DISPLAY must end in ':NUMBER' or ':NUMBER.SCREEN'"
        }
        if bytes.contains(0) || bytes.contains(where: { $0 < 0x20 }) { return "DISPLAY holds control characters" }
        return nil
    }

    private static func passwdHome() -> String? {
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    private static func hostName() -> String {
        var buf = [CChar](repeating: 0, count: 256)
        guard gethostname(&buf, 255) == 0 else { return "" }
        return String(nulTerminated: buf)
    }

    /// ":0.0" and ":0" name one server ("0"); "host:10.0" becomes "host_10". The screen number is
    /// dropped because a HUD picks its monitor itself.
    package static func key(forDisplay display: String) -> String {
        // Bytes, not Characters: every client start runs this, and grapheme breaking was three
        // quarters of its path handling.
        var name = Array(display.utf8)
        if let colon = name.lastIndex(of: UInt8(ascii: ":")) {
            var number = name[(colon + 1)...]
            if let dot = number.firstIndex(of: UInt8(ascii: ".")) { number = number[..<dot] }
            name = colon == 0 ? Array(number) : name[..<colon] + [UInt8(ascii: "_")] + number
        }
        var safe: [UInt8] = []
        for b in name where b & 0xC0 != 0x80 {  // one "_" for each character outside ASCII
            let letter = (b | 0x20) >= UInt8(ascii: "a") && (b | 0x20) <= UInt8(ascii: "z")
            let digit = b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
            safe.append(letter || digit || b == UInt8(ascii: "-") || b == UInt8(ascii: "_") || b == UInt8(ascii: ".") ? b : UInt8(ascii: "_"))
        }
        let s = String(decoding: safe, as: UTF8.self)
        return s.isEmpty || s.hasPrefix(".") ? "_" + s : s
    }

    /// Creates the directory (and a missing parent such as ~/.cache) if needed and checks that
    /// only this user can use it.
    package func preparePrivateDirectory() throws(ServerError) {
        if let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
            let parent = String(directory[..<slash])
            if access(parent, F_OK) != 0 { _ = mkdir(parent, 0o700) }
        }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .unsafeDirectory(directory, "cannot create it: \(String(cString: strerror(errno)))")
        }
        try checkPrivateDirectory()
    }

    package func checkPrivateDirectory() throws(ServerError) {
        var st = stat()
        guard lstat(directory, &st) == 0 else {
            if errno == ENOENT { throw .noServer }  // no directory: no server ever ran here
            throw .unsafeDirectory(directory, String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .unsafeDirectory(directory, "not a directory") }
        guard st.st_uid == getuid() else { throw .unsafeDirectory(directory, "owned by another user") }
        guard st.st_mode & 0o077 == 0 else { throw .unsafeDirectory(directory, "others can access it (expected mode 0700)") }
        // A parent others may write to without the sticky bit lets them rename this directory
        // and put their own in its place between this check and the connection.
        if let slash = directory.lastIndex(of: "/"), slash != directory.startIndex {
            var parent = stat()
            let path = String(directory[..<slash])
            if stat(path, &parent) == 0, parent.st_mode & 0o022 != 0, parent.st_mode & S_ISVTX == 0 {
                throw .unsafeDirectory(directory, "others can write to \(path) (expected mode 0700, or the sticky bit)")
            }
        }
    }
}

package enum ServerError: Error, CustomStringConvertible, Equatable {
    case unsafeDirectory(String, String)
    case noServer
    /// The server closed the connection before replying (it was on its way out).
    case closed
    case io(String)
    case protocolError(String)

    package var description: String {
        switch self {
        case .unsafeDirectory(let d, let why): return "refusing socket directory \(d): \(why)"
        case .noServer: return "no xhud server for this display"
        case .closed: return "the xhud server closed the connection"
        case .io(let s): return s
        case .protocolError(let s): return "bad message: \(s)"
        }
    }
}
