#if canImport(Glibc)
import Glibc
#endif
import CDirectText
import HUDSystem

/// fontconfig's matches for label fonts, kept on disk from one server to the next: a server
/// started for a waiting client opens its label's font from the kept match and draws its first
/// frame without waiting for fontconfig to read its configuration (48 XML files and the font
/// caches, 3-4 ms, the longest part of a cold start).
///
/// A kept match holds while nothing it was made from has changed, which the file records and a
/// reader checks with `stat` (about 80 paths, 0.1 ms): every configuration file fontconfig read
/// and its directory (a file added to `conf.d` changes the directory), the user's configuration
/// places even where absent, every font directory (a font installed or removed changes its
/// directory), each matched font's file, the environment fontconfig reads and its version. A
/// change outside all of these (a configuration included from elsewhere and edited in place)
/// is what the server's check after its first frames is for (`FontWarmup.settle`): it matches
/// every kept description again and writes the file anew when anything differs.
///
/// The file: `$XDG_CACHE_HOME/xhud/fonts/matches` (or `~/.cache/...`; a private directory of
/// the user's own, `PrivateCache`), written whole, so a reader sees one version or the other.
enum FontMatchCache {
    static let header = "xhud font matches 1"
    /// What fontconfig reads from the environment (fcinit.c, fccfg.c, fclang.c).
    static let environment = [
        "FONTCONFIG_FILE", "FONTCONFIG_PATH", "FONTCONFIG_SYSROOT", "FC_LANG",
        "LC_ALL", "LC_CTYPE", "LANG", "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
    ]

    static var path: String? { PrivateCache.fontMatchesPath }

    /// The kept matches (description -> match text) if the file is there and still holds.
    static func read(from path: String? = FontMatchCache.path) -> [String: String]? {
        guard let path, case .text(let text) = FileText.read(path, limit: 4 << 20, ownOnly: true) else { return nil }
        // Lines and fields are found in the UTF-8 bytes: a Character walk (grapheme breaking)
        // over the matches' long lines took a millisecond on the way to a cold first frame.
        var lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Substring.init)[...]
        guard lines.popFirst() == Substring(header) else { return nil }
        var expected = stampHead()[...]
        var matches: [String: String] = [:]
        var stamped = Set<String>()
        for line in lines where !line.isEmpty {
            if line.utf8.starts(with: "font ".utf8) {
                guard let (description, match) = fontLine(line) else { return nil }
                matches[description] = match
            } else if line.utf8.starts(with: "stat ".utf8) {
                guard let space = line.utf8.dropFirst(5).firstIndex(of: UInt8(ascii: " ")) else { return nil }
                let path = String(line[line.utf8.index(after: space)...])
                guard String(line) == stampLine(path) else { return nil }
                stamped.insert(path)
            } else {
                // The environment and fontconfig's version, in the order they were written.
                guard expected.popFirst() == String(line) else { return nil }
            }
        }
        guard expected.isEmpty else { return nil }
        // Every font file a match names is among the stamps, and a regular file of a font's
        // size: a match naming a FIFO or a device would block or eat every server that reads it.
        for match in matches.values {
            guard let file = xhud_direct_match_file(match) else { return nil }
            let path = String(cString: file)
            free(file)
            guard stamped.contains(path), isFontFile(path) else { return nil }
        }
        return matches
    }

    /// "font DESCRIPTION<TAB>MATCH": a kept match's line, and the font helper's.
    private static func fontLine(_ line: Substring) -> (String, String)? {
        guard line.utf8.starts(with: "font ".utf8), let tab = line.utf8.firstIndex(of: UInt8(ascii: "\t")) else { return nil }
        return (String(line[line.utf8.index(line.startIndex, offsetBy: 5)..<tab]), String(line[line.utf8.index(after: tab)...]))
    }

    /// One of the font helper's lines (xhud-fonts, which a client starts beside a server that
    /// has none kept): a description and its match, or nil. They are fontconfig's answers of a
    /// moment ago, so they hold as kept ones that hold do; opening one checks its file, and the
    /// server's check after its first frames keeps them.
    static func helperMatch(_ line: [UInt8]) -> (description: String, match: String)? {
        String(validating: line, as: UTF8.self).flatMap { fontLine(Substring($0)) }
    }

    static func isFontFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_size <= XHUD_MAX_FONT_BYTES
    }

    /// Writes the matches with what they depend on now: fontconfig's configuration files and
    /// directories (`xhud_fontconfig_sources`), the matched fonts' files. False if it could not.
    @discardableResult
    static func write(
        _ matches: [String: String], configurationFiles: [String], directories: [String],
        fontFiles: [String], to path: String? = FontMatchCache.path
    ) -> Bool {
        guard let path else { return false }
        var paths: [String] = []
        var seen = Set<String>()
        func add(_ p: String) { if !p.isEmpty, seen.insert(p).inserted { paths.append(p) } }
        let home = Environment.raw("HOME")
        for f in configurationFiles {
            add(f)
            // Its directory (a file added to conf.d), unless that is the home directory
            // (~/.fonts.conf), which changes with every file made in it.
            let dir = directory(of: f)
            if dir != home { add(dir) }
        }
        for d in directories { add(d) }
        for p in userConfigurationPlaces() { add(p) }
        for f in fontFiles { add(f) }
        var text = header + "\n" + stampHead().joined(separator: "\n") + "\n"
        for p in paths {
            guard !p.contains("\n") else { return false }
            text += stampLine(p) + "\n"
        }
        for (description, match) in matches.sorted(by: { $0.key < $1.key }) {
            guard !description.contains("\n"), !description.contains("\t"), !match.contains("\n") else { continue }
            text += "font \(description)\t\(match)\n"
        }
        return PrivateCache.write(text, to: path)
    }

    /// The environment's lines and fontconfig's version: the part of the stamp that is no file.
    private static func stampHead() -> [String] {
        environment.map { name in "env \(name)" + (Environment.raw(name).map { "=" + $0 } ?? "") }
            .map { $0.replacingNewlines() } + ["fontconfig \(xhud_fontconfig_version())"]
    }

    /// A path's identity now (device, inode, size, modification time), or its absence.
    static func stampLine(_ path: String) -> String {
        let stamp = FileText.stamp(path)
        return "stat " + (stamp.isEmpty ? "-" : stamp.map(String.init).joined(separator: ",")) + " " + path
    }

    /// Where fontconfig looks for a user's configuration (its default fonts.conf includes them),
    /// kept even where absent: creating one changes what matches.
    private static func userConfigurationPlaces() -> [String] {
        var places: [String] = []
        let home = Environment.raw("HOME")
        let config = Environment.raw("XDG_CONFIG_HOME") ?? home.map { $0 + "/.config" }
        if let config {
            // Not `config` itself: every program that makes its folder there changes it.
            places += [config + "/fontconfig", config + "/fontconfig/fonts.conf", config + "/fontconfig/conf.d"]
        }
        if let home { places += [home + "/.fonts.conf", home + "/.fonts.conf.d", home + "/.fonts"] }
        return places
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "" }
        return String(path[..<slash])
    }
}

private extension String {
    func replacingNewlines() -> String { String(map { $0 == "\n" ? " " : $0 }) }
}
