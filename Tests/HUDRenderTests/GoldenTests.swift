import CCairo
import HUDCore
import HUDRender
import XCTest

final class GoldenTests: XCTestCase {
    /// Used by the tests of this class, which XCTest runs one after another on one thread.
    nonisolated(unsafe) static let renderer = HUDRenderer()

    /// A 64x64 PNG made here, so the custom-image case needs no binary fixture.
    static let fixtureImage: String = {
        let path = NSTemporaryDirectory() + "xhud-fixture-\(getpid()).png"
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 64)!
        let cr = cairo_create(s)!
        let g = cairo_pattern_create_linear(0, 0, 64, 64)!
        cairo_pattern_add_color_stop_rgb(g, 0, 1.0, 0.62, 0.2)
        cairo_pattern_add_color_stop_rgb(g, 1, 0.9, 0.2, 0.45)
        cairo_set_source(cr, g)
        cairo_arc(cr, 32, 32, 28, 0, 2 * Double.pi)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_move_to(cr, 32, 14); cairo_line_to(cr, 48, 46); cairo_line_to(cr, 16, 46); cairo_close_path(cr)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_pattern_destroy(g)
        cairo_surface_write_to_png(s, path)
        cairo_surface_destroy(s)
        return path
    }()

    static func config(
        _ mode: HUDMode, label: String = "", details: String = "", progress: Double = 0,
        _ tweak: (inout HUDConfiguration) -> Void = { _ in }
    ) -> HUDConfiguration {
        var c = HUDConfiguration()
        c.mode = mode; c.label = label; c.details = details; c.progress = progress
        tweak(&c)
        return c
    }

    static var cases: [GoldenCase] {
        var list: [GoldenCase] = []
        func add(
            _ name: String, _ c: HUDConfiguration, region: Size = Size(width: 260, height: 200),
            scale: Double = 1, time: Double = 0, presentation: Presentation = .shown
        ) {
            list.append(GoldenCase(name: name, config: c, region: region, scale: scale, time: time, presentation: presentation))
        }
        add("ring-spinner-t0", config(.indeterminate))
        add("ring-spinner-t0.4-label", config(.indeterminate, label: "Loading"), time: 0.4)
        add("spokes-t0", config(.indeterminate) { $0.spinner = .spokes })
        add("spokes-t0.5-label", config(.indeterminate, label: "Loading") { $0.spinner = .spokes }, time: 0.5)
        for p in [0, 0.3, 1] { add("pie-\(p)", config(.determinate, label: "Loading", progress: p)) }
        for p in [0, 0.5, 1] { add("annular-\(p)", config(.annular, label: "Loading", progress: p)) }
        for p in [0, 0.75, 1] { add("bar-\(p)", config(.bar, label: "Loading", progress: p)) }
        for m in [HUDMode.success, .error, .info, .warning] {
            add("\(m.rawValue)", config(m))
            add("\(m.rawValue)-label", config(m, label: m.rawValue.prefix(1).uppercased() + m.rawValue.dropFirst()))
        }
        add(
            "custom-image",
            config(.custom, label: "Custom") {
                $0.image = fixtureImage; $0.imageSize = 48
            })
        add(
            "custom-image-tinted",
            config(.custom) {
                $0.image = fixtureImage; $0.tintImage = true
            })
        add("text", config(.text, label: "Copied to clipboard"))
        add("details", config(.determinate, label: "Uploading", details: "photo-0042.jpg\n3 of 12", progress: 0.42))
        add("light-annular", config(.annular, label: "Loading", progress: 0.6) { $0.style = .light })
        add("light-bar", config(.bar, label: "Volume", progress: 0.45) { $0.style = .light })
        add("light-success", config(.success, label: "Saved", details: "report.pdf") { $0.style = .light })
        add(
            "custom-colours",
            config(.annular, label: "Syncing", progress: 0.7) {
                $0.style = .custom; $0.bezelColor = RGBA(0.05, 0.25, 0.55, 0.9); $0.contentColor = RGBA(1, 1, 1)
            })
        add("scale2-annular", config(.annular, label: "Loading", progress: 0.5), region: Size(width: 260, height: 200), scale: 2)
        add("scale2-success", config(.success, label: "Done", details: "All files copied"), scale: 2)
        add("mask-clear", config(.indeterminate, label: "Loading") { $0.mask = .clear })
        add("mask-black", config(.indeterminate, label: "Loading") { $0.mask = .black })
        add("mask-gradient", config(.indeterminate, label: "Loading") { $0.mask = .gradient })
        add("mask-colour", config(.indeterminate, label: "Loading") { $0.mask = .color(RGBA(0.1, 0.3, 0.8, 0.3)) })
        add("label-cjk", config(.success, label: "上传完成", details: "文件已保存到下载文件夹"))
        add("label-rtl", config(.info, label: "جارٍ التحميل", details: "يرجى الانتظار قليلاً"))
        add("label-emoji", config(.text, label: "Coffee time ☕🎉"))
        add("label-long", config(.indeterminate, label: "Downloading a very long file name that cannot fit.iso"))
        add("details-long", config(.text, label: "Update", details: String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 12)))
        add("button", config(.annular, label: "Exporting", progress: 0.35) { $0.button = "Cancel" })
        add("bar-value", config(.bar, label: "Volume", progress: 0.45) { $0.showValue = true })
        add("annular-value", config(.annular, progress: 0.72) { $0.showValue = true })
        add(
            "bar-alternate",
            config(.bar, label: "Muted", progress: 0.45) {
                $0.alternate = true; $0.showValue = true
            })
        add(
            "square-min-size",
            config(.success, label: "OK") {
                $0.square = true; $0.minSize = Size(width: 120, height: 0)
            })
        add("offset-pinned-bottom", config(.text, label: "Pinned to the bottom") { $0.offset = Point(x: 0, y: 1e6) })
        add("zoom-half", config(.annular, label: "Loading", progress: 0.5), presentation: Presentation(alpha: 0.5, scale: 0.75))
        return list
    }

    func testGoldenImages() {
        for c in Self.cases { Golden.check(c, renderer: Self.renderer) }
    }

    /// Writes every case, over a desktop-like backdrop, into one PNG.
    func testContactSheet() throws {
        let cases = Self.cases
        let cols = 6, cellW = 260.0, cellH = 224.0
        let rows = (cases.count + cols - 1) / cols
        let sheet = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(Double(cols) * cellW), Int32(Double(rows) * cellH))!
        let cr = cairo_create(sheet)!
        for (i, c) in cases.enumerated() {
            let x = Double(i % cols) * cellW, y = Double(i / cols) * cellH
            cairo_save(cr)
            cairo_rectangle(cr, x, y, cellW, cellH); cairo_clip(cr)
            Backdrop.paint(cr, Rect(x: x, y: y, width: cellW, height: cellH), seed: i)
            let surface = Golden.render(c, renderer: Self.renderer)
            cairo_translate(cr, x, y)
            cairo_scale(cr, 1 / c.scale, 1 / c.scale)
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_paint(cr)
            cairo_surface_destroy(surface)
            cairo_restore(cr)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
            cairo_rectangle(cr, x, y + 200, cellW, 24); cairo_fill(cr)
            cairo_set_source_rgb(cr, 0.15, 0.15, 0.15)
            cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(cr, 12)
            cairo_move_to(cr, x + 8, y + 216)
            cairo_show_text(cr, c.name)
        }
        cairo_destroy(cr)
        let dir = Golden.updating ? String(Golden.directory.dropLast("Tests/HUDRenderTests/Golden".count)) + "docs" : NSTemporaryDirectory()
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/contact-sheet.png"
        XCTAssertEqual(cairo_surface_write_to_png(sheet, path), CAIRO_STATUS_SUCCESS)
        cairo_surface_destroy(sheet)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
    }
}

