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
        s.attached(0, changed: nil)
        XCTAssertEqual(s.free(), 1)
        XCTAssertNil(s.repaint(1, area: spinner), "never drawn: all of it")
    }

    func testABusyBufferIsNotReusedUntilReleased() {
        var s = BufferSlots()
        s.attached(0, changed: nil)
        s.attached(1, changed: nil)
        XCTAssertNil(s.free())
        s.released(0)
        XCTAssertEqual(s.free(), 0)
    }

    func testAReusedBufferCatchesUpWithTheFramesItMissed() {
        var s = BufferSlots()
        s.attached(0, changed: nil)  // the first frame, whole
        s.released(0)
        XCTAssertNil(s.repaint(1, area: spinner), "buffer 1 was never drawn")
        s.attached(1, changed: spinner)  // drawn whole, but only the spinner changed on screen
        s.released(1)
        XCTAssertEqual(s.repaint(0, area: label), label.union(spinner), "buffer 0 missed the spinner's change")
        s.attached(0, changed: label)
        s.released(0)
        XCTAssertEqual(s.repaint(1, area: spinner), spinner.union(label), "buffer 1 missed the label's change")
        s.attached(1, changed: spinner)
        s.released(1)
        XCTAssertEqual(s.repaint(0, area: spinner), spinner, "buffer 0 caught up with the label already")
    }

    func testSteadySpinnerFramesStayPartial() {
        var s = BufferSlots()
        s.attached(0, changed: nil)
        s.released(0)
        s.attached(1, changed: spinner)
        for frame in 0..<10 {
            let i = frame % 2
            s.released(1 - i)
            XCTAssertEqual(s.repaint(i, area: spinner), spinner, "frame \(frame) drew more than the spinner")
            s.attached(i, changed: spinner)
        }
    }

    func testAWholeFrameMakesTheOtherBufferWhole() {
        var s = BufferSlots()
        s.attached(0, changed: nil)
        s.released(0)
        s.attached(1, changed: nil)
        s.released(1)
        s.attached(0, changed: nil)
        XCTAssertNil(s.repaint(1, area: spinner))
    }

    func testResetDrawsEverythingAgain() {
        var s = BufferSlots()
        s.attached(0, changed: nil)
        s.reset()
        XCTAssertEqual(s.free(), 0)
        XCTAssertNil(s.repaint(0, area: spinner))
    }
}
