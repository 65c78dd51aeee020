#if canImport(Glibc)
import HUDSystem
import Glibc
#endif
/// Finds a freedesktop icon by name (`audio-volume-high`, `dialog-information`) as the XDG icon
/// theme specification says: the user's theme, the themes it inherits, hicolor; the directory
/// whose size matches, else the closest; PNG or SVG; then `/usr/share/pixmaps`. Names that are not
/// found are tried with their last `-part` removed (`audio-volume-high` → `audio-volume`), then as
/// symbolic icons, as GTK does.
package enum IconTheme {
    /// Resolves `name` for a box of `size` logical pixels at `scale`; nil when no theme has it.
    package static func lookup(_ name: String, size: Int, scale: Int, theme: String? = nil) -> String? {
        guard isIconName(name) else { return nil }
        // A server answers a key press with the same icon many times: the answer is kept (for
        // the process; a theme installed meanwhile is seen by the next server).
        let key = "\(name) \(size) \(scale) \(theme ?? "")"
        if let hit = cacheLock.withLock({ cache[key] }) { return hit }
        let found = search(name, size: size, scale: scale, theme: theme)
        cacheLock.withLock {
            if cache.count > 256 { cache.removeAll() }; cache[key] = found
        }
        return found
    }

    /// What `lookup` would answer without reading anything: nil when it has not looked yet,
    /// `.some(nil)` when no theme has the name.
    package static func cached(_ name: String, size: Int, scale: Int, theme: String? = nil) -> String?? {
        let key = "\(name) \(size) \(scale) \(theme ?? "")"
        return cacheLock.withLock { cache[key] }
    }

    /// Keeps what another process found for `lookup`'s question.
    package static func remember(_ name: String, size: Int, scale: Int, theme: String?, found: String?) {
        let key = "\(name) \(size) \(scale) \(theme ?? "")"
        cacheLock.withLock {
            if cache.count > 256 { cache.removeAll() }; cache[key] = .some(found)
        }
    }

    nonisolated(unsafe) private static var cache: [String: String?] = [:]
    private static let cacheLock = Locked()

    /// Names longer than this are no icon names (the longest freedesktop names are about 40).
    static let maxNameLength = 128
    /// At most this many shorter names are tried (`a-b-c-d` -> `a-b-c`, `a-b`, `a`): a name of a
    /// hundred dashes costs what one of a few does.
    static let maxFallbacks = 8

    private static func search(_ name: String, size: Int, scale: Int, theme: String?) -> String? {
        guard name.utf8.count <= maxNameLength else { return nil }
        let themes = searchOrder(theme: theme)
        var candidates: [String] = []
        var n = Substring(name)
        while candidates.count <= maxFallbacks {
            candidates.append(String(n))
            guard let dash = n.lastIndex(of: "-") else { break }
            n = n[..<dash]
        }
        candidates += candidates.map { $0 + "-symbolic" }
        // The first candidate that is sharp at this size wins; a bitmap that would be scaled up
        // is kept only in case no candidate (a symbolic SVG, say) is sharp.
        var poor: String?
        for candidate in candidates {
            for t in themes {
                var seen: Set<String> = []
                guard let found = find(candidate, size: size, scale: scale, theme: t, visited: &seen) else { continue }
                if !found.upscaled { return found.path }
                if poor == nil { poor = found.path }
            }
        }
        if let poor { return poor }
        for ext in ["png", "svg"] {
            let p = "/usr/share/pixmaps/\(name).\(ext)"
            if Locations.isFile(p) { return p }
        }
        return nil
    }

    /// The themes a name is looked for in, in order (then `/usr/share/pixmaps`).
    package static func searchOrder(theme: String?) -> [String] {
        var themes: [String] = []
        for t in [theme ?? userTheme, "hicolor", "Adwaita"].compactMap({ $0 }) where !themes.contains(t) { themes.append(t) }
        return themes
    }

    /// An icon name has no slash and no image extension (anything else is a path).
    package static func isIconName(_ s: String) -> Bool {
        !s.isEmpty && !s.contains("/") && !s.hasSuffix(".png") && !s.hasSuffix(".svg") && !s.hasPrefix(".")
            && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.+".contains($0)) }
    }

    /// The user's icon theme: `XHUD_ICON_THEME`, else GTK's setting (`gtk-icon-theme-name` in
    /// `gtk-3.0/settings.ini` or `gtk-4.0/settings.ini`).
    package static var userTheme: String? {
        if let t = Environment.value("XHUD_ICON_THEME") { return t }
        for dir in [Locations.configHome].compactMap({ $0 }) + Locations.configDirs {
            for gtk in ["gtk-3.0", "gtk-4.0"] {
                guard case .text(let text) = FileText.read(dir + "/" + gtk + "/settings.ini", limit: 1 << 16) else { continue }
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmed }
                    if parts.count == 2, parts[0] == "gtk-icon-theme-name", !parts[1].isEmpty {
                        return parts[1].trimmingQuotes
                    }
                }
            }
        }
        return nil
    }

    /// The directories a theme's files may be in: `~/.icons`, then `$XDG_DATA_DIRS/icons`.
    static var baseDirectories: [String] {
        (Locations.home.map { [$0 + "/.icons"] } ?? []) + Locations.dataDirs.map { $0 + "/icons" }
    }

    struct SubDirectory {
        var name: String
        var size = 48, scale = 1, minSize = 48, maxSize = 48, threshold = 2
        var type = "Threshold"

        func matches(_ s: Int, _ k: Int) -> Bool {
            guard scale == k else { return false }
            switch type {
            case "Fixed": return size == s
            case "Scalable": return minSize <= s && s <= maxSize
            default: return size - threshold <= s && s <= size + threshold
            }
        }

        func distance(_ s: Int, _ k: Int) -> Int {
            switch type {
            case "Fixed": return abs(size * scale - s * k)
            case "Scalable":
                if s * k < minSize * scale { return minSize * scale - s * k }
                if s * k > maxSize * scale { return s * k - maxSize * scale }
                return 0
            default:
                if s * k < (size - threshold) * scale { return minSize * scale - s * k }
                if s * k > (size + threshold) * scale { return s * k - maxSize * scale }
                return 0
            }
        }
    }

    struct Index {
        var inherits: [String] = []
        var directories: [SubDirectory] = []
    }

    /// A theme's parsed index, kept for the process (a server answers many key presses with one
    /// theme; a theme installed meanwhile is seen by the next server).
    static func index(of theme: String) -> Index? {
        let key = baseDirectories.joined(separator: ":") + "\n" + theme
        if let known = cacheLock.withLock({ indexes[key] }) { return known }
        let parsed = parseIndex(of: theme)
        cacheLock.withLock {
            if indexes.count > 64 { indexes.removeAll() }; indexes[key] = .some(parsed)
        }
        return parsed
    }

    nonisolated(unsafe) private static var indexes: [String: Index?] = [:]
    nonisolated(unsafe) private static var listings: [String: Set<String>] = [:]

    /// An index larger than this is no theme's (hicolor's, with 650 directories, is 55 KB).
    static let maxIndexBytes = 256 << 10
    /// Directories of a theme looked in, at most.
    static let maxDirectories = 1024
    /// A theme keeps its inherited themes to this many (an index naming thousands is no theme).
    static let maxInherits = 16

    /// The image files in a theme's directory, read once: a lookup is then a few set look-ups
    /// per directory, not a stat of every directory for every name tried.
    static func files(in directory: String) -> Set<String> {
        if let known = cacheLock.withLock({ listings[directory] }) { return known }
        let names = Set(Directory.names(at: directory).filter { $0.hasSuffix(".png") || $0.hasSuffix(".svg") })
        cacheLock.withLock {
            if listings.count > 4096 { listings.removeAll() }; listings[directory] = names
        }
        return names
    }

    private static func parseIndex(of theme: String) -> Index? {
        guard !theme.contains("/"), theme != "..", theme != "." else { return nil }
        for base in baseDirectories {
            guard case .text(let text) = FileText.read(base + "/" + theme + "/index.theme", limit: maxIndexBytes) else { continue }
            var index = Index()
            var groups: [String: [String: String]] = [:]
            var group = ""
            for raw in text.split(separator: "\n") {
                let line = raw.trimmed
                if line.hasPrefix("[") && line.hasSuffix("]") { group = String(line.dropFirst().dropLast()); continue }
                let kv = line.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { groups[group, default: [:]][kv[0].trimmed] = kv[1].trimmed }
            }
            let main = groups["Icon Theme"] ?? [:]
            index.inherits = Array(
                (main["Inherits"] ?? "").split(separator: ",").lazy.map { $0.trimmed }.filter { !$0.isEmpty }
                    .prefix(maxInherits))
            let names = ((main["Directories"] ?? "") + "," + (main["ScaledDirectories"] ?? "")).split(separator: ",").lazy
                .map { $0.trimmed }.filter { !$0.isEmpty }.prefix(maxDirectories)
            for name in names {
                guard let g = groups[name], let size = g["Size"].flatMap({ Int($0) }) else { continue }
                var d = SubDirectory(name: name, size: size)
                d.scale = g["Scale"].flatMap { Int($0) } ?? 1
                d.type = g["Type"] ?? "Threshold"
                d.minSize = g["MinSize"].flatMap { Int($0) } ?? size
                d.maxSize = g["MaxSize"].flatMap { Int($0) } ?? size
                d.threshold = g["Threshold"].flatMap { Int($0) } ?? 2
                index.directories.append(d)
            }
            return index
        }
        return nil
    }

    /// The theme's best file for the size: a directory that matches it exactly, else an SVG (crisp
    /// at any size), else the smallest bitmap at least as large (scaled down, not up), else the
    /// largest. The spec's "closest" would upscale a 32 px bitmap for a 37 px box.
    static func find(_ name: String, size: Int, scale: Int, theme: String, visited: inout Set<String>) -> (path: String, upscaled: Bool)? {
        guard visited.insert(theme).inserted, visited.count < 16, let index = index(of: theme) else { return nil }
        let roots = baseDirectories.map { $0 + "/" + theme }.filter(Locations.isDirectory)
        let needed = size * scale
        var best: (path: String, score: Int)?
        for d in index.directories {
            for root in roots {
                let present = files(in: root + "/" + d.name)
                for ext in ["svg", "png"] {
                    guard present.contains(name + "." + ext) else { continue }
                    let path = "\(root)/\(d.name)/\(name).\(ext)"
                    guard Locations.isFile(path) else { continue }
                    if d.matches(size, scale) && (ext == "svg" || d.type != "Scalable") { return (path, false) }
                    let pixels = d.type == "Scalable" ? d.maxSize * d.scale : d.size * d.scale
                    let score =
                        ext == "svg" && pixels >= needed
                        ? 0
                        : pixels >= needed ? 1 + pixels - needed : 100_000 + needed - pixels
                    if best == nil || score < best!.score { best = (path, score) }
                }
            }
        }
        if let best { return (best.path, best.score >= 100_000) }
        for parent in index.inherits {
            if let p = find(name, size: size, scale: scale, theme: parent, visited: &visited) { return p }
        }
        return nil
    }
}

extension StringProtocol {
    var trimmingQuotes: String {
        let s = String(self)
        return s.count >= 2 && s.hasPrefix("\"") && s.hasSuffix("\"") ? String(s.dropFirst().dropLast()) : s
    }
}
