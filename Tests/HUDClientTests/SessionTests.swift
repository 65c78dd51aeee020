import XCTest
import HUDSocket
@testable import HUDClient

final class SessionTests: XCTestCase {
    func testPlanRoundTrip() {
        let plan = Session.Plan(readsStdin: true, wraps: false, scansOutput: true, killTimeout: 2.5)
        XCTAssertEqual(Session.Plan(decoding: plan.encoded), plan)
        XCTAssertNil(Session.Plan(decoding: "kill=-1"))
        XCTAssertNil(Session.Plan(decoding: "stdin"))
        XCTAssertEqual(Session.Plan(decoding: "stdin=1 later=7"), Session.Plan(readsStdin: true))  // a newer server's key
    }

    func testReplyWithAPlanKeepsIt() throws {
        let r = Wire.Reply(status: 0, plan: Session.Plan(wraps: true))
        XCTAssertEqual(try Wire.Reply.decode(r.encoded()), r)
        XCTAssertNil(try Wire.Reply.decode(Wire.Reply(status: 2, error: "x").encoded()).plan)
    }

    func testRequestFlagsRoundTrip() throws {
        let r = Wire.Request(
            cwd: "/", arguments: ["--label", "x", "--", "make"], staysConnected: true, stdinIsPipe: true,
            resumes: true, wantsStats: true)
        XCTAssertEqual(try Wire.Request.decode(r.encoded()), r)
        // One spelling per request: a repeated, unordered or unknown flag is refused.
        for flags in ["rr", "ic", "x"] {
            let bytes: [UInt8] = Array("xhq2".utf8) + [UInt8(3 + flags.utf8.count), 0, 0, 0] + [0x2f, 0] + Array(flags.utf8) + [0]
            XCTAssertThrowsError(try Wire.Request.decode(bytes), flags)
        }
    }

    func testControlLinesStartWithNUL() {
        for c in [Session.Control.end, .quit, .exit(3), .signal(9)] {
            let line = c.line
            XCTAssertEqual(line.first, 0)
            XCTAssertEqual(line.last, 10)
            XCTAssertEqual(Session.Control(String(decoding: line.dropFirst().dropLast(), as: UTF8.self)), c)
        }
        XCTAssertNil(Session.Control("exit three"))
        XCTAssertNil(Session.Control("reboot"))
    }

    func testEventsRoundTrip() {
        for e in [Session.Event.cancel, .warn("xhud: stdin line 3: bad"), .done(5, killParent: false), .done(1, killParent: true)] {
            XCTAssertEqual(Session.Event(String(decoding: e.line.dropLast(), as: UTF8.self)), e)
        }
        // A warning never spans lines, whatever its text.
        XCTAssertEqual(Session.Event.warn("a\nb").line.filter { $0 == 10 }.count, 1)
    }

    func testReplayKeepsTheLastLineOfEachKindInOrder() {
        var s = ReplayState()
        for line in ["label=Copying", "10", "# Still copying", "20", "mode=bar", "nonsense here", "50%", "details=a.txt"] {
            s.record(line)
        }
        // zenity's lines are kinds of their own (the server may read stdin as zenity does, where
        // `label=` means nothing): both spellings are kept, in order, and either reading ends
        // with the last one it understands.
        XCTAssertEqual(s.lines, ["label=Copying", "# Still copying", "mode=bar", "50%", "details=a.txt"])
        s.record("hide")
        s.record("show")
        XCTAssertEqual(s.lines.last, "show")
        XCTAssertEqual(s.lines.filter { $0 == "hide" || $0 == "show" }.count, 1)
    }

    func testPercentScannerFindsTheLastPercentageAcrossChunks() {
        var p = PercentScanner()
        XCTAssertEqual(p.scan(ArraySlice(Array("[ 4".utf8))), nil)
        XCTAssertEqual(p.scan(ArraySlice(Array("2%] building".utf8))), 42)
        XCTAssertEqual(p.scan(ArraySlice(Array("42% again".utf8))), nil)  // unchanged
        XCTAssertEqual(p.scan(ArraySlice(Array("\r 7.5 %\r 99%".utf8))), 99)
    }
}

final class WrappedRequestTests: XCTestCase {
    /// The server hears that there is a command, never its arguments: any argv a shell can run
    /// fits the request.
    func testTheWrappedCommandStaysWithTheClient() throws {
        let args = ["--label", "Archiving", "--", "tar", "cf", "out.tar"] + (0..<2000).map { "file-\($0).jpg" }
        let (request, command) = SessionClient.request(
            arguments: args, cwd: "/tmp", staysConnected: true,
            stdinIsPipe: false, wantsStats: false)
        XCTAssertEqual(request.arguments, ["--label", "Archiving", "--", "tar"])
        XCTAssertEqual(command, Array(args[3...]))
        XCTAssertEqual(try Wire.Request.decode(request.encoded()), request)
        let plain = SessionClient.request(
            arguments: ["--label", "x"], cwd: "/", staysConnected: true, stdinIsPipe: true,
            wantsStats: false)
        XCTAssertEqual(plain.request.arguments, ["--label", "x"])
        XCTAssertEqual(plain.command, [])
        let empty = SessionClient.request(arguments: ["--"], cwd: "/", staysConnected: true, stdinIsPipe: false, wantsStats: false)
        XCTAssertEqual(empty.request.arguments, ["--"])
    }
}

final class SpawnFailureTests: XCTestCase {
    func testAShellsStatusesAndOneShortLine() {
        XCTAssertEqual(CommandRunner.spawnFailure("nope", ENOENT).status, 127)
        XCTAssertTrue(CommandRunner.spawnFailure("nope", ENOENT).message.contains("command not found"))
        XCTAssertEqual(CommandRunner.spawnFailure("/no/such", ENOENT).status, 127)
        XCTAssertEqual(CommandRunner.spawnFailure(String(repeating: "a", count: 70000), ENAMETOOLONG).status, 127)
        XCTAssertEqual(CommandRunner.spawnFailure("./script", EACCES).status, 126)
        XCTAssertEqual(CommandRunner.spawnFailure("./binary", ENOEXEC).status, 126)
        let long = CommandRunner.spawnFailure(String(repeating: "a", count: 70000) + "\u{1B}", ENOENT).message
        XCTAssertLessThan(long.utf8.count, 400)
        XCTAssertTrue(long.contains("(70001 bytes)"))
        XCTAssertFalse(CommandRunner.spawnFailure("a\u{1B}[2J", ENOENT).message.contains("\u{1B}"))
    }

    func testTheCommandLineDecidesScanningWhenTheServerIsLate() {
        XCTAssertFalse(SessionClient.scansOutputAsked(["--label", "x", "--", "make", "--progress-from-output"]))
        XCTAssertTrue(SessionClient.scansOutputAsked(["--progress-from-output", "--", "make"]))
        XCTAssertFalse(SessionClient.scansOutputAsked(["--progress-from-output", "--no-progress-from-output", "--", "make"]))
    }
}
