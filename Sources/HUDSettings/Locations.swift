#if canImport(Glibc)
import Glibc
#endif

/// Where xhud's files are: the user's and the system's configuration (XDG base directories),
/// and its installed data (themes, the example configuration, autostart files).
public enum Locations {
    static func env(_ name: String) -> String? {
        guard let v = getenv(name), v.pointee != 0 else { return nil }
        return String(cString: v)
    }

    /// One of xhud's programs (`xhud-host`): beside this executable (a
    /// build tree, /usr/lib/xhud itself) or in `../lib/xhud` (the command in /usr/bin).
    public static func companion(_ name: String) -> String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let dir = String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)])
        return [dir + "/" + name, dir + "/../lib/xhud/" + name].first { access($0, X_OK) == 0 }
    }

    static var home: String? {
        if let h = env("HOME") { return h }
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// `$XDG_CONFIG_HOME` (`~/.config`): the user's configuration.
    public static var configHome: String? {
        if let c = env("XDG_CONFIG_HOME"), c.hasPrefix("/") { return c }
        return home.map { $0 + "/.config" }
    }

    /// `$XDG_CONFIG_DIRS` (`/etc/xdg`), most important first.
    public static var configDirs: [String] {
        let dirs = (env("XDG_CONFIG_DIRS") ?? "/etc/xdg").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return dirs.isEmpty ? ["/etc/xdg"] : dirs
    }

    /// `$XDG_DATA_HOME` then `$XDG_DATA_DIRS`, most important first (icon themes live there).
    public static var dataDirs: [String] {
        var out: [String] = []
        if let d = env("XDG_DATA_HOME"), d.hasPrefix("/") { out.append(d) } else if let h = home { out.append(h + "/.local/share") }
        let dirs = (env("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        out += dirs.filter { $0.hasPrefix("/") }
        return out
    }

    /// Configuration files, least important first: each of `$XDG_CONFIG_DIRS`, then the user's.
    public static var configFiles: [String] {
        configDirs.reversed().map { $0 + "/xhud/config.toml" } + (configHome.map { [$0 + "/xhud/config.toml"] } ?? [])
    }

    /// xhud's data: `$XHUD_DATA_DIR`; installed, `share/xhud` beside the executable's `bin` or
    /// `lib/xhud`; built from source, the checkout's `Resources` above `.build`.
    public static var dataDirectory: String? {
        if let d = env("XHUD_DATA_DIR") { return d }
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        var candidates: [String] = []
        if n > 0 {
            var dir = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            for up in 0..<6 {
                guard let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                if up < 3 { candidates.append(dir + "/share/xhud") }
                candidates.append(dir + "/Resources")
            }
        }
        candidates += ["/usr/share/xhud", "/usr/local/share/xhud"]
        return candidates.first { isDirectory($0 + "/themes") }
    }

    static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    static func isFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }
}
