import CCairo
import HUDSystem

/// Reads and decodes, on a thread of its own, the bitmaps a server's HUDs show: a file named by
/// a request (within `ImageFile`'s bounds) and the PNG a child drew an SVG or a large image into.
/// The loop asks (`decode`) and goes on drawing every other HUD; the HUD's renderer then finds
/// the image decoded (`ImageCache` looks here first). A decoding over the time budget is given
/// up (as `BoundedWorker` gives up a job), and its request gets a clear error. Any thread may
/// call it. What decoding costs in memory is bounded by the file's (16 MB) and the image's
/// (`ImageFile.maxPixels`, kept at `ImageFile.maxKeptSide`) bounds.
package final class ImageDecoder: Sendable {
    /// The server's.
    package static let shared = ImageDecoder()

    /// Bitmaps at most this many pixels are decoded here; larger ones, and SVGs, are drawn by a
    /// child at the size they are shown at (`needsDrawing`).
    package static let maxPixels = 256 * 256
    /// Images kept decoded (a HUD image is a few dozen pixels: a few KB each, 1 MB at most).
    static let kept = 8

    package struct Job: Hashable, Sendable {
        package let path: String
        /// The file's version (`FileText.stamp`): a changed file is decoded again.
        package let stamp: [Int]
        /// Drawn at its size already (a child's PNG): decoded whatever its size.
        package let drawn: Bool
        package init(path: String, stamp: [Int], drawn: Bool) { self.path = path; self.stamp = stamp; self.drawn = drawn }
    }

    package enum Output: Sendable {
        case bitmap(DecodedBitmap)
        /// An SVG, or a bitmap larger than a HUD's image needs: a child draws it first.
        case needsDrawing
        /// Why it cannot be shown, in a sentence naming it.
        case failed(String)
    }

    private let worker: BoundedWorker<Job, Output>

    /// `decode`: how a worker decodes a job (tests slow it down).
    package init(seconds: Double = 1.0, decode: @escaping @Sendable (Job) -> Output = ImageDecoder.decodeNow) {
        worker = BoundedWorker(
            name: "xhud-image", seconds: seconds, kept: Self.kept,
            overrun: { job in
                .failed("cannot use image '\(job.path)': decoding it took more than \(seconds) s")
            }
        ) { decode }
    }

    /// The job's output, if done.
    package func output(_ job: Job) -> Output? { worker.output(job) }

    /// Decodes the jobs not done yet, then calls `done` once with every job's output, on the
    /// decoder's thread (on this one, now, when all were done).
    package func decode(_ jobs: [Job], done: @escaping @Sendable ([Job: Output]) -> Void) { worker.submit(jobs, done: done) }

    /// The latest bitmap decoded from `path`.
    func bitmap(_ path: String) -> DecodedBitmap? {
        if case .bitmap(let b)? = worker.latest(where: { $0.path == path }) { return b }
        return nil
    }

    /// What a worker does: reads the file within its bounds, then decodes it.
    @Sendable package static func decodeNow(_ job: Job) -> Output {
        let bytes: [UInt8]
        switch ImageFile.read(job.path) {
        case .failure(let why): return .failed(why.description)
        case .success(let b): bytes = b
        }
        if !job.drawn, ImageFile.isSVG(bytes) { return .needsDrawing }
        // Any bitmap format; its size is known before it is decoded (a PNG's header, gdk-pixbuf's
        // size-prepared), so that a large one is drawn by a child rather than decoded here.
        switch ImageFile.decodeBitmap(bytes, path: job.path, drawnAbove: job.drawn ? nil : maxPixels) {
        case .surface(let s): return .bitmap(DecodedBitmap(s))
        case .larger: return .needsDrawing
        case .failed(let why): return .failed("cannot use image '\(job.path)': \(why)")
        }
    }
}

/// A decoded image surface handed from the decoder's thread to the loop's: read only once made
/// (Cairo counts its references atomically).
package final class DecodedBitmap: @unchecked Sendable {
    let surface: OpaquePointer
    init(_ surface: OpaquePointer) { self.surface = surface }
    deinit { cairo_surface_destroy(surface) }
}
