#if canImport(Glibc)
import Glibc
#endif

/// The pages of the program's files (code, read-only data, fonts) that its start touched, and
/// a server that waits for its next request no longer needs, given back to the system.
///
/// Every private file mapping that is not writable and none of whose pages were written
/// (copy-on-write copies, such as the relocated pointers of a library's RELRO segment, would
/// be lost) is told MADV_DONTNEED: its pages leave the process but stay in the page cache, so
/// what runs again faults back in from there (a minor fault, no disk). The resident set is then
/// what the server actually uses, not the megabytes of 64 KiB blocks its start-up mapped.
package enum ResidentPages {
    /// Gives the pages back; returns how many bytes were resident in the mappings released.
    @discardableResult
    package static func releaseUnwrittenFilePages() -> Int {
        guard let text = readAll("/proc/self/smaps") else { return 0 }
        var released = 0
        var candidate: (start: UInt, end: UInt)?
        var rss = 0, written = false
        func finish() {
            if let c = candidate, rss > 0, !written {
                if madvise(UnsafeMutableRawPointer(bitPattern: c.start), Int(c.end - c.start), MADV_DONTNEED) == 0 {
                    released += rss
                }
            }
            candidate = nil
            rss = 0
            written = false
        }
        for line in text.split(separator: UInt8(ascii: "\n")) {
            guard let first = line.first else { continue }
            if isHex(first) {  // a mapping's first line; its fields follow, capitalized
                finish()
                candidate = header(line)
                continue
            }
            guard candidate != nil else { continue }
            if line.starts(with: "Rss:".utf8) {
                rss = kib(line) * 1024
            } else if line.starts(with: "Anonymous:".utf8) || line.starts(with: "Swap:".utf8) {
                // Copies written (or swapped out). Dirty pages that are the file's own (a file
                // just written, not yet on disk) are no copies: they stay in the page cache.
                if kib(line) > 0 { written = true }
            }
        }
        finish()
        return released
    }

    /// A mapping's range, when it is a private, unwritable mapping of a file:
    /// `start-end perms offset dev inode path`.
    private static func header(_ line: ArraySlice<UInt8>) -> (start: UInt, end: UInt)? {
        let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count == 6 else { return nil }  // no path: anonymous
        let perms = Array(fields[1])
        guard perms.count == 4, perms[1] != UInt8(ascii: "w"), perms[3] == UInt8(ascii: "p") else { return nil }
        guard let inode = UInt(String(decoding: fields[4], as: UTF8.self)), inode != 0 else { return nil }
        let path = fields[5].drop { $0 == UInt8(ascii: " ") }
        guard path.first == UInt8(ascii: "/") else { return nil }  // [vdso], [vvar] and the like
        let range = fields[0].split(separator: UInt8(ascii: "-"))
        guard range.count == 2, let start = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
            let end = UInt(String(decoding: range[1], as: UTF8.self), radix: 16), end > start
        else { return nil }
        return (start, end)
    }

    private static func isHex(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f"))
    }

    /// The number of a `Name:   123 kB` line.
    private static func kib(_ line: ArraySlice<UInt8>) -> Int {
        var n = 0
        for c in line where c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { n = n * 10 + Int(c - UInt8(ascii: "0")) }
        return n
    }

    private static func readAll(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return out
    }
}
