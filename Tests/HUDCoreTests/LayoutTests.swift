import HUDCore
import XCTest

/// MBProgressHUD's layout with fixed text metrics: every character 8 px wide, every line 20 px high.
final class LayoutTests: XCTestCase, LayoutFixture {
    // MARK: Defaults

    /// A stack making room moves a HUD by its offset: the layout is then the old one moved as a
    /// whole, which is what lets the controller compose the drawn content at the new place
    /// instead of drawing it again. Near the region's edge it is not (the bezel is kept inside).
    func testAnOffsetMovesTheLayoutAsAWhole() {
        var c = config(.determinate, label: "Loading", details: "two words", button: "Cancel")
        let before = layout(c)
        c.offset = Point(x: 12, y: -30)
        let after = layout(c)
        XCTAssertEqual(after, before.translated(dx: 12, dy: -30))
        XCTAssertNotEqual(after, before)
        XCTAssertEqual(before.translated(dx: 0, dy: 0), before)
        c.offset = Point(x: 0, y: 1_000)
        let kept = layout(c)
        XCTAssertNotEqual(kept, before.translated(dx: 0, dy: 1_000), "a bezel pushed past the edge is kept inside")
    }

    func testDefaultsFollowMBProgressHUD() {
        let c = HUDConfiguration()
        XCTAssertEqual(c.margin, 20)
        XCTAssertEqual(c.spacing, 4)
        XCTAssertEqual(c.minSize, .zero)
        XCTAssertFalse(c.square)
        XCTAssertEqual(c.offset, .zero)
        XCTAssertEqual(c.mode, .indeterminate)
        // MBProgressHUD's sizes, iOS's weights (a semibold label, a regular details label), the
        // desktop's UI font.
        XCTAssertEqual(c.labelFont, "system-ui Semibold 16px")
        XCTAssertEqual(c.detailsFont, "system-ui 12px")
        XCTAssertEqual(c.buttonFont, "system-ui Semibold 12px")
        XCTAssertEqual(c.animation, .fade)
        XCTAssertEqual(c.graceTime, 0)
        XCTAssertEqual(c.minShowTime, 0)
        XCTAssertEqual(c.progress, 0)
        XCTAssertFalse(c.markup, "text is text unless asked")
    }

    // MARK: The stack

    func testIndicatorOnlyIsCentredWithMarginAround() {
        let l = layout(config())
        XCTAssertEqual(l.region, region)
        XCTAssertRectEqual(l.bezel, Rect(x: 161.5, y: 111.5, width: 77, height: 77))
        XCTAssertRectEqual(l.indicator, Rect(x: 181.5, y: 131.5, width: 37, height: 37))
        XCTAssertNil(l.label)
        XCTAssertNil(l.details)
        XCTAssertNil(l.button)
        XCTAssertNil(l.value)
        XCTAssertNil(l.labelRequest)
        XCTAssertNil(l.detailsRequest)
        XCTAssertNil(l.buttonRequest)
        XCTAssertNil(l.valueRequest)
    }

    func testIndicatorAndLabel() {
        let m = FakeMeasurer()
        let l = layout(config(label: "Loading"), measurer: m)
        XCTAssertRectEqual(l.bezel, Rect(x: 152, y: 99.5, width: 96, height: 101))
        XCTAssertRectEqual(l.indicator, Rect(x: 181.5, y: 119.5, width: 37, height: 37))
        XCTAssertRectEqual(l.label, Rect(x: 172, y: 160.5, width: 56, height: 20))
        XCTAssertEqual(
            l.labelRequest,
            TextRequest(
                text: "Loading", font: "system-ui Semibold 16px", markup: false,
                maxWidth: 320, maxHeight: nil, singleLine: true))
        XCTAssertEqual(m.requests.first?.text, "Loading")
    }

