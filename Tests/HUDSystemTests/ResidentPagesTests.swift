#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HUDSystem

final class ResidentPagesTests: XCTestCase {
    private func residentKiB() -> Int {
        let f = fopen("/proc/self/status", "r")!
        defer { fclose(f) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, f) != nil {
            let s = String(nulTerminated: line)
            if s.hasPrefix("VmRSS:") { return Int(s.split(separator: " ")[1]) ?? 0 }
        }
        return 0
    }

    /// A private mapping of a file written to and then made read-only is what a library's RELRO
    /// segment is (relocated pointers, written at load): its pages must survive the release, or
    /// the program would read the file's unrelocated bytes.
    func testWrittenCopiesOfAFileAreKept() throws {
        let path = "/tmp/xhud-resident-\(getpid())"
        let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd); unlink(path) }
        let size = 64 * 1024
        XCTAssertEqual(ftruncate(fd, off_t(size)), 0)
        let written = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0)!
        let clean = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0)!
        defer { munmap(written, size); munmap(clean, size) }
        written.storeBytes(of: 0x5A5A_5A5A, as: UInt32.self)
        XCTAssertEqual(mprotect(written, size, PROT_READ), 0)
        _ = clean.load(as: UInt32.self)  // resident, unwritten

        XCTAssertGreaterThan(ResidentPages.releaseUnwrittenFilePages(), 0)
        XCTAssertEqual(written.load(as: UInt32.self), 0x5A5A_5A5A, "the written copy was dropped")
        XCTAssertEqual(clean.load(as: UInt32.self), 0, "a clean page reads back from the file")
    }

    /// The code and data of the test's own files leave the resident set and come back when run.
    func testUnwrittenPagesOfFilesLeaveTheResidentSet() {
        let before = residentKiB()
        let released = ResidentPages.releaseUnwrittenFilePages()
        let after = residentKiB()
        XCTAssertGreaterThan(released, 1024 * 1024, "less than a MiB of file pages released")
        XCTAssertLessThan(after, before - 512, "the resident set did not shrink (\(before) -> \(after) KiB)")
        XCTAssertEqual([3, 1, 2].sorted(), [1, 2, 3])  // code runs again after its pages went
    }
}
