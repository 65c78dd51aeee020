import XCTest
import HUDCore
import HUDEngine
import HUDRender
import HUDSystem
import HUDTesting
#if canImport(Glibc)
import Glibc
#endif

/// A server's HUD has Pango's text laid out off its loop: it draws nothing until the text is
/// ready, then shows it whole at its size; an update keeps what is on screen until its own text
/// is ready.
final class TextOffTheLoopTests: XCTestCase {
    /// Holds every layout until opened.
    private final class Gate: @unchecked Sendable {
        let open = Locked(false)
        func wait() { while !open.withLock({ $0 }) { usleep(500) } }
    }

    private func settle(_ backend: RecordingBackend, _ hud: HUDController) {
        let deadline = MonotonicTime.seconds() + 10
        while backend.posted.isEmpty, MonotonicTime.seconds() < deadline { usleep(500) }
        XCTAssertFalse(backend.posted.isEmpty, "the shaper never said it was done")
        backend.posted.runPosted()
        backend.run(hud, seconds: 0.05)
    }

    func testTheFirstFrameWaitsForItsTextAndAnUpdateKeepsTheOldOne() throws {
        let gate = Gate()
        let backend = RecordingBackend()
        backend.shaper = TextShaper { pango, r in
            gate.wait(); return pango.shaped(r)
        }
        var c = HUDConfiguration()
        c.label = "Copying"
        c.details = "12 of 40 files\n3 minutes left"  // two lines: Pango's
        c.animation = .none
        let hud = try HUDController(backend: backend, configuration: c, region: Rect(x: 0, y: 0, width: 1280, height: 800), scale: 1)
        var resized = 0
        hud.onResized = { resized += 1 }
        hud.show(animated: false)
        backend.run(hud, seconds: 0.2)
        let out = try XCTUnwrap(backend.outputs.first)
        XCTAssertFalse(out.isMapped, "mapped before its details were laid out")
        XCTAssertEqual(out.contentDraws, 0)
        gate.open.withLock { $0 = true }
        settle(backend, hud)
        XCTAssertTrue(out.isMapped)
        XCTAssertEqual(out.contentDraws, 1)
        XCTAssertEqual(resized, 1, "the stack is told the bezel's size")
        let oneLine = hud.bezelSize

        gate.open.withLock { $0 = false }
        hud.update { $0.details = "12 of 40 files\n3 minutes left\n2.1 GB copied" }
        backend.run(hud, seconds: 0.2)
        XCTAssertEqual(out.contentDraws, 1, "drawn before its new details were laid out")
        XCTAssertEqual(hud.bezelSize, oneLine, "the bezel on screen is kept meanwhile")
        gate.open.withLock { $0 = true }
        settle(backend, hud)
        XCTAssertEqual(out.contentDraws, 2)
        XCTAssertGreaterThan(hud.bezelSize.height, oneLine.height)
        XCTAssertEqual(resized, 2)
    }

    func testARegionThatMovesMeanwhileTakesTheHUDThereWhole() throws {
        let gate = Gate()
        gate.open.withLock { $0 = true }
        let backend = RecordingBackend()
        backend.shaper = TextShaper { pango, r in
            gate.wait(); return pango.shaped(r)
        }
        var c = HUDConfiguration()
        c.details = "Following\na window"
        c.mask = HUDMask.none
        let hud = try HUDController(backend: backend, configuration: c, region: Rect(x: 0, y: 0, width: 400, height: 300), scale: 1)
        hud.show(animated: false)
        settle(backend, hud)
        let out = try XCTUnwrap(backend.outputs.first)
        XCTAssertTrue(out.isMapped)
        gate.open.withLock { $0 = false }
        hud.update { $0.details = "Following\na window\nthat moved" }
        let moved = Rect(x: 800, y: 400, width: 400, height: 300)
        hud.regionMoved(to: moved)
        gate.open.withLock { $0 = true }
        settle(backend, hud)
        // At its new place alone: not a window grown over both places as a resize eases.
        XCTAssertTrue(moved.contains(out.rect), "the window is at \(out.rect), the region at \(moved)")
    }

    func testAHUDHiddenBeforeItsTextArrivesNeverMaps() throws {
        let gate = Gate()
        let backend = RecordingBackend()
        backend.shaper = TextShaper { pango, r in
            gate.wait(); return pango.shaped(r)
        }
        var c = HUDConfiguration()
        c.details = "Never\nseen"
        c.animation = .none
        let hud = try HUDController(backend: backend, configuration: c, region: Rect(x: 0, y: 0, width: 1280, height: 800), scale: 1)
        hud.show(animated: false)
        hud.hide(animated: false)
        backend.run(hud, seconds: 0.1)
        gate.open.withLock { $0 = true }
        settle(backend, hud)
        XCTAssertFalse(backend.outputs.first?.isMapped ?? false)
        XCTAssertEqual(backend.outputs.first?.contentDraws ?? 0, 0)
    }
}
