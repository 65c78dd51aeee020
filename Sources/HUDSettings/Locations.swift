#if canImport(Glibc)
import Glibc
import HUDSystem
#endif

/// Where xhud's files are: the user's and the system's configuration (XDG base directories),
/// and its installed data (themes, the example configuration, autostart files).
package enum Locations {
    static var home: String? {
        if let h = Environment.value("HOME") { return h }
        guard let pw = getpwuid(getuid()), let dir = pw.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// `$XDG_CONFIG_HOME` (`~/.config`): the user's configuration.
    package static var configHome: String? {
        if let c = Environment.value("XDG_CONFIG_HOME"), c.hasPrefix("/") { return c }
        return home.map { $0 + "/.config" }
    }

    /// `$XDG_CONFIG_DIRS` (`/etc/xdg`), most important first.
    package static var configDirs: [String] {
        let dirs = (Environment.value("XDG_CONFIG_DIRS") ?? "/etc/xdg").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return dirs.isEmpty ? ["/etc/xdg"] : dirs
    }

    /// `$XDG_DATA_HOME` then `$XDG_DATA_DIRS`, most important first (icon themes live there).
    package static var dataDirs: [String] {
        var out: [String] = []
        if let d = Environment.value("XDG_DATA_HOME"), d.hasPrefix("/") { out.append(d) } else if let h = home { out.append(h + "/.local/share") }
        let dirs = (Environment.value("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        out += dirs.filter { $0.hasPrefix("/") }
        return out
    }

    /// Configuration files, least important first: each of `$XDG_CONFIG_DIRS`, then the user's.
    package static var configFiles: [String] {
        configDirs.reversed().map { $0 + "/xhud/config.toml" } + (configHome.map { [$0 + "/xhud/config.toml"] } ?? [])
    }

    /// xhud's data, wherever its binaries are: `$XHUD_DATA_DIR`; beside the executable (its own
    /// folder holding `themes`, `share/xhud` beside its `bin` or `lib/xhud`, a checkout's
    /// `Resources` above `.build`); then `xhud` in the data directories (`$XDG_DATA_HOME`,
    /// `$XDG_DATA_DIRS`: a package installed under any prefix); then `/usr/share/xhud`.
    package static var dataDirectory: String? {
        if let d = Environment.value("XHUD_DATA_DIR") { return d }
        return dataCandidates.first { isDirectory($0 + "/themes") }
    }

    /// The places `dataDirectory` looks, in order.
    static var dataCandidates: [String] {
        var candidates: [String] = []
        if var dir = Environment.executablePath {
            for up in 0..<6 {
                guard let slash = dir.lastIndex(of: "/") else { break }
                dir = String(dir[..<slash])
                if up == 0 { candidates.append(dir) }
                if up < 3 { candidates.append(dir + "/share/xhud") }
                candidates.append(dir + "/Resources")
            }
        }
        candidates += dataDirs.map { $0 + "/xhud" }
        for d in ["/usr/share/xhud", "/usr/local/share/xhud"] where !candidates.contains(d) { candidates.append(d) }
        return candidates
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
