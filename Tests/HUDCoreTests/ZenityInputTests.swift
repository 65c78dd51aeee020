@testable import HUDCore
import XCTest

private func zenity(_ line: String) -> InputCommand { InputCommand.parseZenity(line) }

/// stdin read as zenity 3.44 reads it (src/progress.c): the cases where its reading differs from
/// xhud's own line protocol.
final class ZenityInputTests: XCTestCase {
    func testXhudWordsAreIgnored() {
        for line in [
            "done", "cancel", "success=Saved", "error", "label=x", "progress=0.5", "hide", "show", "mode=bar",
            "button=Stop", "  50", "-10", "pulsate", "x 50", "",
        ] {
            XCTAssertEqual(zenity(line), .empty, line)
        }
    }

    func testEveryDigitOfALineStartingWithOneCounts() {
        XCTAssertEqual(zenity("100 files to go\n"), .set(.percentage(1)))
        XCTAssertEqual(zenity("42%"), .set(.percentage(0.42)))
        XCTAssertEqual(zenity("50 of 200"), .set(.percentage(1)))  // 50200, clamped
        XCTAssertEqual(zenity("0"), .set(.percentage(0)))
        XCTAssertEqual(InputCommand.zenityNumber("12,5"), 12.5)
        XCTAssertEqual(InputCommand.zenityNumber("33.3"), 33.3, accuracy: 1e-4)
        XCTAssertEqual(InputCommand.zenityNumber("1.2.3"), 1.23, accuracy: 1e-4)
    }

    func testTextIsTrimmedAndUnescapedAsGStrcompress() {
        XCTAssertEqual(zenity("#   Copying a & b  \n"), .set(.text("Copying a & b")))
        XCTAssertEqual(zenity("#one\\ntwo\\t\\\\ \\\"q\\\" \\101"), .set(.text("one\ntwo\t\\ \"q\" A")))
        XCTAssertEqual(zenity("#end\\"), .set(.text("end")))
        XCTAssertEqual(zenity("#"), .set(.text("")))
    }

    func testPulsateNeedsAColonAndStopsOnlyOnFalse() {
        XCTAssertEqual(zenity("pulsate:true"), .set(.pulsate(true)))
        XCTAssertEqual(zenity("pulsate:  FALSE"), .set(.pulsate(false)))
        XCTAssertEqual(zenity("pulsate:no"), .set(.pulsate(true)))
        XCTAssertEqual(zenity("pulsate true"), .empty)
        XCTAssertEqual(zenity("Pulsate:false"), .empty)
    }

    func testZenityTextIsShownAsWrittenUnderMarkup() {
        var c = HUDConfiguration()
        c.markup = true
        InputCommand.Change.text("a <b> & c").apply(to: &c)
        XCTAssertEqual(c.label, "a &lt;b&gt; &amp; c")
        c.markup = false
        InputCommand.Change.text("a <b>").apply(to: &c)
        XCTAssertEqual(c.label, "a <b>")
    }

    func testAPercentageLeavesAPulsatingBarPulsating() {
        var c = HUDConfiguration()
        c.mode = .indeterminate
        InputCommand.Change.percentage(0.4).apply(to: &c)
        XCTAssertEqual(c.mode, .indeterminate)
        XCTAssertEqual(c.progress, 0.4)
    }
}
