import Foundation
import XCTest
@testable import XHUD

/// SVProgressHUD's notifications as they are posted, with the time, status and object of each.
final class NotificationLog: @unchecked Sendable {
    struct Entry {
        let name: Notification.Name
        let status: String?
        let object: AnyObject?
        let at: Date
    }
    static let names = [
        ProgressHUD.willAppearNotification, ProgressHUD.didAppearNotification,
        ProgressHUD.willDisappearNotification, ProgressHUD.didDisappearNotification,
    ]
    private let lock = NSLock()
    private var list: [Entry] = []
    private var tokens: [NSObjectProtocol] = []

    init() {
        for name in Self.names {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
                    let e = Entry(
                        name: note.name, status: note.userInfo?[ProgressHUD.statusUserInfoKey] as? String,
                        object: note.object as AnyObject?, at: Date())
                    self?.lock.withLock { self?.list.append(e) }
                })
        }
    }

    func stop() { for t in tokens { NotificationCenter.default.removeObserver(t) } }
    var entries: [Entry] { lock.withLock { list } }
    func clear() { lock.withLock { list.removeAll() } }

    /// The first entry named `name` (and matching `where`), waiting up to `timeout` seconds.
    func first(_ name: Notification.Name, timeout: Double = 5, where match: (Entry) -> Bool = { _ in true }) -> Entry? {
        let end = Date().addingTimeInterval(timeout)
        repeat {
            if let e = entries.first(where: { $0.name == name && match($0) }) { return e }
            usleep(5_000)
        } while Date() < end
        return nil
    }

    /// A short description of what was posted, for failure messages.
    var summary: String {
        entries.map { "\($0.name.rawValue.replacingOccurrences(of: "SVProgressHUD", with: "")) \($0.status ?? "-")" }.joined(separator: ", ")
    }
}

/// The shared HUD back to SVProgressHUD's defaults on the tests' display, hidden, with no
/// notifications pending.
func resetSharedHUD(display: String) {
    ProgressHUD.dismiss()
    let end = Date().addingTimeInterval(3)
    while ProgressHUD.isVisible
        || ((try? ProgressHUD.State.shared.current?.runtime.sync { ProgressHUD.State.shared.current?.hostForTests?.isVisible ?? false }) ?? false)
    {
        if Date() > end { break }
        usleep(10_000)
    }
    ProgressHUD.settings { s in s = ProgressHUD.State.Settings() }
    ProgressHUD.setDisplay(display)
    usleep(50_000)  // callbacks of the hide above are out before a test starts its log
}

/// SVProgressHUD's notifications are posted when things happen on screen, for the HUD they
/// happened to.
final class NotificationTimingTests: XCTestCase {
    var display = ""
    var log: NotificationLog!

    override func setUpWithError() throws {
        display = try TestDisplay.start()
        // Callbacks on a queue of their own: the times are those of the posts, not of a wait
        // for the main queue (these tests sleep on the main thread).
        HUD.callbackQueue = DispatchQueue(label: "test.callbacks")
        resetSharedHUD(display: display)
        log = NotificationLog()
    }

    override func tearDown() {
        log?.stop()
        resetSharedHUD(display: display)
        HUD.callbackQueue = nil
    }

    func testWillAppearComesAfterTheGraceTimeAndNeverForAHUDThatNeverAppears() throws {
        ProgressHUD.setGraceTimeInterval(0.4)
        let t0 = Date()
        ProgressHUD.show(status: "Grace")
        let will = try XCTUnwrap(log.first(ProgressHUD.willAppearNotification), "no will-appear: \(log.summary)")
        XCTAssertGreaterThan(will.at.timeIntervalSince(t0), 0.35, "will-appear before the HUD appeared")
        XCTAssertEqual(will.status, "Grace")
        XCTAssertNotNil(log.first(ProgressHUD.didAppearNotification), log.summary)

        ProgressHUD.dismiss()
        XCTAssertNotNil(log.first(ProgressHUD.didDisappearNotification), log.summary)
        log.clear()
        ProgressHUD.show(status: "Never")
        usleep(100_000)
        ProgressHUD.dismiss()
        usleep(900_000)
        XCTAssertEqual(log.summary, "", "a HUD dismissed in its grace time told something")
        XCTAssertFalse(ProgressHUD.isVisible)
    }

