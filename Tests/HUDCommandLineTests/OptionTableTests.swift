import XCTest
import HUDCore
@testable import HUDCommandLine

final class OptionTableTests: XCTestCase {
    private func parse(_ a: String...) throws -> HUDOptions { try HUDOptions.parse(a) }

    private func usageError(_ a: [String]) -> String? {
        do { _ = try HUDOptions.parse(a); return nil } catch { return error.description }
    }

    func testValuesBothSpellingsAndTypes() throws {
        let o = try parse("--mode", "annular", "--label=Loading", "--progress", "0.5", "--width", "300",
                          "--animation=zoom-in", "--details", "a=b")
        XCTAssertEqual(o.mode, .annular)
        XCTAssertEqual(o.label, "Loading")
        XCTAssertEqual(o.progress, 0.5)
        XCTAssertEqual(o.width, 300)
        XCTAssertEqual(o.animation, .zoomIn)
        XCTAssertEqual(o.details, "a=b", "only the first '=' splits name from value")
        XCTAssertNil(o.button)
        XCTAssertEqual(o.minDuration, 5, "defaults stay")
        XCTAssertEqual(o.killTimeout, 5)
    }

    /// One vocabulary with stdin: what a mode draws, and MBProgressHUD's names for it.
    func testModeAliases() throws {
        XCTAssertEqual(try parse("--mode", "spinner").mode, .indeterminate)
        XCTAssertEqual(try parse("--mode=pie").mode, .determinate)
        XCTAssertEqual(try parse("--mode", "ring").mode, .annular)
        XCTAssertEqual(try parse("--mode", "annularDeterminate").mode, .annular)
        XCTAssertEqual(try parse("--mode", "determinate-horizontal-bar").mode, .bar)
        XCTAssertEqual(try parse("--mode", "customView", "--image", "x.png").mode, .custom)
        XCTAssertEqual(usageError(["--mode", "spinny"])?.contains("spinner, pie, ring"), true)
    }

    /// SVProgressHUD's knobs on the command line, each within its range.
    func testRingsResultImagesAndFades() throws {
        let o = try parse("--ring-thickness", "3", "--ring-radius=24", "--success-image", "ok.png", "--error-image", "x",
                          "--info-image", "i", "--warning-image", "w", "--fade-in", "0.15", "--fade-out=0.4")
        XCTAssertEqual(o.ringThickness, 3)
        XCTAssertEqual(o.ringRadius, 24)
        XCTAssertEqual([o.successImage, o.errorImage, o.infoImage, o.warningImage], ["ok.png", "x", "i", "w"])
        XCTAssertEqual(o.fadeIn, 0.15)
        XCTAssertEqual(o.fadeOut, 0.4)
        XCTAssertEqual(usageError(["--ring-thickness", "0"]), "--ring-thickness must be between 0.5 and 64, got 0.0")
        XCTAssertNotNil(usageError(["--ring-radius", "-1"]))
        XCTAssertNotNil(usageError(["--fade-in", "-1"]))
        XCTAssertEqual(usageError(["--image", ""]), "--image needs a file (PNG or SVG) or an icon name, got ''")
    }

    /// zenity's percentage is clamped, not refused; its GTK options are taken.
    func testZenityLeniency() throws {
        XCTAssertEqual(try parse("--progress-dialog", "--percentage=150").percentage, 150)
        XCTAssertNil(usageError(["--progress-dialog", "--percentage", "-20"]))
        XCTAssertEqual(try parse("--progress-dialog", "--gtk-module=canberra-gtk-module").gtkModule, "canberra-gtk-module")
        XCTAssertNotNil(usageError(["--percentage", "nan"]))
    }

    func testTheLastValueWinsSoTheCommandLineOverridesSettingsBeforeIt() throws {
        let o = try parse("--label=from-settings", "--no-shadow", "--label", "mine", "--shadow")
        XCTAssertEqual(o.label, "mine")
        XCTAssertEqual(o.shadow, true)
        XCTAssertEqual(try parse("--shadow", "--no-shadow").shadow, false)
    }

    func testAValueMayLookLikeAnOption() throws {
        XCTAssertEqual(try parse("--label", "--mode").label, "--mode")
        XCTAssertEqual(try parse("--offset", "-40,0").offset, "-40,0")
        XCTAssertEqual(try parse("--label=").label, "")
    }

