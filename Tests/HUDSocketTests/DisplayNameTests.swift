@testable import HUDSocket
import XCTest

final class DisplayNameTests: XCTestCase {
    func testNamesXlibOpensAreAccepted() {
        for d in [":0", ":0.1", "localhost:10.0", "unix:1", "[::1]:0", "::1:0", "host::0", "/tmp/launch-a/org.xquartz:0"] {
            XCTAssertNil(ServerPaths.displayProblem(d), d)
        }
    }

    func testTooLongOrMalformedNamesAreRefused() {
        XCTAssertNotNil(ServerPaths.displayProblem(":" + String(repeating: "9", count: 5000)))
        XCTAssertNotNil(ServerPaths.displayProblem(String(repeating: "h", count: 5000) + ":0"))
        for d in ["", "0", "nocolon", "host:", "host:zero", ":0.", ":0.x", ":1:", ":0\n"] {
            XCTAssertNotNil(ServerPaths.displayProblem(d), d)
        }
    }
}
