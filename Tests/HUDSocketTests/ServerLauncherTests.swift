#if canImport(Glibc)
import Glibc
#endif
@testable import HUDSocket
import XCTest

final class ServerLauncherTests: XCTestCase {
    /// A server that dies under its client (killed, then replaced) is reaped when the next one is
    /// started: replacements do not pile up as zombies. `/bin/true` stands for a server that
    /// exits at once.
    func testAServerThatExitedIsReapedWhenTheNextOneStarts() throws {
        var pipeFDs: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&pipeFDs), 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        XCTAssertTrue(ServerLauncher.spawnServer("/bin/true", listener: pipeFDs[0], lock: pipeFDs[1]))
        let first = try XCTUnwrap(ServerLauncher.unreaped.last)
        // Until it has exited it stays listed; /bin/true exits at once.
        let deadline = Double(time(nil)) + 5
        while processState(first) != "Z" && Double(time(nil)) < deadline { usleep(1000) }
        XCTAssertEqual(processState(first), "Z", "the first server is a zombie until it is reaped")
        XCTAssertTrue(ServerLauncher.spawnServer("/bin/true", listener: pipeFDs[0], lock: pipeFDs[1]))
        XCTAssertNil(processState(first), "the first server was not reaped when the second started")
        XCTAssertFalse(ServerLauncher.unreaped.contains(first))
        // The second is reaped by the next start, or here.
        for pid in ServerLauncher.unreaped { var s: Int32 = 0; _ = waitpid(pid, &s, 0) }
    }

    /// The state letter of a process in /proc (R, S, Z, ...), nil when there is no such process.
    private func processState(_ pid: pid_t) -> String? {
        guard let f = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(f) }
        var buf = [CChar](repeating: 0, count: 512)
        guard fgets(&buf, 512, f) != nil else { return nil }
        let line = String(nulTerminated: buf)
        guard let close = line.lastIndex(of: ")") else { return nil }
        return line[line.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
    }
}
