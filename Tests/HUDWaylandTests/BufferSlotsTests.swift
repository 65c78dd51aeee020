import XCTest
import HUDCore
@testable import HUDWayland

/// Two buffers: a frame goes into a free one, drawn where it changes and where the frames the
/// buffer missed changed; a buffer the compositor holds is never drawn into.
final class BufferSlotsTests: XCTestCase {
    let spinner = Rect(x: 40, y: 40, width: 20, height: 20)
    let label = Rect(x: 0, y: 80, width: 100, height: 20)

    func testFirstFramesAreDrawnWhole() {
        var s = BufferSlots()
        XCTAssertEqual(s.free(), 0)
        XCTAssertNil(s.repaint(0, area: spinner))
        s.attached(0, area: nil)
        XCTAssertEqual(s.free(), 1)
        XCTAssertNil(s.repaint(1, area: spinner), "never drawn: all of it")
    }

    func testABusyBufferIsNotReusedUntilReleased() {
        var s = BufferSlots()
        s.attached(0, area: nil)
        s.attached(1, area: nil)
        XCTAssertNil(s.free())
        s.released(0)
        XCTAssertEqual(s.free(), 0)
    }

    func testAReusedBufferCatchesUpWithTheFramesItMissed() {
        var s = BufferSlots()
        s.attached(0, area: nil)
        s.released(0)
        s.attached(1, area: nil)
        s.released(1)
        // Buffer 0 shows frame 1; frame 2 (in buffer 1) changed the label.
        s.attached(1, area: label)
        s.released(1)
        XCTAssertEqual(s.repaint(0, area: spinner), spinner.union(label))
        s.attached(0, area: spinner.union(label))
        s.released(0)
        // Buffer 1 missed only the last frame's change.
        XCTAssertEqual(s.repaint(1, area: spinner), spinner.union(label))
    }

    func testAWholeFrameMakesTheOtherBufferWhole() {
        var s = BufferSlots()
        s.attached(0, area: nil)
        s.released(0)
        s.attached(1, area: nil)
        s.released(1)
        s.attached(0, area: nil)
        XCTAssertNil(s.repaint(1, area: spinner))
    }

    func testResetDrawsEverythingAgain() {
        var s = BufferSlots()
        s.attached(0, area: nil)
        s.reset()
        XCTAssertEqual(s.free(), 0)
        XCTAssertNil(s.repaint(0, area: spinner))
    }
}
