import HUDCore
import XCTest

private func parse(_ line: String) -> InputCommand { InputCommand.parse(line) }

/// The reason of an `.invalid`, or nil for any other command.
private func reason(_ line: String) -> String? {
    if case .invalid(_, let r) = parse(line) { return r }
    return nil
}

final class InputCommandTests: XCTestCase {
    // MARK: zenity/yad lines

    func testEmptyLines() {
        XCTAssertEqual(parse(""), .empty)
        XCTAssertEqual(parse("   \t "), .empty)
        XCTAssertEqual(parse("\r"), .empty)
    }

    func testBareNumbersArePercentagesClamped() {
        XCTAssertEqual(parse("42"), .set(.progress(0.42)))
        XCTAssertEqual(parse("  0 "), .set(.progress(0)))
        XCTAssertEqual(parse("100"), .set(.progress(1)))
        XCTAssertEqual(parse("12.5"), .set(.progress(0.125)))
        XCTAssertEqual(parse("150"), .set(.progress(1)), "zenity clamps instead of rejecting")
        XCTAssertEqual(parse("-5"), .set(.progress(0)))
    }

    func testBareNumbersAcceptATrailingPercentSign() {
        XCTAssertEqual(parse("42%"), .set(.progress(0.42)))
        XCTAssertEqual(parse("250%"), .set(.progress(1)))
        XCTAssertEqual(parse("%"), .invalid(line: "%", reason: "unknown command '%'"))
    }

    func testNonFiniteNumbersAreNotProgress() {
        XCTAssertEqual(reason("nan"), "unknown command 'nan'")
        XCTAssertEqual(reason("inf"), "unknown command 'inf'")
    }

    func testHashSetsTheTrimmedLabel() {
        XCTAssertEqual(parse("# Copying  files "), .set(.label("Copying  files")))
        XCTAssertEqual(parse("#done=yes"), .set(.label("done=yes")), "a label line is never a command")
        XCTAssertEqual(parse("#"), .set(.label("")))
    }

    func testPulsateIsCaseInsensitive() {
        XCTAssertEqual(parse("pulsate:true"), .set(.pulsate(true)))
        XCTAssertEqual(parse("PULSATE:False"), .set(.pulsate(false)))
        XCTAssertEqual(reason("pulsate:maybe"), "unknown command 'pulsate:maybe'")
    }

    func testCarriageReturnIsTrimmed() {
        XCTAssertEqual(parse("42\r"), .set(.progress(0.42)))
        XCTAssertEqual(parse("# Hi\r"), .set(.label("Hi")))
        XCTAssertEqual(parse("done\r"), .finish(.done))
        XCTAssertEqual(parse("label=Hi\r"), .set(.label("Hi")))
        XCTAssertEqual(parse("label=Hi\r\n"), .set(.label("Hi")), "CRLF is one Character in Swift")
    }

    // MARK: key=value commands

    func testLabelValueIsVerbatim() {
        XCTAssertEqual(parse("label=Copying"), .set(.label("Copying")))
        XCTAssertEqual(parse("label=  a = b  "), .set(.label("  a = b  ")), "only the first '=' splits")
        XCTAssertEqual(parse("label="), .set(.label("")))
        XCTAssertEqual(parse("  LaBeL = x"), .set(.label(" x")), "key case-insensitive and trimmed")
        XCTAssertEqual(parse("label=a\\nb"), .set(.label("a\\nb")), "no escapes in labels")
    }

    func testDetailsEscapes() {
        XCTAssertEqual(parse("details=one\\ntwo"), .set(.details("one\ntwo")))
        XCTAssertEqual(parse("details=a\\\\nb"), .set(.details("a\\nb")), "an escaped backslash then n")
        XCTAssertEqual(parse("details=C:\\\\x"), .set(.details("C:\\x")))
        XCTAssertEqual(parse("details=keep \\t and trailing \\"), .set(.details("keep \\t and trailing \\")))
        XCTAssertEqual(parse("DETAILS=é\\n👍🏽"), .set(.details("é\n👍🏽")))
    }

    func testProgressFractionAndPercent() {
        XCTAssertEqual(parse("progress=0.42"), .set(.progress(0.42)))
        XCTAssertEqual(parse("progress=0"), .set(.progress(0)))
        XCTAssertEqual(parse("progress=1"), .set(.progress(1)))
        XCTAssertEqual(parse("Progress = 42%"), .set(.progress(0.42)))
        XCTAssertEqual(parse("progress=100%"), .set(.progress(1)))
        XCTAssertEqual(parse("progress=0%"), .set(.progress(0)))
    }

