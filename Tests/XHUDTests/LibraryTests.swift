import Foundation
import XCTest
@testable import XHUD
import HUDX11

/// An Xvfb of the tests' own (skipped where there is none), shared by every test of the library:
/// the library opens one connection per display for the life of the process.
enum TestDisplay {
    nonisolated(unsafe) static var name: String?
    nonisolated(unsafe) static var process: Process?

    static func start() throws -> String {
        if let name { return name }
        guard let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("no Xvfb: the library's tests need an X server")
        }
        let pipe = Pipe()
        let p = Process()
        // -displayfd 3: Xvfb writes the display number it picked on fd 3, our pipe. The shell
        // ends Xvfb when the test process goes: its stdin is a pipe only that process writes to.
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c",
            "\(xvfb) -displayfd 3 -screen 0 1024x768x24 -nolisten tcp -noreset 3>&1 1>/dev/null 2>/dev/null </dev/null & x=$!; read -r _; kill $x",
        ]
        p.standardOutput = pipe
        p.standardInput = Pipe()
        try p.run()
        var text = ""
        while !text.hasSuffix("\n") {
            let d = pipe.fileHandleForReading.availableData
            if d.isEmpty { break }
            text += String(decoding: d, as: UTF8.self)
        }
        let number = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !number.isEmpty else { throw XCTSkip("Xvfb did not start") }
        process = p
        name = ":" + number
        setenv("DISPLAY", name!, 1)
        return name!
    }
}

final class LibraryTests: XCTestCase {
    var display = ""

    override func setUpWithError() throws {
        display = try TestDisplay.start()
        HUD.callbackQueue = .main
    }

    /// What the HUD that draws it holds now (read on the library's thread).
    static func drawn(_ hud: HUD) throws -> HUDConfiguration? {
        try hud.runtime.sync { hud.hostForTests?.configuration }
    }

    func testShowUpdateHideWithCompletionOnTheMainQueue() throws {
        let hud = try HUD.show(over: .monitor("pointer"), animated: false, display: display)
        hud.mode = .annular
        hud.label = "Loading"
        hud.progress = 0.25
        XCTAssertTrue(hud.isVisible)
        XCTAssertTrue(HUD.hud(over: .monitor("pointer")) === hud)
        let shown = expectation(description: "drawn")
        DispatchQueue.global().async {
            while ((try? Self.drawn(hud)) ?? nil)?.label != "Loading" { usleep(2000) }
            shown.fulfill()
        }
        wait(for: [shown], timeout: 5)
        XCTAssertEqual(try Self.drawn(hud)?.progress, 0.25)
        let hidden = expectation(description: "completion")
        hud.completion = {
            XCTAssertTrue(Thread.isMainThread, "completion off the main queue")
            hidden.fulfill()
        }
        XCTAssertTrue(HUD.hide(over: .monitor("pointer"), animated: true))
        wait(for: [hidden], timeout: 5)
        XCTAssertFalse(hud.isVisible)
        XCTAssertNil(HUD.hud(over: .monitor("pointer")))
    }

    func testTheMainQueueStaysFreeWhileHUDsAnimate() throws {
        let hud = try HUD.show(over: .monitor("pointer"), display: display)
        hud.label = "Spinning"
        /// Touched on the main queue only (its timers, then this test once they are done).
        final class Fired: @unchecked Sendable { var times: [Double] = [] }
        let fired = Fired()
        let done = expectation(description: "timers")
        let start = Date()
        for i in 1...10 {
            DispatchQueue.main.asyncAfter(deadline: .now() + Double(i) * 0.05) {
                fired.times.append(Date().timeIntervalSince(start))
                if fired.times.count == 10 { done.fulfill() }
            }
        }
        wait(for: [done], timeout: 5)
        XCTAssertLessThan(fired.times.last!, 1.5, "main-queue work was held up: \(fired.times)")
        hud.hide(animated: false)
    }

