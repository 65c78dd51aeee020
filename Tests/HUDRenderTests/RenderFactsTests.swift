import CCairo
import CPango
import HUDCore
import HUDRender
import XCTest
import Foundation

/// Numbers that a reference image could hide.
final class RenderFactsTests: XCTestCase {
    let renderer = GoldenTests.renderer

    private func render(
        _ c: HUDConfiguration, region: Size = Size(width: 260, height: 200), scale: Double = 1
    )
        -> (OpaquePointer, HUDLayout)
    {
        let s = Golden.render(GoldenCase(name: "", config: c, region: region, scale: scale), renderer: renderer)
        return (s, renderer.layout(c, region: region))
    }

    /// Content alpha along the ring's circle, sampled at an angle from 12 o'clock clockwise.
    private func ringInk(_ s: OpaquePointer, _ r: Rect, degrees: Double, scale: Double = 1) -> Int {
        let radius = (r.width - 2.5) / 2
        let a = (degrees - 90) * Double.pi / 180
        let x = Int(((r.midX + radius * cos(a)) * scale).rounded(.down))
        let y = Int(((r.midY + radius * sin(a)) * scale).rounded(.down))
        let p = Golden.pixel(s, x, y)
        return p.r  // white ink over a dark bezel: red channel grows with coverage
    }

    /// A window's shape is its bezel's outline whatever the bezel's colour: every pixel the full
    /// frame draws is inside it, and a fully transparent bezel still gets its whole shape.
    func testTheOutlineCoversEverythingTheFrameDrawsWhateverTheBezelColour() {
        for bezel in [RGBA(0.1, 0.1, 0.1, 0.82), RGBA(0, 0, 0, 0)] {
            var c = HUDConfiguration()
            c.mode = .annular; c.progress = 0.7; c.label = "Loading"; c.details = "Fetching packages"
            c.shadow = false; c.bezelColor = bezel
            let region = Size(width: 260, height: 200)
            let layout = renderer.layout(c, region: region)
            let spans = CoverageSpans.outline(
                of: HUDFrame(configuration: c, layout: layout), zoom: 1, renderer: renderer,
                width: 260, height: 200)
            let b = layout.bezel
            XCTAssertEqual(spans.count, Int(b.height.rounded(.up)), "one span per row of the bezel (\(bezel))")
            let (s, _) = render(c, region: region)
            defer { cairo_surface_destroy(s) }
            var outside = 0
            for y in 0..<200 {
                for x in 0..<260 where Golden.alpha(s, x, y) > 0 {
                    let covered = spans.contains { $0.minY == Double(y) && Double(x) >= $0.minX && Double(x) < $0.maxX }
                    if !covered { outside += 1 }
                }
            }
            XCTAssertEqual(outside, 0, "drawn pixels outside the shape (\(bezel))")
        }
    }

    func testAnnularAtHalfCoversExactlyTheRightHalf() {
        var c = HUDConfiguration()
        c.mode = .annular; c.progress = 0.5; c.shadow = false
        let (s, layout) = render(c)
        defer { cairo_surface_destroy(s) }
        let r = layout.indicator!
        for deg in stride(from: 10.0, through: 170, by: 20) {
            XCTAssertGreaterThan(ringInk(s, r, degrees: deg), 150, "right half at \(deg)° should be drawn")
        }
        for deg in stride(from: 190.0, through: 350, by: 20) {
            XCTAssertLessThan(ringInk(s, r, degrees: deg), 90, "left half at \(deg)° should be only the faint track")
        }
    }

    func testPieAtAQuarterFillsTheTopRightQuadrantOnly() {
        var c = HUDConfiguration()
        c.mode = .determinate; c.progress = 0.25; c.shadow = false
        let (s, layout) = render(c)
        defer { cairo_surface_destroy(s) }
        let r = layout.indicator!
        let d = 8.0
        XCTAssertGreaterThan(Golden.pixel(s, Int(r.midX + d), Int(r.midY - d)).r, 150, "top right is filled")
        XCTAssertLessThan(Golden.pixel(s, Int(r.midX - d), Int(r.midY - d)).r, 90, "top left is empty")
        XCTAssertLessThan(Golden.pixel(s, Int(r.midX + d), Int(r.midY + d)).r, 90, "bottom right is empty")
    }

