import CCairo
import CDirectText
import CFontMatch
import Foundation
import Glibc
import HUDCore
import HUDSystem
@testable import HUDRender
import XCTest

@_silgen_name("cairo_ft_font_options_substitute")
private func cairoSubstitute(_ options: OpaquePointer, _ pattern: OpaquePointer)

/// The match the font helper makes without Cairo is the one Pango and DirectText make with it.
final class FontMatchTests: XCTestCase {
    /// The text's font options, written out in CFontMatch, add to a pattern what Cairo adds:
    /// whatever the configuration's rules set before them.
    func testTheOptionsAreSubstitutedAsCairoSubstitutesThem() {
        let patterns = [
            "Sans", "Sans:antialias=False", "Sans:antialias=True", "Sans:rgba=1", "Sans:antialias=True:rgba=2",
            "Sans:hinting=False", "Sans:hintstyle=3", "Sans:hinting=True:hintstyle=0", "Sans:lcdfilter=2",
            "Sans:antialias=False:hinting=False:hintstyle=2:rgba=3",
        ]
        for text in patterns {
            let cairo = FcNameParse(text)!, ours = FcNameParse(text)!
            defer { FcPatternDestroy(cairo); FcPatternDestroy(ours) }
            cairoSubstitute(DirectFonts.options, cairo)
            xhud_font_substitute_options(ours)
            let a = FcNameUnparse(cairo)!, b = FcNameUnparse(ours)!
            defer { free(a); free(b) }
            XCTAssertEqual(String(cString: b), String(cString: a), "\(text): not what Cairo's options add")
        }
    }

    /// The configuration loaded without the rule files that are only listed (conf.avail) has the
    /// same rules and fonts as fontconfig's own: every pattern matches the same font, however
    /// the rules rewrite it (aliases, languages, weights, the program's name).
    func testTheConfigurationWithoutListedFilesMatchesAsFontconfigsOwn() throws {
        let ours = try XCTUnwrap(xhud_font_config_new()), own = try XCTUnwrap(FcInitLoadConfigAndFonts())
        defer { FcConfigDestroy(ours); FcConfigDestroy(own) }
        XCTAssertEqual(FcConfigGetFonts(ours, FcSetSystem)?.pointee.nfont, FcConfigGetFonts(own, FcSetSystem)?.pointee.nfont)
        let patterns = [
            "Sans:weight=200", "Sans:bold:pixelsize=16", "Serif:italic", "Monospace:pixelsize=11", "DejaVu Sans",
            "Helvetica", "Arial:bold", "Times New Roman", "Courier", "Noto Sans CJK SC", "Sans:lang=ja",
            "Sans:lang=ar", "NoSuchFamily:pixelsize=12", "Sans:prgname=xhud-host", ":pixelsize=7", "emoji",
            "Sans:width=75:weight=80", "Cantarell,Sans:slant=110",
        ]
        for text in patterns {
            var matches: [String] = []
            for config in [ours, own] {
                let p = try XCTUnwrap(FcNameParse(text))
                FcConfigSubstitute(config, p, FcMatchPattern)
                FcDefaultSubstitute(p)
                var result = FcResultNoMatch
                let m = FcFontMatch(config, p, &result)
                FcPatternDestroy(p)
                let unparsed = m.flatMap { FcNameUnparse($0) }
                matches.append(unparsed.map { String(cString: $0) } ?? "no match")
                free(unparsed)
                if let m { FcPatternDestroy(m) }
            }
            XCTAssertEqual(matches[0], matches[1], text)
        }
        // What it leaves out: rule sets fontconfig lists without applying them.
        func ruleSets(_ config: OpaquePointer) -> (all: Int, enabled: Int) {
            var iter = FcConfigFileInfoIter(), all = 0, enabled = 0
            FcConfigFileInfoIterInit(config, &iter)
            repeat {
                var name: UnsafeMutablePointer<FcChar8>?, description: UnsafeMutablePointer<FcChar8>?, on = FcFalse
                guard FcConfigFileInfoIterGet(config, &iter, &name, &description, &on) != 0 else { break }
                free(name); free(description)
                all += 1
                if on != 0 { enabled += 1 }
            } while FcConfigFileInfoIterNext(config, &iter) != 0
            return (all, enabled)
        }
        let (o, f) = (ruleSets(ours), ruleSets(own))
        XCTAssertEqual(o.all, o.enabled, "every rule set of ours is applied")
        XCTAssertEqual(o.enabled, f.enabled)
        // Fontconfig has parsed its template directory this way since 2.13.91.
        if FcGetVersion() >= 21391, access("/usr/share/fontconfig/conf.avail", F_OK) == 0 { XCTAssertGreaterThan(f.all, o.all) }
    }

