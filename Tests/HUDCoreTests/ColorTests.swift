import HUDCore
import XCTest

final class ColorTests: XCTestCase {

    // MARK: Hex

    func testShortHex() throws {
        XCTAssertColor(try RGBA.parse("#fff"), 1, 1, 1, 1)
        XCTAssertColor(try RGBA.parse("#000"), 0, 0, 0, 1)
        XCTAssertColor(try RGBA.parse("#f80"), 1, 0x88 / 255.0, 0, 1)
        XCTAssertColor(try RGBA.parse("#1234"), 0x11 / 255.0, 0x22 / 255.0, 0x33 / 255.0, 0x44 / 255.0)
    }

    func testLongHex() throws {
        XCTAssertColor(try RGBA.parse("#336699"), 0x33 / 255.0, 0x66 / 255.0, 0x99 / 255.0, 1)
        XCTAssertColor(try RGBA.parse("#ff0000"), 1, 0, 0, 1)
        XCTAssertColor(try RGBA.parse("#01020304"), 1 / 255.0, 2 / 255.0, 3 / 255.0, 4 / 255.0)
        XCTAssertColor(try RGBA.parse("#00000080"), 0, 0, 0, 128 / 255.0)
    }

    func testHexIsCaseInsensitiveAndTrimmed() throws {
        XCTAssertEqual(try RGBA.parse("#ABCDEF"), try RGBA.parse("#abcdef"))
        XCTAssertColor(try RGBA.parse("  #FFF\t\n"), 1, 1, 1, 1)
    }

    // MARK: rgb() / rgba()

    func testRgbaFunction() throws {
        XCTAssertColor(try RGBA.parse("rgba(255, 128, 0, 0.5)"), 1, 128 / 255.0, 0, 0.5)
        XCTAssertColor(try RGBA.parse("rgba(0,0,0,0)"), 0, 0, 0, 0)
        XCTAssertColor(try RGBA.parse("rgba( 10 , 20 , 30 , 1 )"), 10 / 255.0, 20 / 255.0, 30 / 255.0, 1)
        XCTAssertColor(try RGBA.parse("RGBA(255,255,255,0.25)"), 1, 1, 1, 0.25)
    }

    func testRgbFunctionIsOpaque() throws {
        XCTAssertColor(try RGBA.parse("rgb(51, 102, 153)"), 0.2, 0.4, 0.6, 1)
        XCTAssertColor(try RGBA.parse("rgb(255,0,0)"), 1, 0, 0, 1)
    }

    // MARK: Names

    func testNames() throws {
        XCTAssertEqual(try RGBA.parse("black"), .black)
        XCTAssertEqual(try RGBA.parse("white"), .white)
        XCTAssertEqual(try RGBA.parse("clear"), .clear)
        XCTAssertEqual(try RGBA.parse("transparent"), .clear)
        XCTAssertEqual(try RGBA.parse("Black"), .black, "names are case-insensitive")
        XCTAssertEqual(try RGBA.parse(" WHITE "), .white)
        XCTAssertEqual(try RGBA.parse("gray"), try RGBA.parse("grey"))
        for name in ["red", "green", "blue", "orange", "yellow", "gray", "purple", "pink", "teal"] {
            let c = try RGBA.parse(name)
            XCTAssertEqual(c.a, 1, "\(name) is opaque")
            for v in [c.r, c.g, c.b] { XCTAssertTrue((0...1).contains(v), "\(name) in range") }
        }
        let red = try RGBA.parse("red")
        XCTAssertGreaterThan(red.r, red.g)
        XCTAssertGreaterThan(red.r, red.b)
        let blue = try RGBA.parse("blue")
        XCTAssertGreaterThan(blue.b, blue.r)
        XCTAssertGreaterThan(blue.b, blue.g)
    }

    func testNameWithAlpha() throws {
        XCTAssertColor(try RGBA.parse("black/0.4"), 0, 0, 0, 0.4)
        XCTAssertColor(try RGBA.parse("white/0"), 1, 1, 1, 0)
        XCTAssertColor(try RGBA.parse("white/1"), 1, 1, 1, 1)
        XCTAssertColor(try RGBA.parse("#ff0000/0.25"), 1, 0, 0, 0.25)
        XCTAssertColor(try RGBA.parse("#ff000080/1"), 1, 0, 0, 1, accuracy: 1e-9)
        XCTAssertColor(try RGBA.parse("rgba(0,0,255,1)/0.5"), 0, 0, 1, 0.5)
    }

    // MARK: Errors