    func testBarFillIsProportional() {
        var c = HUDConfiguration()
        c.mode = .bar; c.progress = 0.75; c.shadow = false
        let (s, layout) = render(c)
        defer { cairo_surface_destroy(s) }
        let inner = layout.indicator!.insetBy(dx: 4, dy: 4)
        let y = Int(inner.midY)
        let filledTo = (Int(inner.minX)..<Int(inner.maxX)).last { Golden.pixel(s, $0, y).r > 128 } ?? 0
        XCTAssertEqual(Double(filledTo) - inner.minX, inner.width * 0.75, accuracy: 1.5)
    }

    func testOverlongLabelIsEllipsizedWithinItsWidth() {
        var c = HUDConfiguration()
        c.mode = .text; c.shadow = false
        c.label = String(repeating: "A very long label ", count: 10)
        let region = Size(width: 300, height: 200)
        let layout = renderer.layout(c, region: region)
        let maxWidth = region.width - 4 * c.margin
        XCTAssertLessThanOrEqual(layout.label!.width, maxWidth)
        let pango = renderer.text.pango.layout(for: layout.labelRequest!)
        XCTAssertNotEqual(pango_layout_is_ellipsized(pango), 0, "the label is cut with an ellipsis")
        XCTAssertEqual(pango_layout_get_line_count(pango), 1, "the label is one line")
        // Nothing is drawn outside the bezel's content area on the label's row.
        let (s, _) = render(c, region: region)
        defer { cairo_surface_destroy(s) }
        let row = Int(layout.label!.midY)
        for x in [Int(layout.bezel.minX) + 2, Int(layout.bezel.maxX) - 3] {
            XCTAssertLessThan(Golden.pixel(s, x, row).r, 60, "no text in the margin at x=\(x)")
        }
    }

    func testInvalidMarkupIsShownAsTextNotDropped() {
        let bad = TextRequest(text: "<b>unclosed", font: "Sans 12px", markup: true, maxWidth: 300, singleLine: true)
        let good = TextRequest(text: "<b>bold</b>", font: "Sans 12px", markup: true, maxWidth: 300, singleLine: true)
        XCTAssertGreaterThan(renderer.text.measure(bad).width, 40, "invalid markup still shows its text")
        let plain = TextRequest(text: "bold", font: "Sans 12px", maxWidth: 300, singleLine: true)
        XCTAssertEqual(
            renderer.text.measure(good).width, renderer.text.measure(plain).width, accuracy: 4,
            "valid markup is interpreted, not shown as tags")
    }

    func testScaleTwoDoublesTheBezel() {
        var c = HUDConfiguration()
        c.mode = .success; c.label = "Done"; c.shadow = false
        let (s1, layout) = render(c, scale: 1)
        let (s2, _) = render(c, scale: 2)
        defer { cairo_surface_destroy(s1); cairo_surface_destroy(s2) }
        func alphaWidth(_ s: OpaquePointer, row: Int) -> Int {
            let w = Int(cairo_image_surface_get_width(s))
            return (0..<w).filter { Golden.alpha(s, $0, row) > 128 }.count
        }
        let w1 = alphaWidth(s1, row: Int(layout.bezel.midY))
        let w2 = alphaWidth(s2, row: Int(layout.bezel.midY * 2))
        XCTAssertEqual(Double(w1), layout.bezel.width, accuracy: 2)
        XCTAssertEqual(Double(w2), 2 * layout.bezel.width, accuracy: 3)
    }

