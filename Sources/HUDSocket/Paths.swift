#if canImport(Glibc)
import Glibc
#endif

/// Where a display's named-HUD server listens: `$XDG_RUNTIME_DIR/xhud/<display>.sock`, next to
/// the lock its server holds for life. The directory is private to the user (0700, owned by
/// them); anything else there is refused rather than trusted.
public struct ServerPaths: Equatable, Sendable {
    public let directory: String
    public let socket: String
    public let lock: String

    public init(directory: String, display: String) {
        self.directory = directory
        let key = ServerPaths.key(forDisplay: display)
        socket = directory + "/" + key + ".sock"
        lock = directory + "/" + key + ".lock"
    }

    /// `$XDG_RUNTIME_DIR/xhud`, or `/tmp/xhud-UID` without a runtime directory.
    public static func defaultDirectory() -> String {
        if let r = getenv("XDG_RUNTIME_DIR"), r.pointee != 0 { return String(cString: r) + "/xhud" }
        return "/tmp/xhud-\(getuid())"
    }

    /// The paths for `$DISPLAY` (nil when it is unset: there is no display to serve).
    public static func current() -> ServerPaths? {
        guard let d = getenv("DISPLAY"), d.pointee != 0 else { return nil }
        return ServerPaths(directory: defaultDirectory(), display: String(cString: d))
    }

    /// ":0.0" and ":0" name one server ("0"); "host:10.0" becomes "host_10". The screen number is
    /// dropped because a HUD picks its monitor itself.
    public static func key(forDisplay display: String) -> String {
        var name = Substring(display)
        if let colon = name.lastIndex(of: ":") {
            let host = name[..<colon]
            var number = name[name.index(after: colon)...]
            if let dot = number.firstIndex(of: ".") { number = number[..<dot] }
            name = host.isEmpty ? number : host + "_" + number
        }
        let safe = name.map { c -> Character in
            c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "_"
        }
        let s = String(safe)
        return s.isEmpty || s.hasPrefix(".") ? "_" + s : s
    }

    /// Creates the directory if needed and checks that only this user can use it.
    public func preparePrivateDirectory() throws(ServerError) {
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .unsafeDirectory(directory, "cannot create it: \(String(cString: strerror(errno)))")
        }
        try checkPrivateDirectory()
    }

    public func checkPrivateDirectory() throws(ServerError) {
        var st = stat()
        guard lstat(directory, &st) == 0 else {
            if errno == ENOENT { throw .noServer }   // no directory: no server ever ran here
            throw .unsafeDirectory(directory, String(cString: strerror(errno)))
        }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { throw .unsafeDirectory(directory, "not a directory") }
        guard st.st_uid == getuid() else { throw .unsafeDirectory(directory, "owned by another user") }
        guard st.st_mode & 0o077 == 0 else { throw .unsafeDirectory(directory, "others can access it (expected mode 0700)") }
    }
}

public enum ServerError: Error, CustomStringConvertible, Equatable {
    case unsafeDirectory(String, String)
    case noServer
    /// The server closed the connection before replying (it was on its way out).
    case closed
    case io(String)
    case protocolError(String)

    public var description: String {
        switch self {
        case .unsafeDirectory(let d, let why): return "refusing socket directory \(d): \(why)"
        case .noServer: return "no xhud server for this display"
        case .closed: return "the xhud server closed the connection"
        case .io(let s): return s
        case .protocolError(let s): return "bad message: \(s)"
        }
    }
}
