import CCairo
import CDirectText
import CFontMatch
import Foundation
import Glibc
import HUDCore
@testable import HUDRender
import XCTest

/// Kept font matches: what a cold server draws its first label with before fontconfig has read
/// its configuration. They must draw what the match they were kept from draws, and must not be
/// read once anything they were made from has changed.
final class FontMatchCacheTests: XCTestCase {
    private var dir = ""

    override func setUp() {
        var template = Array("/tmp/xhud-fontmatch-XXXXXX".utf8CString)
        dir = String(cString: mkdtemp(&template))
    }

    override func tearDown() {
        _ = system("rm -rf '\(dir)'")
    }

    private func touch(_ path: String, _ text: String = "x") {
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
    }

    func testMatchesReadBackWhileNothingTheyWereMadeFromChanges() {
        let file = dir + "/font-matches"
        let conf = dir + "/conf"
        mkdir(conf, 0o755)
        touch(conf + "/fonts.conf")
        touch(dir + "/a.ttf"); touch(dir + "/b:c.ttf")
        let matches = ["Sans Bold 16px": "DejaVu Sans:file=\(dir)/a.ttf", "Serif 12px": "DejaVu Serif:file=\(dir)/b\\:c.ttf"]
        let fonts = [dir + "/a.ttf", dir + "/b:c.ttf"]
        XCTAssertTrue(
            FontMatchCache.write(matches, configurationFiles: [conf + "/fonts.conf"], directories: [dir + "/absent"], fontFiles: fonts, to: file))
        XCTAssertEqual(FontMatchCache.read(from: file), matches)

        // A configuration file edited: no longer read.
        usleep(10_000)
        touch(conf + "/fonts.conf", "changed")
        XCTAssertNil(FontMatchCache.read(from: file))

        // A file added beside a configuration file (its directory changes).
        XCTAssertTrue(FontMatchCache.write(matches, configurationFiles: [conf + "/fonts.conf"], directories: [], fontFiles: fonts, to: file))
        XCTAssertEqual(FontMatchCache.read(from: file), matches)
        usleep(10_000)
        touch(conf + "/99-new.conf")
        XCTAssertNil(FontMatchCache.read(from: file))

        // A path that was absent now present.
        XCTAssertTrue(FontMatchCache.write(matches, configurationFiles: [], directories: [dir + "/absent"], fontFiles: fonts, to: file))
        XCTAssertEqual(FontMatchCache.read(from: file), matches)
        touch(dir + "/absent")
        XCTAssertNil(FontMatchCache.read(from: file))
    }

    func testMatchesAreNotReadInAnotherEnvironment() {
        let file = dir + "/font-matches"
        touch(dir + "/a.ttf")
        XCTAssertTrue(
            FontMatchCache.write(["Sans 12px": "x:file=\(dir)/a.ttf"], configurationFiles: [], directories: [], fontFiles: [dir + "/a.ttf"], to: file)
        )
        XCTAssertNotNil(FontMatchCache.read(from: file))
        setenv("FC_LANG", "ja", 1)
        XCTAssertNil(FontMatchCache.read(from: file))
        unsetenv("FC_LANG")
        XCTAssertNotNil(FontMatchCache.read(from: file))
    }

