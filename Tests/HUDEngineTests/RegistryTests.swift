import XCTest
import HUDCore
import HUDEngine

/// A HUD of a given size in a region: all the registry needs to stack it.
private final class Box: StackableHUD {
    var bezelSize: Size
    var configuration = HUDConfiguration()
    var stackOffset = Point.zero
    var stackShift: Double { stackOffset.y }
    var stackRegion: Rect
    var stackArea: Size { Size(width: stackRegion.width, height: stackRegion.height) }
    init(height: Double, region: Rect = Rect(x: 0, y: 0, width: 1920, height: 1080)) {
        bezelSize = Size(width: 100, height: height); stackRegion = region
    }
}

final class RegistryTests: XCTestCase {
    func testHUDsStackTopToBottomCentredAsAGroup() {
        let r = HUDRegistry<Box, String>()
        let a = Box(height: 100), b = Box(height: 60)
        r.add(a, key: "a", parent: "m")
        XCTAssertEqual(a.stackShift, 0)   // alone: where one HUD would be
        r.add(b, key: "b", parent: "m")
        // 100 + 8 + 60 = 168 tall, centred: a's centre 34 above the middle, b's 54 below.
        XCTAssertEqual(a.stackShift, -34)
        XCTAssertEqual(b.stackShift, 54)
        XCTAssertEqual(b.stackShift - a.stackShift, 50 + 8 + 30)
        r.remove("a")
        XCTAssertEqual(b.stackShift, 0)
        XCTAssertEqual(r.keys, ["b"])
    }

    func testRegionsStackApartAndAnOSDGrowsUpwards() {
        let r = HUDRegistry<Box, String>()
        let left = Box(height: 50, region: Rect(x: 0, y: 0, width: 800, height: 600))
        let right = Box(height: 50, region: Rect(x: 800, y: 0, width: 800, height: 600))
        r.add(left, key: "l", parent: "left")
        r.add(right, key: "r", parent: "right")
        XCTAssertEqual(left.stackShift, 0)
        XCTAssertEqual(right.stackShift, 0)
        let osd = Box(height: 80), second = Box(height: 40)
        osd.configuration.offset.y = 300   // below the centre: the group grows upwards from it
        let o = HUDRegistry<Box, String>()
        o.add(osd, key: "osd", parent: "m")
        o.add(second, key: "n", parent: "m")
        XCTAssertEqual(osd.stackShift, 0)
        XCTAssertEqual(second.stackShift, -(40 + 8 + 20))
    }

    func testLooksAreKeptForRememberedHUDsOnlyAndForgotten() {
        let r = HUDRegistry<Box, String>()
        let vol = Box(height: 50)
        vol.configuration.label = "Volume"
        r.add(vol, key: "vol", parent: "m", remembered: true)
        r.add(Box(height: 50), key: " notification 1", parent: "m")
        r[" notification 1"]!.activity += 1
        XCTAssertEqual(r[" notification 1"]?.activity, 1)
        r.remove("vol")
        r.remove(" notification 1")
        XCTAssertTrue(r.isEmpty)
        XCTAssertEqual(r.look(of: "vol")?.configuration.label, "Volume")
        XCTAssertEqual(r.look(of: "vol")?.parent, "m")
        XCTAssertNil(r.look(of: " notification 1"))
        r.forgetLooks()
        XCTAssertNil(r.look(of: "vol"))
    }

    func testOnlyTheLastLooksAreKept() {
        let r = HUDRegistry<Box, Int>()
        r.memory = 3
        for i in 0..<5 {
            r.add(Box(height: 10), key: "\(i)", parent: i, remembered: true)
            r.remove("\(i)")
        }
        XCTAssertNil(r.look(of: "1"))
        XCTAssertEqual(r.look(of: "4")?.parent, 4)
        XCTAssertEqual(r.look(of: "2")?.parent, 2)
    }

    func testAColumnThatWouldLeaveTheRegionGoesOnInTheNext() {
        let r = HUDRegistry<Box, String>()
        let region = Rect(x: 0, y: 0, width: 1280, height: 800)
        let boxes = (0..<20).map { _ in Box(height: 100, region: region) }
        for (i, b) in boxes.enumerated() { r.add(b, key: "\(i)", parent: "m") }
        // 800 - 2 x 16 = 768 tall columns hold 7 HUDs of 100 (7 x 100 + 6 x 8 = 748): 7, 7, 6.
        let xs = Set(boxes.map(\.stackOffset.x))
        XCTAssertEqual(xs.count, 3)
        XCTAssertEqual(xs.sorted(), [-108, 0, 108])
        for b in boxes {
            let top = 400 + b.stackOffset.y - 50, bottom = 400 + b.stackOffset.y + 50
            XCTAssertGreaterThanOrEqual(top, 16)
            XCTAssertLessThanOrEqual(bottom, 784)
        }
        // No two overlap.
        for (i, a) in boxes.enumerated() {
            for b in boxes[(i + 1)...] {
                let apart = abs(a.stackOffset.x - b.stackOffset.x) >= 100 || abs(a.stackOffset.y - b.stackOffset.y) >= 100
                XCTAssertTrue(apart)
            }
        }
        // Fewer HUDs: one centred column again.
        for i in 7..<20 { r.remove("\(i)") }
        XCTAssertEqual(Set(boxes[0..<7].map(\.stackOffset.x)), [0])
    }

    /// Columns side by side fill a region; the HUD that would go past its edge makes the region
    /// crowded (the server takes it back), and a count past `capacity` is full.
    func testARegionWhoseColumnsNoLongerFitIsCrowded() {
        let region = Rect(x: 0, y: 0, width: 400, height: 300)
        let r = HUDRegistry<Box, String>()
        // 300 - 2 x 16 = 268 of room: two 100-tall HUDs a column; 100-wide columns, 8 apart,
        // within 400 - 32 = 368: three columns fit, a fourth does not.
        for i in 0..<6 { r.add(Box(height: 100, region: region), key: "\(i)", parent: "m") }
        XCTAssertTrue(r.crowded.isEmpty)
        r.add(Box(height: 100, region: region), key: "6", parent: "m")
        XCTAssertEqual(r.crowded, [region])
        r.remove("6")
        XCTAssertTrue(r.crowded.isEmpty)
        r.capacity = 6
        XCTAssertTrue(r.isFull)
    }
}