    func testProgressOutOfRangeIsRejectedNotClamped() {
        let message = "progress must be 0...1 or 0...100%"
        for bad in [
            "progress=1.5", "progress=42", "progress=-0.1", "progress=101%", "progress=-1%",
            "progress=nan", "progress=inf", "progress=-inf", "progress=inf%", "progress=",
            "progress=abc", "progress=%",
        ] {
            XCTAssertEqual(reason(bad), message, bad)
        }
        XCTAssertEqual(reason("progress"), "expected progress=0.42 or progress=42%")
    }

    func testModesAndAliases() {
        for m in HUDMode.allCases {
            XCTAssertEqual(parse("mode=\(m.rawValue)"), .set(.mode(m)))
        }
        XCTAssertEqual(parse("mode=spinner"), .set(.mode(.indeterminate)))
        XCTAssertEqual(parse("mode=pie"), .set(.mode(.determinate)))
        XCTAssertEqual(parse("mode=ring"), .set(.mode(.annular)))
        XCTAssertEqual(parse("MODE= Bar "), .set(.mode(.bar)), "name case-insensitive and trimmed")
    }

    func testModesTakeTheCommandLinesVocabulary() {
        XCTAssertEqual(parse("mode=annularDeterminate"), .set(.mode(.annular)), "MBProgressHUD's Swift name")
        XCTAssertEqual(parse("mode=determinate-horizontal-bar"), .set(.mode(.bar)))
        XCTAssertEqual(parse("mode=custom_view"), .set(.mode(.custom)))
        XCTAssertEqual(HUDMode(named: "Spinner"), .indeterminate)
        XCTAssertEqual(HUDMode(named: "pie"), .determinate)
        XCTAssertNil(HUDMode(named: "spinn"))
        for m in HUDMode.allCases { XCTAssertEqual(HUDMode(named: m.rawValue), m) }
        for a in HUDMode.aliasNames { XCTAssertNotNil(HUDMode(named: a), a) }
    }

    func testUnknownModeListsTheNames() {
        let r = reason("mode=x")
        XCTAssertEqual(r?.hasPrefix("unknown mode 'x' (expected one of indeterminate, determinate,"), true, r ?? "")
        XCTAssertEqual(r?.hasSuffix("spinner, pie, ring)"), true, r ?? "")
        XCTAssertEqual(reason("mode"), "expected mode=NAME")
        XCTAssertNotNil(reason("mode="))
    }

    func testButton() {
        XCTAssertEqual(parse("button=Cancel"), .set(.button("Cancel")))
        XCTAssertEqual(parse("button="), .set(.button("")), "an empty title removes the button")
        XCTAssertEqual(reason("button"), "expected button=TITLE")
    }

    func testAlternate() {
        for on in ["true", "ON", "1", "Yes", " yes "] { XCTAssertEqual(parse("alternate=\(on)"), .set(.alternate(true)), on) }
        for off in ["false", "Off", "0", "NO"] { XCTAssertEqual(parse("alternate=\(off)"), .set(.alternate(false)), off) }
        XCTAssertEqual(reason("alternate=2"), "alternate must be true or false (on/off, 1/0, yes/no)")
        XCTAssertEqual(reason("alternate"), "expected alternate=true|false")
    }

    func testShowAndHide() {
        XCTAssertEqual(parse("show"), .show)
        XCTAssertEqual(parse("hide"), .hide(delay: 0))
        XCTAssertEqual(parse("HIDE=1.5"), .hide(delay: 1.5))
        XCTAssertEqual(parse("hide= 0 "), .hide(delay: 0))
        XCTAssertEqual(parse("hide=86400"), .hide(delay: 86400))
        for bad in ["hide=-1", "hide=inf", "hide=nan", "hide=", "hide=2s", "hide=50%", "hide=1e308", "hide=86401"] {
            XCTAssertEqual(reason(bad), "hide delay must be between 0 and 86400 seconds", bad)
        }
        XCTAssertEqual(reason("show=1"), "'show' takes no value")
    }

    func testDoneAndCancel() {
        XCTAssertEqual(parse("done"), .finish(.done))
        XCTAssertEqual(parse("Cancel"), .finish(.cancel))
        XCTAssertEqual(InputCommand.Ending.done.exitStatus, 0)
        XCTAssertEqual(InputCommand.Ending.cancel.exitStatus, 1)
        XCTAssertEqual(reason("done=now"), "'done' takes no value")
        XCTAssertEqual(reason("cancel=1"), "'cancel' takes no value")
    }

    func testResults() {
        XCTAssertEqual(parse("success"), .finish(.result(.success, nil)))
        XCTAssertEqual(parse("error=Disk full"), .finish(.result(.error, "Disk full")))
        XCTAssertEqual(parse("INFO=Note"), .finish(.result(.info, "Note")))
        XCTAssertEqual(parse("warning="), .finish(.result(.warning, "")), "an empty text clears the label")
        XCTAssertEqual(InputCommand.Ending.result(.error, "x").exitStatus, 0, "a result ends like done")
    }

