#if canImport(Glibc)
import Glibc
#endif
import CCairo
import HUDCore
import HUDFiles
@testable import HUDRender
import HUDSystem
import XCTest

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
        for name in ["a.png", "big.png", "b.svg", "bad.png"] { unlink(dir + "/" + name) }
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
        rename(tmp, path)   // a new file: a new stamp, whatever the clock's grain
        cairo_surface_destroy(s)
        return path
    }

    private func job(_ path: String, drawn: Bool = false) -> ImageDecoder.Job {
        ImageDecoder.Job(path: path, stamp: FileText.stamp(path), drawn: drawn)
    }

    private func decode(_ decoder: ImageDecoder, _ jobs: [ImageDecoder.Job]) -> [ImageDecoder.Job: ImageDecoder.Output] {
        let done = expectation(description: "decoded")
        let outputs = Locked([ImageDecoder.Job: ImageDecoder.Output]())
        decoder.decode(jobs) { o in outputs.withLock { $0 = o }; done.fulfill() }
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
        XCTAssertTrue(why.contains("bad.png") && why.contains("neither a PNG nor an SVG"), why)
        guard case .failed(let gone)? = out[job(dir + "/none.png")] else { return XCTFail("a missing file is an error") }
        XCTAssertTrue(gone.contains("No such file"), gone)
    }

    func testADecodingOverItsBudgetIsAnErrorAndTheNextGoesOn() {
        let slow = png("a.png", 8, 8)
        let quick = png("big.png", 8, 8, red: 0, blue: 1)
        let decoder = ImageDecoder(seconds: 0.1) { job in
            if job.path == slow { usleep(400_000) }
            return ImageDecoder.decodeNow(job)
        }
        let start = MonotonicClock.seconds()
        let out = decode(decoder, [job(slow), job(quick)])
        XCTAssertLessThan(MonotonicClock.seconds() - start, 0.39, "the slow decoding was waited for")
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
