import Foundation
import XCTest
@testable import XHUD

/// Callbacks reach programs whose main thread never runs the main queue, and stay on the main
/// queue for programs that run it.
final class CallbackDeliveryTests: XCTestCase {
    var display = ""

    override func setUpWithError() throws {
        display = try TestDisplay.start()
        HUD.callbackQueue = nil
    }

    override func tearDown() { resetSharedHUD(display: display) }

    /// The main thread blocks (a semaphore, no run loop): the completion still runs, on the
    /// library's callback thread.
    func testACompletionRunsWhileTheMainThreadIsBlocked() throws {
        let hud = try HUD.show(over: .monitor("pointer"), animated: false, display: display)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var onMain = true
        hud.completion = {
            onMain = Thread.isMainThread
            done.signal()
        }
        hud.hide(animated: true)
        XCTAssertEqual(done.wait(timeout: .now() + 3), .success, "the completion waited for a main queue that never ran")
        XCTAssertFalse(onMain)

        // SVProgressHUD's dismiss completion, the same way.
        SVProgressHUD.show(withStatus: "Blocked main thread")
        SVProgressHUD.dismiss(withDelay: 0.1) { done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 3), .success)
    }

    /// The main queue runs (XCTest's wait spins it): callbacks arrive there, in order.
    func testCallbacksRunOnTheMainQueueWhileItRuns() throws {
        let hud = try HUD.show(over: .monitor("pointer"), animated: false, display: display)
        let hidden = expectation(description: "completion, then onHidden")
        hidden.expectedFulfillmentCount = 2
        nonisolated(unsafe) var order: [String] = []
        hud.completion = {
            XCTAssertTrue(Thread.isMainThread)
            order.append("completion")
            hidden.fulfill()
        }
        hud.onHidden = { _ in
            XCTAssertTrue(Thread.isMainThread)
            order.append("onHidden")
            hidden.fulfill()
        }
        hud.hide(animated: true)
        wait(for: [hidden], timeout: 5)
        XCTAssertEqual(order, ["completion", "onHidden"])
    }

    /// A queue that is set gets every callback, whether or not the main thread runs.
    func testASetQueueGetsTheCallbacks() throws {
        let queue = DispatchQueue(label: "test.mine")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        HUD.callbackQueue = queue
        defer { HUD.callbackQueue = nil }
        let hud = try HUD.show(over: .monitor("pointer"), animated: false, display: display)
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var onQueue = false
        hud.completion = {
            onQueue = DispatchQueue.getSpecific(key: key) == 7
            done.signal()
        }
        hud.hide(animated: false)
        XCTAssertEqual(done.wait(timeout: .now() + 3), .success)
        XCTAssertTrue(onQueue)
    }
}
