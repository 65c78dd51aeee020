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
    var isLeaving = false
    var onLeaving: (() -> Void)?
    var onResized: (() -> Void)?
    var isOnScreen = true
    /// Where it is now; the registry moves it (a Box jumps unless told otherwise).
    var shownStackOffset = Point.zero
    private(set) var enteredFrom: Point?
    func enterStack(from start: Point) { enteredFrom = start }
    init(height: Double, region: Rect = Rect(x: 0, y: 0, width: 1920, height: 1080)) {
        bezelSize = Size(width: 100, height: height); stackRegion = region
    }
}

final class RegistryTests: XCTestCase {
    func testHUDsStackTopToBottomCentredAsAGroup() {
        let r = HUDRegistry<Box, String>()
        let a = Box(height: 100), b = Box(height: 60)
        r.add(a, key: "a", parent: "m")
        XCTAssertEqual(a.stackShift, 0)  // alone: where one HUD would be
        r.add(b, key: "b", parent: "m")
        // 100 + 8 + 60 = 168 tall, centred: a's centre 34 above the middle, b's 54 below.
        XCTAssertEqual(a.stackShift, -34)
        XCTAssertEqual(b.stackShift, 54)
        XCTAssertEqual(b.stackShift - a.stackShift, 50 + 8 + 30)
        r.remove("a")
        XCTAssertEqual(b.stackShift, 0)
        XCTAssertEqual(r.keys, ["b"])
    }

    /// A summary moved to the end goes under the HUDs that came after it.
    func testAHUDMovedToTheEndStacksLast() {
        let r = HUDRegistry<Box, String>()
        let summary = Box(height: 40), first = Box(height: 100), later = Box(height: 100)
        r.add(first, key: "first", parent: "m")
        r.add(summary, key: "summary", parent: "m")
        r.add(later, key: "later", parent: "m")
        XCTAssertLessThan(summary.stackShift, later.stackShift)
        r.moveToEnd("summary")
        XCTAssertEqual(r.keys, ["first", "later", "summary"])
        XCTAssertGreaterThan(summary.stackShift, later.stackShift)
        r.moveToEnd("nothing")  // no such key: nothing changes
        XCTAssertEqual(r.keys, ["first", "later", "summary"])
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
        osd.configuration.offset.y = 300  // below the centre: the group grows upwards from it
        second.configuration.offset.y = 300
        let o = HUDRegistry<Box, String>()
        o.add(osd, key: "osd", parent: "m")
        o.add(second, key: "n", parent: "m")
        XCTAssertEqual(osd.stackShift, 0)
        XCTAssertEqual(second.stackShift, -(40 + 8 + 20))
    }

    /// Where a box's layout puts it on the screen (the clamp of `HUDLayout.compute`).
    private func placed(_ b: Box) -> Rect {
        let c = b.configuration, m = c.margin
        let x = min(max(b.stackArea.width / 2 + c.offset.x + b.stackOffset.x - b.bezelSize.width / 2, m), b.stackArea.width - m - b.bezelSize.width)
        let y = min(
            max(b.stackArea.height / 2 + c.offset.y + b.stackOffset.y - b.bezelSize.height / 2, m), b.stackArea.height - m - b.bezelSize.height)
        return Rect(x: b.stackRegion.x + x, y: b.stackRegion.y + y, width: b.bezelSize.width, height: b.bezelSize.height)
    }

    private func assertApart(_ boxes: [Box], file: StaticString = #filePath, line: UInt = #line) {
        for (i, a) in boxes.enumerated() {
            for b in boxes[(i + 1)...] {
                XCTAssertTrue(placed(a).intersection(placed(b)).isEmpty, "\(placed(a)) covers \(placed(b))", file: file, line: line)
            }
        }
    }

