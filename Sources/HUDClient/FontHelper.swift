#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDSocket
import HUDSystem

/// xhud-fonts (see its main.c), started beside a server this client starts when no font matches
/// are kept (a first start ever, a new user): fontconfig reads its configuration in the helper,
/// which loads fast, while the server's libraries are mapped, and the server takes the matches
/// from the pipe instead of reading it itself on the way to its first frame.
enum FontHelper {
    /// The helper to start beside the server `host` (nil when matches are kept, or no helper is
    /// found: the server then matches its fonts itself).
    static func beside(host: String) -> (path: String, arguments: [String])? {
        guard !PrivateCache.fontMatchesKept, let helper = path() else { return nil }
        return (helper, arguments(host: host))
    }

    /// `$XHUD_FONTS`, next to this executable, or in ../lib/xhud (packaged).
    static func path() -> String? {
        if let path = Environment.value("XHUD_FONTS"), access(path, X_OK) == 0 { return path }
        return Environment.companion("xhud-fonts")
    }

    /// argv: the name fontconfig's rules see the server by (its file's, as fontconfig reads it
    /// from /proc/self/exe), the resolution, then each default font's fields.
    static func arguments(host: String) -> [String] {
        let real =
            realpath(host, nil).map { p in
                defer { free(p) }; return String(cString: p)
            } ?? host
        var argv = ["xhud-fonts", String(real.split(separator: "/").last ?? "xhud-host"), "\(FontDescription.dpi)"]
        for text in FontDescription.defaults {
            guard let d = FontDescription(text) else { continue }
            argv += [text, d.families, "\(d.weight)", "\(d.slant)", "\(d.width)", "\(d.pixelSize)"]
        }
        return argv
    }
}
