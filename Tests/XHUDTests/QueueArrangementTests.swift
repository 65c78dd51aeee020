import Foundation
import XCTest

/// The library never deadlocks, whatever runs the program's main queue: each arrangement of
/// Examples/QueueArrangements in a process of its own, killed after 20 s (a deadlock fails here
/// instead of hanging the run). Each must print "ok ARRANGEMENT": every SVProgressHUD
/// notification, MBProgressHUD completion and dismiss completion it waits for arrived, on the
/// main queue where the program runs it.
final class QueueArrangementTests: XCTestCase {
    var display = ""

    override func setUpWithError() throws { display = try TestDisplay.start() }

    func check(_ arrangement: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try ExampleRunner.run("example-queues", [arrangement], display: display)
        XCTAssertFalse(r.timedOut, "\(arrangement) hung (deadlock): \(r.summary)", file: file, line: line)
        XCTAssertEqual(r.status, 0, "\(arrangement): \(r.summary)", file: file, line: line)
        XCTAssertTrue(r.stdout.contains("ok \(arrangement)\n"), "\(arrangement): \(r.summary)", file: file, line: line)
    }

    /// The reported hang: observers on `.main`, `showInfo` on the main queue, `dispatchMain()`.
    func testDispatchMainWithObserversOnMain() throws { try check("dispatch-main") }
    func testDispatchMainWithObserversOnNoQueue() throws { try check("dispatch-main-nil") }
    func testRunLoopMain() throws { try check("runloop") }
    func testMainActorUnderDispatchMain() throws { try check("main-actor") }
    func testMainActorUnderRunLoop() throws { try check("main-actor-runloop") }
    func testCallsFromEightBackgroundThreads() throws { try check("background") }
    /// The main thread blocks waiting for a completion; observers on `.main` cannot run meanwhile
    /// and must not hold the completion back.
    func testBlockedMainThreadWithObserversOnMain() throws { try check("blocked-main") }
    func testCallbackQueueSetToMain() throws { try check("callback-queue-main") }
    func testObserversThatCallTheLibraryBack() throws { try check("reentrant") }
}
