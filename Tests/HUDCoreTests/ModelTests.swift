import HUDCore
import XCTest

/// Modes, configuration defaults, clocks and geometry.
final class ModelTests: XCTestCase {

    // MARK: Modes

    func testModesThatShowProgress() {
        let progress = HUDMode.allCases.filter { $0.showsProgress }
        XCTAssertEqual(Set(progress.map(\.rawValue)), ["determinate", "annular", "bar"])
    }

    func testNotificationModes() {
        let notifications = HUDMode.allCases.filter { $0.isNotification }
        XCTAssertEqual(Set(notifications.map(\.rawValue)), ["success", "error", "info", "warning", "text", "custom"])
        XCTAssertFalse(HUDMode.indeterminate.isNotification)
        XCTAssertFalse(HUDMode.bar.isNotification)
    }

    func testOnlyTheSpinnerAnimatesByItself() {
        XCTAssertEqual(HUDMode.allCases.filter { $0.isAnimated }, [.indeterminate])
    }

    func testRawValues() {
        XCTAssertEqual(HUDMode.allCases.count, 10)
        for mode in HUDMode.allCases { XCTAssertEqual(HUDMode(rawValue: mode.rawValue), mode) }
        XCTAssertEqual(HUDAnimation(rawValue: "zoom-in"), .zoomIn)
        XCTAssertEqual(HUDAnimation(rawValue: "zoom-out"), .zoomOut)
        XCTAssertEqual(HUDAnimation(rawValue: "zoom"), .zoom)
        XCTAssertNil(HUDAnimation(rawValue: "zoomIn"))
        XCTAssertEqual(Set(HUDAnimation.allCases.map(\.rawValue)), ["fade", "zoom", "zoom-in", "zoom-out", "pop", "none"])
        XCTAssertEqual(SpinnerStyle(rawValue: "spokes"), .spokes)
        XCTAssertEqual(HUDStyle(rawValue: "light"), .light)
    }

    // MARK: Configuration

    func testEffectiveMaskDependsOnTheMode() {
        var c = HUDConfiguration()
        XCTAssertEqual(c.effectiveMask, .clear, "a spinner blocks input by default")
        c.mode = .bar
        XCTAssertEqual(c.effectiveMask, .clear)
        c.mode = .success
        XCTAssertEqual(c.effectiveMask, HUDMask.none, "notifications are click-through")
        c.mode = .text
        XCTAssertEqual(c.effectiveMask, HUDMask.none)
        c.mask = .black
        XCTAssertEqual(c.effectiveMask, .black, "an explicit mask wins")
    }

    func testEffectiveColours() {
        var c = HUDConfiguration()
        XCTAssertEqual(c.style, .dark)
        let custom = RGBA(0.1, 0.2, 0.3, 0.4)
        c.contentColor = custom
        c.bezelColor = .white
        XCTAssertEqual(c.effectiveContentColor, custom)
        XCTAssertEqual(c.effectiveBezelColor, .white)
        c = HUDConfiguration()
        c.style = .light
        XCTAssertEqual(c.effectiveContentColor.a, 0.7, accuracy: 1e-12, "MBProgressHUD's content alpha")
        XCTAssertLessThan(c.effectiveContentColor.r, 0.5, "dark content on a light bezel")
        XCTAssertGreaterThan(c.effectiveBezelColor.r, 0.5)
        c.style = .dark
        XCTAssertGreaterThan(c.effectiveContentColor.r, 0.5, "light content on a dark bezel")
        XCTAssertLessThan(c.effectiveBezelColor.r, 0.5)
    }

    // MARK: Clocks

    func testManualClock() {
        let c = ManualClock()
        XCTAssertEqual(c.now, 0)
        c.advance(by: 0.25)
        c.advance(by: 0.25)
        XCTAssertEqual(c.now, 0.5)
        XCTAssertEqual(ManualClock(7).now, 7)
    }

    func testMonotonicClockDoesNotGoBackwards() {
        let c = MonotonicClock()
        var previous = c.now
        for _ in 0..<1000 {
            let t = c.now
            XCTAssertGreaterThanOrEqual(t, previous)
            previous = t
        }
        XCTAssertGreaterThan(previous, 0)
    }

