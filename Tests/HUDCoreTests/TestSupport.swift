import HUDCore
import XCTest

/// A text measurer with fixed metrics: every character is `charWidth` wide, every line `lineHeight`
/// high. Single-line text is cut at `maxWidth` (as Pango's ellipsizing does); multi-line text wraps
/// by characters at `maxWidth` and, when `maxHeight` is set, keeps only the lines that fit (at least one).
///
/// `honoursBounds: false` makes a "greedy" measurer that ignores the request's bounds, to check that
/// the layout clamps on its own.
final class FakeMeasurer: TextMeasurer {
    let charWidth: Double
    let lineHeight: Double
    let honoursBounds: Bool
    private(set) var requests: [TextRequest] = []

    init(charWidth: Double = 8, lineHeight: Double = 20, honoursBounds: Bool = true) {
        self.charWidth = charWidth
        self.lineHeight = lineHeight
        self.honoursBounds = honoursBounds
    }

    func measure(_ request: TextRequest) -> Size {
        requests.append(request)
        let n = Double(request.text.count)
        guard n > 0 else { return .zero }
        let natural = n * charWidth
        if request.singleLine {
            return Size(width: honoursBounds ? min(natural, request.maxWidth) : natural, height: lineHeight)
        }
        if !honoursBounds {
            // One line per 40 characters, whatever the bounds.
            let lines = (n / 40).rounded(.up)
            return Size(width: min(n, 40) * charWidth, height: lines * lineHeight)
        }
        let perLine = max(1, (request.maxWidth / charWidth).rounded(.down))
        var lines = (n / perLine).rounded(.up)
        if let maxHeight = request.maxHeight {
            lines = min(lines, max(1, (maxHeight / lineHeight).rounded(.down)))
        }
        return Size(width: min(n, perLine) * charWidth, height: lines * lineHeight)
    }
}

/// Records the order in which callbacks run.
final class EventLog {
    var events: [String] = []
    func count(_ e: String) -> Int { events.filter { $0 == e }.count }
}

/// A lifecycle on a manual clock, with its appear / was-hidden events logged.
final class LifecycleHarness {
    let clock = ManualClock()
    let hud: HUDLifecycle
    let log = EventLog()

    init(animation: HUDAnimation = .fade, graceTime: Double = 0, minShowTime: Double = 0) {
        hud = HUDLifecycle(clock: clock)
        hud.animation = animation
        hud.graceTime = graceTime
        hud.minShowTime = minShowTime
        let log = self.log
        hud.onAppear = { log.events.append("appear") }
        hud.onWasHidden = { log.events.append("wasHidden") }
    }

    /// Moves virtual time to `t` and lets the lifecycle process everything due by then.
    ///
    /// Deadlines are sums such as 0.4 + 0.3, which can land one ulp after the literal 0.7, so the
    /// update looks 1e-12 s ahead (far below anything a test measures); the clock is then left at
    /// exactly `t`, so that calls made next start at `t`.
    func at(_ t: Double) {
        clock.now = t + 1e-12
        hud.update()
        clock.now = t
    }

    /// A completion that logs itself under `name`.
    func completion(_ name: String = "completion") -> () -> Void {
        let log = self.log
        return { log.events.append(name) }
    }

    /// `nextDeadline`, NaN (which equals nothing) when there is none, so a test fails instead of trapping.
    var deadline: Double { hud.nextDeadline ?? .nan }

    var alpha: Double { hud.presentation.alpha }
    var scale: Double { hud.presentation.scale }
}

func XCTAssertRectEqual(
    _ a: Rect?, _ b: Rect, accuracy: Double = 1e-9,
    file: StaticString = #filePath, line: UInt = #line
) {
    guard let a else { return XCTFail("rect is nil, expected \(b)", file: file, line: line) }
    XCTAssertEqual(a.x, b.x, accuracy: accuracy, "x of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.y, b.y, accuracy: accuracy, "y of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.width, b.width, accuracy: accuracy, "width of \(a) vs \(b)", file: file, line: line)
    XCTAssertEqual(a.height, b.height, accuracy: accuracy, "height of \(a) vs \(b)", file: file, line: line)
}

func XCTAssertColor(
    _ c: RGBA, _ r: Double, _ g: Double, _ b: Double, _ a: Double, accuracy: Double = 1e-9,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(c.r, r, accuracy: accuracy, "red of \(c)", file: file, line: line)
    XCTAssertEqual(c.g, g, accuracy: accuracy, "green of \(c)", file: file, line: line)
    XCTAssertEqual(c.b, b, accuracy: accuracy, "blue of \(c)", file: file, line: line)
    XCTAssertEqual(c.a, a, accuracy: accuracy, "alpha of \(c)", file: file, line: line)
}
