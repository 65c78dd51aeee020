#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore
@testable import HUDRender
import HUDSystem
import XCTest
import Foundation

/// A server's images are read and decoded on the decoder's thread: small bitmaps there, SVGs and
/// large bitmaps sent to be drawn first, a bad file or a decoding over budget a clear error; the
/// renderer draws what was decoded, and a rewritten file's newer decoding.
final class ImageDecoderTests: XCTestCase {
    private var dir = ""

    override func setUp() {
        var template = Array("/tmp/xhud-decoder-XXXXXX".utf8CString)
        dir = String(cString: mkdtemp(&template)!)
    }

    override func tearDown() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] { unlink(dir + "/" + name) }
        rmdir(dir)
    }

    /// A `w` x `h` PNG of one colour, written at `path`.
    @discardableResult
    private func png(_ name: String, _ w: Int, _ h: Int, red: Double = 1, blue: Double = 0) -> String {
        let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        let cr = cairo_create(s)!
        cairo_set_source_rgba(cr, red, 0, blue, 1)
        cairo_paint(cr)
        cairo_destroy(cr)
        let path = dir + "/" + name
        let tmp = path + ".tmp"
        XCTAssertEqual(cairo_surface_write_to_png(s, tmp), CAIRO_STATUS_SUCCESS)
        rename(tmp, path)  // a new file: a new stamp, whatever the clock's grain
        cairo_surface_destroy(s)
        return path
    }

    private func job(_ path: String, drawn: Bool = false) -> ImageDecoder.Job {
        ImageDecoder.Job(path: path, stamp: FileText.stamp(path), drawn: drawn)
    }

    private func decode(_ decoder: ImageDecoder, _ jobs: [ImageDecoder.Job]) -> [ImageDecoder.Job: ImageDecoder.Output] {
        let done = expectation(description: "decoded")
        let outputs = Locked([ImageDecoder.Job: ImageDecoder.Output]())
        decoder.decode(jobs) { o in
            outputs.withLock { $0 = o }; done.fulfill()
        }
        wait(for: [done], timeout: 10)
        return outputs.withLock { $0 }
    }

    func testEachKindOfFileGetsItsOutput() throws {
        let small = job(png("a.png", 40, 30))
        let big = job(png("big.png", 300, 300))
        let svgPath = dir + "/b.svg"
        try #"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.write(toFile: svgPath, atomically: true, encoding: .utf8)
        let bad = dir + "/bad.png"
        try "not a picture".write(toFile: bad, atomically: true, encoding: .utf8)
        let jobs = [small, big, job(svgPath), job(bad), job(big.path, drawn: true), job(dir + "/none.png")]
        let out = decode(ImageDecoder(), jobs)
        XCTAssertEqual(out.count, jobs.count, "every job is answered")
        guard case .bitmap(let b)? = out[small] else { return XCTFail("a 40x30 PNG is decoded: \(String(describing: out[small]))") }
        XCTAssertEqual(cairo_image_surface_get_width(b.surface), 40)
        XCTAssertEqual(cairo_image_surface_get_height(b.surface), 30)
        guard case .needsDrawing? = out[big] else { return XCTFail("a 300x300 PNG is drawn at its size first") }
        guard case .needsDrawing? = out[job(svgPath)] else { return XCTFail("an SVG is drawn by a child first") }
        guard case .bitmap? = out[job(big.path, drawn: true)] else { return XCTFail("a drawn PNG is decoded whatever its size") }
        guard case .failed(let why)? = out[job(bad)] else { return XCTFail("a file that is no image is an error") }
        XCTAssertTrue(why.contains("bad.png") && why.contains("not an image xhud can read"), why)
        guard case .failed(let gone)? = out[job(dir + "/none.png")] else { return XCTFail("a missing file is an error") }
        XCTAssertTrue(gone.contains("No such file"), gone)
    }

    /// An image of one colour made by ImageMagick's `convert` (`spec`: its `-size` and colour).
    private func convert(_ name: String, _ size: String, _ colour: String) throws -> String {
        let path = dir + "/" + name
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["convert", "-size", size, "xc:\(colour)", path]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw XCTSkip("ImageMagick's convert cannot write \(name)") }
        return path
    }

    /// The colour of the decoded surface's middle pixel (premultiplied ARGB32, native endian).
    private func middle(_ s: OpaquePointer) -> (r: Int, g: Int, b: Int, a: Int) {
        let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
        let stride = Int(cairo_image_surface_get_stride(s))
        let p = UnsafeRawPointer(cairo_image_surface_get_data(s)! + (h / 2) * stride + (w / 2) * 4).load(as: UInt32.self)
        return (Int(p >> 16 & 255), Int(p >> 8 & 255), Int(p & 255), Int(p >> 24))
    }

    /// JPEG, GIF (its first frame), BMP and WebP are decoded by gdk-pixbuf on the decoder's
    /// thread, in their colours and sizes, as PNGs are.
    func testOtherFormatsAreDecodedThroughGdkPixbuf() throws {
        guard PixbufImage.isAvailable else { throw XCTSkip("gdk-pixbuf is not installed") }
        let webpLoader = access("/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/2.10.0/loaders/libpixbufloader-webp.so", F_OK) == 0
        var files = [("a.jpg", "#20c040", (32, 192, 64)), ("a.gif", "#e03020", (224, 48, 32)), ("a.bmp", "#2040e0", (32, 64, 224))]
        if webpLoader { files.append(("a.webp", "#f0a000", (240, 160, 0))) }
        var jobs: [(ImageDecoder.Job, (Int, Int, Int))] = []
        for (name, colour, rgb) in files { jobs.append((job(try convert(name, "40x30", colour)), rgb)) }
        let out = decode(ImageDecoder(), jobs.map(\.0))
        for (j, rgb) in jobs {
            guard case .bitmap(let b)? = out[j] else { XCTFail("\(j.path): \(String(describing: out[j]))"); continue }
            XCTAssertEqual(cairo_image_surface_get_width(b.surface), 40, j.path)
            XCTAssertEqual(cairo_image_surface_get_height(b.surface), 30, j.path)
            let m = middle(b.surface)
            XCTAssertEqual(m.a, 255, j.path)
            // JPEG and lossy WebP are near their colour, not on it.
            XCTAssertLessThan(abs(m.r - rgb.0) + abs(m.g - rgb.1) + abs(m.b - rgb.2), 24, "\(j.path): \(m)")
        }
    }

    /// A large JPEG is drawn by a child first (as a large PNG is), which gets it decoded and
    /// scaled down at load; one of too many pixels is refused before it is decoded; a file of
    /// an unknown format, or a JPEG cut short, is an error naming it.
    func testOtherFormatsKeepTheImageBounds() throws {
        guard PixbufImage.isAvailable else { throw XCTSkip("gdk-pixbuf is not installed") }
        let big = job(try convert("big.jpg", "1200x600", "#c0c020"))
        let huge = job(try convert("huge.jpg", "2100x2100", "red"))
        let unknown = dir + "/unknown.jpg"
        try "just some words, not a picture".write(toFile: unknown, atomically: true, encoding: .utf8)
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: big.path)))
        let cut = dir + "/cut.jpg"
        try Data(whole.prefix(200)).write(to: URL(fileURLWithPath: cut))
        let jobs = [big, job(big.path, drawn: true), huge, job(unknown), job(cut)]
        let out = decode(ImageDecoder(), jobs)
        guard case .needsDrawing? = out[big] else { return XCTFail("a 1200x600 JPEG is drawn at its size first: \(String(describing: out[big]))") }
        guard case .bitmap(let b)? = out[job(big.path, drawn: true)] else { return XCTFail("decoded when asked to, whatever its size") }
        XCTAssertEqual(cairo_image_surface_get_width(b.surface), Int32(ImageFile.maxKeptSide), "scaled down at load")
        XCTAssertEqual(cairo_image_surface_get_height(b.surface), Int32(ImageFile.maxKeptSide / 2))
        guard case .failed(let tooMany)? = out[huge] else { return XCTFail("2100x2100 is refused") }
        XCTAssertTrue(tooMany.contains("huge.jpg") && tooMany.contains("2100x2100 pixels"), tooMany)
        guard case .failed(let why)? = out[job(unknown)] else { return XCTFail("words are no image") }
        XCTAssertTrue(why.contains("unknown.jpg") && why.contains("not an image xhud can read"), why)
        guard case .failed(let short)? = out[job(cut)] else { return XCTFail("a JPEG cut short is an error, not a grey box") }
        XCTAssertTrue(short.contains("cut.jpg") && short.contains("not a valid JPEG file"), short)
        // The library's check (`HUD.setImage`) and the child's drawing read it the same way.
        XCTAssertNil(ImageFile.problem(at: big.path))
        XCTAssertNotNil(ImageFile.problem(at: unknown))
        XCTAssertNil(ImageRaster.write(big.path, side: 64, to: dir + "/drawn.png"))
        guard case .bitmap(let drawn)? = decode(ImageDecoder(), [job(dir + "/drawn.png", drawn: true)]).values.first else {
            return XCTFail("the child's PNG")
        }
        let m = middle(drawn.surface)
        XCTAssertLessThan(abs(m.r - 192) + abs(m.g - 192) + abs(m.b - 32), 24, "\(m)")
    }

    func testADecodingOverItsBudgetIsAnErrorAndTheNextGoesOn() {
        let slow = png("a.png", 8, 8)
        let quick = png("big.png", 8, 8, red: 0, blue: 1)
        let decoder = ImageDecoder(seconds: 0.1) { job in
            if job.path == slow { usleep(400_000) }
            return ImageDecoder.decodeNow(job)
        }
        let start = MonotonicTime.seconds()
        let out = decode(decoder, [job(slow), job(quick)])
        XCTAssertLessThan(MonotonicTime.seconds() - start, 0.39, "the slow decoding was waited for")
        guard case .failed(let why)? = out[job(slow)] else { return XCTFail("over budget: \(String(describing: out[job(slow)]))") }
        XCTAssertTrue(why.contains("took more than 0.1 s"), why)
        guard case .bitmap? = out[job(quick)] else { return XCTFail("the job queued behind it is decoded by a new thread") }
    }

    /// The renderer's cache takes what the server's decoder made, and a newer decoding of a
    /// rewritten file in place of the one it drew.
    func testTheRendererDrawsTheLatestDecoding() {
        let path = png("a.png", 16, 16)
        let cache = ImageCache()
        guard case .bitmap(let first)? = decode(.shared, [job(path)])[job(path)] else { return XCTFail("not decoded") }
        guard case .bitmap(let drawn)? = cache.load(path).image else { return XCTFail("not loaded") }
        XCTAssertEqual(drawn, first.surface, "the cache draws the decoder's surface, not a decoding of its own")
        XCTAssertFalse(cache.isStale(path))
        png("a.png", 16, 16, red: 0, blue: 1)
        guard case .bitmap(let second)? = decode(.shared, [job(path)])[job(path)] else { return XCTFail("not decoded again") }
        XCTAssertTrue(cache.isStale(path), "a newer decoding of the path is seen")
        guard case .bitmap(let now)? = cache.load(path).image else { return XCTFail("not loaded") }
        XCTAssertEqual(now, second.surface)
        XCTAssertEqual(cairo_image_surface_get_data(now)![0], 255, "the rewritten file's blue (BGRA)")
    }
}