    /// A description's match names the server's program when asked to (the helper matches for
    /// it), and otherwise this process's, as fontconfig would.
    func testAMatchIsMadeForTheProgramNamed() throws {
        let d = try XCTUnwrap(FontDescription(FontDescription.defaults[0]))
        let named = try XCTUnwrap(xhud_font_match(d.families, d.weight, d.slant, d.width, d.pixelSize, FontDescription.dpi, "xhud-host"))
        let own = try XCTUnwrap(xhud_font_match(d.families, d.weight, d.slant, d.width, d.pixelSize, FontDescription.dpi, nil))
        defer { free(named); free(own) }
        XCTAssertTrue(String(cString: named).contains(":prgname=xhud-host:"))
        XCTAssertFalse(String(cString: own).contains(":prgname=xhud-host:"))
        XCTAssertEqual(
            String(cString: named).replacing("prgname=xhud-host", with: ""),
            String(cString: own).replacing(#/prgname=[^:]*/#, with: ""))
    }

    /// A match naming a FIFO (or any file that is no regular font file) does not open: the
    /// helper's matches come from another process.
    func testAMatchNamingAFIFODoesNotOpen() throws {
        let d = try XCTUnwrap(FontDescription(FontDescription.defaults[0]))
        let text = try XCTUnwrap(xhud_font_match(d.families, d.weight, d.slant, d.width, d.pixelSize, FontDescription.dpi, nil))
        let match = String(cString: text)
        free(text)
        let file = try XCTUnwrap(match.firstMatch(of: #/:file=([^:]*)/#)).1
        let fifo = NSTemporaryDirectory() + "xhud-fifo-\(getpid())"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        XCTAssertNotNil(xhud_direct_font_open_match(match, DirectFonts.options).map { xhud_direct_font_close($0) })
        XCTAssertNil(xhud_direct_font_open_match(match.replacingOccurrences(of: String(file), with: fifo), DirectFonts.options))
    }

    /// The font helper's lines are taken as they come: a description waits only for its own.
    func testAHelperLineIsReadAsSoonAsItIsWritten() {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        let (read, write) = (fds[0], fds[1])
        let seen = Locked<[String]>([])
        let first = DispatchSemaphore(value: 0)
        let reader = Thread {
            _ = Descriptor.readLines(read, limit: 1 << 16, within: 5) { line in
                seen.withLock { $0.append(String(decoding: line, as: UTF8.self)) }
                first.signal()
                return true
            }
            close(read)
        }
        reader.start()
        XCTAssertTrue(Descriptor.writeAll(write, Array("font A\tmatch a\nfont B".utf8)))
        XCTAssertEqual(first.wait(timeout: .now() + 5), .success, "a whole line was not read while the writer went on")
        XCTAssertEqual(seen.withLock { $0 }, ["font A\tmatch a"])
        XCTAssertTrue(Descriptor.writeAll(write, Array("\tmatch b\n".utf8)))
        close(write)
        XCTAssertEqual(first.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(seen.withLock { $0 }, ["font A\tmatch a", "font B\tmatch b"])
        XCTAssertEqual(FontMatchCache.helperMatch(Array("font B\tmatch b".utf8))?.match, "match b")
        XCTAssertNil(FontMatchCache.helperMatch(Array("stat 1,2 /etc".utf8)))
    }

    /// A writer that never ends the pipe is given up on at the deadline.
    func testAHelperThatHangsIsGivenUpOn() {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        let start = Date()
        XCTAssertFalse(Descriptor.readLines(fds[0], limit: 1 << 16, within: 0.2) { _ in true })
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }
}
