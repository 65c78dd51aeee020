import XCTest
import HUDCore
@testable import HUDWayland

/// An output's scale and size as a HUD lays itself out on it: the mode over the logical size
/// where a buffer may be scaled by a fraction, the integer buffer scale otherwise.
final class WaylandScreenTests: XCTestCase {
    private func screen(mode: (Int, Int), logical: (Int, Int), bufferScale: Int) -> WaylandScreen {
        var s = WaylandScreen(proxy: OpaquePointer(bitPattern: 0x10)!, name: 1)
        (s.pixelWidth, s.pixelHeight) = mode
        (s.logicalWidth, s.logicalHeight) = logical
        s.bufferScale = bufferScale
        return s
    }

    func testKDEAt150PercentIsOnePointFive() {
        let s = screen(mode: (1920, 1200), logical: (1280, 800), bufferScale: 2)
        XCTAssertEqual(s.scale(fractional: true), 1.5)
        XCTAssertEqual(s.rect(scale: 1.5), Rect(x: 0, y: 0, width: 1920, height: 1200))
        // Without wp_fractional_scale the buffer is drawn at 2 and the compositor scales it down.
        XCTAssertEqual(s.scale(fractional: false), 2)
        XCTAssertEqual(s.rect(scale: 2), Rect(x: 0, y: 0, width: 2560, height: 1600))
    }

    func testARotatedOutputKeepsItsScale() {
        let s = screen(mode: (1920, 1080), logical: (720, 1280), bufferScale: 2)
        XCTAssertEqual(s.scale(fractional: true), 1.5)
        XCTAssertEqual(s.rect(scale: 1.5), Rect(x: 0, y: 0, width: 1080, height: 1920))
    }

    func testScaleIsStatedIn120ths() {
        // 125 %: 2560 / 2048 = 1.25 exactly; 1366 / 1093 is near 1.25 and is said as 150/120.
        XCTAssertEqual(screen(mode: (1366, 768), logical: (1093, 614), bufferScale: 2).scale(fractional: true), 1.25)
    }

    func testWithoutALogicalSizeTheIntegerScaleAndTheModeOverIt() {
        let s = screen(mode: (3840, 2160), logical: (0, 0), bufferScale: 2)
        XCTAssertEqual(s.scale(fractional: true), 2)
        XCTAssertEqual(s.logicalSize, Size(width: 1920, height: 1080))
    }
}
