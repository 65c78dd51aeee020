#if canImport(Glibc)
import Glibc
#endif

/// Points 0, 1 and 2 at /dev/null: a process that outlives its caller must not hold the
/// caller's pipes open (`out=$(xhud ...)` would wait for it).
package func detachStandardStreams() {
    let null = open("/dev/null", O_RDWR)
    guard null >= 0 else { return }
    for fd: Int32 in 0...2 { dup2(null, fd) }
    if null > 2 { close(null) }
}
