#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HUDSocket

/// A Wayland session's HUDs share one server named after `WAYLAND_DISPLAY`; `XHUD_BACKEND=x11`
/// names the X display's instead.
final class WaylandPathsTests: XCTestCase {
    private var saved: [String: String?] = [:]

    override func setUp() {
        for name in ["WAYLAND_DISPLAY", "DISPLAY", "XHUD_BACKEND", "XDG_RUNTIME_DIR"] {
            saved[name] = getenv(name).map { String(cString: $0) }
        }
        setenv("XDG_RUNTIME_DIR", "/run/user/1000", 1)
        setenv("DISPLAY", ":0", 1)
        unsetenv("XHUD_BACKEND")
    }

    override func tearDown() {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }

    func testWaylandDisplayNamesTheServer() {
        setenv("WAYLAND_DISPLAY", "wayland-1", 1)
        XCTAssertEqual(ServerPaths.current()?.socket, "/run/user/1000/xhud/wayland-1.sock")
    }

    func testX11BackendKeepsTheXDisplaysServer() {
        setenv("WAYLAND_DISPLAY", "wayland-1", 1)
        setenv("XHUD_BACKEND", "x11", 1)
        XCTAssertEqual(ServerPaths.current()?.socket, "/run/user/1000/xhud/0.sock")
    }

    func testOnlyDisplayIsX11AsBefore() {
        unsetenv("WAYLAND_DISPLAY")
        XCTAssertEqual(ServerPaths.current()?.socket, "/run/user/1000/xhud/0.sock")
        XCTAssertNil(ServerPaths.waylandDisplay)
    }

    func testAWaylandSocketPathIsOneName() {
        setenv("WAYLAND_DISPLAY", "/run/user/1000/wayland-9", 1)
        XCTAssertEqual(ServerPaths.current()?.socket, "/run/user/1000/xhud/_run_user_1000_wayland-9.sock")
    }
}
