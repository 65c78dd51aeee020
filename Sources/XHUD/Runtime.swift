import Foundation
import HUDSystem
import HUDCore
import HUDX11

/// The library's own thread for one display: the X connection, the event loop and its display
/// link live there, and so does everything that touches X, Cairo or Pango. Public calls from any
/// thread are posted to it (`post`) or wait for it (`sync`); callbacks leave it on
/// `HUD.callbackQueue`. The caller never hands over a thread.
final class Runtime: @unchecked Sendable {
    let display: X11Display
    let loop: HUDLoop
    private var thread: Thread?

    private static let lock = Locked()
    nonisolated(unsafe) private static var runtimes: [String: Runtime] = [:]

    /// The runtime for a display (`nil`: `$DISPLAY`), started on first use.
    static func forDisplay(_ name: String?) throws -> Runtime {
        let key = name ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        lock.lock()
        defer { lock.unlock() }
        if let r = runtimes[key] { return r }
        guard !key.isEmpty else { throw HUDError.noDisplay("DISPLAY is not set: there is no X display to show a HUD on") }
        let display: X11Display
        do { display = try X11Display(name: key) } catch {
            throw HUDError.noDisplay("cannot open display '\(key)' (is an X server running, and DISPLAY right?)")
        }
        let r = Runtime(display: display)
        runtimes[key] = r
        return r
    }

    private init(display: X11Display) {
        self.display = display
        loop = HUDLoop(display: display)
        // Handed to its thread, which owns it from now on (others only `post` to it).
        nonisolated(unsafe) let loop = self.loop
        let t = Thread { _ = loop.run() }
        t.name = "xhud"
        thread = t
        t.start()
    }

    var isLoopThread: Bool { Thread.current === thread }

    /// Runs `work` on the loop's thread soon.
    func post(_ work: @escaping () -> Void) {
        if isLoopThread { work() } else { loop.post(work) }
    }

    /// Runs `work` on the loop's thread and waits for its result.
    func sync<T>(_ work: @escaping () throws -> T) throws -> T {
        if isLoopThread { return try work() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, Error>!
        loop.post {
            result = Result { try work() }
            done.signal()
        }
        done.wait()
        return try result.get()
    }
}

/// What can go wrong, with a message that says what to do.
public enum HUDError: Error, CustomStringConvertible, Equatable {
    /// No X display: `DISPLAY` unset, or the server refused the connection.
    case noDisplay(String)
    /// The parent region does not exist: an unknown monitor or window, a bad geometry.
    case badParent(String)
    /// An image that cannot be shown (missing, not a PNG, too large).
    case badImage(String)
    /// `await hide(...)` of a HUD that was never shown.
    case notShown

    public var description: String {
        switch self {
        case .noDisplay(let s), .badParent(let s), .badImage(let s): return s
        case .notShown: return "the HUD was never shown"
        }
    }
}
