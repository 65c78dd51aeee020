#if canImport(Glibc)
import Glibc
#endif
import HUDSettings

/// Images given to the library as a file or as a freedesktop icon name, resolved as the command
/// line resolves them.
enum ImageNames {
    /// The file to draw for `image`: a file that exists, or anything that is not an icon name,
    /// as it is (a bad path is reported where it is drawn or checked); an icon name
    /// (`dialog-information`, `emblem-ok-symbolic`) through the user's icon theme, looked up for
    /// a box of `box` logical pixels at twice the size (sharp on a HiDPI screen). Nil for a name
    /// that no theme has.
    static func resolve(_ image: String, box: Double) -> (path: String, symbolic: Bool)? {
        if access(image, F_OK) == 0 || !IconTheme.isIconName(image) { return (image, false) }
        let size = Int(min(1024, max(1, box * 2)).rounded(.up))
        guard let found = IconTheme.lookup(image, size: size, scale: 1) else { return nil }
        return (found, found.contains("-symbolic"))
    }

    /// What to say about a name no theme has.
    static func notFound(_ name: String) -> String {
        let themes = IconTheme.searchOrder(theme: nil).joined(separator: ", ")
        return "no icon '\(name)' in the icon themes \(themes) or /usr/share/pixmaps (and no such file)"
    }
}
