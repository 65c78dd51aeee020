import HUDCore
import HUDSystem

/// Lays out, on a thread of its own, the text a server's loop must not wait for: all that Pango
/// lays out (details, markup, other scripts, fallback fonts). The loop asks (`shape`) and goes on
/// drawing every other HUD; told that the text is ready, it measures and draws its recording
/// (`ShapedText`) in microseconds. A layout over the time budget is `cut` (the HUD shows its
/// first characters), as `BoundedWorker` gives up a job. Any thread may call it. The worker's
/// Pango font map is its own (Pango's are per thread).
package final class TextShaper: Sendable {
    /// The server's: one thread, one font map, for every HUD.
    package static let shared = TextShaper()

    /// Requests kept done (their recordings: a few KB each, up to a few hundred for 16 KB of text).
    static let kept = 64
    static var overrunsAllowed: Int { BoundedWorker<TextRequest, Result>.overrunsAllowed }

    package enum Result: Sendable {
        case shaped(ShapedText)
        /// Over the time budget: shown as `HUDText.cut` of it, laid out where it is drawn.
        case cut
    }

    private let worker: BoundedWorker<TextRequest, Result>

    /// `layOut`: how a worker lays a request out (tests slow it down).
    package init(
        seconds: Double = 1.0,
        layOut: @escaping @Sendable (PangoText, TextRequest) -> ShapedText = { $0.shaped($1) }
    ) {
        worker = BoundedWorker(name: "xhud-text", seconds: seconds, kept: Self.kept, overrun: { _ in .cut }) {
            let pango = PangoText()
            return { .shaped(layOut(pango, $0)) }
        }
    }

    /// The request's layout, if done (or given up).
    package func result(_ r: TextRequest) -> Result? { worker.output(r) }

    /// Lays out the requests not done yet, then calls `done` once, on the shaper's thread (on
    /// this one, now, when all were done).
    package func shape(_ requests: [TextRequest], done: @escaping @Sendable () -> Void) {
        worker.submit(requests) { _ in done() }
    }
}
