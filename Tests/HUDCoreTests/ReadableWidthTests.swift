import HUDCore
import XCTest

/// Text at a readable width (SVProgressHUD caps its status at 200 x 300): a long label is
/// ellipsized and details wrap at `maxTextWidth`, not at the screen's edge.
final class ReadableWidthTests: XCTestCase {
    func testLongTextStopsAtTheReadableWidthOnAWideScreen() {
        var c = HUDConfiguration()
        c.label = String(repeating: "x", count: 200)  // 1600 px of label
        c.details = String(repeating: "word ", count: 200)
        let l = HUDLayout.compute(c, region: Size(width: 1920, height: 1080), measurer: FakeMeasurer())
        XCTAssertEqual(l.labelRequest?.maxWidth, 300)
        XCTAssertEqual(l.detailsRequest?.maxWidth, 300)
        XCTAssertEqual(l.label?.width, 300)
        XCTAssertLessThanOrEqual(l.details!.width, 300)
        XCTAssertEqual(l.bezel.width, 340)  // 300 + 2 margins
        XCTAssertEqual(l.bezel.midX, 960)
    }

    func testANarrowRegionStillBoundsTheText() {
        var c = HUDConfiguration()
        c.label = String(repeating: "x", count: 200)
        let l = HUDLayout.compute(c, region: Size(width: 200, height: 300), measurer: FakeMeasurer())
        XCTAssertEqual(l.labelRequest?.maxWidth, 120)  // 200 - 4 margins
    }

    func testTheWidthIsAnOption() {
        var c = HUDConfiguration()
        c.maxTextWidth = 200
        c.label = String(repeating: "x", count: 200)
        let l = HUDLayout.compute(c, region: Size(width: 1920, height: 1080), measurer: FakeMeasurer())
        XCTAssertEqual(l.label?.width, 200)
    }

    func testABarWithAnImageStacksTheImageAboveTheBar() {
        var c = HUDConfiguration()
        c.mode = .bar
        c.image = "/icon.svg"
        c.imageSize = 64
        c.label = "Volume"
        let l = HUDLayout.compute(c, region: Size(width: 800, height: 600), measurer: FakeMeasurer())
        let image = l.image!, bar = l.indicator!
        XCTAssertEqual(image.width, 64)
        XCTAssertEqual(bar.minY - image.maxY, c.spacing, accuracy: 1e-9)
        XCTAssertEqual(image.midX, bar.midX, accuracy: 1e-9)
        c.mode = .annular
        XCTAssertNil(HUDLayout.compute(c, region: Size(width: 800, height: 600), measurer: FakeMeasurer()).image)
    }
}
