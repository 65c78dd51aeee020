import XCTest
import HUDCore
@testable import HUDCommandLine
import HUDSettings

final class OptionTableTests: XCTestCase {
    private func parse(_ a: String...) throws -> HUDOptions { try HUDOptions.parse(a) }

    private func usageError(_ a: [String]) -> String? {
        do { _ = try HUDOptions.parse(a); return nil } catch { return error.description }
    }

    func testValuesBothSpellingsAndTypes() throws {
        let o = try parse(
            "--mode", "annular", "--label=Loading", "--progress", "0.5", "--width", "300",
            "--animation=zoom-in", "--details", "a=b")
        XCTAssertEqual(o.mode, .annular)
        XCTAssertEqual(o.label, "Loading")
        XCTAssertEqual(o.progress, 0.5)
        XCTAssertEqual(o, try parse("--mode", "annular", "--label=Loading", "--progress", "0.5", "--animation=zoom-in", "--details", "a=b"))
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
        let o = try parse(
            "--ring-thickness", "3", "--ring-radius=24", "--success-image", "ok.png", "--error-image", "x",
            "--info-image", "i", "--warning-image", "w", "--fade-in", "0.15", "--fade-out=0.4")
        XCTAssertEqual(o.ringThickness, 3)
        XCTAssertEqual(o.ringRadius, 24)
        XCTAssertEqual([o.successImage, o.errorImage, o.infoImage, o.warningImage], ["ok.png", "x", "i", "w"])
        XCTAssertEqual(o.fadeIn, 0.15)
        XCTAssertEqual(o.fadeOut, 0.4)
        XCTAssertEqual(usageError(["--ring-thickness", "0"]), "--ring-thickness must be between 0.5 and 64, got 0.0")
        XCTAssertNotNil(usageError(["--ring-radius", "-1"]))
        XCTAssertNotNil(usageError(["--fade-in", "-1"]))
        XCTAssertEqual(usageError(["--image", ""]), "--image needs a file (PNG, SVG, JPEG, ...) or an icon name, got ''")
    }

    /// zenity's percentage is clamped, not refused; its GTK options are taken.
    func testZenityLeniency() throws {
        XCTAssertEqual(try parse("--progress-dialog", "--percentage=150").percentage, 150)
        XCTAssertNil(usageError(["--progress-dialog", "--percentage", "-20"]))
        XCTAssertEqual(try parse("--progress-dialog", "--gtk-module=canberra-gtk-module"), try parse("--progress-dialog"))
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
        let o = try parse(
            "--wait", "--no-cancel", "--no-wrap", "--tint-image", "--no-markup",
            "--extra-button", "A", "--extra-button=B")
        XCTAssertTrue(o.wait)
        XCTAssertTrue(o.noCancel, "--no-cancel is zenity's flag, not the inversion of a --cancel")
        XCTAssertEqual(o.tintImage, true)
        XCTAssertEqual(o.markup, false)
        XCTAssertEqual(o.extraButton, ["A", "B"])
        XCTAssertFalse(try parse().wait)
        XCTAssertNil(try parse().tintImage)
    }

    func testVerbTextAndTheWrappedCommand() throws {
        let n = try parse("success", "Saved", "--hide-after", "2")
        XCTAssertEqual(n.verb, .success)
        XCTAssertEqual(n.message, "Saved")
        XCTAssertTrue(n.isNotification)
        XCTAssertEqual(n.requestedMode, .success)
        let w = try parse("--label", "Copying", "--", "cp", "--label", "-r", "--")
        XCTAssertEqual(w.command, ["cp", "--label", "-r", "--"], "after -- nothing is ours")
        XCTAssertEqual(w.label, "Copying")
        XCTAssertFalse(w.isNotification)
        XCTAssertEqual(try parse("--mode", "text", "--label", "Hi").isNotification, true)
        XCTAssertEqual(try parse("--mode", "text", "--", "true").isNotification, false)
    }