    func testAllItemsAreFourApartInOrderAndCentred() {
        let m = FakeMeasurer()
        let l = layout(config(label: "Loading", details: "Please wait", button: "Cancel"), measurer: m)
        // Content: 88 wide (details), 37 + 20 + 20 + 32 + 3 * 4 = 121 high.
        XCTAssertRectEqual(l.bezel, Rect(x: 136, y: 69.5, width: 128, height: 161))
        XCTAssertRectEqual(l.indicator, Rect(x: 181.5, y: 89.5, width: 37, height: 37))
        XCTAssertRectEqual(l.label, Rect(x: 172, y: 130.5, width: 56, height: 20))
        XCTAssertRectEqual(l.details, Rect(x: 156, y: 154.5, width: 88, height: 20))
        XCTAssertRectEqual(l.button, Rect(x: 166, y: 178.5, width: 68, height: 32))  // 20 wider, 12 taller than its title

        let stack = items(l)
        XCTAssertEqual(stack.count, 4)
        for (a, b) in zip(stack, stack.dropFirst()) {
            XCTAssertEqual(b.minY - a.maxY, 4, accuracy: 1e-9, "visible items are 4 apart")
        }
        for r in stack {
            XCTAssertEqual(r.midX, l.bezel.midX, accuracy: 1e-9, "centred horizontally")
        }
        let top = stack.first!.minY - l.bezel.minY
        let bottom = l.bezel.maxY - stack.last!.maxY
        XCTAssertEqual(top, bottom, accuracy: 1e-9, "top and bottom spacers are equal")
        XCTAssertEqual(top, 20, accuracy: 1e-9)

        XCTAssertEqual(
            l.detailsRequest,
            TextRequest(
                text: "Please wait", font: "system-ui 12px", markup: false,
                maxWidth: 320, maxHeight: 220 - 89 - 12, singleLine: false))
        XCTAssertEqual(
            l.buttonRequest,
            TextRequest(
                text: "Cancel", font: "system-ui Semibold 12px", markup: false,
                maxWidth: 300, maxHeight: nil, singleLine: true))
    }

    /// A notification's actions: a row of buttons 8 apart, centred as one item, in order while
    /// they fit the content's width (320 here); the first one that does not fit ends the row.
    func testExtraButtonsMakeARowOfWhatFits() {
        var c = config(label: "Trash", button: "Ignore")
        c.extraButtons = ["Empty Trash", "A very long third button title", "OK"]
        let l = layout(c)
        XCTAssertEqual(l.buttons.count, 2)
        XCTAssertEqual(l.buttonRequests.map(\.text), ["Ignore", "Empty Trash"])
        let (a, b) = (l.buttons[0], l.buttons[1])
        XCTAssertEqual(a.width, 68, accuracy: 1e-9)
        XCTAssertEqual(b.width, 108, accuracy: 1e-9)
        XCTAssertEqual(b.minX - a.maxX, 8, accuracy: 1e-9)
        XCTAssertEqual(a.minY, b.minY, accuracy: 1e-9)
        XCTAssertEqual((a.minX + b.maxX) / 2, l.bezel.midX, accuracy: 1e-9, "the row is centred")
        XCTAssertGreaterThanOrEqual(l.bezel.width, 68 + 8 + 108 + 40, "the bezel holds the row")

        // Without a first button, the extra ones make the row alone.
        c.button = ""
        c.extraButtons = ["Yes", "No"]
        XCTAssertEqual(layout(c).buttonRequests.map(\.text), ["Yes", "No"])
        // A first button wider than the bezel is ellipsized, never dropped; nothing follows it.
        c.button = String(repeating: "W", count: 80)
        let wide = layout(c)
        XCTAssertEqual(wide.buttons.count, 1)
        XCTAssertLessThanOrEqual(wide.buttons[0].width, 320 + 1e-9)
        // Moved and snapped as a whole.
        let moved = layout(c).translated(dx: 5, dy: 7)
        XCTAssertEqual(moved.buttons[0].minX, wide.buttons[0].minX + 5, accuracy: 1e-9)
    }