    func testMaskBlackIsFortyPercentAndGradientIsClearAtTheCentre() {
        var c = HUDConfiguration()
        c.mode = .indeterminate; c.mask = .black
        let (s, _) = render(c)
        XCTAssertEqual(Golden.alpha(s, 2, 2), 102, accuracy: 2)
        cairo_surface_destroy(s)
        c.mask = .gradient; c.label = ""
        let region = Size(width: 600, height: 400)
        let (g, layout) = render(c, region: region)
        defer { cairo_surface_destroy(g) }
        _ = layout
        // Radial: alpha 0.75 * distance / min(w, h), so 190 px from the centre of a 600x400 region:
        let expected = Int((0.75 * 190 / 400 * 255).rounded())
        XCTAssertEqual(Golden.alpha(g, 300, 10), expected, accuracy: 3)
        XCTAssertGreaterThan(Golden.alpha(g, 1, 1), Golden.alpha(g, 300, 10), "darker towards the corners")
    }
    /// SVProgressHUD's ring thickness widens the progress ring; its radius sizes the indicator.
    func testRingThicknessAndRadius() {
        func inkedAcross(_ c: HUDConfiguration) -> (count: Int, indicator: Rect) {
            let (s, layout) = render(c)
            defer { cairo_surface_destroy(s) }
            let r = layout.indicator!
            // Down the ring's right side at 3 o'clock: how many pixels carry ink.
            let y = Int(r.midY.rounded(.down))
            var n = 0
            for x in Int(r.midX)..<Int(r.maxX + 2) where Golden.pixel(s, x, y).r > 120 { n += 1 }
            return (n, r)
        }
        var c = HUDConfiguration()
        c.mode = .annular; c.progress = 0.5; c.shadow = false
        let thin = inkedAcross(c)
        c.ringThickness = 6
        let thick = inkedAcross(c)
        XCTAssertGreaterThanOrEqual(thick.count, thin.count + 3, "6 px against 2 px: \(thick.count) vs \(thin.count)")
        XCTAssertEqual(thick.indicator, thin.indicator, "the thickness alone keeps the indicator's size")
        c.ringRadius = 24; c.ringThickness = 2
        XCTAssertEqual(renderer.layout(c, region: Size(width: 260, height: 200)).indicator?.width, 50, "2 x 24 + the line")
        c.mode = .indeterminate
        XCTAssertEqual(renderer.layout(c, region: Size(width: 260, height: 200)).indicator?.width, 50, "the spinner's ring too")
        c.spinner = .spokes
        XCTAssertEqual(renderer.layout(c, region: Size(width: 260, height: 200)).indicator?.width, 37, "not the spokes")
    }

    /// An image set for a result replaces its drawn icon, in the image's size; one that cannot
    /// be read leaves the drawn icon.
    func testAResultImageReplacesTheDrawnIcon() throws {
        let dir = NSTemporaryDirectory() + "xhud-result-\(getpid())"
        mkdir(dir, 0o700)
        let png = dir + "/red.png"
        let img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 16, 16)!
        let cr = cairo_create(img)!
        cairo_set_source_rgba(cr, 1, 0, 0, 1); cairo_paint(cr); cairo_destroy(cr)
        XCTAssertEqual(cairo_surface_write_to_png(img, png), CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(img)
        defer { unlink(png); rmdir(dir) }

        var c = HUDConfiguration()
        c.mode = .success; c.shadow = false; c.imageSize = 28
        c.successImage = png
        let (s, layout) = render(c)
        defer { cairo_surface_destroy(s) }
        let r = try XCTUnwrap(layout.indicator)
        XCTAssertEqual(r.width, 28)
        let mid = Golden.pixel(s, Int(r.midX), Int(r.midY))
        XCTAssertGreaterThan(mid.r, 200); XCTAssertLessThan(mid.g, 40, "the red image, not the white check mark")

        c.successImage = dir + "/missing.png"
        let (drawn, l2) = render(c)
        defer { cairo_surface_destroy(drawn) }
        XCTAssertEqual(l2.indicator?.width, 28)
        var red = 0
        for y in 0..<200 { for x in 0..<260 { let p = Golden.pixel(drawn, x, y); if p.r > 200 && p.g < 60 { red += 1 } } }
        XCTAssertEqual(red, 0, "a missing image draws the check mark instead")
        c.mode = .error
        XCTAssertEqual(renderer.layout(c, region: Size(width: 260, height: 200)).indicator?.width, 37, "only the success icon is replaced")
    }
}

private func XCTAssertEqual(_ a: Int, _ b: Int, accuracy: Int, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(abs(a - b) <= accuracy, "\(a) is not \(b) ± \(accuracy)", file: file, line: line)

}