    /// Eight threads set progress, label, details and mode for a while, two more show and hide:
    /// no crash, no deadlock, and the last values set are what is drawn.
    func testEveryPropertyFromManyThreadsAtOnce() throws {
        let seconds = Double(ProcessInfo.processInfo.environment["XHUD_STRESS_SECONDS"] ?? "") ?? 10
        let hud = try HUD.show(over: .monitor("pointer"), animated: false, display: display)
        let end = Date().addingTimeInterval(seconds)
        let group = DispatchGroup()
        for t in 0..<10 {
            group.enter()
            DispatchQueue.global().async {
                var i = 0
                while Date() < end {
                    i += 1
                    switch t {
                    case 0, 1: hud.progress = Double(i % 101) / 100
                    case 2, 3: hud.label = "Label \(t) \(i)"
                    case 4, 5: hud.details = "Details \(i)\nline two"
                    case 6, 7: hud.mode = [.annular, .bar, .determinate, .indeterminate][i % 4]
                    default:
                        if i % 2 == 0 { hud.show(animated: i % 4 == 0) } else { hud.hide(animated: i % 3 == 0) }
                        usleep(3000)
                    }
                }
                group.leave()
            }
        }
        XCTAssertEqual(group.wait(timeout: .now() + seconds + 10), .success, "deadlock: the setters never returned")
        hud.mode = .bar
        hud.label = "Final"
        hud.details = "done"
        hud.progress = 0.5
        hud.show(animated: false)
        let settled = expectation(description: "final state drawn")
        DispatchQueue.global().async {
            for _ in 0..<500 {
                if let c = (try? Self.drawn(hud)) ?? nil, c.label == "Final", c.mode == .bar, c.progress == 0.5, c.details == "done" {
                    settled.fulfill()
                    return
                }
                usleep(10_000)
            }
        }
        wait(for: [settled], timeout: 10)
        let visible = try hud.runtime.sync { hud.hostForTests?.isVisible ?? false }
        XCTAssertTrue(visible)
        hud.hide(animated: false)
    }

    func testAsyncHideReturnsOnceHiddenAndShowWhileWork() async throws {
        let hud = try HUD.show(over: .monitor("pointer"), animated: true, display: display)
        hud.minShowTime = 0.3
        let t0 = Date()
        try await hud.hide(animated: true)
        XCTAssertFalse(hud.isVisible)
        XCTAssertGreaterThan(Date().timeIntervalSince(t0), 0.25, "returned before min show time and the hide animation")
        let value = try await HUD.show(
            over: .monitor("pointer"), display: display,
            while: { () async throws -> Int in
                try await Task.sleep(nanoseconds: 100_000_000)
                return 42
            })
        XCTAssertEqual(value, 42)
        XCTAssertNil(HUD.hud(over: .monitor("pointer")))
        struct Failure: Error {}
        do {
            _ = try await HUD.show(over: .monitor("pointer"), display: display, while: { () async throws -> Int in throw Failure() })
            XCTFail("the work's error was not rethrown")
        } catch is Failure {}
        XCTAssertNil(HUD.hud(over: .monitor("pointer")), "a HUD stayed after the work threw")
    }

    func testBadUseIsAClearError() async throws {
        XCTAssertThrowsError(try HUD(over: .monitor("NO-SUCH-OUTPUT"), display: display)) { e in
            guard case HUDError.badParent(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("NO-SUCH-OUTPUT"), m)
        }
        XCTAssertThrowsError(try HUD(over: .window("0x7ffffff"), display: display))
        XCTAssertThrowsError(try HUD(display: ":9876")) { e in
            guard case HUDError.noDisplay(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains(":9876"), m)
        }
        let hud = try HUD(display: display)
        XCTAssertThrowsError(try hud.setImage("/dev/zero")) { e in
            guard case HUDError.badImage(let m) = e else { return XCTFail("\(e)") }
            XCTAssertTrue(m.contains("not a regular file"), m)
        }
        hud.progress = .nan
        XCTAssertEqual(hud.progress, 0)
        hud.progress = 7
        XCTAssertEqual(hud.progress, 1)
        do {
            try await hud.hide(animated: true)
            XCTFail("hiding a HUD never shown did not throw")
        } catch HUDError.notShown {}
    }

    func testSharedHUDCountsActivities() throws {
        ProgressHUD.setDisplay(display)
        ProgressHUD.show(status: "One")
        ProgressHUD.show(status: "Two")
        XCTAssertTrue(ProgressHUD.isVisible)
        ProgressHUD.popActivity()
        XCTAssertTrue(ProgressHUD.isVisible, "one activity is still running")
        let gone = expectation(forNotification: ProgressHUD.didDisappearNotification, object: nil) { note in
            (note.userInfo?[ProgressHUD.statusUserInfoKey] as? String) == "Two"
        }
        ProgressHUD.popActivity()
        wait(for: [gone], timeout: 5)
        XCTAssertFalse(ProgressHUD.isVisible)
        let dismissed = expectation(description: "dismissed")
        ProgressHUD.showSuccess(status: "Saved")
        ProgressHUD.dismiss(withDelay: 0.1) { dismissed.fulfill() }
        wait(for: [dismissed], timeout: 5)
    }

    func testDisplayDurationIsSVProgressHUDs() {
        ProgressHUD.setMinimumDismissTimeInterval(5)
        XCTAssertEqual(ProgressHUD.displayDuration(for: "Done"), 5)
        XCTAssertEqual(ProgressHUD.displayDuration(for: String(repeating: "x", count: 100)), 6.5, accuracy: 1e-9)
        ProgressHUD.setMaximumDismissTimeInterval(3)
        XCTAssertEqual(ProgressHUD.displayDuration(for: "Done"), 3)
        ProgressHUD.setMaximumDismissTimeInterval(.infinity)
    }
}
