import Foundation
import XCTest

/// Examples/HeaderSpellings compiles (it is built with these tests) and runs: every name of
/// MBProgressHUD 0.9 and 1.x and SVProgressHUD 1.x and 2.x, called as iOS code calls it, did what
/// the original documents (each call checked through the public API), and its callbacks and
/// notifications arrived.
final class HeaderSpellingTests: XCTestCase {
    var display = ""

    override func setUpWithError() throws { display = try TestDisplay.start() }

    func check(_ version: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try ExampleRunner.run("example-headers", [version], display: display, timeout: 60)
        XCTAssertFalse(r.timedOut, "\(version) hung: \(r.summary)", file: file, line: line)
        XCTAssertEqual(r.status, 0, "\(version): \(r.summary)", file: file, line: line)
        XCTAssertEqual(r.stdout, "ok \(version)\n", "\(version): \(r.summary)", file: file, line: line)
    }

    func testMBProgressHUD09() throws { try check("mb-0.9") }
    func testMBProgressHUD1x() throws { try check("mb-1.x") }
    func testSVProgressHUD1x() throws { try check("sv-1.x") }
    func testSVProgressHUD2x() throws { try check("sv-2.x") }
}
