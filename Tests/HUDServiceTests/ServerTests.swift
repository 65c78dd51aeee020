#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDEngine
import HUDService
import HUDTesting
import HUDSocket
import Foundation
import XCTest

/// The server's rules, on a display that is not there: requests over socket pairs, HUDs with the
/// real controller on a recording backend, time on a manual clock.
final class ServerTests: XCTestCase {
    private var display: FakeDisplay!
    private var server: HUDServer<FakeDisplay>!
    private var loop: ManualLoop { display.manualLoop }
    private var clients: [Int32] = []
    private var configFile = ""

    override func setUp() {
        // A configuration of the test's own (empty): nothing of the user's applies.
        configFile = NSTemporaryDirectory() + "xhud-server-tests-\(getpid()).toml"
        _ = FileManager.default.createFile(atPath: configFile, contents: Data())
        setenv("XHUD_CONFIG", configFile, 1)
        display = FakeDisplay()
        server = HUDServer(paths: nil, display: display, listener: -1)
    }

    override func tearDown() {
        for fd in clients { close(fd) }
        unsetenv("XHUD_CONFIG")
        unlink(configFile)
    }

    // MARK: A client

    /// A connection whose request (`arguments`) is sent; the client's end.
    private func connect(_ arguments: [String], staysConnected: Bool = false, stdinIsPipe: Bool = false) -> Int32 {
        var pair: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair), 0)
        server.accept(pair[1])
        let request = Wire.Request(cwd: "/", arguments: arguments, staysConnected: staysConnected, stdinIsPipe: stdinIsPipe)
        XCTAssertTrue(UnixSocket.writeAll(pair[0], request.encoded()))
        clients.append(pair[0])
        return pair[0]
    }

    private func readable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) > 0
    }

    /// The server's reply, once the loop has given it.
    private func reply(_ fd: Int32, file: StaticString = #filePath, line: UInt = #line) -> Wire.Reply? {
        guard loop.run(until: { readable(fd) }) else {
            XCTFail("no reply", file: file, line: line)
            return nil
        }
        return try? Wire.Reply.decode(UnixSocket.readFrame(fd, tag: Wire.replyTag, timeout: 1))
    }

    private func send(_ fd: Int32, _ text: String) { XCTAssertTrue(UnixSocket.writeAll(fd, Array(text.utf8))) }
    private func send(_ fd: Int32, _ control: Session.Control) { XCTAssertTrue(UnixSocket.writeAll(fd, control.line)) }

    /// What the server told a staying client, once it said it is done (or the loop's time ran out).
    private func events(until fd: Int32, within seconds: Double = 10) -> [Session.Event] {
        var text = ""
        loop.run(
            until: {
                var buf = [UInt8](repeating: 0, count: 4096)
                while readable(fd) {
                    let n = read(fd, &buf, buf.count)
                    if n <= 0 { return true }
                    text += String(decoding: buf[0..<n], as: UTF8.self)
                }
                return text.contains("done ")
            }, within: seconds)
        return text.split(separator: "\n").compactMap { Session.Event(String($0)) }
    }

    // MARK: Named HUDs

    func testANamedHUDIsUpdatedInPlaceAndItsTimeStartsAgain() throws {
        XCTAssertEqual(reply(connect(["--id", "vol", "--label", "Volume", "--progress", "0.3"]))?.status, 0)
        XCTAssertEqual(display.made.count, 1)
        let hud = display.made[0]
        loop.run(for: 1.0)
        XCTAssertTrue(hud.isVisible)
        XCTAssertTrue(hud.recording.isMapped)
        XCTAssertEqual(reply(connect(["--id", "vol", "--progress", "0.8"]))?.status, 0)
        XCTAssertEqual(display.made.count, 1, "an update made a second HUD")
        XCTAssertEqual(hud.configuration.label, "Volume", "an update changes only what it names")
        XCTAssertEqual(hud.configuration.progress, 0.8)
        XCTAssertEqual(reply(connect(["list"]))?.output, "vol\n")
        // 1.5 s from the update, not from the first show.
        loop.run(for: 1.2)
        XCTAssertTrue(hud.isVisible, "the update did not start the HUD's time again")
        XCTAssertTrue(loop.run(until: { hud.recording.disposed }, within: 3), "the HUD was not hidden and taken off")
        XCTAssertNil(server.huds["vol"])
        XCTAssertEqual(reply(connect(["list"]))?.output, "")
    }

    func testAHiddenNamedHUDComesBackWithItsLook() {
        _ = reply(connect(["--id", "vol", "--label", "Volume", "--mode", "bar", "--hide-after", "0.2"]))
        XCTAssertTrue(loop.run(until: { self.display.made.first?.recording.disposed == true }))
        _ = reply(connect(["--id", "vol", "--progress", "0.4"]))
        XCTAssertEqual(display.made.count, 2)
        XCTAssertEqual(display.made[1].configuration.label, "Volume")
        XCTAssertEqual(display.made[1].configuration.mode, .bar)
    }

    func testPushAndPopCountActivity() {
        for _ in 0..<2 { XCTAssertEqual(reply(connect(["push", "--id", "job", "--label", "Working"]))?.status, 0) }
        let hud = display.made[0]
        XCTAssertEqual(server.huds["job"]?.activity, 2)
        _ = reply(connect(["pop", "--id", "job"]))
        loop.run(for: 3)
        XCTAssertTrue(hud.isVisible, "one pop of two hid it")
        _ = reply(connect(["pop", "--id", "job"]))
        XCTAssertTrue(loop.run(until: { hud.recording.disposed }, within: 2), "the last pop did not hide it")
    }

    func testAUsageErrorShowsNothing() {
        let r = reply(connect(["--id", "x", "--mode", "nope"]))
        XCTAssertEqual(r?.status, 2)
        XCTAssertTrue(r?.error.contains("nope") == true, r?.error ?? "")
        XCTAssertTrue(display.made.isEmpty)
    }

    func testANotificationIsAnsweredAtOnceAndHidesItself() {
        let r = reply(connect(["success", "Saved"], staysConnected: true))
        XCTAssertEqual(r?.status, 0)
        XCTAssertNil(r?.plan, "a notification that does not wait keeps its client")
        let hud = display.made[0]
        XCTAssertEqual(hud.configuration.mode, .success)
        XCTAssertTrue(loop.run(until: { hud.recording.disposed }, within: 10))
    }

    func testPastTheMostHUDsADisplayShowsARequestIsRefused() {
        server.huds.capacity = 3
        for i in 0..<3 { XCTAssertEqual(reply(connect(["--id", "h\(i)", "--label", "\(i)"]))?.status, 0) }
        let r = reply(connect(["--id", "h3", "--label", "3"]))
        XCTAssertEqual(r?.status, 3)
        XCTAssertTrue(r?.error.contains("no room") == true)
        XCTAssertEqual(display.made.count, 3)
    }

    // MARK: A client's own HUD

    func testStdinLinesDriveTheHUDAndItsEndHidesIt() {
        let c = connect(["--label", "Copying"], staysConnected: true, stdinIsPipe: true)
        XCTAssertEqual(reply(c)?.plan?.readsStdin, true)
        let hud = display.made[0]
        send(c, "50\n# Half way\n")
        loop.run(for: 0.2)
        XCTAssertEqual(hud.configuration.progress, 0.5)
        XCTAssertEqual(hud.configuration.label, "Half way")
        send(c, .end)
        XCTAssertEqual(events(until: c).last, .done(0, killParent: false))
        XCTAssertTrue(hud.recording.disposed)
    }

    func testEscapeOnAWrappedCommandsHUDCancelsItOnce() {
        let c = connect(["--label", "Job", "--", "sleep"], staysConnected: true)
        XCTAssertEqual(reply(c)?.plan?.wraps, true)
        let hud = display.made[0]
        loop.run(for: 0.4)
        XCTAssertFalse(hud.recording.isMapped, "a wrapped command's HUD showed within its grace time")
        loop.run(for: 0.4)
        XCTAssertTrue(hud.isVisible)
        hud.recording.pressEscape()
        hud.recording.pressEscape()
        XCTAssertEqual(events(until: c), [.cancel, .done(1, killParent: false)])
        XCTAssertTrue(hud.recording.disposed)
    }

    func testAWrappedCommandsEndShowsItsResultThenGoes() {
        let c = connect(["--label", "Job", "--result-time", "1", "--", "make"], staysConnected: true)
        _ = reply(c)
        let hud = display.made[0]
        loop.run(for: 1)
        send(c, .exit(2))
        loop.run(for: 0.3)
        XCTAssertEqual(hud.configuration.mode, .error)
        XCTAssertEqual(hud.configuration.details, "Exit status 2")
        XCTAssertTrue(hud.isVisible, "the result did not stay")
        close(c)  // the client may leave once its command ended: the result stays its time
        loop.run(for: 0.5)
        XCTAssertFalse(hud.recording.disposed)
        XCTAssertTrue(loop.run(until: { hud.recording.disposed }, within: 3))
    }

    func testAQuickCommandNeverShowsItsHUD() {
        let c = connect(["--label", "Quick", "--", "true"], staysConnected: true)
        _ = reply(c)
        let hud = display.made[0]
        loop.run(for: 0.1)
        send(c, .exit(0))
        XCTAssertEqual(events(until: c).last, .done(0, killParent: false))
        XCTAssertTrue(hud.recording.outputs.allSatisfy { !$0.isMapped })
        XCTAssertEqual(hud.framesDrawn, 0)
    }

    func testAClientThatGoesTakesItsHUDAtOnce() {
        let c = connect(["--label", "Mine"], staysConnected: true)
        _ = reply(c)
        let hud = display.made[0]
        loop.run(for: 0.5)
        XCTAssertTrue(hud.recording.isMapped)
        close(c)
        clients.removeAll { $0 == c }
        loop.run(for: 2 * loop.framePeriod)
        XCTAssertTrue(hud.recording.disposed, "a HUD outlived its client")
    }

    func testASignalledClientsHUDGoesWithoutItsMinShowTime() {
        let c = connect(["--label", "Busy", "--min-show", "5"], staysConnected: true)
        _ = reply(c)
        loop.run(for: 0.3)
        send(c, .quit)
        XCTAssertEqual(events(until: c, within: 1.5).last, .done(0, killParent: false))
    }

    func testZenitysTimeoutEndsWithFive() {
        let c = connect(["--label", "Waiting", "--timeout", "1"], staysConnected: true)
        _ = reply(c)
        XCTAssertEqual(events(until: c, within: 3).last, .done(5, killParent: false))
    }

    func testTheParentWindowGoingEndsTheHUD() {
        let c = connect(["--label", "Over a window"], staysConnected: true)
        _ = reply(c)
        loop.run(for: 0.3)
        display.made[0].recording.parentWentAway()
        XCTAssertEqual(events(until: c).last, .done(0, killParent: false))
    }

    // MARK: The server's life

    func testAPrivateServerEndsWithItsLastHUD() {
        server.linger = 0
        _ = reply(connect(["--id", "only", "--label", "Alone", "--hide-after", "0.3"]))
        loop.run(for: 0.2)
        XCTAssertNil(loop.stopped, "the server ended while its HUD showed")
        XCTAssertTrue(loop.run(until: { self.loop.stopped != nil }, within: 3))
        XCTAssertEqual(loop.stopped, 0)
    }

    func testAPrivateServerWhoseRequestShowsNothingEnds() {
        server.linger = 0
        let r = reply(connect(["--mode", "nope"], staysConnected: true))
        XCTAssertEqual(r?.status, 2)
        XCTAssertTrue(loop.run(until: { self.loop.stopped != nil }, within: 1), "a private server that shows nothing stayed")
    }

    func testHUDsOfOneRegionStackWithoutOverlapping() {
        for i in 0..<3 { _ = reply(connect(["--id", "s\(i)", "--label", "Stacked \(i)", "--hide-after", "5"])) }
        loop.run(for: 1)
        let frames = display.made.map { h -> Rect in
            let o = h.stackOffset, s = h.bezelSize
            return Rect(x: 640 - s.width / 2 + o.x, y: 400 - s.height / 2 + o.y, width: s.width, height: s.height)
        }
        for i in frames.indices {
            for j in frames.indices where j > i {
                XCTAssertFalse(overlap(frames[i], frames[j]), "HUDs \(i) and \(j) overlap: \(frames[i]) \(frames[j])")
            }
        }
    }

    private func overlap(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }
}
