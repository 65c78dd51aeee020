import XCTest
import HUDCore
@testable import HUDWayland

/// The HUD's window rectangle becomes a layer surface's size, anchors and margins: each axis is
/// anchored to the nearer edge, in surface coordinates (device pixels over the output's scale,
/// the output given in surface coordinates).
final class LayerPlacementTests: XCTestCase {
    let output = Size(width: 1920, height: 1080)

    func testCentredHUDIsAnchoredToNoEdge() {
        // The compositor centres it on its output, whichever that turns out to be.
        let p = LayerPlacement(rect: Rect(x: 860, y: 440, width: 200, height: 200), output: output, scale: 1)
        XCTAssertEqual(p.anchor, 0)
        XCTAssertEqual(p.margins.left, 0)
        XCTAssertEqual(p.margins.top, 0)
        XCTAssertEqual(p.width, 200)
        XCTAssertEqual(p.height, 200)
    }

    func testOffCentreHUDIsPinnedByItsNearerEdges() {
        let p = LayerPlacement(rect: Rect(x: 700, y: 300, width: 200, height: 200), output: output, scale: 1)
        XCTAssertEqual(p.anchor, LayerPlacement.top | LayerPlacement.left)
        XCTAssertEqual(p.margins.left, 700)
        XCTAssertEqual(p.margins.top, 300)
    }

    func testBottomRightHUDIsAnchoredToThoseEdges() {
        let p = LayerPlacement(rect: Rect(x: 1700, y: 900, width: 200, height: 160), output: output, scale: 1)
        XCTAssertEqual(p.anchor, LayerPlacement.bottom | LayerPlacement.right)
        XCTAssertEqual(p.margins.right, 20)
        XCTAssertEqual(p.margins.bottom, 20)
        XCTAssertEqual(p.margins.top, 0)
        XCTAssertEqual(p.margins.left, 0)
    }

    func testTopEdgeHUD() {
        let p = LayerPlacement(rect: Rect(x: 900, y: 10, width: 120, height: 60), output: output, scale: 1)
        XCTAssertEqual(p.anchor & LayerPlacement.top, LayerPlacement.top)
        XCTAssertEqual(p.margins.top, 10)
    }

    func testScaleTwoHalvesEverythingAndRoundsTheSizeUp() {
        let p = LayerPlacement(rect: Rect(x: 1001, y: 400, width: 201, height: 100), output: Size(width: 1920, height: 1080), scale: 2)
        XCTAssertEqual(p.width, 101)  // the buffer (202 px) covers the window's 201
        XCTAssertEqual(p.height, 50)
        XCTAssertEqual(p.anchor, LayerPlacement.top | LayerPlacement.left)
        XCTAssertEqual(p.margins.left, 500)
        XCTAssertEqual(p.margins.top, 200)
    }

    func testSamePlacementIsEqual() {
        let r = Rect(x: 10, y: 10, width: 50, height: 50)
        XCTAssertEqual(LayerPlacement(rect: r, output: output, scale: 1), LayerPlacement(rect: r, output: output, scale: 1))
        XCTAssertNotEqual(
            LayerPlacement(rect: r, output: output, scale: 1),
            LayerPlacement(rect: r.offsetBy(dx: 1, dy: 0), output: output, scale: 1))
    }

    func testFractionalScaleSizesTheBufferAsTheProtocolRounds() {
        // KDE at 150 %: a 1920x1200 mode is 1280x800 in surface coordinates.
        let p = LayerPlacement(rect: Rect(x: 808, y: 508, width: 301, height: 181), output: Size(width: 1280, height: 800), scale: 1.5)
        XCTAssertEqual(p.width, 201)  // 301 / 1.5 = 200.7, up
        XCTAssertEqual(p.height, 121)
        XCTAssertEqual(p.bufferWidth, 302)  // round(201 * 1.5): covers the window's 301
        XCTAssertEqual(p.bufferHeight, 182)
        XCTAssertEqual(p.margins.left, 538)
        XCTAssertEqual(p.margins.top, 338)  // 508 / 1.5, down
        let bottomRight = LayerPlacement(rect: Rect(x: 1590, y: 1020, width: 300, height: 150), output: Size(width: 1280, height: 800), scale: 1.5)
        XCTAssertEqual(bottomRight.anchor, LayerPlacement.bottom | LayerPlacement.right)
        XCTAssertEqual(bottomRight.margins.right, 1280 - 1060 - 200)
        XCTAssertEqual(bottomRight.margins.bottom, 800 - 680 - 100)
    }
}