    func testDidAppearWhenTheShowAnimationEnds() throws {
        ProgressHUD.setFadeInAnimationDuration(0.4)
        ProgressHUD.show(status: "Fading in")
        let will = try XCTUnwrap(log.first(ProgressHUD.willAppearNotification), log.summary)
        let did = try XCTUnwrap(log.first(ProgressHUD.didAppearNotification), log.summary)
        XCTAssertGreaterThan(did.at.timeIntervalSince(will.at), 0.35, "did-appear before the show animation ended")
        XCTAssertLessThan(did.at.timeIntervalSince(will.at), 1.0)
    }

    /// Will-disappear when the delayed hide starts, with the status the HUD shows then.
    func testWillDisappearWhenTheHideStartsWithTheStatusThen() throws {
        ProgressHUD.show(status: "Working")
        XCTAssertNotNil(log.first(ProgressHUD.didAppearNotification), log.summary)
        let t0 = Date()
        ProgressHUD.dismiss(withDelay: 0.5)
        ProgressHUD.setStatus("Finishing")
        let will = try XCTUnwrap(log.first(ProgressHUD.willDisappearNotification), log.summary)
        XCTAssertGreaterThan(will.at.timeIntervalSince(t0), 0.45, "will-disappear before the hide started")
        XCTAssertEqual(will.status, "Finishing")
        let did = try XCTUnwrap(log.first(ProgressHUD.didDisappearNotification), log.summary)
        XCTAssertEqual(did.status, "Finishing")
        XCTAssertGreaterThanOrEqual(did.at, will.at)
    }

    /// A dismiss with a delay that a later show cancelled tells nothing while the HUD stays up.
    func testACancelledDelayedDismissPostsNoWillDisappear() throws {
        ProgressHUD.show(status: "One")
        XCTAssertNotNil(log.first(ProgressHUD.didAppearNotification), log.summary)
        ProgressHUD.dismiss(withDelay: 0.3)
        usleep(100_000)
        ProgressHUD.show(status: "Two")
        usleep(800_000)
        XCTAssertNil(log.entries.first { $0.name == ProgressHUD.willDisappearNotification }, log.summary)
        XCTAssertNil(log.entries.first { $0.name == ProgressHUD.didDisappearNotification }, log.summary)
        XCTAssertTrue(ProgressHUD.isVisible)
        let visible = try XCTUnwrap(ProgressHUD.State.shared.current).runtime.sync {
            ProgressHUD.State.shared.current?.hostForTests?.isVisible ?? false
        }
        XCTAssertTrue(visible, "the HUD went although a show came after the dismiss")
    }

    /// The shared HUD moves to another parent: the old one says it goes (its object, its
    /// status), the new one that it comes.
    func testEachNotificationIsForTheHUDItHappenedTo() throws {
        ProgressHUD.setDefaultParent(.geometry("400x300+0+0"))
        ProgressHUD.show(status: "Left")
        let left = try XCTUnwrap(log.first(ProgressHUD.didAppearNotification), log.summary)
        let leftHUD = try XCTUnwrap(left.object as? HUD)
        XCTAssertEqual(leftHUD.parent, .geometry("400x300+0+0"))
        ProgressHUD.setDefaultParent(.geometry("400x300+600+0"))
        ProgressHUD.show(status: "Right")
        let gone = try XCTUnwrap(log.first(ProgressHUD.didDisappearNotification), log.summary)
        XCTAssertTrue(gone.object === leftHUD)
        XCTAssertEqual(gone.status, "Left")
        let came = try XCTUnwrap(log.first(ProgressHUD.willAppearNotification, where: { $0.status == "Right" }), log.summary)
        let rightHUD = try XCTUnwrap(came.object as? HUD)
        XCTAssertFalse(rightHUD === leftHUD)
        XCTAssertEqual(rightHUD.parent, .geometry("400x300+600+0"))
        for e in log.entries where e.object === leftHUD { XCTAssertEqual(e.status, "Left") }
        for e in log.entries where e.object === rightHUD { XCTAssertEqual(e.status, "Right") }
    }
}