    func testUsageErrorsNameWhatIsWrong() {
        XCTAssertEqual(usageError(["--bogus"]), "Unknown option '--bogus' (xhud --help lists the options)")
        XCTAssertEqual(usageError(["-x"]), "Unknown option '-x'")
        XCTAssertEqual(usageError(["--no-label"]), "Unknown option '--no-label' (xhud --help lists the options)", "only switches have a --no- form")
        XCTAssertEqual(usageError(["--lable", "x"]), "Unknown option '--lable'; did you mean '--label'?")
        XCTAssertEqual(usageError(["-details", "x"]), "Unknown option '-details'; did you mean '--details'?")
        XCTAssertEqual(usageError(["--animaton", "fade"]), "Unknown option '--animaton'; did you mean '--animation'?")
        XCTAssertEqual(usageError(["success"]), "'success' needs a text to show, e.g. xhud success \"Saved\" (or --label, --details)")
        XCTAssertEqual(usageError(["--mode", "text"]), "--mode text needs a text: --label or --details")
        XCTAssertEqual(usageError(["--label"]), "Missing value for '--label <label>'")
        XCTAssertEqual(usageError(["--progress", "abc"]), "The value 'abc' is invalid for '--progress <progress>'")
        XCTAssertEqual(usageError(["--progress", ""]), "The value '' is invalid for '--progress <progress>'")
        XCTAssertEqual(usageError(["--width"]), "Missing value for '--width <width>'")
        XCTAssertEqual(usageError(["--modal=yes"]), "'--modal' takes no value, got '--modal=yes'")
        XCTAssertTrue(
            usageError(["--mode", "rung"])?.hasPrefix("The value 'rung' is invalid for '--mode <mode>'. Please provide one of indeterminate") == true)
        XCTAssertEqual(usageError(["--wait=yes"]), "'--wait' takes no value, got '--wait=yes'")
        XCTAssertEqual(usageError(["--no-shadow=1"]), "'--no-shadow' takes no value, got '--no-shadow=1'")
        XCTAssertEqual(usageError(["info", "a", "b"]), "Unexpected argument 'b'")
        XCTAssertEqual(usageError(["--progress", "2"]), "--progress must be between 0 and 1, got 2.0")
        XCTAssertEqual(usageError(["--hide-after", "inf"]), "--hide-after must be between 0 and 86400 seconds, got inf")
        XCTAssertEqual(
            usageError(["frobnicate"]),
            "unknown verb 'frobnicate' (expected success, error, info, warning, hide, list, push, pop, server, notifications)")
        XCTAssertEqual(usageError(["hide"]), "'hide' needs --id NAME")
        XCTAssertEqual(usageError(["--id", "a b"]), "--id must be 1-64 letters, digits, '-', '_' or '.'")
        XCTAssertEqual(usageError(["--monitor", "0", "--geometry", "10x10+0+0"]), "give only one of --window, --monitor and --geometry")
        XCTAssertNil(usageError(["--progress", "1e-1", "--scale", "2"]))
    }

    /// `--help` and the completions are written from the table the parser runs on: every
    /// option it takes is listed (the hidden ones by --help-hidden alone), each the same kind:
    /// a switch with its --no- form, an option with a value, a flag without one.
    func testHelpDescribesExactlyTheOptionsTheParserTakes() {
        func described(_ help: String) -> [String: String] {
            let section = help.split(separator: "\nOPTIONS:\n", maxSplits: 1).last.map(String.init) ?? ""
            var out: [String: String] = [:]  // first spelling -> the line's option column
            for line in section.split(separator: "\n") where line.hasPrefix("  -") {
                let column = String(line.dropFirst(2).split(separator: "  ", maxSplits: 1).first ?? "")
                for spelling in column.split(separator: " ").first!.split(separator: ",") {
                    out[spelling.split(separator: "/").first.map(String.init) ?? ""] = column
                }
            }
            out["-h"] = nil; out["--help"] = nil; out["--version"] = nil
            return out
        }
        let all = described(HelpText.message(includeHidden: true, width: 1000))
        let shown = described(HelpText.message(includeHidden: false, width: 1000))
        var taken: Set<String> = []
        for spec in OptionTable.all {
            let first = spec.spellings[0]
            taken.insert(first)
            guard let column = all[first] else { XCTFail("\(first) is parsed but not in --help-hidden"); continue }
            XCTAssertEqual(shown[first] == nil, spec.isHidden, "\(first): hidden options are listed by --help-hidden alone")
            switch spec.kind {
            case .value: XCTAssertTrue(column.contains("<"), "\(first) takes a value, --help says '\(column)'")
            case .flag: XCTAssertFalse(column.contains("<") || column.contains("/--no-"), "\(first) is a flag, --help says '\(column)'")
            case .toggle: XCTAssertTrue(column.contains("\(first)/--no-\(spec.name)"), "\(first) has a --no- form, --help says '\(column)'")
            case .ignored(let takesValue): XCTAssertEqual(column.contains("<"), takesValue, "\(first): --help says '\(column)'")
            }
        }
        XCTAssertEqual(Set(all.keys).subtracting(taken), [], "in --help but not parsed")
        XCTAssertGreaterThan(taken.count, 70)
        XCTAssertGreaterThan(shown.count, 60)
    }

    /// Wrapped at the width asked for (80 columns when there is no terminal), options grouped.
    func testHelpIsWrappedAndGrouped() {
        for width in [40, 80, 132] {
            let help = HelpText.message(width: width)
            let options = help.split(separator: "\nOPTIONS:\n", maxSplits: 1).last ?? ""
            // (A word longer than a line, a long switch, has a line of its own.)
            for line in options.split(separator: "\n") where line.drop(while: { $0 == " " }).contains(" ") {
                XCTAssertLessThan(line.count, width, "'\(line)' is not wrapped at \(width) columns")
            }
            XCTAssertTrue(help.hasPrefix("OVERVIEW: ") && help.contains("\nUSAGE: xhud [options]") && help.contains("\nARGUMENTS:\n"))
        }
        let help = HelpText.message(width: 80)
        for title in ["Content", "Appearance", "Timing", "Parent region", "Wrapping a command", "Named HUDs", "Zenity compatibility", "General"] {
            XCTAssertTrue(help.contains("\n \(title):\n"), "no group \(title)")
        }
        XCTAssertTrue(HelpText.message(width: 1000).contains("spinner, pie, ring, annular-determinate"), "--mode's aliases are listed")
    }

