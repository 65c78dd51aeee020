#if canImport(Glibc)
import Glibc
#endif

/// A directory's listing, read the one way the package reads one (themes, icon directories,
/// `/proc`, a process's descriptors).
package enum Directory {
    /// The names in the directory at `path`, without `.` and `..`, in the order `readdir` gives
    /// them; none when it cannot be read.
    package static func names(at path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