    func testAFileOfAnotherFormatOrCutShortIsNotRead() {
        let file = dir + "/font-matches"
        touch(dir + "/a.ttf")
        XCTAssertTrue(
            FontMatchCache.write(
                ["Sans 12px": "x:file=\(dir)/a.ttf"], configurationFiles: [], directories: [dir + "/fonts"],
                fontFiles: [dir + "/a.ttf"], to: file))
        XCTAssertNotNil(FontMatchCache.read(from: file))  // as written, it holds
        let f = fopen(file, "r")!
        var bytes = [CChar](repeating: 0, count: 65536)
        let n = fread(&bytes, 1, bytes.count, f)
        fclose(f)
        let text = String(decoding: bytes[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        touch(file, "xhud font matches 0" + text.dropFirst(FontMatchCache.header.count))
        XCTAssertNil(FontMatchCache.read(from: file))
        // Cut before its stamps end: the environment lines are incomplete.
        touch(file, String(text.prefix(FontMatchCache.header.count + 20)))
        XCTAssertNil(FontMatchCache.read(from: file))
        touch(file, "")
        XCTAssertNil(FontMatchCache.read(from: file))
        XCTAssertNil(FontMatchCache.read(from: dir + "/none"))
    }

    /// The file is trusted input (it names font files to open): it is kept only in a directory
    /// of the user's own that no one else can write, and a FIFO in its place is no file to read.
    func testOnlyAPrivateDirectoryKeepsMatches() {
        setenv("XDG_CACHE_HOME", dir + "/cache", 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        XCTAssertEqual(FontMatchCache.path, dir + "/cache/xhud/fonts/matches")
        chmod(dir + "/cache/xhud/fonts", 0o777)
        XCTAssertNil(FontMatchCache.path, "a directory others can write")
        chmod(dir + "/cache/xhud/fonts", 0o700)
        XCTAssertNotNil(FontMatchCache.path)
        mkfifo(dir + "/cache/xhud/fonts/matches", 0o600)
        XCTAssertNil(FontMatchCache.read(), "a FIFO read as the file (or waited on)")
    }

    /// A match names a file to open: one that is not a regular file of a font's size (a FIFO
    /// would block every server that reads it, /dev/zero be read to the end of memory) or is
    /// not among the stamps makes the matches unread.
    func testAMatchNamingAFIFOADeviceOrAnUnstampedFileIsNotRead() {
        let file = dir + "/font-matches"
        touch(dir + "/a.ttf")
        mkfifo(dir + "/fifo.ttf", 0o600)
        for (font, why) in [(dir + "/fifo.ttf", "a FIFO"), ("/dev/zero", "a device"), (dir + "/dir.ttf", "a directory")] {
            if why == "a directory" { mkdir(font, 0o700) }
            XCTAssertTrue(
                FontMatchCache.write(
                    ["Sans 12px": "x:file=\(dir)/a.ttf", "Serif 12px": "y:file=\(font)"],
                    configurationFiles: [], directories: [], fontFiles: [dir + "/a.ttf", font], to: file))
            XCTAssertNil(FontMatchCache.read(from: file), why)
        }
        XCTAssertTrue(
            FontMatchCache.write(
                ["Sans 12px": "x:file=\(dir)/a.ttf"], configurationFiles: [], directories: [],
                fontFiles: [], to: file))
        XCTAssertNil(FontMatchCache.read(from: file), "a font file no stamp covers")
        XCTAssertTrue(
            FontMatchCache.write(
                ["Sans 12px": "x:file=\(dir)/a.ttf"], configurationFiles: [], directories: [],
                fontFiles: [dir + "/a.ttf"], to: file))
        XCTAssertNotNil(FontMatchCache.read(from: file))
        // Trusted only as the user's own: another user's file, or one others may write, is not read.
        chmod(file, 0o666)
        XCTAssertNil(FontMatchCache.read(from: file), "a file others may write")
        chmod(file, 0o600)
        XCTAssertNotNil(FontMatchCache.read(from: file))
        if getuid() == 0 {
            chown(file, 54321, 54321)
            XCTAssertNil(FontMatchCache.read(from: file), "another user's file")
        }
    }

    /// A font opened from its match kept as text draws the very pixels of the font opened by
    /// its description: the text round trip keeps the file, the size and the rendering options.
    func testAKeptMatchDrawsWhatTheMatchDraws() {
        for description in ["Sans Bold 16px", "Sans 12", "Serif Italic 15px", "Monospace 11px"] {
            guard let d = FontDescription(description),
                let font = xhud_direct_font_open(
                    d.families, d.weight, d.slant, d.width, d.pixelSize, FontDescription.dpi,
                    DirectFonts.options)
            else { continue }
            let text = xhud_direct_font_match_text(font)!
            let kept = xhud_direct_font_open_match(text, DirectFonts.options)
            XCTAssertNotNil(kept, description)
            XCTAssertEqual(
                String(
                    cString: xhud_font_match(
                        d.families, d.weight, d.slant, d.width, d.pixelSize,
                        FontDescription.dpi, nil)!),
                String(cString: text), "\(description): the match as text is not what the match gives")
            free(text)
            if let kept {
                XCTAssertEqual(draw(font), draw(kept), "\(description): a kept match draws other pixels")
                xhud_direct_font_close(kept)
            }
            xhud_direct_font_close(font)
        }
    }

    /// The server's check runs on its own thread while renderers open and draw fonts on others
    /// (under Thread Sanitizer in scripts/test): it writes every description seen, and what it
    /// writes is read back.
    func testSettlingWhileRenderersDraw() {
        setenv("XDG_CACHE_HOME", dir + "/cache", 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        let descriptions = ["Sans Bold 16px", "Sans 12px", "Serif 14px", "Monospace 12px"]
        let group = DispatchGroup()
        for t in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                let text = HUDText()
                for i in 0..<20 {
                    let r = TextRequest(
                        text: "Thread \(t) \(i)", font: descriptions[(t + i) % descriptions.count], maxWidth: 300,
                        maxHeight: nil, singleLine: true)
                    let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 40)!
                    let cr = cairo_create(s)!
                    text.draw(r, in: Rect(x: 0, y: 0, width: 320, height: 40), cr: cr)
                    cairo_destroy(cr)
                    cairo_surface_destroy(s)
                }
            }
        }
        usleep(2000)
        DirectFonts.settle()
        group.wait()
        DirectFonts.settle()
        let kept = FontMatchCache.read()
        XCTAssertNotNil(kept, "nothing kept, or it does not hold")
        for d in descriptions + FontDescription.defaults {  // and the defaults, drawn or not
            XCTAssertTrue(kept?[d]?.contains(":file=") == true, "\(d) not kept")
        }
    }

    /// A font that was not kept, wanted while the server's check runs: the renderer waits for the
    /// configuration holding the font table's lock, and the check takes that lock once it has
    /// loaded the configuration (which it says first), so neither waits for the other forever.
    func testANewFontWhileTheServerChecksItsKeptMatches() {
        setenv("XDG_CACHE_HOME", dir + "/cache", 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        let done = expectation(description: "fonts opened while the check runs")
        Thread.detachNewThread {
            FontWarmup.settle()
            for size in 17...24 { _ = DirectFonts.font("Sans \(size)px") }
            FontWarmup.join()
            done.fulfill()
        }
        wait(for: [done], timeout: 20)
    }

    private func draw(_ font: OpaquePointer) -> [UInt8] {
        var line = xhud_direct_line()
        XCTAssertEqual(xhud_direct_shape(font, "Kept 42 fi", 10, &line), 1)
        defer { xhud_direct_line_free(&line) }
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 40)!
        defer { cairo_surface_destroy(s) }
        let cr = cairo_create(s)!
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        xhud_direct_show(cr, font, &line, 4.5, 28)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        let n = Int(cairo_image_surface_get_stride(s)) * 40
        return Array(UnsafeBufferPointer(start: cairo_image_surface_get_data(s), count: n))
    }
}
