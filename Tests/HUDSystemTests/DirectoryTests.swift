#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HUDSystem

final class DirectoryTests: XCTestCase {
    /// Every entry by its name, a long one and one of several bytes a character included, and
    /// never `.` or `..`.
    func testNamesAreTheEntriesWithoutDotAndDotDot() throws {
        let dir = "/tmp/xhud-directory-\(getpid())"
        XCTAssertEqual(mkdir(dir, 0o700), 0)
        let names = ["a.toml", "Ünïcödé.svg", String(repeating: "x", count: 200), "sub"]
        defer {
            for n in names { unlink(dir + "/" + n); rmdir(dir + "/" + n) }
            rmdir(dir)
        }
        for n in names.dropLast() { XCTAssertTrue(PrivateCache.write("", to: dir + "/" + n)) }
        XCTAssertEqual(mkdir(dir + "/sub", 0o700), 0)
        XCTAssertEqual(Directory.names(at: dir).sorted(), names.sorted())
    }

    func testADirectoryThatCannotBeReadHasNoNames() {
        XCTAssertEqual(Directory.names(at: "/nonexistent/xhud-\(getpid())"), [])
        XCTAssertEqual(Directory.names(at: "/proc/self/status"), [], "a file is no directory")
    }

    /// The descriptors a process holds are listed: the one opened here among them.
    func testProcSelfFDListsAnOpenDescriptor() {
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(fd) }
        XCTAssertTrue(Directory.names(at: "/proc/self/fd").contains(String(fd)))
    }
}
