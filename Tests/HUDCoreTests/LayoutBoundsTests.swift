import HUDCore
import XCTest

/// Whatever the configuration and the region, the bezel stays inside the region's margins and
/// the items inside the bezel.
final class LayoutBoundsTests: XCTestCase, LayoutFixture {
    private func everyConfiguration() -> [HUDConfiguration] {
        let long = String(repeating: "w", count: 300)
        var list: [HUDConfiguration] = [
            config(),
            config(label: "Loading"),
            config(.text, label: long),
            config(.text, details: long),
            config(label: long, details: long),
            config(label: "Loading", details: long, button: "Cancel"),
            config(.bar, label: long, button: long),
            config(.determinate, details: String(repeating: "z", count: 3000)),
        ]
        var sq = config(label: long, details: long); sq.square = true; list.append(sq)
        var big = config(); big.minSize = Size(width: 5000, height: 5000); list.append(big)
        var value = config(.bar, label: "Volume"); value.showValue = true; value.progress = 0.5; list.append(value)
        for offset in [Point(x: 1e6, y: 1e6), Point(x: -1e6, y: -1e6), Point(x: 1e6, y: -1e6), Point(x: 37, y: -91)] {
            var c = config(label: long, details: "Please wait"); c.offset = offset; list.append(c)
        }
        return list
    }

    func testBezelIsNeverLargerThanTheRegionMinusMargins() {
        let regions = [
            Size(width: 100, height: 100), Size(width: 200, height: 150), Size(width: 400, height: 300),
            Size(width: 1920, height: 1080), Size(width: 300, height: 600), Size(width: 640, height: 240),
        ]
        for region in regions {
            for (i, c) in everyConfiguration().enumerated() {
                for m in [FakeMeasurer(), FakeMeasurer(honoursBounds: false)] {
                    let l = layout(c, region: region, measurer: m)
                    let what = "config \(i) in \(region.width)x\(region.height): bezel \(l.bezel)"
                    XCTAssertGreaterThanOrEqual(l.bezel.minX, 20 - 1e-9, what)
                    XCTAssertGreaterThanOrEqual(l.bezel.minY, 20 - 1e-9, what)
                    XCTAssertLessThanOrEqual(l.bezel.maxX, region.width - 20 + 1e-9, what)
                    XCTAssertLessThanOrEqual(l.bezel.maxY, region.height - 20 + 1e-9, what)
                    // (A 100 px region leaves 20 px of content width: a bar and its value cannot both fit.)
                    guard region.width >= 200 else { continue }
                    for r in items(l) {
                        // Every item at least `margin` from the bezel's sides.
                        XCTAssertGreaterThanOrEqual(r.minX, l.bezel.minX + 20 - 1e-9, what + " item \(r)")
                        XCTAssertLessThanOrEqual(r.maxX, l.bezel.maxX - 20 + 1e-9, what + " item \(r)")
                        XCTAssertEqual(r.midX, l.bezel.midX, accuracy: 1e-9, what + " item \(r) centred")
                    }
                }
            }
        }
    }

    func testItemsStayInsideTheBezelWhenThereIsRoom() {
        let regions = [
            Size(width: 400, height: 300), Size(width: 1920, height: 1080),
            Size(width: 300, height: 600), Size(width: 640, height: 240),
        ]
        for region in regions {
            for (i, c) in everyConfiguration().enumerated() {
                for m in [FakeMeasurer(), FakeMeasurer(honoursBounds: false)] {
                    let l = layout(c, region: region, measurer: m)
                    let what = "config \(i) in \(region.width)x\(region.height): bezel \(l.bezel)"
                    let stack = items(l)
                    guard let first = stack.first, let last = stack.last else { continue }
                    XCTAssertGreaterThanOrEqual(first.minY, l.bezel.minY + 20 - 1e-9, what)
                    XCTAssertLessThanOrEqual(last.maxY, l.bezel.maxY - 20 + 1e-9, what)
                    XCTAssertEqual(
                        first.minY - l.bezel.minY, l.bezel.maxY - last.maxY, accuracy: 1e-9,
                        what + ": equal spacers")
                    for (a, b) in zip(stack, stack.dropFirst()) {
                        XCTAssertEqual(b.minY - a.maxY, 4, accuracy: 1e-9, what)
                    }
                }
            }
        }
    }
}
