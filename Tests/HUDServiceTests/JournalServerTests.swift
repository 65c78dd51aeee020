#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDEngine
@testable import HUDService
import HUDTesting
import HUDSocket
import Foundation
import XCTest

/// The server's journal of named HUDs: a log of self-checking records, folded the same way
/// written and read, compacted aside, bounded, and safe to lose a write of.
final class JournalServerTests: XCTestCase {
    private var dir = ""
    private var configFile = ""
    private let loop = ManualLoop()

    override func setUp() {
        dir = NSTemporaryDirectory() + "xhud-journal-tests-\(getpid())-\(UUID().uuidString)"
        XCTAssertEqual(mkdir(dir, 0o700), 0)
        configFile = dir + "/empty.toml"
        _ = FileManager.default.createFile(atPath: configFile, contents: Data())
        setenv("XHUD_CONFIG", configFile, 1)
    }

    override func tearDown() {
        unsetenv("XHUD_CONFIG")
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func request(_ args: String...) -> Wire.Request { Wire.Request(cwd: "/", arguments: args) }
    private func journal() -> NamedJournal { NamedJournal(path: dir + "/d.named", loop: loop) }

    private func fileBytes(_ path: String) -> [UInt8] {
        (try? Array(Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }

    private func inode(_ path: String) -> UInt {
        var st = stat()
        return stat(path, &st) == 0 ? UInt(st.st_ino) : 0
    }

    private func readBack(_ path: String) -> JournalState {
        fileBytes(path).withUnsafeBytes { JournalState(JournalRecord.parse($0).records) }
    }

    // MARK: Records and their fold

    func testRecordsReadBackAndATornOrDamagedOneIsSkipped() {
        let a = JournalRecord.shown(key: "vol", request: request("--id", "vol", "--progress", "0.4"), deadline: 1e9, hideAfter: 1.5)
        let b = JournalRecord.hidden(key: "vol")
        let c = JournalRecord.shown(key: "sync", request: request("push", "--id", "sync"), deadline: 2e9, hideAfter: nil)
        let whole = a.framed() + b.framed() + c.framed()
        XCTAssertEqual(whole.withUnsafeBytes { JournalRecord.parse($0).records }, [a, b, c])
        for r in [a, b, c] { XCTAssertEqual(r.framedSize, r.framed().count) }
        // A crash cut the last record short: it is dropped, the rest read.
        let torn = Array(whole.dropLast(5))
        let t = torn.withUnsafeBytes { JournalRecord.parse($0) }
        XCTAssertEqual(t.records, [a, b])
        XCTAssertEqual(t.skipped, c.framed().count - 5)
        // A damaged byte in the first: the reader picks up at the next record.
        var damaged = whole
        damaged[20] ^= 0xFF
        XCTAssertEqual(damaged.withUnsafeBytes { JournalRecord.parse($0).records }, [b, c])
        // Records appended after a torn one are read.
        let after = torn + a.framed()
        XCTAssertEqual(after.withUnsafeBytes { JournalRecord.parse($0).records }, [a, b, a])
    }

    func testAHUDKeepsItsFirstAndLatestRequestsAndAHideForgetsIt() {
        var s = JournalState()
        for i in 0..<40 {
            let r = JournalRecord.shown(key: "vol", request: request("--id", "vol", "--progress", "0.\(i)"), deadline: Double(i), hideAfter: 3)
            s.apply(r, size: r.framed().count)
        }
        let e = s.entries["vol"]!
        XCTAssertEqual(e.requests.count, JournalState.perHUD)
        XCTAssertEqual(e.requests.first?.arguments.last, "0.0", "the first request (the whole look) is kept")
        XCTAssertEqual(e.requests.last?.arguments.last, "0.39")
        XCTAssertEqual(e.deadline, 39)
        XCTAssertEqual(s.bytes, e.sizes.reduce(0, +))
        // Compacted and read back: the same HUD.
        let again = JournalState(s.records)
        XCTAssertEqual(again.entries["vol"]?.requests, e.requests)
        XCTAssertEqual(again.bytes, s.bytes)
        s.apply(.hidden(key: "vol"), size: 0)
        XCTAssertTrue(s.entries.isEmpty)
        XCTAssertEqual(s.bytes, 0)
    }

    func testPastItsBoundsTheOldestHUDsGoNeverAll() {
        var s = JournalState()
        for i in 0..<(JournalState.maxHUDs + 6) {
            s.apply(.shown(key: "k\(i)", request: request("--id", "k\(i)"), deadline: 1, hideAfter: 1), size: 100)
        }
        XCTAssertEqual(s.entries.count, JournalState.maxHUDs)
        XCTAssertNil(s.entries["k5"])
        XCTAssertNotNil(s.entries["k6"])
        // Records of 60 KB: past the byte bound the oldest go, the newest stay.
        let big = String(repeating: "x", count: 60_000)
        var b = JournalState()
        for i in 0..<100 {
            let r = JournalRecord.shown(
                key: "b\(i % 7)", request: Wire.Request(cwd: big, arguments: ["--id", "b\(i % 7)"]),
                deadline: 1, hideAfter: 1)
            b.apply(r, size: r.framed().count)
            XCTAssertLessThanOrEqual(b.bytes, JournalState.maxBytes)
            XCTAssertNotNil(b.entries["b\(i % 7)"], "the HUD that just changed was dropped")
        }
        XCTAssertGreaterThan(b.entries.count, 1)
        // One HUD alone over the bound is kept whole.
        var one = JournalState()
        one.apply(.shown(key: "x", request: request("--id", "x"), deadline: 1, hideAfter: 1), size: JournalState.maxBytes + 1)
        XCTAssertNotNil(one.entries["x"])
    }

    // MARK: The file

    func testAnUpdateAppendsOneRecordToTheSameFile() {
        let j = journal()
        j.shown("vol", request("--id", "vol", "--label", "Volume"), hideAfter: 3)
        let first = inode(j.path)
        XCTAssertNotEqual(first, 0)
        for i in 0..<30 {
            let before = fileBytes(j.path).count
            let r = request("--id", "vol", "--progress", "0.\(i)")
            j.shown("vol", r, hideAfter: 3)
            let size = JournalRecord.shown(key: "vol", request: r, deadline: 0, hideAfter: 3).framed().count
            XCTAssertEqual(fileBytes(j.path).count, before + size, "update \(i) did not append exactly one record")
            XCTAssertEqual(inode(j.path), first, "update \(i) rewrote the file")
        }
        j.hidden("vol")
        XCTAssertTrue(readBack(j.path).entries.isEmpty)
        j.clear()
        XCTAssertEqual(access(j.path, F_OK), -1)
    }

    func testTheLogIsCompactedAsideOnceTwiceItsLiveSize() {
        let j = journal()
        let label = String(repeating: "L", count: 2000)
        var written = 0
        for i in 0..<400 {
            let r = request("--id", "vol", "--label", label, "--progress", "\(i)")
            j.shown("vol", r, hideAfter: 60)
            j.shown("other\(i % 3)", request("--id", "other\(i % 3)"), hideAfter: 60)
            written += JournalRecord.shown(key: "vol", request: r, deadline: 0, hideAfter: 60).framed().count
            loop.frame()  // a compaction ends on the loop, once its thread has written
        }
        // Updates faster than a compaction append to its file meanwhile; once it ends the
        // log is within twice its live records.
        j.shown("last", request("--id", "last"), hideAfter: 60)
        XCTAssertTrue(
            loop.run(
                until: { self.fileBytes(j.path).count <= max(2 * j.state.bytes, NamedJournal.compactAfter) },
                within: 60), "the log was never compacted")
        XCTAssertLessThan(fileBytes(j.path).count, written / 4)
        let back = readBack(j.path)
        XCTAssertEqual(Set(back.entries.keys), Set(j.state.entries.keys))
        XCTAssertEqual(back.entries["vol"]?.requests, j.state.entries["vol"]?.requests)
        XCTAssertEqual(back.entries["vol"]?.requests.last?.arguments.last, "399")
        XCTAssertEqual(access(j.tempPath, F_OK), -1, "the compaction's file was left behind")
    }

    func testAWriteThatFailsRemovesTheFileOnceAndAHiddenHUDNeverComesBack() {
        let j = journal()
        j.retryAfter = 0.2
        j.shown("a", request("--id", "a", "--label", "A"), hideAfter: 60)
        XCTAssertEqual(readBack(j.path).entries.keys.sorted(), ["a"])
        // A full disk, as a file size limit.
        var old = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &old)
        var small = old
        small.rlim_cur = 4096
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &small), 0)
        j.shown("b", request("--id", "b", "--label", String(repeating: "B", count: 8000)), hideAfter: 60)
        XCTAssertTrue(j.broken)
        XCTAssertEqual(access(j.path, F_OK), -1, "a journal that no longer says what shows is left behind")
        j.hidden("a")
        XCTAssertEqual(access(j.path, F_OK), -1)
        XCTAssertEqual(j.state.entries.keys.sorted(), ["b"], "memory stays right")
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &old), 0)
        // Room again: the next change after a while writes the whole state.
        usleep(250_000)
        j.shown("c", request("--id", "c"), hideAfter: 60)
        XCTAssertTrue(loop.run(until: { !j.broken }, within: 60))
        XCTAssertEqual(readBack(j.path).entries.keys.sorted(), ["b", "c"])
    }

    // MARK: Taking over

    /// A journal as a dead server leaves it: records written by hand, unread.
    private func plant(_ records: [JournalRecord]) -> String {
        let path = dir + "/d.named"
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(records.flatMap { $0.framed() }),
            attributes: [.posixPermissions: 0o600])
        return path
    }

    func testATakeOverShowsAgainWhatWasLiveTheNewestFirstWithItsTimeLeft() {
        let now = JournalState.now
        _ = plant([
            .shown(key: "day", request: request("--id", "day", "--label", "A day"), deadline: now + 86_400, hideAfter: 86_400),
            .shown(key: "gone", request: request("--id", "gone"), deadline: now - 1, hideAfter: 2),
            .shown(key: "hid", request: request("--id", "hid"), deadline: now + 60, hideAfter: 60),
            .shown(key: "vol", request: request("--id", "vol", "--mode", "bar"), deadline: now + 30, hideAfter: 30),
            .hidden(key: "hid"),
            .shown(key: "vol", request: request("--id", "vol", "--progress", "0.5"), deadline: now + 30, hideAfter: 30),
        ])
        let j = journal()
        var loaded = false
        j.takeOver { loaded = true }
        XCTAssertTrue(j.isReplaying)
        XCTAssertTrue(loop.run(until: { loaded }, within: 60))
        var replayed: [(String, [String])] = []
        while let n = j.nextReplay() { replayed.append((n.key, n.request.arguments)) }
        XCTAssertEqual(replayed.map(\.0), ["vol", "vol", "day"])
        XCTAssertEqual(replayed[1].1.prefix(3), ["--id", "vol", "--progress"])
        let left = Double(replayed[2].1.last!)!
        XCTAssertGreaterThan(left, 86_000, "a HUD of a day comes back with its day")
        XCTAssertLessThanOrEqual(left, 86_400)
        XCTAssertFalse(j.isReplaying)
        // The file is compacted to what is live.
        XCTAssertTrue(loop.run(until: { self.readBack(j.path).entries.keys.sorted() == ["day", "vol"] }, within: 60))
    }

    func testWhatChangesWhileTheLogIsReadIsFoldedOverIt() {
        let now = JournalState.now
        _ = plant([
            .shown(key: "a", request: request("--id", "a", "--label", "A"), deadline: now + 60, hideAfter: 60),
            .shown(key: "b", request: request("--id", "b", "--label", "B"), deadline: now + 60, hideAfter: 60),
        ])
        let j = journal()
        var loaded = false
        j.takeOver { loaded = true }
        // Before the read is in: a hide, an update.
        j.hidden("a")
        j.shown("b", request("--id", "b", "--progress", "0.2"), hideAfter: 60)
        XCTAssertTrue(loop.run(until: { loaded }, within: 60))
        XCTAssertNil(j.state.entries["a"], "a HUD hidden while the log was read came back")
        XCTAssertEqual(j.state.entries["b"]?.requests.count, 2)
        XCTAssertEqual(j.pendingKeys, ["b"])
        XCTAssertEqual(j.takeReplay("b").map { $0.arguments.prefix(4) }, [["--id", "b", "--label", "B"], ["--id", "b", "--progress", "0.2"]])
        XCTAssertTrue(loop.run(until: { self.readBack(j.path).entries.keys.sorted() == ["b"] }, within: 60))
    }

    /// A server started by a client answers that client before it reads the dead server's
    /// log: a `hide` it answered then must be in the log, or the HUD comes back.
    func testAHideAnsweredBeforeTheLogIsReadKeepsTheHUDHidden() {
        let now = JournalState.now
        _ = plant([
            .shown(key: "a", request: request("--id", "a", "--label", "A"), deadline: now + 60, hideAfter: 60),
            .shown(key: "b", request: request("--id", "b", "--label", "B"), deadline: now + 60, hideAfter: 60),
        ])
        let j = journal()
        j.hidden("a")
        var loaded = false
        j.takeOver { loaded = true }
        XCTAssertTrue(loop.run(until: { loaded }, within: 60))
        XCTAssertNil(j.state.entries["a"], "a HUD hidden before the log was read came back")
        XCTAssertEqual(j.pendingKeys, ["b"])
        XCTAssertTrue(loop.run(until: { self.readBack(j.path).entries.keys.sorted() == ["b"] }, within: 60))
    }

    func testAServerAnswersWhileItReplaysAndJournalsNothingTwice() {
        let now = JournalState.now
        var planted: [JournalRecord] = []
        for i in 0..<12 {
            planted.append(
                .shown(
                    key: "h\(i)", request: request("--id", "h\(i)", "--label", "HUD \(i)", "--position", "top"),
                    deadline: now + 600, hideAfter: 600))
            planted.append(.shown(key: "h\(i)", request: request("--id", "h\(i)", "--progress", "0.5"), deadline: now + 600, hideAfter: 600))
        }
        let display = FakeDisplay()
        let server = HUDServer(paths: ServerPaths(directory: dir, display: ":7"), display: display, listener: -1)
        let path = server.journal!.path
        _ = FileManager.default.createFile(
            atPath: path, contents: Data(planted.flatMap { $0.framed() }),
            attributes: [.posixPermissions: 0o600])
        server.takeOverFromDeadServer()
        XCTAssertTrue(server.huds.isEmpty, "the journal was replayed before the loop ran")
        let sloop = display.manualLoop
        XCTAssertTrue(sloop.run(until: { server.journal?.isReplaying == false }, within: 60))
        XCTAssertEqual(Set(server.huds.keys), Set((0..<12).map { "h\($0)" }))
        XCTAssertEqual(display.made.first?.configuration.label, "HUD 11", "the HUD that changed last comes first")
        XCTAssertTrue(display.made.allSatisfy { $0.configuration.progress == 0.5 })
        // Replayed requests are in the journal already: once compacted, nothing more is written.
        XCTAssertTrue(
            sloop.run(
                until: { self.readBack(path).entries.count == 12 && self.fileBytes(path).count == server.journal!.fileBytes },
                within: 60))
        let size = fileBytes(path).count
        sloop.run(for: 0.5)
        XCTAssertEqual(fileBytes(path).count, size)
        XCTAssertEqual(readBack(path).entries["h3"]?.requests.count, 2)
    }
}