    /// Notifications pinned to the bottom edge (`--offset 0,10000`) stack upwards from it, each
    /// in sight, none on another; one pinned to the top grows downwards.
    func testHUDsPinnedToAnEdgeStackFromIt() {
        let r = HUDRegistry<Box, String>()
        let boxes = (0..<3).map { i -> Box in
            let b = Box(height: Double(40 + 10 * i))
            b.configuration.offset = Point(x: 0, y: 10000)
            r.add(b, key: "\(i)", parent: "m")
            return b
        }
        assertApart(boxes)
        XCTAssertEqual(placed(boxes[0]).maxY, 1080 - 20, "the first sits on the edge")
        XCTAssertLessThan(placed(boxes[1]).maxY, placed(boxes[0]).minY)
        let top = Box(height: 50), under = Box(height: 50)
        top.configuration.offset.y = -10000; under.configuration.offset.y = -10000
        r.add(top, key: "t", parent: "m"); r.add(under, key: "u", parent: "m")
        XCTAssertEqual(placed(top).minY, 20)
        XCTAssertEqual(placed(under).minY, 20 + 50 + 8)
        assertApart(boxes + [top, under])
    }

    /// A HUD over a window and one over the whole screen with the same centre do not cover
    /// each other: the later one moves clear, inside its own region.
    func testHUDsOfDifferentRegionsNeverOverlap() {
        let r = HUDRegistry<Box, String>()
        let screen = Box(height: 120)
        let window = Box(height: 100, region: Rect(x: 560, y: 290, width: 800, height: 500))
        r.add(screen, key: "s", parent: "screen")
        r.add(window, key: "w", parent: "window")
        assertApart([screen, window])
        XCTAssertEqual(screen.stackOffset, .zero, "the first keeps its place")
        XCTAssertTrue(window.stackRegion.insetBy(dx: 20, dy: 20).contains(placed(window)), "\(placed(window)) left its region")
        r.remove("s")
        XCTAssertEqual(window.stackOffset, .zero, "alone again: back at its centre")
    }

    /// A newcomer comes in beside the HUD before it where that one is now (8 px below its
    /// bottom), and slides with it: the column moves as one and nothing covers anything.
    func testANewcomerEntersBesideItsNeighbourAsItIsNow() {
        let r = HUDRegistry<Box, String>()
        let a = Box(height: 100), b = Box(height: 60)
        r.add(a, key: "a", parent: "m")
        a.shownStackOffset = a.stackOffset  // at rest at the centre
        b.isOnScreen = false
        r.add(b, key: "b", parent: "m")
        XCTAssertEqual(a.stackOffset.y, -34)
        XCTAssertEqual(b.stackOffset.y, 54)
        let start = try! XCTUnwrap(b.enteredFrom)
        XCTAssertEqual(start.y, 88, "34 lower than its place, as a is 34 lower than its own")
        XCTAssertEqual((start.y - 30) - (a.shownStackOffset.y + 50), 8, "one gap below a as a is now")
        let c = Box(height: 40)
        c.isOnScreen = false
        a.isOnScreen = true
        r.add(c, key: "c", parent: "m")
        XCTAssertNil(a.enteredFrom, "one on screen slides from where it is, it does not enter")
    }

    /// A HUD fading out keeps its place; the others move into its room as it starts to fade.
    func testALeavingHUDMakesRoomAtOnce() {
        let r = HUDRegistry<Box, String>()
        let a = Box(height: 100), b = Box(height: 60)
        r.add(a, key: "a", parent: "m")
        r.add(b, key: "b", parent: "m")
        XCTAssertEqual(b.stackOffset.y, 54)
        a.isLeaving = true
        a.onLeaving?()
        XCTAssertEqual(b.stackOffset.y, 0, "b takes the centre while a fades")
        XCTAssertEqual(a.stackOffset.y, -34, "a fades where it was")
        a.isLeaving = false
        a.onLeaving?()
        XCTAssertEqual(a.stackOffset.y, -34)
        XCTAssertEqual(b.stackOffset.y, 54, "a came back: b makes room again")
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