    /// Each shell's script offers every option --help lists, its values and files.
    func testCompletionsOfferEveryOption() throws {
        for shell in Completions.shells {
            let script = try XCTUnwrap(Completions.script(for: shell))
            for spec in OptionTable.all where !spec.isHidden {
                let mention = shell == "fish" ? "-l \(spec.name) " : "--\(spec.name)"
                XCTAssertTrue(script.contains(mention), "\(shell): no \(mention)")
                if case .toggle = spec.kind {
                    XCTAssertTrue(script.contains(shell == "fish" ? "-l no-\(spec.name) " : "--no-\(spec.name)"), "\(shell): no --no-\(spec.name)")
                }
            }
            let offered = shell == "bash" ? script.split(separator: "\n").first { $0.contains("compgen -W '--mode") }.map(String.init) ?? "" : script
            XCTAssertFalse(offered.contains("--title") || offered.contains("-l title"), "\(shell): a hidden option is offered")
            XCTAssertTrue(script.contains("annular-determinate") && script.contains("zoom-out") && script.contains("spokes"), shell)
            XCTAssertTrue(script.contains("server") && (shell == "fish" || script.contains("svgz")), shell)
        }
        XCTAssertNil(Completions.script(for: "tcsh"))
    }
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

/// The configuration's keys are the option table's: a setting reaches its option through the
/// table exactly as the command line's `--KEY=VALUE` (or `--[no-]KEY`) does.
final class SettingKeyTableTests: XCTestCase {
    private func sample(_ kind: SettingKeys.Kind, _ name: String) -> (SettingValue, [String]) {
        switch kind {
        case .flag: return (.bool(false), ["--no-\(name)"])
        case .number:
            let n = name == "max-text-width" ? 100.0 : 2.5  // within every range
            return (.number(n), ["--\(name)=\(SettingValue.number(n).optionText(separator: ""))"])
        case .pair(let sep): return (.list([.number(3), .number(4)]), ["--\(name)=3\(sep)4"])
        case .text:
            let text =
                ["mode": "bar", "spinner": "spokes", "style": "light", "animation": "zoom", "position": "top-left", "urgency": "critical"][name]
                ?? "red"
            return (.string(text), ["--\(name)=\(text)"])
        }
    }

    func testEveryKeyAppliesAsItsOptionDoes() throws {
        XCTAssertEqual(OptionTable.settingKeys.names.first, "theme")
        XCTAssertGreaterThan(OptionTable.settingKeys.names.count, 40)
        for name in OptionTable.settingKeys.names {
            let kind = try XCTUnwrap(OptionTable.settingKeys.kind(of: name))
            let (value, arguments) = sample(kind, name)
            var applied = HUDOptions()
            XCTAssertNoThrow(
                try OptionTable.apply(
                    Setting(key: name, value: value, source: SettingSource(file: "c.toml", line: 1)),
                    to: &applied), name)
            XCTAssertEqual(applied, try HUDOptions.parse(arguments), "key \(name)")
        }
    }

    func testOnlyOptionsWithAKeyAreKeysAndEveryKeyIsPrinted() {
        let keys = Set(OptionTable.settingKeys.names)
        for o in OptionTable.all {
            XCTAssertEqual(o.setting != nil, keys.contains(o.name), o.name)
            if o.setting != nil, o.name != "theme" {
                XCTAssertNotNil(
                    o.setting?.read(HUDConfiguration(), HUDOptions())
                        ?? (o.name == "image" || o.name.hasSuffix("-image")
                            || ["ring-radius", "fade-in", "fade-out", "hide-after", "max-duration", "scale", "notifications"].contains(o.name)
                            ? .bool(true) : nil),
                    "--print-config reads nothing for \(o.name)")
            }
        }
        for perInvocation in ["progress", "id", "window", "geometry", "config", "print-config"] {
            XCTAssertFalse(keys.contains(perInvocation), perInvocation)
        }
    }

    func testABadValueIsTheSettingsError() {
        var o = HUDOptions()
        let bad = Setting(key: "margin", value: .string("wide"), source: SettingSource())
        XCTAssertThrowsError(try OptionTable.apply(bad, to: &o))
        let unknown = Setting(key: "progress", value: .number(1), source: SettingSource())
        XCTAssertThrowsError(try OptionTable.apply(unknown, to: &o))
    }
}
