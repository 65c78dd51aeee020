import HUDCommandLine
import HUDCore
import HUDService
import XCTest

/// What the options mean for a HUD: each option that names one property through the table
/// changes it, and the rules between options hold.
final class OptionsMeaningTests: XCTestCase {
    /// A value for the option, unlike the default.
    private func sample(_ spec: OptionSpec) -> [String] {
        switch spec.kind {
        case .toggle:
            let on = try? HUDOptions.parse(["--\(spec.name)"]).hudConfiguration()
            return on == HUDConfiguration() ? ["--no-\(spec.name)"] : ["--\(spec.name)"]
        case .flag:
            return ["--\(spec.name)"]
        case .ignored:
            return []
        case .value:
            if case .choices(let words) = spec.completion {
                let fresh = HUDConfiguration()
                for w in words where (try? HUDOptions.parse(["--\(spec.name)=\(w)"]).hudConfiguration()) != fresh {
                    return ["--\(spec.name)=\(w)"]
                }
            }
            let value = ["font": "Serif 9px", "details-font": "Serif 9px", "details": "More", "max-text-width": "100"][spec.name] ?? "2.5"
            return ["--\(spec.name)=\(value)"]
        }
    }

    func testEachOptionThatNamesAPropertyChangesIt() throws {
        let bound = OptionTable.all.filter { $0.hud != nil }
        for name in [
            "details", "margin", "spacing", "corner-radius", "blur", "shadow", "square", "style", "spinner", "animation",
            "fade-in", "fade-out", "grace", "min-show", "font", "details-font", "image-size", "ring-thickness",
        ] {
            XCTAssertTrue(bound.contains { $0.name == name }, "--\(name) does not apply to a HUD through the table")
        }
        for spec in bound {
            let args = sample(spec)
            let c = try HUDOptions.parse(args).hudConfiguration()
            XCTAssertNotEqual(c, HUDConfiguration(), "\(args) changed nothing")
            // Not given, it changes nothing of a HUD it updates.
            var base = HUDConfiguration()
            base.margin = 7
            XCTAssertEqual(try HUDOptions.parse([]).hudConfiguration(base: base), base)
        }
    }

    func testTheLabelIsLabelThenZenitysTextThenTheNotificationsText() throws {
        XCTAssertEqual(try HUDOptions.parse(["success", "Saved"]).hudConfiguration().label, "Saved")
        XCTAssertEqual(try HUDOptions.parse(["--text", "Z", "--progress-dialog"]).hudConfiguration().label, "Z")
        XCTAssertEqual(try HUDOptions.parse(["--label", "L", "--text", "Z"]).hudConfiguration().label, "L")
        XCTAssertEqual(try HUDOptions.parse(["--fade-in", "0.15", "--grace", "1"]).hudConfiguration().showDuration, 0.15)
        XCTAssertEqual(try HUDOptions.parse(["--font", "Serif 9px"]).hudConfiguration().labelFont, "Serif 9px")
    }
}
