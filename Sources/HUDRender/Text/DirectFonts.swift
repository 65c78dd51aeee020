#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CDirectText
import CFontMatch
import HUDCore
import HUDSystem

/// The fonts of every renderer in the process, one per description (a server's HUDs each have
/// a renderer: each new HUD would otherwise match and open its font again). Fonts do not change
/// once opened, so any thread may use one; the table is behind a lock. Kept for the process's
/// life, like Pango's font map, up to a bound: a program cycling through font descriptions
/// must not grow it (beyond it, new descriptions are Pango's, whose caches are its own).
///
/// A font opens from its kept match (FontMatchCache) when the process read one that holds, so
/// the first label needs no configuration; otherwise from fontconfig's match. `settle` checks
/// the kept matches once the configuration is loaded and keeps the new ones.
enum DirectFonts {
    nonisolated(unsafe) private static var fonts: [String: OpaquePointer?] = [:]
    /// The matches read from the file (nil: none, or they no longer hold).
    nonisolated(unsafe) private static var kept: [String: String]?
    /// Guards `fonts` and `kept`.
    private static let lock = Locked()
    static let limit = 64

    /// The options PangoText's context has for the image surfaces HUDs are drawn into: the
    /// surface's own, with unhinted metrics, slight hinting and grey antialiasing over them.
    /// Part of every match (fontconfig's rules see them), so one set for the process.
    nonisolated(unsafe) static let options: OpaquePointer = {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        let options = cairo_font_options_create()!
        cairo_surface_get_font_options(surface, options)
        cairo_surface_destroy(surface)
        let mine = PangoText.fontOptions()
        cairo_font_options_merge(options, mine)
        cairo_font_options_destroy(mine)
        return options
    }()

    /// Reads the kept matches: true when they hold (the first text then needs no configuration
    /// if its font is among them). Before the first font (FontWarmup.start's thread; fonts wait
    /// for it).
    static func readKeptMatches() -> Bool {
        let read = FontMatchCache.read()
        lock.lock()
        defer { lock.unlock() }
        kept = read
        return read != nil
    }

    /// Whether the font helper is still answering: FontWarmup.start's thread adds its matches to
    /// `kept` as they come, the label's first, and a font not among them waits for its line or
    /// the end (`helperAnswered`).
    nonisolated(unsafe) private static var helperAnswering = false
    private static let helperDescriptions = Set(FontDescription.defaults)
    private static let helperAnswered = Condition()

    /// The font helper's matches are to come (before the first font: FontWarmup.start's thread).
    static func expectHelperMatches() {
        lock.withLock {
            kept = [:]
            helperAnswering = true
        }
    }

    /// Takes the font helper's matches from a pipe (its output) as they come, as kept matches
    /// that hold. Waits for the helper's end, at most `seconds` (it reads fontconfig's
    /// configuration, as the server would otherwise); a line that is not a font's match ends it.
    static func takeHelperMatches(from fd: Int32, within seconds: Double = 2) {
        _ = Descriptor.readLines(fd, limit: 1 << 20, within: seconds) { line in
            guard let (description, match) = FontMatchCache.helperMatch(line) else { return false }
            lock.withLock { kept?[description] = match }
            helperAnswered.signal()
            return true
        }
        close(fd)
        lock.withLock {
            helperAnswering = false
            if kept?.isEmpty == true { kept = nil }
        }
        helperAnswered.signal()
    }

    static func font(_ description: String) -> OpaquePointer? {
        FontWarmup.waitForKeptMatches()
        lock.lock()
        defer { lock.unlock() }
        if let known = fonts[description] { return known }
        guard fonts.count < limit else { return nil }
        // The helper answers the default fonts only: another (a user's own) is matched here at once.
        while helperAnswering, kept?[description] == nil, helperDescriptions.contains(description) {
            lock.wait(on: helperAnswered)
        }
        var font: OpaquePointer?
        if let match = kept?[description] { font = xhud_direct_font_open_match(match, options) }
        if font == nil, let d = FontDescription(description) {
            FontWarmup.waitForConfiguration()  // the match needs it; it may be loading on the warm-up thread
            font = xhud_direct_font_open(d.families, d.weight, d.slant, d.width, d.pixelSize, FontDescription.dpi, options)
        }
        fonts[description] = font
        return font
    }

    /// Matches every description seen (kept or opened) and the default ones against the
    /// configuration as it is now (loading it if no one has) and writes the file unless it holds
    /// just these matches.
    /// A description whose kept match no longer holds opens its new font for the text to come;
    /// the old font stays open (lines shaped with it may still be drawn). Any thread; slow
    /// (fontconfig's configuration, a match per description): not on a frame's path.
    static func settle() {
        lock.lock()
        let opened = fonts
        let read = kept
        lock.unlock()
        var matches: [String: String] = [:]
        var files: [String] = []
        // The default fonts too, drawn or not: a cold HUD's details, button or value finds its
        // font kept as well as its label's.
        let descriptions = Set(opened.keys).union((read ?? [:]).keys).union(FontDescription.defaults)
        for description in descriptions.sorted().prefix(limit) {
            guard let d = FontDescription(description),
                let text = xhud_font_match(d.families, d.weight, d.slant, d.width, d.pixelSize, FontDescription.dpi, nil)
            else { continue }
            matches[description] = String(cString: text)
            if let file = xhud_direct_match_file(text) {
                files.append(String(cString: file))
                free(file)
            }
            free(text)
        }
        lock.lock()
        for (description, match) in matches where read?[description] != nil && read?[description] != match {
            if fonts[description] != nil { fonts[description] = xhud_direct_font_open_match(match, options) }
        }
        kept = matches
        lock.unlock()
        // Written unless the file holds these very matches now (another server may have written
        // it meanwhile, or someone removed it).
        guard FontMatchCache.read() != matches else { return }
        var configurationFiles: [String] = [], directories: [String] = []
        if let list = xhud_fontconfig_sources() {
            for line in String(cString: list).split(separator: "\n") where line.count > 2 {
                if line.hasPrefix("f ") {
                    configurationFiles.append(String(line.dropFirst(2)))
                } else {
                    directories.append(String(line.dropFirst(2)))
                }
            }
            free(list)
        }
        FontMatchCache.write(matches, configurationFiles: configurationFiles, directories: directories, fontFiles: files)
    }
}
