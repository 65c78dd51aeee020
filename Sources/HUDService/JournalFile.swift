#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

/// The journal's file operations, callable from any thread: each takes and returns plain values.
enum JournalFile {
    /// The most of a log that is read: a larger one (a writer keeps its log under twice
    /// `JournalState.maxBytes`) is read from its end, the newest records.
    static let readLimit = 16 << 20

    /// What `error` means, for a line on stderr.
    static func describe(_ error: Int32) -> String { String(cString: strerror(error)) }

    /// `path` opened for reading, with its size then, if it is a regular file of the user's own
    /// that nobody else may write (a journal planted by another user is not trusted); nil when
    /// there is none. The descriptor is the caller's to close.
    static func openForReading(_ path: String) -> (fd: Int32, size: Int)? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == getuid(), st.st_mode & 0o022 == 0 else {
            close(fd)
            return nil
        }
        return (fd, Int(st.st_size))
    }

    /// The records of `fd`'s first `size` bytes (its last `readLimit` when larger), folded;
    /// closes `fd`. What was appended after `size` is not read.
    static func read(fd: Int32, size: Int) -> (state: JournalState, skipped: Int) {
        defer { close(fd) }
        let count = min(size, readLimit)
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(size - count + got)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            got += n
        }
        let parsed = bytes.withUnsafeBytes { JournalRecord.parse(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        return (JournalState(parsed.records), parsed.skipped)
    }

    /// A descriptor appending to `path` (made 0600 if missing) and the file's size; or errno.
    static func openForAppending(_ path: String) -> Result<(fd: Int32, size: Int), Failure> {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
        guard fd >= 0 else { return .failure(Failure(errno)) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { let e = errno; close(fd); return .failure(Failure(e)) }
        return .success((fd, Int(st.st_size)))
    }

    /// Appends `bytes` whole; on failure (a full disk, a file size limit) whatever part of
    /// them was written is cut off again when possible. Nil, or errno.
    static func append(_ fd: Int32, _ bytes: [UInt8], at size: Int) -> Failure? {
        if Descriptor.writeAll(fd, bytes) { return nil }
        let e = errno
        _ = ftruncate(fd, off_t(size))
        return Failure(e)
    }

    /// Writes `bytes` to `temp` and makes them durable (fsync) before anything renames it in
    /// place: a rename never leaves an empty or partial journal behind. Nil, or errno.
    static func writeDurably(_ bytes: [UInt8], to temp: String) -> Failure? {
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0o600)
        guard fd >= 0 else { return Failure(errno) }
        guard Descriptor.writeAll(fd, bytes), fsync(fd) == 0 else {
            let e = errno
            close(fd)
            unlink(temp)
            return Failure(e)
        }
        close(fd)
        return nil
    }

    struct Failure: Error, Equatable, Sendable {
        let errno: Int32
        init(_ e: Int32) { errno = e }
        var description: String { JournalFile.describe(errno) }
    }
}
