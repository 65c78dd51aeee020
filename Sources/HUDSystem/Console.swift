#if canImport(Glibc)
import Glibc
#endif

/// The standard streams. Glibc's `stdout` and `stderr` are mutable C globals that Swift 6 code
/// may not touch: these write to the same descriptors.
package enum Console {
    /// `text` on stderr as it is, at once (stderr is unbuffered).
    package static func error(_ text: String) {
        _ = Descriptor.writeAll(2, Array(text.utf8))
    }

    /// `text` on stdout, through the buffer `print` writes to.
    package static func output(_ text: String) { print(text, terminator: "") }

    /// Writes out what `print` holds: before a fork, an exec, or an exit without unwinding.
    package static func flush() { fflush(nil) }
}