    /// Details and a button added: the label and the indicator move from their old places to
    /// their new ones (half way at 0.5), the details and the button are the added part, in place.
    func testGrowingMovesWhatWasThereAndAddsWhatIsNew() {
        let before = layout(config(label: "Loading"))
        let after = layout(config(label: "Loading", details: "Please wait", button: "Cancel"))
        let (kept, added) = after.growing(from: before, fraction: 0.5)
        XCTAssertEqual(kept.label!.y, (before.label!.y + after.label!.y) / 2, accuracy: 1e-9)
        XCTAssertEqual(kept.indicator!.y, (before.indicator!.y + after.indicator!.y) / 2, accuracy: 1e-9)
        XCTAssertNil(kept.details)
        XCTAssertTrue(kept.buttons.isEmpty)
        XCTAssertNil(added.label)
        XCTAssertNil(added.indicator)
        XCTAssertRectEqual(added.details, after.details!)
        XCTAssertEqual(added.buttons, after.buttons)
        let (end, none) = after.growing(from: before, fraction: 1)
        XCTAssertRectEqual(end.label, after.label!)
        XCTAssertFalse(none.isBlank, "what is added stays added")
        XCTAssertTrue(after.growing(from: after, fraction: 0.3).added.isBlank, "nothing new: nothing added")
    }

    func testNonDefaultMarginAndSpacing() {
        var c = config(label: "Loading")
        c.margin = 10
        c.spacing = 8
        let l = layout(c)
        XCTAssertEqual(l.bezel.width, 56 + 20, accuracy: 1e-9)
        XCTAssertEqual(l.bezel.height, 37 + 8 + 20 + 20, accuracy: 1e-9)
        XCTAssertEqual(l.label!.minY - l.indicator!.maxY, 8, accuracy: 1e-9)
        XCTAssertEqual(l.indicator!.minY - l.bezel.minY, 10, accuracy: 1e-9)
        XCTAssertEqual(l.labelRequest?.maxWidth, 400 - 4 * 10)
    }

    func testEmptyTextModeIsJustTheMargins() {
        let l = layout(config(.text))
        XCTAssertRectEqual(l.bezel, Rect(x: 180, y: 130, width: 40, height: 40))
        XCTAssertTrue(items(l).isEmpty)
    }

    func testTextModeLabelOnly() {
        let l = layout(config(.text, label: "Saved"))
        XCTAssertNil(l.indicator)
        XCTAssertRectEqual(l.bezel, Rect(x: 160, y: 120, width: 80, height: 60))
        XCTAssertRectEqual(l.label, Rect(x: 180, y: 140, width: 40, height: 20))
    }

    // MARK: Label

    func testLabelIsOneLineClampedToRegionWidthMinusFourMargins() {
        let long = String(repeating: "x", count: 100)  // 800 px
        for m in [FakeMeasurer(), FakeMeasurer(honoursBounds: false)] {
            let l = layout(config(.text, label: long), measurer: m)
            XCTAssertEqual(l.labelRequest?.singleLine, true)
            XCTAssertEqual(l.labelRequest?.maxWidth, 400 - 4 * 20)
            XCTAssertRectEqual(l.label, Rect(x: 40, y: 140, width: 320, height: 20))
            XCTAssertRectEqual(l.bezel, Rect(x: 20, y: 120, width: 360, height: 60))
        }
        let wide = layout(config(.text, label: long), region: Size(width: 600, height: 300))
        XCTAssertEqual(wide.label!.width, 600 - 80, accuracy: 1e-9)
        XCTAssertEqual(wide.label!.height, 20, accuracy: 1e-9, "one line however long")
    }

    func testMarkupFlagIsPassedToTheTextRequests() {
        var c = config(label: "<b>a</b>", details: "<i>b</i>")
        XCTAssertEqual(layout(c).labelRequest?.markup, false)
        c.markup = true
        let l = layout(c)
        XCTAssertEqual(l.labelRequest?.markup, true)
        XCTAssertEqual(l.detailsRequest?.markup, true)
    }

    // MARK: Details

