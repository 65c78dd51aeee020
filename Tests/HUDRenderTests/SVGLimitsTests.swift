import Foundation
@testable import HUDRender
import XCTest

/// Each hostile document that once froze or bloated the server is refused before librsvg sees
/// it, with a message that says why; an ordinary icon is not.
final class SVGLimitsTests: XCTestCase {
    private func svg(_ body: String, head: String = "") -> [UInt8] {
        Array((head + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48\" height=\"48\">" + body + "</svg>").utf8)
    }

    private func pngBase64(width: Int, height: Int) -> String {
        var b: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [width, height] { b += [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        b += [8, 6, 0, 0, 0, 0, 0, 0, 0]
        return Data(b).base64EncodedString()
    }

    func testAnOrdinaryIconPasses() {
        XCTAssertNil(SVGLimits.problem(svg("<circle cx=\"24\" cy=\"24\" r=\"20\"/><text x=\"4\" y=\"30\">OK</text>")))
        XCTAssertNil(SVGLimits.problem(svg("<filter id=\"f\"><feGaussianBlur stdDeviation=\"2\"/></filter>")))
        XCTAssertNil(SVGLimits.problem(svg("<image href=\"data:image/png;base64,\(pngBase64(width: 64, height: 64))\"/>")))
        XCTAssertNil(SVGLimits.problem(svg("<filter id=\"t\"><feTurbulence numOctaves=\"4\"/></filter>")))
    }

    func testHostileDocumentsAreRefused() {
        let cases: [(String, [UInt8])] = [
            ("octaves", svg("<filter id=\"t\"><feTurbulence baseFrequency=\"0.9\" numOctaves=\"1000000\"/></filter>")),
            ("text", svg("<text>" + String(repeating: "W", count: 100_000) + "</text>")),
            ("entity", Array(("<?xml version=\"1.0\"?><!DOCTYPE svg [<!ENTITY a \"aaaaaaaaaa\">]>").utf8) + svg("<text>&a;&a;</text>")),
            ("compressed", [0x1F, 0x8B, 8, 0] + [UInt8](repeating: 0, count: 100)),
            ("embedded", svg("<image href=\"data:image/png;base64,\(pngBase64(width: 30_000, height: 30_000))\"/>")),
            ("jpeg", svg("<image href=\"data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ\"/>")),
            ("primitives", svg("<filter id=\"f\">" + String(repeating: "<feOffset dx=\"1\"/>", count: 40) + "</filter>")),
            ("size", svg(String(repeating: "<g/>", count: 300_000))),
        ]
        for (name, bytes) in cases {
            XCTAssertNotNil(SVGLimits.problem(bytes), name)
        }
    }

    func testAnSVGWhoseTagComesAfterALongPreambleIsStillAnSVG() {
        let comment = "<!-- " + String(repeating: "licence text ", count: 800) + " -->\n"
        XCTAssertTrue(ImageFile.isSVG(svg("<rect width=\"4\" height=\"4\"/>", head: comment)))
        XCTAssertFalse(ImageFile.isSVG(Array("<html><body>no</body></html>".utf8)))
    }
}