    func testFlagsTogglesAndLists() throws {
        let o = try parse("--wait", "--no-cancel", "--no-wrap", "--tint-image", "--no-markup",
                          "--extra-button", "A", "--extra-button=B")
        XCTAssertTrue(o.wait)
        XCTAssertTrue(o.noCancel, "--no-cancel is zenity's flag, not the inversion of a --cancel")
        XCTAssertTrue(o.noWrap)
        XCTAssertEqual(o.tintImage, true)
        XCTAssertEqual(o.markup, false)
        XCTAssertEqual(o.extraButton, ["A", "B"])
        XCTAssertFalse(try parse().wait)
        XCTAssertNil(try parse().tintImage)
    }

    func testVerbTextAndTheWrappedCommand() throws {
        let n = try parse("success", "Saved", "--hide-after", "2")
        XCTAssertEqual(n.action, .success)
        XCTAssertEqual(n.message, "Saved")
        XCTAssertTrue(n.isNotification)
        XCTAssertEqual(n.requestedMode, .success)
        let w = try parse("--label", "Copying", "--", "cp", "--label", "-r", "--")
        XCTAssertEqual(w.command, ["cp", "--label", "-r", "--"], "after -- nothing is ours")
        XCTAssertEqual(w.label, "Copying")
        XCTAssertFalse(w.isNotification)
        XCTAssertEqual(try parse("--mode", "text").isNotification, true)
        XCTAssertEqual(try parse("--mode", "text", "--", "true").isNotification, false)
    }

    func testUsageErrorsNameWhatIsWrong() {
        XCTAssertEqual(usageError(["--bogus"]), "Unknown option '--bogus'")
        XCTAssertEqual(usageError(["-x"]), "Unknown option '-x'")
        XCTAssertEqual(usageError(["--no-label"]), "Unknown option '--no-label'", "only switches have a --no- form")
        XCTAssertEqual(usageError(["--label"]), "Missing value for '--label <label>'")
        XCTAssertEqual(usageError(["--progress", "abc"]), "The value 'abc' is invalid for '--progress <progress>'")
        XCTAssertEqual(usageError(["--progress", ""]), "The value '' is invalid for '--progress <progress>'")
        XCTAssertEqual(usageError(["--width", "1.5"]), "The value '1.5' is invalid for '--width <width>'")
        XCTAssertTrue(usageError(["--mode", "rung"])?.hasPrefix("The value 'rung' is invalid for '--mode <mode>'. Please provide one of indeterminate") == true)
        XCTAssertEqual(usageError(["--wait=yes"]), "'--wait' takes no value, got '--wait=yes'")
        XCTAssertEqual(usageError(["--no-shadow=1"]), "'--no-shadow' takes no value, got '--no-shadow=1'")
        XCTAssertEqual(usageError(["info", "a", "b"]), "Unexpected argument 'b'")
        XCTAssertEqual(usageError(["--progress", "2"]), "--progress must be between 0 and 1, got 2.0")
        XCTAssertEqual(usageError(["--hide-after", "inf"]), "--hide-after must be between 0 and 86400 seconds, got inf")
        XCTAssertEqual(usageError(["frobnicate"]), "unknown verb 'frobnicate' (expected success, error, info, warning, hide, list, push, pop, server)")
        XCTAssertEqual(usageError(["hide"]), "'hide' needs --id NAME")
        XCTAssertEqual(usageError(["--id", "a b"]), "--id must be 1-64 letters, digits, '-', '_' or '.'")
        XCTAssertEqual(usageError(["--monitor", "0", "--geometry", "10x10+0+0"]), "give only one of --window, --monitor and --geometry")
        XCTAssertNil(usageError(["--progress", "1e-1", "--scale", "2"]))
    }

    // HELP_TEST_PLACEHOLDER
}

final class UsageErrorSizeTests: XCTestCase {
    /// A megabyte of option value is quoted by its start: the message stays a short line.
    func testMessagesQuoteHugeValuesByTheirStart() {
        let huge = String(repeating: "9x", count: 500_000)
        for args in [["--progress", huge], ["--" + huge], ["--geometry", huge]] {
            do { _ = try HUDOptions.parse(args); XCTFail("parsed") } catch {
                XCTAssertLessThanOrEqual(error.description.count, 1001, String(error.description.prefix(60)))
                XCTAssertFalse(error.description.contains("\n"))
            }
        }
    }
}