    func testDetailsWrapAtTheContentWidth() {
        let text = String(repeating: "d", count: 100)  // 40 a line at 320 px: 3 lines
        let l = layout(config(.text, details: text))
        XCTAssertEqual(l.detailsRequest?.singleLine, false)
        XCTAssertEqual(l.detailsRequest?.maxWidth, 320)
        XCTAssertEqual(l.detailsRequest?.maxHeight, 300 - 4 * 20, "all the height there is")
        XCTAssertRectEqual(l.details, Rect(x: 40, y: 120, width: 320, height: 60))
        XCTAssertRectEqual(l.bezel, Rect(x: 20, y: 100, width: 360, height: 100))
    }

    func testDetailsAreClampedToTheHeightLeft() {
        let region = Size(width: 400, height: 200)
        let text = String(repeating: "d", count: 1000)  // 25 lines, 500 px
        // Content height available: 200 - 4 * 20 = 120; minus indicator, label and two gaps: 55.
        for m in [FakeMeasurer(), FakeMeasurer(honoursBounds: false)] {
            let l = layout(config(label: "Loading", details: text), region: region, measurer: m)
            XCTAssertEqual(l.detailsRequest?.maxHeight, 55)
            let d = l.details!
            XCTAssertLessThanOrEqual(d.height, 55)
            XCTAssertGreaterThan(d.height, 0)
            XCTAssertLessThanOrEqual(l.bezel.height, 200 - 40 + 1e-9, "the bezel stays inside the region")
            XCTAssertGreaterThanOrEqual(l.bezel.minY, 20 - 1e-9)
            XCTAssertLessThanOrEqual(d.maxY, l.bezel.maxY - 20 + 1e-9, "details end a margin above the bezel's edge")
            XCTAssertEqual(d.minY - l.label!.maxY, 4, accuracy: 1e-9)
        }
        // The greedy measurer returns 500 px: the layout itself cuts it to 55.
        let greedy = layout(config(label: "Loading", details: text), region: region, measurer: FakeMeasurer(honoursBounds: false))
        XCTAssertEqual(greedy.details!.height, 55, accuracy: 1e-9)
        XCTAssertRectEqual(greedy.bezel, Rect(x: 20, y: 20, width: 360, height: 160))
    }

    func testDetailsLeaveRoomForTheButton() {
        let region = Size(width: 400, height: 200)
        let text = String(repeating: "d", count: 1000)
        let l = layout(
            config(label: "Loading", details: text, button: "Cancel"), region: region,
            measurer: FakeMeasurer(honoursBounds: false))
        // 120 - (37 + 20 + 32) - 3 * 4 = 19
        XCTAssertEqual(l.detailsRequest?.maxHeight, 19)
        XCTAssertEqual(l.details!.height, 19, accuracy: 1e-9)
        XCTAssertEqual(l.button!.minY - l.details!.maxY, 4, accuracy: 1e-9)
        XCTAssertLessThanOrEqual(l.button!.maxY, l.bezel.maxY - 20 + 1e-9)
        XCTAssertLessThanOrEqual(l.bezel.maxY, 180 + 1e-9)
    }

    func testDetailsWiderThanAllowedAreClampedInWidth() {
        let l = layout(
            config(.text, details: String(repeating: "d", count: 100)),
            measurer: FakeMeasurer(charWidth: 20, honoursBounds: false))  // 800 px wide
        XCTAssertEqual(l.details!.width, 320, accuracy: 1e-9)
    }

    // MARK: Button

    func testLongButtonIsClampedToTheContentWidth() {
        let l = layout(config(button: String(repeating: "b", count: 100)))
        XCTAssertEqual(l.buttonRequest?.maxWidth, 300)
        XCTAssertEqual(l.button!.width, 320, accuracy: 1e-9)
        XCTAssertEqual(l.button!.midX, l.bezel.midX, accuracy: 1e-9)
    }

    // MARK: Square and minSize

