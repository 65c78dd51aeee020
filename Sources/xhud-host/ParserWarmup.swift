#if canImport(Glibc)
import Glibc
#endif

/// Makes the argument parser's first parse on a thread of its own: what it costs the first
/// time (looking up and instantiating the options' type metadata) is then paid while the
/// server connects to X, not on its first request. The parse is thrown away; the Swift
/// runtime's metadata caches are thread-safe, and nothing else is shared.
enum ParserWarmup {
    static func start() {
        var t = pthread_t()
        if pthread_create(&t, nil, { _ in
            _ = try? XHUDCommand.parse(["--mode", "annular", "--label", "x", "--progress", "0.5"])
            return nil
        }, nil) == 0 { pthread_detach(t) }
    }
}
