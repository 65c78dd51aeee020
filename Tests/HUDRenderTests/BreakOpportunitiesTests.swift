import XCTest
@testable import HUDRender

/// A run with no break opportunity gets one every `run` characters; words, and short runs, are
/// left as they are; markup's tags and entities stay whole.
final class BreakOpportunitiesTests: XCTestCase {
    func testALongRunGetsAnOpportunityEveryRunCharacters() {
        let out = BreakOpportunities.add(to: String(repeating: "W", count: 1000), markup: false, run: 256)
        XCTAssertEqual(out.filter { $0 == "\u{200B}" }.count, 3)
        XCTAssertEqual(out.split(separator: "\u{200B}").map(\.count), [256, 256, 256, 232])
    }

    func testWordsAndShortRunsAreLeftAlone() {
        let words = String(repeating: "lorem ipsum ", count: 200)
        XCTAssertEqual(BreakOpportunities.add(to: words, markup: false, run: 256), words)
        let url = "https://example.org/" + String(repeating: "a", count: 200) + " and more"
        XCTAssertEqual(BreakOpportunities.add(to: url, markup: false, run: 256), url)
    }

    func testCombiningSequencesAreNotSplit() {
        let text = String(repeating: "a\u{301}", count: 600)
        let out = BreakOpportunities.add(to: text, markup: false, run: 256)
        XCTAssertEqual(out.unicodeScalars.filter { $0 == "\u{200B}" }.count, 2)
        XCTAssertEqual(out.replacingOccurrences(of: "\u{200B}", with: ""), text)
        XCTAssertTrue(out.split(separator: "\u{200B}").allSatisfy { $0.count == 256 || $0.count == 88 })
    }

    func testMarkupTagsAndEntitiesStayWhole() {
        let tag = "<span foreground=\"" + String(repeating: "r", count: 300) + "\">"
        let text = tag + String(repeating: "x", count: 300) + "&amp;" + "</span>"
        let out = BreakOpportunities.add(to: text, markup: true, run: 256)
        XCTAssertTrue(out.hasPrefix(tag), "a tag was broken")
        XCTAssertTrue(out.contains("&amp;"))
        XCTAssertEqual(out.filter { $0 == "\u{200B}" }.count, 1)
    }
}
