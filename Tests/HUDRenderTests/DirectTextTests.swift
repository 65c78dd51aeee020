import CCairo
import CPango
import HUDCore
@testable import HUDRender
import XCTest

/// DirectText must draw exactly what Pango draws, or leave the text to Pango.
final class DirectTextTests: XCTestCase {
    static let texts = [
        "Loading", "Ag 0%", "72%", "Volume", "AVATAR Tower", "WAVE To You", "office file flow", "ffi affine",
        "Saving document…", "Übergrößenträger", "Connecting to server", "Install complete", "Brightness 75%",
        "1/2 -- 3", "(fi)", "Ωμέγα", "Привет мир", "Tiếng Việt", "Copied to clipboard", "Cancel",
    ]
    static let fonts = [
        "Sans Bold 16px", "Sans 12px", "Sans Bold 11px", "Sans Bold 10px", "Sans 13px", "Sans Bold 20px", "Sans 12", "Sans 9.5",
        "Serif 14px", "Serif Bold Italic 15px", "Monospace 12px", "Sans Italic 16px", "Sans Light 13px",
        "DejaVu Sans Condensed 14px", "Liberation Sans, Sans 14px", "Nimbus Sans Bold 12px", "Noto Sans CJK SC 14px",
    ]

    /// Draws a request into a fresh surface with `draw`; the caller destroys it.
    private static func surface(_ draw: (OpaquePointer) -> Void) -> OpaquePointer {
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 48)!
        let cr = cairo_create(s)!
        cairo_set_source_rgba(cr, 1, 1, 1, 0.9)
        draw(cr)
        cairo_destroy(cr)
        cairo_surface_flush(s)
        return s
    }

    private func samePixels(_ a: OpaquePointer, _ b: OpaquePointer) -> Bool {
        let n = Int(cairo_image_surface_get_stride(a)) * Int(cairo_image_surface_get_height(a))
        return memcmp(cairo_image_surface_get_data(a), cairo_image_surface_get_data(b), n) == 0
    }

    func testDirectTextDrawsPangosPixelsAndSizes() {
        let text = HUDText()
        var direct = 0, total = 0
        for font in Self.fonts {
            for string in Self.texts {
                for (i, singleLine) in [true, false].enumerated() {
                    total += 1
                    let r = TextRequest(
                        text: string, font: font, maxWidth: [200, 187.5][i], maxHeight: singleLine ? nil : 60,
                        singleLine: singleLine)
                    guard text.isDirect(r) else { continue }
                    direct += 1
                    XCTAssertEqual(text.measure(r), text.pango.measure(r), "\(font) \(string): size")
                    let rect = Rect(x: [10, 10.5][i], y: [4, 4.25][i], width: 290, height: 40)
                    let a = Self.surface { text.draw(r, in: rect, cr: $0) }
                    let b = Self.surface { text.pango.draw(r, in: rect, cr: $0) }
                    XCTAssertTrue(samePixels(a, b), "\(font) \(string): pixels differ from Pango's")
                    cairo_surface_destroy(a)
                    cairo_surface_destroy(b)
                }
            }
        }
        // Most of these are plain text in a plain font: if DirectText took none, it is broken.
        XCTAssertGreaterThan(direct, total / 2, "DirectText drew \(direct) of \(total)")
        print("DirectText drew \(direct) of \(total) requests, each as Pango does")
    }

    func testTheDefaultLabelIsDrawnWithoutPango() {
        let c = HUDConfiguration()
        for font in [c.labelFont, c.detailsFont, c.valueFont, c.ringValueFont] {
            XCTAssertTrue(HUDText().isDirect(TextRequest(text: "Loading 50%", font: font, maxWidth: 200, singleLine: true)), font)
        }
    }

    func testWhatOnlyPangoDrawsIsLeftToIt() {
        let text = HUDText()
        func pango(_ s: String, font: String = "Sans Bold 16px", markup: Bool = false, width: Double = 200) {
            XCTAssertFalse(
                text.isDirect(TextRequest(text: s, font: font, markup: markup, maxWidth: width, singleLine: true)),
                "\(s) in \(font)")
        }
        pango("<b>Bold</b> text", markup: true)
        pango("جارٍ التحميل")
        pango("שלום")
        pango("上传完成")  // not in the Latin font the description matches
        pango("Coffee time ☕")
        pango("e\u{301}te")  // a combining accent
        pango("Latin and Ελληνικά")  // two scripts: Pango makes two runs
        pango("line\nbreak")
        pango(" padded ")
        pango(String(repeating: "A very long label ", count: 4))  // wider than its width: ellipsized
        pango("Loading", font: "Sans Bold")  // no size: Pango's default
        pango("Loading", font: "Sans Small-Caps 12px")
        pango("Loading", font: "Sans @wght=300 12px")
    }

    func testFontDescriptionsAreReadAsPangoReadsThem() {
        let styles = [0: Int32(0), 1: 110, 2: 100]  // Pango's style -> fontconfig slant
        let widths: [Int32] = [50, 63, 75, 87, 100, 113, 125, 150, 200]  // Pango's stretch -> fontconfig width
        // Every style word DirectText reads, and descriptions that mix them.
        let words = [
            "Thin", "Ultra-Light", "Ultralight", "Extra-Light", "Extralight", "Light", "Semi-Light", "Semilight",
            "Demi-Light", "Demilight", "Book", "Regular", "Medium", "Semi-Bold", "Semibold", "Demi-Bold",
            "Demibold", "Bold", "Ultra-Bold", "Ultrabold", "Extra-Bold", "Extrabold", "Heavy", "Black",
            "Ultra-Heavy", "Ultraheavy", "Extra-Heavy", "Extraheavy", "Ultra-Black", "Ultrablack", "Extra-Black",
            "Extrablack", "Roman", "Italic", "Oblique", "Ultra-Condensed", "Extra-Condensed", "Condensed",
            "Semi-Condensed", "Normal", "Semi-Expanded", "Expanded", "Extra-Expanded", "Ultra-Expanded",
        ]
        for s in words.map({ "Sans \($0) 12px" }) + [
            "Sans Bold 16px", "Sans 12", "DejaVu Sans, Sans Bold Italic 10.5", "Sans Semi-Bold Condensed 14px",
            "Noto Sans CJK SC Light 12px", "Monospace Oblique 11", "Serif Normal 9", "Sans Heavy Expanded 30px",
            "URW Gothic Book 12px", "Sans Bold 9999px", "Sans 700", "Sans BOLD italic 12px",
        ] {
            guard let d = FontDescription(s) else { XCTFail("\(s) is not read"); continue }
            let p = pango_font_description_from_string(s)!
            defer { pango_font_description_free(p) }
            XCTAssertEqual(d.families, String(cString: pango_font_description_get_family(p)), s)
            XCTAssertEqual(d.weight, Double(pango_font_description_get_weight(p)), s)
            XCTAssertEqual(d.slant, styles[Int(pango_font_description_get_style(p))], s)
            XCTAssertEqual(d.width, widths[Int(pango_font_description_get_stretch(p))], s)
            var units = Double(pango_font_description_get_size(p))
            if units > Limits.fontPixels * 1024 { units = Limits.fontPixels * 1024 }
            let pixels =
                pango_font_description_get_size_is_absolute(p) != 0 || units == Limits.fontPixels * 1024
                ? units / 1024 : units * 96 / 72 / 1024
            XCTAssertEqual(d.pixelSize, pixels, accuracy: 1e-9, s)
        }
        let pangoOnly = [
            "Small-Caps", "All-Small-Caps", "Petite-Caps", "All-Petite-Caps", "Unicase", "Title-Caps",
            "Not-Rotated", "South", "Upside-Down", "North", "Rotated-Left", "East", "Rotated-Right", "West",
        ]
        for s in pangoOnly.map({ "Sans \($0) 12px" }) + [
            "Sans", "Sans Bold", "", "16px", "Sans 0px", "Sans -3",
            "Sans Bold Bold 12px", "Sans Italic Oblique 12px",
        ] {
            XCTAssertNil(FontDescription(s), s)
        }
    }

    /// Renderers on several threads (the library's, a server's) share the process's fonts: they
    /// open a font for a description none has used, at once, and draw with it. Run under Thread
    /// Sanitizer by scripts/test.
    func testRenderersOnSeveralThreadsShareFonts() {
        let threads = 6
        let widths = Widths(count: threads)
        DispatchQueue.concurrentPerform(iterations: threads) { i in
            let text = HUDText()
            let r = TextRequest(text: "Shared \(i % 2)", font: "Sans Bold 17.5px", maxWidth: 200, singleLine: true)
            let w = text.measure(r).width
            let s = Self.surface { text.draw(r, in: Rect(x: 0, y: 0, width: 300, height: 40), cr: $0) }
            cairo_surface_destroy(s)
            widths.set(i, w)
            XCTAssertTrue(text.isDirect(r))
        }
        let w = widths.values
        for i in 2..<threads { XCTAssertEqual(w[i], w[i % 2], "thread \(i)") }
        XCTAssertGreaterThan(w[0], 40)
    }
}

/// The widths each thread measured (a pthread lock, which Thread Sanitizer sees).
private final class Widths: @unchecked Sendable {
    private let lock = NSLock()
    private var widths: [Double]
    init(count: Int) { widths = [Double](repeating: 0, count: count) }
    func set(_ i: Int, _ w: Double) { lock.lock(); widths[i] = w; lock.unlock() }
    var values: [Double] { lock.lock(); defer { lock.unlock() }; return widths }
}
