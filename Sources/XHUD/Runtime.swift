import Foundation
import HUDCore
import HUDEngine
import HUDSystem
import HUDWayland
import HUDX11

/// The library's own thread for one display: the connection, the event loop and its display
/// link live there, and so does everything that touches the display, Cairo or Pango. Public
/// calls from any thread are posted to it (`post`) or wait for it (`sync`); callbacks leave it on
/// `HUD.callbackQueue`. The caller never hands over a thread.
///
/// The display is the one the server would draw on (`BackendChoice`): a Wayland compositor with
/// layer-shell where `WAYLAND_DISPLAY` is set (or `XHUD_BACKEND=wayland`), X11 otherwise; a
/// display named by the caller is an X display.
final class Runtime: @unchecked Sendable {
    /// Owned by the loop's thread once started (others only `post` to it).
    let display: any HUDDisplay
    let loop: any HUDEventLoop
    private var thread: Thread?

    private static let lock = Locked()
    nonisolated(unsafe) private static var runtimes: [String: Runtime] = [:]
    /// Wayland displays found without layer-shell (GNOME's): asked once, not at every HUD.
    nonisolated(unsafe) private static var xwaylandOnly: Set<String> = []

    /// The runtime for a display (`nil`: the session's), started on first use.
    static func forDisplay(_ name: String?) throws -> Runtime {
        lock.lock()
        defer { lock.unlock() }
        if name == nil {
            let key = "wayland:" + (Environment.value("WAYLAND_DISPLAY") ?? "wayland-0")
            if let r = runtimes[key] { return r }
            if !xwaylandOnly.contains(key) {
                let wayland: WaylandConnection?
                do { wayland = try BackendChoice.wayland() } catch { throw HUDError.noDisplay("\(error)") }
                if let wayland {
                    let r = Runtime(display: WaylandHUDDisplay(WaylandLoop(connection: wayland)))
                    runtimes[key] = r
                    return r
                }
                xwaylandOnly.insert(key)
            }
        }
        let key = name ?? Environment.value("DISPLAY") ?? ""
        if let r = runtimes[key] { return r }
        guard !key.isEmpty else {
            throw HUDError.noDisplay("neither WAYLAND_DISPLAY nor DISPLAY is set: there is no display to show a HUD on")
        }
        let display: X11Display
        do { display = try X11Display(name: key) } catch {
            throw HUDError.noDisplay("cannot open display '\(key)' (is an X server running, and DISPLAY right?)")
        }
        let r = Runtime(display: X11HUDDisplay(HUDLoop(display: display)))
        runtimes[key] = r
        return r
    }

    private init(display: any HUDDisplay) {
        self.display = display
        loop = display.loop
        // Handed to its thread, which owns it from now on (others only `post` to it).
        nonisolated(unsafe) let display = display
        let t = Thread { _ = display.run() }
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
    /// No display: neither `WAYLAND_DISPLAY` nor `DISPLAY` names one that answers.
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
