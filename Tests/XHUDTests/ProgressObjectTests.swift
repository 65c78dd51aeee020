import Foundation
import XCTest
@testable import XHUD

final class ProgressObjectTests: XCTestCase {
    func testFoundationProgressIsReadAsAFraction() {
        let p = Progress(totalUnitCount: 200)
        let source = FoundationProgressSource(p)
        XCTAssertEqual(source.snapshot().fraction, 0)
        p.completedUnitCount = 50
        XCTAssertEqual(source.snapshot().fraction, 0.25, accuracy: 1e-9)
        XCTAssertFalse(source.snapshot().isCancelled)
        p.cancel()
        XCTAssertTrue(source.snapshot().isCancelled)
    }

    func testProgressSetFromAnotherThreadIsSeen() {
        let p = Progress(totalUnitCount: 10)
        let source = FoundationProgressSource(p)
        let done = expectation(description: "set")
        DispatchQueue.global().async {
            p.completedUnitCount = 7; done.fulfill()
        }
        wait(for: [done], timeout: 2)
        XCTAssertEqual(source.snapshot().fraction, 0.7, accuracy: 1e-9)
    }

    func testEmptyProgressIsZeroNotNaN() {
        let p = Progress(totalUnitCount: 0)
        XCTAssertEqual(FoundationProgressSource(p).snapshot().fraction, 0)
    }

    func testNoDescriptionIsNilNotEmpty() {
        // swift-corelibs-foundation gives no localized description; the details label then stays.
        let p = Progress(totalUnitCount: 4)
        let d = FoundationProgressSource(p).snapshot().description
        XCTAssertTrue(d == nil || !d!.isEmpty)
    }
}
