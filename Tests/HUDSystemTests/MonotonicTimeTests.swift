#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HUDSystem

final class MonotonicTimeTests: XCTestCase {
    /// Seconds, not another unit: a 20 ms sleep reads as at least 0.019 and well under a second.
    func testASleepIsMeasuredInSeconds() {
        let a = MonotonicTime.seconds()
        usleep(20_000)
        let b = MonotonicTime.seconds()
        XCTAssertGreaterThanOrEqual(b - a, 0.019)
        XCTAssertLessThan(b - a, 5)
    }
}
