import XCTest
import HUDCore
@testable import HUDCommandLine
import HUDSettings
import HUDSocket

/// What an entry of the option table holds besides its setter: the range its value is checked
/// against (from the command line and the configuration alike), zenity's options that are
/// taken and ignored, and the defaults its texts state.
final class OptionEntryTests: XCTestCase {
    private func usageError(_ a: [String]) -> String? {
        do { _ = try HUDOptions.parse(a); return nil } catch { return error.description }
    }

    private func applying(_ key: String, _ value: SettingValue) -> String? {
        var o = HUDOptions()
        do {
            try OptionTable.apply(Setting(key: key, value: value, source: SettingSource(file: "c.toml", line: 3)), to: &o)
            return nil
        } catch { return error.description }
    }

    /// Each number with a range takes its bounds and refuses what is past them, NaN and
    /// infinity, naming the option, the range and its unit.
    func testEveryRangedNumberIsCheckedAsItIsParsed() throws {
        let ranged = OptionTable.all.filter { $0.range != nil }
        XCTAssertGreaterThanOrEqual(ranged.count, 22)
        for spec in ranged {
            let r = try XCTUnwrap(spec.range)
            let unit = spec.unit.isEmpty ? "" : " " + spec.unit
            for v in [r.lowerBound, r.upperBound] {
                XCTAssertNil(usageError(["--\(spec.name)=\(v)"]), "\(spec.name) \(v)")
            }
            for v in [r.upperBound + 1, r.lowerBound - 1, .nan, .infinity] {
                XCTAssertEqual(
                    usageError(["--\(spec.name)=\(v)"]), "--\(spec.name) must be \(Limits.describe(r))\(unit), got \(v)", spec.name)
            }
        }
        for name in [
            "grace", "min-show", "hide-after", "min-duration", "max-duration", "result-time", "kill-timeout", "delay", "linger", "timeout", "fade-in",
            "fade-out",
        ] {
            XCTAssertEqual(OptionTable.byName[name]?.range, Limits.seconds, name)
            XCTAssertEqual(OptionTable.byName[name]?.unit, "seconds", name)
        }
        XCTAssertEqual(usageError(["--grace", "-1"]), "--grace must be between 0 and 86400 seconds, got -1.0")
        XCTAssertEqual(usageError(["--margin", "501"]), "--margin must be between 0 and 500, got 501.0")
        // A value past its range is refused where it is given, even if a later one is good.
        XCTAssertNotNil(usageError(["--margin", "501", "--margin", "5"]))
        XCTAssertEqual(usageError(["--percentage", "inf"]), "--percentage must be a number, got inf")
    }

    /// A configuration's value goes through the same entry: out of range, it is refused with
    /// the same message (which the configuration's reader prefixes with the file, line and key).
    func testASettingIsCheckedAgainstTheSameRange() {
        XCTAssertEqual(applying("margin", .number(900)), "--margin must be between 0 and 500, got 900.0")
        XCTAssertEqual(applying("linger", .number(-1)), "--linger must be between 0 and 86400 seconds, got -1.0")
        XCTAssertEqual(applying("ring-thickness", .number(0.1)), "--ring-thickness must be between 0.5 and 64, got 0.1")
        XCTAssertNil(applying("margin", .number(12)))
    }

    /// The checks of one option's value moved from `validate` to the entry keep their words.
    func testSingleOptionChecksKeepTheirMessages() {
        XCTAssertEqual(usageError(["--id", ""]), "--id must be 1-64 letters, digits, '-', '_' or '.'")
        XCTAssertEqual(
            usageError(["--geometry", "0x10+0+0"]),
            "--geometry must be WxH+X+Y in whole pixels (sizes 1 to 32767, positions -32768 to 32767), got '0x10+0+0'")
        XCTAssertEqual(usageError(["--image="]), "--image needs a file (PNG, SVG, JPEG, ...) or an icon name, got ''")
    }

    /// zenity's ignored options take their value (whatever it looks like) and store nothing.
    func testIgnoredOptionsTakeTheirValueAndStoreNothing() throws {
        let ignored = OptionTable.all.filter(\.isIgnored)
        XCTAssertEqual(
            Set(ignored.map(\.name)),
            [
                "title", "width", "height", "ok-label", "window-icon", "icon-name", "display", "class", "name", "modal", "ellipsize", "no-wrap",
                "gtk-module",
            ])
        for spec in ignored {
            let args = spec.takesValue ? ["--\(spec.name)", "success"] : ["--\(spec.name)"]
            XCTAssertEqual(try HUDOptions.parse(args), HUDOptions(), "\(args) set something")
            XCTAssertNil(spec.setting, spec.name)
        }
        // zenity's script, its --progress a flag again.
        let zenity = translatingZenityFlags(["--progress", "--title=Update", "--width", "400", "--modal", "--text", "Scanning"])
        let o = try HUDOptions.parse(zenity)
        XCTAssertTrue(o.zenityProgress && o.readsZenityInput)
        XCTAssertEqual(o.text, "Scanning")
        XCTAssertTrue(try HUDOptions.parse(["--time-remaining"]).readsZenityInput, "--time-remaining is read: stdin is zenity's")
    }

    /// The texts state the defaults the code applies: `{default}` is what `--print-config`
    /// reads with nothing set, other defaults are the named constants.
    func testDefaultsInTextsAreTheCodesOwn() throws {
        func help(_ name: String) throws -> String { try XCTUnwrap(OptionTable.byName[name]).helpText }
        let t = OptionDefaults.text
        XCTAssertTrue(try help("margin").contains("(default \(t(HUDConfiguration().margin)))"))
        XCTAssertTrue(try help("linger").contains("(default \(t(OptionDefaults.linger)))"))
        XCTAssertTrue(try help("kill-timeout").contains("(default \(t(Session.Plan().killTimeout)))"))
        XCTAssertTrue(try help("min-duration").contains("(default \(t(HUDOptions().minDuration));"))
        XCTAssertTrue(try help("grace").contains("(default 0; \(t(OptionDefaults.wrappingGrace)) when wrapping)"))
        XCTAssertTrue(try help("shadow").contains("(default on)"))
        XCTAssertTrue(try help("ring-thickness").contains("\(t(Limits.ringThickness.lowerBound)) to \(t(Limits.ringThickness.upperBound))"))
        XCTAssertEqual(HUDOptions().resultTime, OptionDefaults.resultTime)
        XCTAssertEqual(HUDOptions().killTimeout, Session.Plan().killTimeout)
        XCTAssertTrue(HelpText.discussion.contains("--min-duration (\(t(OptionDefaults.minDuration)) s)"))
        for spec in OptionTable.all {
            for text in [spec.helpText, spec.manualText] {
                XCTAssertFalse(text.contains("{") || text.contains("}"), "\(spec.name): a placeholder without a value in '\(text)'")
            }
        }
    }
}
