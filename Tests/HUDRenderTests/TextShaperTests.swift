#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore
@testable import HUDRender
import HUDSystem
import XCTest

/// Text laid out on the shaper's thread is measured and drawn as the loop's own Pango would:
/// the same sizes and the same pixels, plain text in any colour and markup in its ink; one that
/// overruns its budget is cut.
final class TextShaperTests: XCTestCase {
    /// The colour drawn in: the context's source, and markup's ink.
    static let ink = RGBA(0.2, 0.9, 0.6, 0.85)

    static let requests: [TextRequest] = [
        TextRequest(
            text: "Copying 3 of 10 files to the backup disk, please wait", font: "Sans 13px", maxWidth: 180,
            maxHeight: 120, singleLine: false),
        TextRequest(
            text: "<b>Saved</b> to <i>~/Documents/report.pdf</i>", font: "Sans 12px", markup: true, maxWidth: 200,
            maxHeight: 80, singleLine: false, ink: ink),
        TextRequest(text: "جارٍ التحميل", font: "Sans Bold 16px", maxWidth: 200, singleLine: true),
        // Colours of its own: text, a background under the default colour's text, both.
        TextRequest(
            text: "<span foreground='red'>Error</span> in <b>line 3</b>: <span background='#ffff00'>highlighted</span>, "
                + "<span color='#00f' bgcolor='#0f08'>both</span> and <span fgcolor='#0a0'>green <i>italic</i></span> text",
            font: "Sans 13px", markup: true, maxWidth: 200, maxHeight: 200, singleLine: false, ink: ink),
        // Alphas of its own, over the default colour and an explicit one, and underline and
        // strikethrough colours of their own under text of the default colour.
        TextRequest(
            text: "<span alpha='40%'>faint</span> and <span color='red' alpha='50%' bgcolor='#00f' bgalpha='30%'>half</span> "
                + "<span underline='single' underline_color='blue'>under</span> "
                + "<span strikethrough='true' strikethrough_color='#f0f'>struck</span> <u>plain</u>",
            font: "Sans 13px", markup: true, maxWidth: 200, maxHeight: 200, singleLine: false, ink: ink),
        TextRequest(
            text: String(repeating: "a\u{301}", count: 4000), font: "Sans 13px", maxWidth: 240, maxHeight: 300,
            singleLine: false),
        TextRequest(
            text: String(repeating: "word ", count: 3200), font: "Serif 14px", maxWidth: 260, maxHeight: 400,
            singleLine: false),
    ]

    /// Waits for `done` of a shaping, on the shaper's thread.
    private func shape(_ shaper: TextShaper, _ requests: [TextRequest]) {
        let done = expectation(description: "shaped")
        shaper.shape(requests) { done.fulfill() }
        wait(for: [done], timeout: 10)
    }

