#if canImport(Glibc)
import Glibc
#endif

/// The process's environment and its own executable.
package enum Environment {
    /// A variable's value; nil when unset or empty (an empty XDG_* means unset, as the
    /// Base Directory specification says).
    package static func value(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        let s = String(cString: v)
        return s.isEmpty ? nil : s
    }

    /// Whether a variable is set at all (empty included): the switches (`XHUD_STATS`).
    package static func isSet(_ name: String) -> Bool { getenv(name) != nil }

    /// A variable's value as set, empty included (what fontconfig itself would read).
    package static func raw(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

    /// The running program's path (`/proc/self/exe`), nil when it cannot be read.
    package static var executablePath: String? {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One of xhud's programs (`xhud-host`): beside this executable (a build tree, /usr/lib/xhud
    /// itself) or in `../lib/xhud` (the command in /usr/bin).
    package static func companion(_ name: String) -> String? {
        guard let dir = executableDirectory else { return nil }
        return [dir + "/" + name, dir + "/../lib/xhud/" + name].first { access($0, X_OK) == 0 }
    }

    /// The folder the running program is in.
    package static var executableDirectory: String? {
        executablePath.map { path in path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "" }
    }
}

extension Environment {
    /// The working directory, "/" when it cannot be read (it was removed).
    package static var currentDirectory: String {
        var buf = [CChar](repeating: 0, count: 4096)
        return getcwd(&buf, buf.count) != nil ? String(nulTerminated: buf) : "/"
    }
}

extension String {
    /// The text of a C buffer up to its first NUL (or all of it), as UTF-8.
    package init(nulTerminated buffer: [CChar]) {
        let end = buffer.firstIndex(of: 0) ?? buffer.endIndex
        self = String(decoding: buffer[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