/// A colourful stand-in for a desktop: a diagonal gradient with a few soft shapes.
enum Backdrop {
    static func paint(_ cr: OpaquePointer, _ r: Rect, seed: Int) {
        let g = cairo_pattern_create_linear(r.x, r.y, r.maxX, r.maxY)!
        let hues: [(Double, Double, Double)] = [(0.27, 0.52, 0.85), (0.93, 0.55, 0.35), (0.35, 0.72, 0.55), (0.62, 0.42, 0.82)]
        let a = hues[seed % hues.count], b = hues[(seed + 1) % hues.count]
        cairo_pattern_add_color_stop_rgb(g, 0, a.0, a.1, a.2)
        cairo_pattern_add_color_stop_rgb(g, 1, b.0, b.1, b.2)
        cairo_set_source(cr, g)
        cairo_rectangle(cr, r.x, r.y, r.width, r.height)
        cairo_fill(cr)
        cairo_pattern_destroy(g)
        cairo_set_source_rgba(cr, 1, 1, 1, 0.85)
        cairo_rectangle(cr, r.x + 16, r.y + 20, r.width * 0.45, r.height * 0.5)
        cairo_fill(cr)
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2)
        for i in 0..<6 {
            cairo_rectangle(cr, r.x + 24, r.y + 30 + Double(i) * 14, r.width * 0.36 - Double(i % 3) * 12, 5)
        }
        cairo_fill(cr)
    }
}