    private static func surface(scale: Double, _ draw: (OpaquePointer) -> Void) -> OpaquePointer {
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(300 * scale), Int32(440 * scale))!
        let cr = cairo_create(s)!
        cairo_scale(cr, scale, scale)
        cairo_set_source_rgba(cr, ink.r, ink.g, ink.b, ink.a)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        return s
    }

    private func differingBytes(_ a: OpaquePointer, _ b: OpaquePointer) -> Int {
        let n = Int(cairo_image_surface_get_stride(a)) * Int(cairo_image_surface_get_height(a))
        let pa = cairo_image_surface_get_data(a)!, pb = cairo_image_surface_get_data(b)!
        return (0..<n).reduce(0) { $0 + (pa[$1] != pb[$1] ? 1 : 0) }
    }

    func testShapedTextHasTheLoopsSizesAndPixels() {
        let shaper = TextShaper()
        shape(shaper, Self.requests)
        let onLoop = HUDText()
        let offLoop = HUDText()
        offLoop.shaper = shaper
        for r in Self.requests {
            guard case .shaped? = shaper.result(r) else { return XCTFail("\(r.text.prefix(20)): not shaped") }
            XCTAssertEqual(offLoop.measure(r), onLoop.measure(r), "\(r.text.prefix(20)): size")
            XCTAssertTrue(offLoop.takeMissing().isEmpty)
            // Pango makes an underline or a strikethrough whole pixels of the device it lays
            // out for; a recording is made for one scale, 1, so at 2 those lines are one device
            // pixel thicker (the text's own pixels are the same).
            let lines = ["underline", "strikethrough", "<u>", "<s>"].contains { r.text.contains($0) }
            for scale in lines ? [1.0] : [1.0, 2.0] {
                let rect = Rect(x: 10.5, y: 4.25, width: 280, height: 430)
                let a = Self.surface(scale: scale) { offLoop.draw(r, in: rect, cr: $0) }
                let b = Self.surface(scale: scale) { onLoop.draw(r, in: rect, cr: $0) }
                XCTAssertEqual(differingBytes(a, b), 0, "\(r.text.prefix(20)) at scale \(scale): pixels differ from the loop's")
                cairo_surface_destroy(a)
                cairo_surface_destroy(b)
            }
        }
    }

    func testWhatIsNotShapedYetMeasuresAsNothingAndIsListed() {
        let text = HUDText()
        text.shaper = TextShaper()
        let r = Self.requests[0]
        XCTAssertEqual(text.measure(r), .zero)
        XCTAssertEqual(text.measure(r), .zero)
        XCTAssertEqual(text.takeMissing(), [r])
        XCTAssertEqual(text.takeMissing(), [])
        // DirectText's lines never wait.
        let label = TextRequest(text: "Loading", font: "Sans Bold 16px", maxWidth: 200, singleLine: true)
        XCTAssertNotEqual(text.measure(label), .zero)
        XCTAssertEqual(text.takeMissing(), [])
        // Markup is laid out off the loop, whatever it sets: colours, alphas, underline colours.
        let coloured = [
            "<span foreground='red'>Error</span> in line 3", "<span alpha='50%'>Error</span> in line 3",
            "<span underline='single' underline_color='blue'>Error</span>",
        ].map {
            TextRequest(text: $0, font: "Sans 12px", markup: true, maxWidth: 200, maxHeight: 60, singleLine: false, ink: Self.ink)
        }
        for r in coloured { XCTAssertEqual(text.measure(r), .zero) }
        XCTAssertEqual(text.takeMissing(), coloured)
    }

    func testMarkupIsDrawnInItsInkWhateverTheSource() {
        let shaper = TextShaper()
        let markup = Self.requests[1]
        var other = markup
        other.ink = RGBA(1, 0, 0, 1)
        shape(shaper, [markup, other])
        let text = HUDText()
        text.shaper = shaper
        let rect = Rect(x: 10, y: 4, width: 280, height: 430)
        let inInk = Self.surface(scale: 1) { text.draw(markup, in: rect, cr: $0) }
        let otherSource = Self.surface(scale: 1) { cr in
            cairo_set_source_rgba(cr, 0, 0, 1, 1)
            text.draw(markup, in: rect, cr: cr)
        }
        let inRed = Self.surface(scale: 1) { text.draw(other, in: rect, cr: $0) }
        XCTAssertEqual(differingBytes(inInk, otherSource), 0, "markup took the context's colour")
        XCTAssertGreaterThan(differingBytes(inInk, inRed), 100, "markup was not drawn in its ink")
        for s in [inInk, otherSource, inRed] { cairo_surface_destroy(s) }
    }

    func testCutMarkupShowsItsTextNeverHalfATag() {
        let r = TextRequest(
            text: "<span foreground='red'>" + String(repeating: "x&amp;y <b>z</b> ", count: 40) + "</span>",
            font: "Sans 12px", markup: true, maxWidth: 200, singleLine: false)
        let cut = HUDText.cut(r)
        XCTAssertFalse(cut.markup)
        XCTAssertEqual(cut.text, String(String(repeating: "x&y z ", count: 40).prefix(200)) + "…")
        XCTAssertEqual(HUDText.plainText("&lt;&#x41;&#66;&gt; &nope; a < b &"), "<AB> &nope; a < b &")
    }

    func testALayoutOverItsBudgetIsCutAndTheNextThreadGoesOn() {
        // Each layout takes 0.3 s, five times its budget: each is cut, and its thread is left.
        let shaper = TextShaper(seconds: 0.06) { pango, r in
            usleep(300_000)
            return pango.shaped(r)
        }
        let r = Self.requests.first { $0.text.hasPrefix("a\u{301}") }!
        shape(shaper, [r])
        guard case .cut? = shaper.result(r) else { return XCTFail("not cut") }
        let text = HUDText()
        text.shaper = shaper
        let cut = text.measure(r)
        XCTAssertGreaterThan(cut.height, 0)
        XCTAssertLessThan(cut.height, HUDText().measure(r).height, "the cut text is its first characters")
        // Past the threads allowed to overrun, requests are cut at once: six more, laid out one
        // after the other, would take 1.8 s.
        let more = (0..<TextShaper.overrunsAllowed + 2).map {
            TextRequest(
                text: "Request \($0) " + String(repeating: "word ", count: 3000), font: "Sans 13px", maxWidth: 240,
                maxHeight: 400, singleLine: false)
        }
        let start = MonotonicTime.seconds()
        shape(shaper, more)
        XCTAssertLessThan(MonotonicTime.seconds() - start, 1.2)
        for m in more { XCTAssertNotNil(shaper.result(m), "\(m.text.prefix(10)): no result") }
        // Finished late, a layout serves the next HUD that shows its text.
        let deadline = MonotonicTime.seconds() + 20
        while MonotonicTime.seconds() < deadline, case .cut? = shaper.result(r) { usleep(10_000) }
        guard case .shaped? = shaper.result(r) else { return XCTFail("the late layout was not kept") }
    }

    func testManyThreadsAskingAtOnceEachHearBackOnce() {
        let shaper = TextShaper()
        let heard = Locked([Int](repeating: 0, count: 8))
        let all = expectation(description: "all")
        all.expectedFulfillmentCount = 8
        for i in 0..<8 {
            DetachedThread.start {
                let rs = [Self.requests[i % 5], Self.requests[(i + 1) % 5]]
                shaper.shape(rs) {
                    heard.withLock { $0[i] += 1 }
                    all.fulfill()
                }
            }
        }
        wait(for: [all], timeout: 20)
        usleep(100_000)
        XCTAssertEqual(heard.withLock { $0 }, [Int](repeating: 1, count: 8))
    }
}
