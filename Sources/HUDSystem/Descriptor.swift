#if canImport(Glibc)
import Glibc
#endif

/// A file descriptor's plain operations, shared by every module that has one.
package enum Descriptor {
    /// Writes all of `bytes` (a short write or EINTR goes on); false on any other error
    /// (EAGAIN too: a non-blocking descriptor that is full is the caller's to wait for).
    /// `op` writes (a socket's is `send` with MSG_NOSIGNAL).
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8],
                                using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }) -> Bool {
        bytes.withUnsafeBytes { writeAll(fd, $0, using: op) }
    }

    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer,
                                using op: (Int32, UnsafeRawPointer, Int) -> Int = { write($0, $1, $2) }) -> Bool {
        var off = 0
        while off < bytes.count {
            let n = op(fd, bytes.baseAddress! + off, bytes.count - off)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            off += n
        }
        return true
    }
}
