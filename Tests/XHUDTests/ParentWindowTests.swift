import Foundation
import XCTest
@testable import XHUD
import CX11

/// A HUD over a window goes with the window, and says so.
final class ParentWindowTests: XCTestCase {
    var display = ""
    var x: OpaquePointer?

    override func setUpWithError() throws {
        display = try TestDisplay.start()
        HUD.callbackQueue = DispatchQueue(label: "test.callbacks")
        x = XOpenDisplay(display)
        if x == nil { throw XCTSkip("cannot open \(display)") }
    }

    override func tearDown() {
        if let x { XCloseDisplay(x) }
        resetSharedHUD(display: display)
        HUD.callbackQueue = nil
    }

    /// A mapped window of the test's own connection, as a parent spec.
    func makeWindow() -> (Window, ParentSpec) {
        let w = XCreateSimpleWindow(x, XDefaultRootWindow(x), 100, 100, 400, 300, 0, 0, 0)
        XMapWindow(x, w)
        XSync(x, 0)
        return (w, .window("0x" + String(w, radix: 16)))
    }

    func drawnVisible(_ hud: HUD) -> Bool {
        (try? hud.runtime.sync { hud.hostForTests?.isVisible ?? false }) ?? false
    }

    func testAHUDWhoseWindowIsDestroyedIsNoLongerVisible() throws {
        let (w, parent) = makeWindow()
        let hud = try HUD.show(over: parent, animated: false, display: display)
        hud.label = "Over a window"
        let hidden = expectation(description: "completion")
        hud.completion = { hidden.fulfill() }
        XCTAssertTrue(waitUntil { self.drawnVisible(hud) }, "the HUD never showed")
        XCTAssertTrue(hud.isVisible)
        XCTAssertTrue(HUD.hud(over: parent) === hud)

        XDestroyWindow(x, w)
        XSync(x, 0)
        wait(for: [hidden], timeout: 5)
        XCTAssertFalse(hud.isVisible, "isVisible stayed true after the parent window was destroyed")
        XCTAssertNil(HUD.hud(over: parent))
        XCTAssertFalse(drawnVisible(hud))
        XCTAssertNil(try hud.runtime.sync { hud.hostForTests }, "the HUD kept its window after its parent went")

        // Shown again over a parent that is gone: it never becomes visible, and ends at once.
        let again = expectation(description: "completion again")
        hud.completion = { again.fulfill() }
        hud.show(animated: false)
        wait(for: [again], timeout: 5)
        XCTAssertFalse(hud.isVisible)
    }

    /// The shared HUD keeps its window between shows; over a window that goes, it goes too.
    func testTheSharedHUDOverADestroyedWindowIsNotVisible() throws {
        let (w, parent) = makeWindow()
        let log = NotificationLog()
        defer { log.stop() }
        ProgressHUD.setDefaultParent(parent)
        ProgressHUD.show(status: "Syncing")
        XCTAssertNotNil(log.first(ProgressHUD.didAppearNotification), log.summary)
        XCTAssertTrue(ProgressHUD.isVisible)
        XDestroyWindow(x, w)
        XSync(x, 0)
        XCTAssertNotNil(log.first(ProgressHUD.didDisappearNotification), log.summary)
        XCTAssertTrue(waitUntil { !ProgressHUD.isVisible }, "ProgressHUD.isVisible stayed true")
        XCTAssertFalse(SVProgressHUD.isVisible())
    }

    func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > end { return false }
            usleep(10_000)
        }
        return true
    }
}
