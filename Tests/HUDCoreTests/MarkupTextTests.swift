import XCTest
import HUDCore

/// What a HUD says in words when its label is Pango markup: tags dropped, the five entities
/// read, anything else that looks like one kept as written.
final class MarkupTextTests: XCTestCase {
    func testTagsAndEntities() {
        XCTAssertEqual(HUDConfiguration.plainText(ofMarkup: "Copying <b>a &amp; b</b>"), "Copying a & b")
        XCTAssertEqual(HUDConfiguration.plainText(ofMarkup: "&lt;tag&gt; &quot;x&quot; &apos;y&apos;"), "<tag> \"x\" 'y'")
        XCTAssertEqual(HUDConfiguration.plainText(ofMarkup: "AT&T &nbsp; 5 & 6 &amp"), "AT&T &nbsp; 5 & 6 &amp")
        XCTAssertEqual(HUDConfiguration.plainText(ofMarkup: "<span foreground='red'>Red</span> é"), "Red é")
    }
}
