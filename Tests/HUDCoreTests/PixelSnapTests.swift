import HUDCore
import XCTest

final class PixelSnapTests: XCTestCase {
    func testBezelAndItemsStartOnWholeDevicePixels() {
        var c = HUDConfiguration()
        c.mode = .annular
        let m = FixedSizeMeasurerForSnap()
        for (region, scale) in [(Size(width: 400, height: 300), 1.0), (Size(width: 401, height: 301), 1.0), (Size(width: 333, height: 211), 1.5)] {
            let raw = HUDLayout.compute(c, region: region, measurer: m)
            let l = raw.snapped(toScale: scale)
            for r in [l.bezel, l.indicator!] {
                XCTAssertEqual((r.x * scale).rounded(), r.x * scale, accuracy: 1e-9, "\(r) at scale \(scale)")
                XCTAssertEqual((r.y * scale).rounded(), r.y * scale, accuracy: 1e-9, "\(r) at scale \(scale)")
            }
            XCTAssertLessThanOrEqual(abs(l.bezel.x - raw.bezel.x), 0.5 / scale + 1e-9)
            XCTAssertEqual(l.bezel.size, raw.bezel.size)
        }
    }
}

private struct FixedSizeMeasurerForSnap: TextMeasurer {
    func measure(_ r: TextRequest) -> Size { Size(width: min(63, r.maxWidth), height: 19) }
}