    func testJunkIsRejected() {
        let junk = [
            "", "   ", "junk", "blackk", "#", "#f", "#ff", "#fffff", "#fffffff", "#fffffffff",
            "#ggg", "#12345z", "fff", "ffffff", "# fff",
            "black/", "black/x", "black/1.5", "black/-0.1", "/0.5", "black/0.5/0.5",
            "rgba(1,2)", "rgba(1,2,3,0.5,1)", "rgba(256,0,0,1)", "rgba(-1,0,0,1)", "rgba(0,0,0,1.5)",
            "rgba(0,0,0,-1)", "rgba(a,b,c)", "rgba(0,0,0,1", "rgba 0 0 0", "rgb()", "rgb(1 2 3)",
            "rgb(nan,0,0)", "rgba(0,0,0,nan)", "hsl(0,0,0)", "rgb(1,,2,3)", "rgba(,1,2,3)", "#ｆｆｆ",
        ]
        for s in junk {
            XCTAssertThrowsError(try RGBA.parse(s), "'\(s)' should not parse") { error in
                XCTAssertEqual(error as? RGBA.ParseError, .invalid(s), "the error names the input")
            }
        }
    }

    func testErrorMessageNamesTheInputAndTheAcceptedForms() {
        let message = RGBA.ParseError.invalid("mauve").description
        XCTAssertTrue(message.contains("'mauve'"), message)
        XCTAssertTrue(message.contains("#RRGGBB"), message)
        XCTAssertTrue(message.contains("rgba("), message)
    }

    // MARK: Value type

    func testDescriptionIsHexWithAlpha() {
        XCTAssertEqual(RGBA(1, 0, 0, 0.5).description, "#ff000080")
        XCTAssertEqual(RGBA.black.description, "#000000ff")
        XCTAssertEqual(RGBA.clear.description, "#00000000")
        XCTAssertEqual(RGBA(0x0a / 255.0, 0x0b / 255.0, 0x0c / 255.0, 1).description, "#0a0b0cff")
    }

    func testDescriptionRoundTrips() throws {
        for c in [RGBA(0.2, 0.4, 0.6, 0.8), .white, .clear, RGBA(1, 0.5, 0, 1)] {
            let back = try RGBA.parse(c.description)
            XCTAssertColor(back, c.r, c.g, c.b, c.a, accuracy: 0.5 / 255 + 1e-9)
        }
    }

    func testInitDefaultsToOpaqueAndWithAlpha() {
        XCTAssertEqual(RGBA(0.1, 0.2, 0.3).a, 1)
        let c = RGBA(0.1, 0.2, 0.3).withAlpha(0.4)
        XCTAssertColor(c, 0.1, 0.2, 0.3, 0.4)
        XCTAssertEqual(RGBA.black, RGBA(0, 0, 0, 1))
        XCTAssertEqual(RGBA.white, RGBA(1, 1, 1, 1))
        XCTAssertEqual(RGBA.clear, RGBA(0, 0, 0, 0))
    }

    // MARK: Masks

    func testMaskParse() throws {
        XCTAssertEqual(try HUDMask.parse("none"), HUDMask.none)
        XCTAssertEqual(try HUDMask.parse("clear"), .clear)
        XCTAssertEqual(try HUDMask.parse("black"), .black)
        XCTAssertEqual(try HUDMask.parse("gradient"), .gradient)
        XCTAssertEqual(try HUDMask.parse("Gradient"), .gradient)
        XCTAssertEqual(try HUDMask.parse("#ff000080"), .color(RGBA(1, 0, 0, 128 / 255.0)))
        XCTAssertEqual(try HUDMask.parse("black/0.1"), .color(RGBA(0, 0, 0, 0.1)))
        XCTAssertThrowsError(try HUDMask.parse("fog"))
    }

    func testMaskInputAndPainting() {
        XCTAssertFalse(HUDMask.none.blocksInput)
        XCTAssertTrue(HUDMask.clear.blocksInput)
        XCTAssertTrue(HUDMask.black.blocksInput)
        XCTAssertTrue(HUDMask.gradient.blocksInput)
        XCTAssertTrue(HUDMask.color(.clear).blocksInput)
        XCTAssertFalse(HUDMask.none.paintsBackground)
        XCTAssertFalse(HUDMask.clear.paintsBackground)
        XCTAssertTrue(HUDMask.black.paintsBackground)
        XCTAssertTrue(HUDMask.gradient.paintsBackground)
        XCTAssertTrue(HUDMask.color(RGBA(0, 0, 0, 0.1)).paintsBackground)
        XCTAssertFalse(HUDMask.color(RGBA(0, 0, 0, 0)).paintsBackground)
    }
}
