import HUDCore
import XCTest

/// Each indicator's size, the bar's and the ring's value text, and `clamp`.
final class IndicatorLayoutTests: XCTestCase, LayoutFixture {
    func testIndicatorSizes() {
        for mode in [HUDMode.indeterminate, .determinate, .annular, .success, .error, .info, .warning] {
            XCTAssertEqual(HUDLayout.indicatorSize(config(mode)), Size(width: 37, height: 37), "\(mode)")
        }
        XCTAssertEqual(HUDLayout.indicatorSize(config(.bar)), Size(width: 120, height: 20))
        XCTAssertNil(HUDLayout.indicatorSize(config(.text)))
        XCTAssertNil(HUDLayout.indicatorSize(config(.custom)), "custom without an image has no indicator")
        var custom = config(.custom)
        custom.image = "/tmp/x.png"
        custom.imageSize = 50
        XCTAssertEqual(HUDLayout.indicatorSize(custom), Size(width: 50, height: 50))
        XCTAssertRectEqual(layout(custom).indicator, Rect(x: 175, y: 125, width: 50, height: 50))
        XCTAssertNil(layout(config(.custom)).indicator)
    }

    func testBar() {
        let l = layout(config(.bar))
        XCTAssertRectEqual(l.bezel, Rect(x: 120, y: 120, width: 160, height: 60))
        XCTAssertRectEqual(l.indicator, Rect(x: 140, y: 140, width: 120, height: 20))
        XCTAssertNil(l.value)
    }

    func testBarWithValueBesideIt() {
        var c = config(.bar)
        c.showValue = true
        c.progress = 0.45
        let l = layout(c)
        XCTAssertEqual(l.valueRequest?.text, "45%")
        XCTAssertEqual(l.valueRequest?.font, "system-ui Semibold 11px")
        XCTAssertEqual(l.valueRequest?.maxWidth, 32, "as wide as \"100%\"")
        XCTAssertEqual(l.bezel.width, 120 + 8 + 32 + 40, accuracy: 1e-9)
        XCTAssertRectEqual(l.indicator, Rect(x: 120, y: 140, width: 120, height: 20))
        XCTAssertRectEqual(l.value, Rect(x: 248, y: 140, width: 32, height: 20))
        XCTAssertEqual(l.value!.minX - l.indicator!.maxX, 8, accuracy: 1e-9)
        XCTAssertEqual(l.value!.midY, l.indicator!.midY, accuracy: 1e-9)
    }

    func testAnnularWithValueInside() {
        var c = config(.annular)
        c.showValue = true
        c.progress = 0.45
        let l = layout(c)
        XCTAssertEqual(l.valueRequest?.text, "45%")
        XCTAssertEqual(l.valueRequest?.font, "system-ui Semibold 10px")
        XCTAssertEqual(l.valueRequest?.maxWidth, 31)
        XCTAssertRectEqual(l.indicator, Rect(x: 181.5, y: 131.5, width: 37, height: 37))
        XCTAssertEqual(l.value!.midX, l.indicator!.midX, accuracy: 1e-9)
        XCTAssertEqual(l.value!.midY, l.indicator!.midY, accuracy: 1e-9)
        XCTAssertEqual(l.value!.width, 24, accuracy: 1e-9)
    }

    func testShowValueIsIgnoredForOtherModes() {
        var c = config(.determinate)
        c.showValue = true
        let l = layout(c)
        XCTAssertNil(l.value)
        XCTAssertNil(l.valueRequest)
    }

    func testValueText() {
        XCTAssertEqual(HUDLayout.valueText(0), "0%")
        XCTAssertEqual(HUDLayout.valueText(0.45), "45%")
        XCTAssertEqual(HUDLayout.valueText(0.999), "100%")
        XCTAssertEqual(HUDLayout.valueText(1), "100%")
        XCTAssertEqual(HUDLayout.valueText(1.7), "100%")
        XCTAssertEqual(HUDLayout.valueText(-0.2), "0%")
    }

    func testClamp() {
        XCTAssertEqual(clamp(0.5, 0, 1), 0.5)
        XCTAssertEqual(clamp(-2, 0, 1), 0)
        XCTAssertEqual(clamp(7, 0, 1), 1)
        XCTAssertEqual(clamp(5, 20, 10), 20, "an empty range gives its lower bound")
    }
}