    func testUnknownCommands() {
        XCTAssertEqual(parse("foo"), .invalid(line: "foo", reason: "unknown command 'foo'"))
        XCTAssertEqual(parse(" Colour = red \r"), .invalid(line: "Colour = red", reason: "unknown command 'colour'"))
        XCTAssertEqual(reason("=x"), "unknown command ''")
        XCTAssertEqual(reason("text"), "unknown command 'text'", "mode names are not commands")
    }

    func testLongLinesAreShortenedInErrors() {
        let long = "label" + String(repeating: "x", count: 300)
        guard case .invalid(let line, let r) = parse(long) else { return XCTFail("expected invalid") }
        XCTAssertEqual(line.count, InputCommand.maxReportedLength)
        XCTAssertTrue(line.hasPrefix("labelxxx"))
        XCTAssertTrue(line.hasSuffix("x…"))
        XCTAssertLessThan(r.count, 60, "the key quoted in the reason is shortened too")
        XCTAssertFalse(r.contains("\n"))

        let exact = String(repeating: "y", count: InputCommand.maxReportedLength)
        XCTAssertEqual(
            parse(exact), .invalid(line: exact, reason: "unknown command '\(String(repeating: "y", count: 39))…'"),
            "a line of exactly the limit is kept whole")
        guard case .invalid(_, let modeReason) = parse("mode=" + String(repeating: "z", count: 500)) else {
            return XCTFail("expected invalid")
        }
        XCTAssertLessThan(modeReason.count, 200)
    }

    func testValidLongValuesAreNotShortened() {
        let text = String(repeating: "é", count: 1000)
        XCTAssertEqual(parse("label=" + text), .set(.label(text)))
    }

    // MARK: apply

    private func applied(
        _ change: InputCommand.Change, to mode: HUDMode = .indeterminate,
        _ setUp: (inout HUDConfiguration) -> Void = { _ in }
    ) -> HUDConfiguration {
        var c = HUDConfiguration()
        c.mode = mode
        setUp(&c)
        change.apply(to: &c)
        return c
    }

    func testApplyTextFields() {
        XCTAssertEqual(applied(.label("L")).label, "L")
        XCTAssertEqual(applied(.details("a\nb")).details, "a\nb")
        XCTAssertEqual(applied(.button("Stop")).button, "Stop")
        XCTAssertEqual(applied(.button("")) { $0.button = "Stop" }.button, "")
        XCTAssertEqual(applied(.label("L")).mode, .indeterminate, "a label leaves the mode alone")
    }

    func testApplyAlternate() {
        XCTAssertTrue(applied(.alternate(true)).alternate)
        XCTAssertFalse(applied(.alternate(false)) { $0.alternate = true }.alternate)
    }

    func testProgressTurnsASpinnerIntoARing() {
        let c = applied(.progress(0.3))
        XCTAssertEqual(c.progress, 0.3)
        XCTAssertEqual(c.mode, .annular)
    }

    func testProgressKeepsOtherModes() {
        for m: HUDMode in [.determinate, .bar, .annular, .success, .text, .custom] {
            let c = applied(.progress(0.7), to: m)
            XCTAssertEqual(c.mode, m)
            XCTAssertEqual(c.progress, 0.7)
        }
    }

    func testZenityNumberAppliesLikeProgress() {
        guard case .set(let change) = parse("25") else { return XCTFail("expected a change") }
        let c = applied(change, to: .bar)
        XCTAssertEqual(c.progress, 0.25)
        XCTAssertEqual(c.mode, .bar)
    }

    func testApplyPulsate() {
        XCTAssertEqual(applied(.pulsate(true), to: .bar).mode, .indeterminate)
        XCTAssertEqual(applied(.pulsate(false), to: .indeterminate).mode, .annular)
        XCTAssertEqual(applied(.pulsate(false), to: .bar).mode, .bar, "only a spinner stops pulsating")
        XCTAssertEqual(applied(.pulsate(false), to: .success).mode, .success)
    }

    func testApplyMode() {
        XCTAssertEqual(applied(.mode(.bar)).mode, .bar)
        XCTAssertEqual(applied(.mode(.indeterminate), to: .warning).mode, .indeterminate)
    }
}

final class LineBufferTests: XCTestCase {
    func testEachByteProblemIsNamedOnce() {
        var b = LineBuffer(limit: 4)
        let bytes: [UInt8] = Array("ok\nlonger\na\0b\n".utf8) + [0xff, 0x41, 10]
        let lines = bytes.withUnsafeBytes { b.append($0) }
        XCTAssertEqual(lines.map(\.line), ["ok", "long", "ab", "\u{FFFD}A"])
        XCTAssertEqual(
            lines.map { $0.byteProblem(limit: 4) },
            [
                nil,
                "longer than 4 bytes; the rest was dropped",
                "contains NUL bytes; they were removed",
                "not valid UTF-8; the bad bytes were replaced",
            ])
    }
}
