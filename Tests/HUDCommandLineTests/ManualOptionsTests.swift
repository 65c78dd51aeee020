import XCTest
@testable import HUDCommandLine

/// The man page's OPTIONS section, written from the table: every option `--help` lists, in roff.
final class ManualOptionsTests: XCTestCase {
    func testMarkupBecomesRoff() {
        XCTAssertEqual(ManualMarkup.roff("`--a-b` *x* single-line. `c` Next"), "\\fB\\-\\-a\\-b\\fR \\fIx\\fR single-line.\n\\fBc\\fR Next")
        XCTAssertEqual(ManualMarkup.roff("`rgba(*r*,*g*)`"), "\\fBrgba(\\fIr\\fB,\\fIg\\fB)\\fR")
        XCTAssertEqual(ManualMarkup.roff("a -1 or --x, “q” \\"), "a \\-1 or \\-\\-x, \\(lqq\\(rq \\e")
        XCTAssertEqual(ManualMarkup.roff("e.g. this. ...and"), "e.g. this. ...and", "a sentence starts with a capital")
        XCTAssertEqual(ManualMarkup.roff("Done. .Dot"), "Done. .Dot")
        XCTAssertEqual(ManualMarkup.roff("x. `.` y"), "x.\n\\fB.\\fR y", "a line may not start with a dot request")
    }

    func testTheSectionListsEveryOptionOfHelpAndNoHiddenOne() {
        let roff = ManualOptions.section()
        XCTAssertTrue(roff.hasPrefix(".SH OPTIONS\n"))
        let plain = roff.replacing("\\-", with: "-").replacing("\\fB", with: "").replacing("\\fR", with: "").replacing("\\fI", with: "")
        // The options named by an item's terms: those --help lists, but zenity's ignored ones.
        let lines = plain.split(separator: "\n")
        var itemed: Set<String> = []
        for (i, line) in lines.enumerated().dropLast() where line == ".TP" || line == ".TQ" {
            let term = lines[i + 1].split(separator: " ")[0].replacing("[no-]", with: "")
            if term.hasPrefix("--") { itemed.insert(String(term.dropFirst(2))) }
        }
        itemed.remove("version")
        XCTAssertEqual(itemed, Set(OptionTable.all.filter { !$0.isHidden && !$0.isIgnored }.map(\.name)))
        for spec in OptionTable.all where spec.isIgnored {
            XCTAssertTrue(plain.contains("--\(spec.name),") || plain.contains("--\(spec.name) and") || plain.contains("--\(spec.name).\n"), spec.name)
        }
        XCTAssertFalse(plain.contains("--render-png") || plain.contains("--bus-app") || plain.contains("--progress-dialog"), "a hidden option")
        for group in OptionTable.groups {
            let heading = group.title.contains(" ") ? ".SS \"\(group.title)\"" : ".SS \(group.title)"
            XCTAssertTrue(roff.contains("\n\(heading)\n"), group.title)
        }
        XCTAssertTrue(roff.contains(".TP\n\\fB\\-\\-\\fR[\\fBno\\-\\fR]\\fBshadow\\fR\n"), "a switch is --[no-]NAME")
        XCTAssertTrue(roff.contains(".TP\n\\fB\\-\\-grace\\fR \\fIseconds\\fR\n"), "a value's placeholder is its unit")
        XCTAssertTrue(roff.contains("\\fB\\-\\-fade\\-in\\fR \\fIseconds\\fR\n.TQ\n\\fB\\-\\-fade\\-out\\fR"), "one item for both")
        XCTAssertTrue(plain.contains("zenity's other options are accepted and ignored: --title, --width,"))
        XCTAssertTrue(plain.contains("\n.SS General\n.TP\n-h, --help\n"))
        XCTAssertFalse(roff.contains("{") || roff.contains("`"), "markup or a placeholder is left")
        for line in roff.split(separator: "\n") where line.hasPrefix(".") {
            XCTAssertTrue([".SH", ".SS", ".TP", ".TQ", ".PP"].contains(line.prefix(3)) || line == ".", "an unexpected request: \(line)")
        }
    }
}
