import XCTest
import HUDCore
import HUDBus
import HUDSystem
@testable import HUDAccessibility

/// The pure parts: which role a HUD has, its states as `GetState`'s two words, its name and
/// description from its configuration, the values' signatures.
final class AccessibleHUDTests: XCTestCase {
    func testErrorsAndWarningsAreAlertsEverythingElseNotifications() {
        for mode in HUDMode.allCases {
            XCTAssertEqual(AccessibleHUD.role(for: mode), mode == .error || mode == .warning ? .alert : .notification, "\(mode)")
        }
        XCTAssertEqual(AccessibleRole.notification.rawValue, 101)
        XCTAssertEqual(AccessibleRole.alert.rawValue, 2)
        XCTAssertEqual(AccessibleRole.application.rawValue, 75)
    }

    func testStatesAreTwoWords() {
        var c = HUDConfiguration()
        c.label = "Copying files"
        let shown = AccessibleHUD(c, showing: true).states
        // ENABLED (8), SHOWING (25), VISIBLE (30): all in the first word.
        XCTAssertEqual(shown.words, [1 << 8 | 1 << 25 | 1 << 30, 0])
        XCTAssertTrue(shown.contains(.showing) && shown.contains(.visible))
        XCTAssertEqual(AccessibleHUD(c, showing: false).states.words, [1 << 8, 0])
        XCTAssertEqual(AccessibleStateSet().words, [0, 0])
    }

    /// A volume OSD says its level, not only "Volume"; a level is said again when it moves by a
    /// volume key's step or reaches an end, not at each 1 % a bar creeps up.
    func testAProgressHUDSaysItsLevel() {
        var c = HUDConfiguration()
        c.mode = .bar
        c.label = "Volume"
        c.progress = 0.45
        let a = AccessibleHUD(c, showing: true)
        XCTAssertEqual(a.level, 45)
        XCTAssertEqual(AccessibilityBus.announcement(a), "Volume 45%")
        c.details = "Speakers"
        XCTAssertEqual(AccessibilityBus.announcement(AccessibleHUD(c, showing: true)), "Volume 45%. Speakers")
        c.label = ""
        c.details = ""
        XCTAssertEqual(AccessibilityBus.announcement(AccessibleHUD(c, showing: true)), "45%")
        c.mode = .indeterminate
        XCTAssertNil(AccessibleHUD(c, showing: true).level, "a spinner has no level")

        XCTAssertTrue(a.levelWorthSaying(after: nil))
        XCTAssertFalse(a.levelWorthSaying(after: 45))
        XCTAssertTrue(a.levelWorthSaying(after: 50), "a volume key's step")
        XCTAssertFalse(a.levelWorthSaying(after: 44), "a bar creeping up")
        var full = a
        full.level = 100
        XCTAssertTrue(full.levelWorthSaying(after: 99), "an end")
    }

    func testNameIsTheLabelDescriptionTheDetails() {
        var c = HUDConfiguration()
        c.label = "Copying files"
        c.details = "3 of 10"
        var a = AccessibleHUD(c, showing: true)
        XCTAssertEqual(a.name, "Copying files")
        XCTAssertEqual(a.description, "3 of 10")
        XCTAssertEqual(a.politeness, 1)
        XCTAssertEqual(AccessibilityBus.announcement(a), "Copying files. 3 of 10")

        c.mode = .error
        c.label = "Failed"
        c.details = ""
        a = AccessibleHUD(c, showing: true)
        XCTAssertEqual(a.role, .alert)
        XCTAssertEqual(a.name, "Failed")
        XCTAssertEqual(a.politeness, 2)
        XCTAssertEqual(AccessibilityBus.announcement(a), "Failed")

        // No label: the details' first line names it, the rest describes it.
        c.label = ""
        c.details = "Disk full\nFree some space"
        a = AccessibleHUD(c, showing: true)
        XCTAssertEqual(a.name, "Disk full")
        XCTAssertEqual(a.description, "Free some space")

        // Nothing in words: what its icon means.
        c.details = ""
        XCTAssertEqual(AccessibleHUD(c, showing: true).name, "Error")

        // Markup is read as text.
        c.markup = true
        c.label = "<b>Saved</b> &amp; synced"
        c.details = "<i>now</i>"
        a = AccessibleHUD(c, showing: true)
        XCTAssertEqual(a.name, "Saved & synced")
        XCTAssertEqual(a.description, "now")
    }

    func testSignatures() {
        XCTAssertEqual(BusValue.reference("a", "/b").signature, "(so)")
        XCTAssertEqual(BusValue.dictionary([]).signature, "a{sv}")
        XCTAssertEqual(BusValue.dictionary(strings: [("k", "v")]).signature, "a{ss}")
        XCTAssertTrue(BusValue.dictionary([("k", .string("v")), ("n", .int32(1))]).isWellFormed)
        XCTAssertFalse(BusValue.array(element: "{sv}", [.entry(.string("k"), .string("v"))]).isWellFormed)
        XCTAssertEqual(BusValue.array(element: "u", [.uint32(1), .uint32(0)]).signature, "au")
        XCTAssertEqual(BusValue.variant(.int32(1)).signature, "v")
        XCTAssertEqual(BusValue.array(element: "(ua(so))", []).signature, "a(ua(so))")
        let item = BusValue.structure([
            .reference("", "/"), .reference("", "/"), .reference("", "/"), .int32(0), .int32(0),
            .array(element: "s", []), .string(""), .uint32(0), .string(""), .array(element: "u", []),
        ])
        XCTAssertEqual(item.signature, AccessibilityBus.cacheItemSignature)
    }
}

/// The bus thread where no accessibility bus runs: it says so once, and the server's posts
/// from any thread meanwhile and after are safe (run under Thread Sanitizer) and end once it
/// is off.
final class AccessibilityBusTests: XCTestCase {
    func testNoBusIsOffNotACrash() {
        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/xhud-test-bus", 1)
        let heard = Locked<[AccessibilityBus.Status]>([])
        let said = expectation(description: "status")
        let bus = AccessibilityBus(version: "test", addresses: ["unix:path=/nonexistent/xhud-a11y-bus", "nonsense:"]) { status in
            heard.withLock { $0.append(status) }
            said.fulfill()
        }
        bus.start()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            var c = HUDConfiguration()
            c.label = "HUD \(i)"
            bus.post(.set(i, AccessibleHUD(c, showing: true)))
            bus.post(.remove(i))
        }
        wait(for: [said], timeout: 10)
        XCTAssertEqual(heard.withLock { $0 }, [.off("no accessibility bus")])
        XCTAssertFalse(bus.post(.remove(1)), "posts stop once the bus is off")
    }
}
