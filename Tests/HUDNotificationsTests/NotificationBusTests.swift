import XCTest
import HUDBus
import HUDSystem
@testable import HUDNotifications

/// The bus thread against a bus that is not there: it says why, once, and the calls the
/// server's loop makes meanwhile (from any thread) are safe (run under Thread Sanitizer).
final class NotificationBusTests: XCTestCase {
    func testNoBusIsAStatusLineNotACrash() {
        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/xhud-test-bus", 1)
        let lines = Locked<[String]>([])
        let said = expectation(description: "status")
        let bus = NotificationBus(replace: false, version: "test", imageDirectory: "/nonexistent") { event in
            if case .status(let line) = event {
                lines.withLock { $0.append(line) }
                said.fulfill()
            }
        }
        bus.start()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            bus.ended(id: UInt32(i), reason: .expired, action: nil)
        }
        wait(for: [said], timeout: 10)
        let seen = lines.withLock { $0 }
        XCTAssertEqual(seen.count, 1)
        XCTAssertTrue(seen[0].hasPrefix("notifications are off:"), seen[0])
    }
}
