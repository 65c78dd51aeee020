import XCTest
@testable import HUDX11

/// The loop's frame deadlines: paced on an absolute grid, skipping (never bursting) when late,
/// keeping the pace across a stop and start within a frame.
final class DisplayLinkTests: XCTestCase {
    func testTicksOnAnAbsoluteGridAndSkipsMissedFrames() {
        var link = DisplayLink(hz: 50)  // 20 ms
        XCTAssertFalse(link.fire(now: 1), "stopped: never due")
        link.start(now: 1)
        XCTAssertTrue(link.fire(now: 1), "the first tick comes at once")
        XCTAssertFalse(link.fire(now: 1.019))
        XCTAssertTrue(link.fire(now: 1.0205))
        XCTAssertEqual(link.deadline, 1.04, accuracy: 1e-9, "the grid, not the late tick, sets the next deadline")
        XCTAssertTrue(link.fire(now: 1.105), "late by three frames")
        XCTAssertFalse(link.fire(now: 1.106), "no burst of the missed ones")
        XCTAssertEqual(link.deadline, 1.12, accuracy: 1e-9)
        XCTAssertEqual(link.ticks, 3)
    }

    func testAStopAndStartWithinAFrameKeepsThePace() {
        var link = DisplayLink(hz: 50)
        link.start(now: 2)
        XCTAssertTrue(link.fire(now: 2))
        link.stop()
        XCTAssertFalse(link.fire(now: 2.03), "stopped")
        link.start(now: 2.005)
        XCTAssertFalse(link.fire(now: 2.005), "a frame was drawn 5 ms ago: the next is a period after it")
        XCTAssertTrue(link.fire(now: 2.02))
        link.stop()
        link.start(now: 3)
        XCTAssertTrue(link.fire(now: 3), "idle for long: at once")
    }
}
