import XCTest
import HUDCore

final class RectTweenTests: XCTestCase {
    func testBezelResizeMovesSmoothlyAndEndsExactly() {
        let a = Rect(x: 100, y: 100, width: 80, height: 80)
        let b = Rect(x: 40, y: 90, width: 200, height: 100)
        let t = RectTween(from: a, to: b, start: 1, duration: 0.25)
        XCTAssertEqual(t.value(at: 1), a)
        XCTAssertEqual(t.value(at: 1.25), b)
        XCTAssertFalse(t.isMoving(at: 1.25))
        XCTAssertTrue(t.isMoving(at: 1.1))
        var last = a.width
        for i in 1...25 {
            let w = t.value(at: 1 + Double(i) * 0.01).width
            XCTAssertGreaterThanOrEqual(w, last, "width grows monotonically, no overshoot")
            XCTAssertLessThanOrEqual(w, b.width)
            last = w
        }
        let mid = t.value(at: 1.125)
        XCTAssertGreaterThan(mid.width, a.width + 10)
        XCTAssertLessThan(mid.width, b.width - 1)
    }
}