    // MARK: Geometry

    func testRectAccessors() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(r.minX, 10); XCTAssertEqual(r.maxX, 40); XCTAssertEqual(r.midX, 25)
        XCTAssertEqual(r.minY, 20); XCTAssertEqual(r.maxY, 60); XCTAssertEqual(r.midY, 40)
        XCTAssertEqual(r.size, Size(width: 30, height: 40))
        XCTAssertEqual(Rect(origin: Point(x: 10, y: 20), size: Size(width: 30, height: 40)), r)
        XCTAssertFalse(r.isEmpty)
        XCTAssertTrue(Rect(x: 0, y: 0, width: 0, height: 5).isEmpty)
        XCTAssertTrue(Rect(x: 0, y: 0, width: 5, height: -1).isEmpty)
        XCTAssertEqual(r.description, "(10.0, 20.0, 30.0x40.0)")
    }

    func testRectOperations() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(r.insetBy(dx: 5, dy: 10), Rect(x: 15, y: 30, width: 20, height: 20))
        XCTAssertEqual(r.offsetBy(dx: -10, dy: 5), Rect(x: 0, y: 25, width: 30, height: 40))
        XCTAssertTrue(r.contains(Point(x: 10, y: 20)))
        XCTAssertFalse(r.contains(Point(x: 40, y: 20)), "the max edge is outside")
        XCTAssertTrue(r.contains(Rect(x: 10, y: 20, width: 30, height: 40)))
        XCTAssertFalse(r.contains(Rect(x: 11, y: 20, width: 30, height: 40)))
        XCTAssertEqual(r.union(Rect(x: 0, y: 0, width: 5, height: 5)), Rect(x: 0, y: 0, width: 40, height: 60))
        XCTAssertEqual(r.union(.zero), r, "an empty rect adds nothing")
        XCTAssertEqual(Rect.zero.union(r), r)
    }

    func testScaledAboutCentreKeepsTheCentre() {
        let r = Rect(x: 100, y: 100, width: 80, height: 40)
        let big = r.scaledAboutCentre(1.5)
        XCTAssertEqual(big, Rect(x: 80, y: 90, width: 120, height: 60))
        XCTAssertEqual(big.midX, r.midX)
        XCTAssertEqual(big.midY, r.midY)
        XCTAssertEqual(r.scaledAboutCentre(0.5), Rect(x: 120, y: 110, width: 40, height: 20))
    }

    func testIntegralContainsTheRect() {
        let r = Rect(x: 10.5, y: 20.25, width: 30.1, height: 0.5)
        let i = r.integral
        XCTAssertEqual(i, Rect(x: 10, y: 20, width: 31, height: 1))
        XCTAssertTrue(i.contains(r))
        XCTAssertEqual(Rect(x: 1, y: 2, width: 3, height: 4).integral, Rect(x: 1, y: 2, width: 3, height: 4))
        XCTAssertEqual(Rect(x: -0.5, y: -1.5, width: 1, height: 1).integral, Rect(x: -1, y: -2, width: 2, height: 2))
    }
}

final class TextBoundsTests: XCTestCase {
    /// One letter and 30 000 combining accents took seconds to shape: a character keeps 16
    /// marks; text within the bounds is kept as it is.
    func testMarksAndLengthAreBounded() {
        let zalgo = "e" + String(repeating: "\u{0301}", count: 30_000) + "x"
        var c = HUDConfiguration()
        c.details = zalgo
        c.label = String(repeating: "ab", count: 10_000)
        c.button = "Cancel"
        let k = c.clamped
        XCTAssertEqual(k.details.unicodeScalars.count, 1 + Limits.marksPerCharacter + 1, "the letter, 16 marks, and what follows")
        XCTAssertTrue(k.details.hasSuffix("x"))
        XCTAssertEqual(k.label.utf8.count, Limits.labelBytes)
        XCTAssertEqual(k.button, "Cancel")
        let ordinary = "Café — naïve résumé 日本語 👩‍👩‍👧"
        XCTAssertEqual(Limits.text(ordinary, maxBytes: 100), ordinary)
        XCTAssertEqual(Limits.text("é", maxBytes: 100), "é")
    }
}
