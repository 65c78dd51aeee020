import Foundation
import XCTest
@testable import XHUD

/// The types `import XHUD` re-exports under aliases have their cases and fields listed in the
/// catalog's articles (DocC shows an alias without them): every one is there, new ones too.
final class DocumentationTests: XCTestCase {
    func article(_ name: String) throws -> String {
        let here = URL(fileURLWithPath: #filePath)
        let url = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/XHUD/XHUD.docc/Types/\(name).md")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Each name, in code voice, in the article.
    func assertListed(_ names: [String], in name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let text = try article(name)
        XCTAssertTrue(text.hasPrefix("# ``XHUD/\(name)``"), "\(name).md does not extend XHUD/\(name)", file: file, line: line)
        for n in names where !text.contains("`\(n)`") && !text.contains("`\(n)(") {
            XCTFail("\(name).md does not list `\(n)`", file: file, line: line)
        }
    }

    func caseName(_ value: Any) -> String {
        String(String(describing: value).prefix { $0 != "(" })
    }

    func testEveryCaseAndFieldIsInTheCatalog() throws {
        try assertListed(HUDMode.allCases.map(caseName), in: "HUDMode")
        try assertListed(HUDStyle.allCases.map(caseName), in: "HUDStyle")
        try assertListed(HUDAnimation.allCases.map(caseName), in: "HUDAnimation")
        try assertListed(SpinnerStyle.allCases.map(caseName), in: "SpinnerStyle")
        let masks: [HUDMask] = [.none, .clear, .black, .gradient, .color(.black), .blur(.black)]
        try assertListed(masks.map(caseName), in: "HUDMask")
        let parents: [ParentSpec] = [.monitor("pointer"), .window("active"), .geometry("1x1+0+0")]
        try assertListed(parents.map(caseName) + ["default"], in: "ParentSpec")
        try assertListed(Mirror(reflecting: HUDColor(0, 0, 0)).children.compactMap(\.label), in: "HUDColor")
        let fields = Mirror(reflecting: HUDConfiguration()).children.compactMap(\.label)
        XCTAssertGreaterThan(fields.count, 30, "the configuration's fields were not found")
        try assertListed(fields, in: "HUDConfiguration")
    }
}