    func testSquareMakesWidthEqualHeight() {
        var c = config(label: "Loading")  // 96 x 101
        c.square = true
        let l = layout(c)
        XCTAssertRectEqual(l.bezel, Rect(x: 149.5, y: 99.5, width: 101, height: 101))
        XCTAssertEqual(l.indicator!.midX, 200, accuracy: 1e-9)

        var wide = config(.text, label: "Hello")  // 80 x 60
        wide.square = true
        let w = layout(wide)
        XCTAssertRectEqual(w.bezel, Rect(x: 160, y: 110, width: 80, height: 80))
        XCTAssertEqual(w.label!.midY, w.bezel.midY, accuracy: 1e-9, "the stack is centred in the taller bezel")
    }

    func testSquareIsDroppedWhenItDoesNotFit() {
        var c = config(.text, label: String(repeating: "x", count: 100))  // 360 x 60
        c.square = true
        let l = layout(c, region: Size(width: 400, height: 120))
        XCTAssertEqual(l.bezel.width, 360, accuracy: 1e-9)
        XCTAssertEqual(l.bezel.height, 60, accuracy: 1e-9)
    }

    func testMinSizeIsALowerBound() {
        var c = config()
        c.minSize = Size(width: 200, height: 150)
        let l = layout(c)
        XCTAssertRectEqual(l.bezel, Rect(x: 100, y: 75, width: 200, height: 150))
        XCTAssertEqual(l.indicator!.midX, l.bezel.midX, accuracy: 1e-9)
        XCTAssertEqual(l.indicator!.midY, l.bezel.midY, accuracy: 1e-9, "content centred in a larger bezel")

        c.minSize = Size(width: 10, height: 10)
        XCTAssertEqual(layout(c).bezel.size, Size(width: 77, height: 77), "smaller minSize has no effect")
    }

    func testMinSizeLargerThanTheRegionIsBoundedByTheMargins() {
        var c = config()
        c.minSize = Size(width: 1000, height: 1000)
        let l = layout(c)
        XCTAssertRectEqual(l.bezel, Rect(x: 20, y: 20, width: 360, height: 260))
    }

    func testMinSizeAndSquareCompose() {
        var c = config()
        c.minSize = Size(width: 200, height: 100)
        c.square = true
        XCTAssertEqual(layout(c).bezel.size, Size(width: 200, height: 200))
    }

    // MARK: Offset

    func testOffsetMovesTheBezel() {
        var c = config()
        c.offset = Point(x: 30, y: -20)
        let l = layout(c)
        XCTAssertRectEqual(l.bezel, Rect(x: 191.5, y: 91.5, width: 77, height: 77))
        XCTAssertEqual(l.indicator!.midX, l.bezel.midX, accuracy: 1e-9, "items move with the bezel")
        XCTAssertEqual(l.indicator!.midY, l.bezel.midY, accuracy: 1e-9)
    }

    func testHugeOffsetPinsTheBezelAMarginFromTheEdge() {
        var c = config(label: "Loading")
        c.offset = Point(x: 0, y: 1e6)
        var l = layout(c)
        XCTAssertEqual(l.bezel.maxY, 300 - 20, accuracy: 1e-9, "margin from the bottom edge")
        XCTAssertEqual(l.bezel.midX, 200, accuracy: 1e-9)
        XCTAssertEqual(l.bezel.size, Size(width: 96, height: 101))
        XCTAssertEqual(l.label!.maxY, l.bezel.maxY - 20, accuracy: 1e-9)

        c.offset = Point(x: 0, y: -1e6)
        l = layout(c)
        XCTAssertEqual(l.bezel.minY, 20, accuracy: 1e-9, "margin from the top edge")

        c.offset = Point(x: 1e6, y: 0)
        l = layout(c)
        XCTAssertEqual(l.bezel.maxX, 400 - 20, accuracy: 1e-9, "margin from the right edge")
        XCTAssertEqual(l.bezel.midY, 150, accuracy: 1e-9)

        c.offset = Point(x: -1e6, y: 1e6)
        l = layout(c)
        XCTAssertEqual(l.bezel.minX, 20, accuracy: 1e-9)
        XCTAssertEqual(l.bezel.maxY, 280, accuracy: 1e-9)
    }
}
