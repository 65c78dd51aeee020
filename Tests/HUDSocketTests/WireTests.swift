import XCTest
@testable import HUDSocket

final class WireTests: XCTestCase {
    func testRequestRoundTrip() throws {
        let r = Wire.Request(cwd: "/home/u", arguments: ["--id", "vol", "--label", "Lautstärke 🔊", ""])
        XCTAssertEqual(try Wire.Request.decode(r.encoded()), r)
    }

    func testReplyRoundTrip() throws {
        let r = Wire.Reply(status: 2, output: "a\nb\n", error: "xhud: bad\n")
        XCTAssertEqual(try Wire.Reply.decode(r.encoded()), r)
    }

    func testRejectsWrongTag() {
        var bytes = Wire.Request(cwd: "/", arguments: []).encoded()
        bytes[0] = UInt8(ascii: "z")
        XCTAssertThrowsError(try Wire.Request.decode(bytes))
        XCTAssertThrowsError(try Wire.Reply.decode(Wire.Request(cwd: "/", arguments: []).encoded()))
    }

    func testRejectsOversizedLengthBeforeReading() {
        let header: [UInt8] = Array("xhq2".utf8) + [0, 0, 0xa0, 0]  // 10 MB
        XCTAssertThrowsError(try Wire.frameLength(header: header, tag: Wire.requestTag)) { e in
            XCTAssertTrue("\(e)".contains("limit"))
        }
    }

    func testRejectsMismatchedLengthUnterminatedAndInvalidUTF8() {
        var bytes = Wire.Request(cwd: "/", arguments: ["x"]).encoded()
        XCTAssertThrowsError(try Wire.Request.decode(bytes + [0]))  // trailing byte
        bytes.removeLast()
        bytes[4] -= 1
        XCTAssertThrowsError(try Wire.Request.decode(bytes))  // no final NUL
        let bad: [UInt8] = Array("xhq2".utf8) + [4, 0, 0, 0] + [0x2f, 0, 0xff, 0]
        XCTAssertThrowsError(try Wire.Request.decode(bad))  // 0xff is not UTF-8
    }

    func testRejectsTooManyFields() {
        let r = Wire.Request(cwd: "/", arguments: Array(repeating: "a", count: Wire.maxFields + 1))
        XCTAssertThrowsError(try Wire.Request.decode(r.encoded()))
    }

    func testEmptyRequestHasNoWorkingDirectory() {
        let empty: [UInt8] = Array("xhq2".utf8) + [0, 0, 0, 0]
        XCTAssertThrowsError(try Wire.Request.decode(empty))
    }

    func testDisplayKeys() {
        XCTAssertEqual(ServerPaths.key(forDisplay: ":0"), "0")
        XCTAssertEqual(ServerPaths.key(forDisplay: ":0.1"), "0")
        XCTAssertEqual(ServerPaths.key(forDisplay: "localhost:10.0"), "localhost_10")
        XCTAssertEqual(ServerPaths.key(forDisplay: "../../etc:1"), "_.._.._etc_1")
        XCTAssertEqual(ServerPaths.key(forDisplay: "Host-2.lan:3"), "Host-2.lan_3")
        XCTAssertEqual(ServerPaths.key(forDisplay: "h\u{00e9}te @x:7.2"), "h_te__x_7")
        XCTAssertEqual(ServerPaths.key(forDisplay: ".x:0"), "_.x_0")
        XCTAssertEqual(ServerPaths.key(forDisplay: ""), "_")
        let p = ServerPaths(directory: "/run/user/1000/xhud", display: ":1")
        XCTAssertEqual(p.socket, "/run/user/1000/xhud/1.sock")
        XCTAssertEqual(p.lock, "/run/user/1000/xhud/1.lock")
    }

    func testPrivateDirectoryIsCreatedAndCheckedStrictly() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("xhud-wire-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let p = ServerPaths(directory: base, display: ":5")
        try p.preparePrivateDirectory()
        var st = stat()
        XCTAssertEqual(stat(base, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o700)
        chmod(base, 0o755)
        XCTAssertThrowsError(try p.checkPrivateDirectory()) { XCTAssertTrue("\($0)".contains("0700")) }
    }
}

final class NonBlockingSendTests: XCTestCase {
    /// A peer that does not read: what fits is sent, the rest is left for later, and the call
    /// returns at once (a server answering such a client keeps drawing).
    func testSendsWhatFitsAndNeverWaits() {
        var fds: [Int32] = [0, 0]
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        var size: Int32 = 4096
        setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        let bytes = [UInt8](repeating: 7, count: 4 << 20)
        let sent = UnixSocket.sendNonBlocking(fds[0], bytes)
        XCTAssertGreaterThan(sent, 0)
        XCTAssertLessThan(sent, bytes.count, "a full buffer stops the send")
        XCTAssertEqual(UnixSocket.sendNonBlocking(fds[0], bytes), 0, "nothing more fits until the peer reads")
        close(fds[1]); fds[1] = -1
        XCTAssertEqual(UnixSocket.sendNonBlocking(fds[0], [1, 2, 3]), -1, "the peer gone")
    }
}
