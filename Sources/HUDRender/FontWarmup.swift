#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CPango

/// What text needs before its first layout, made ready on two threads while the main thread
/// parses options and connects to X: fontconfig's configuration and caches (`FcInit`: XML
/// parsing, a few milliseconds) on one, Pango's libraries (`xhud_pango_load`: 17 libraries
/// mapped and relocated) on the other. Text layout joins them first. They must also be joined
/// before a fork: a child must not inherit a lock a thread holds.
public enum FontWarmup {
    nonisolated(unsafe) private static var threads: [pthread_t] = []

    public static func start() {
        guard threads.isEmpty else { return }
        for job in [{ _ = FcInit() }, { _ = xhud_pango_load() }] as [@convention(c) () -> Void] {
            var t = pthread_t()
            let box = unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
            if pthread_create(&t, nil, { arg in
                unsafeBitCast(arg, to: (@convention(c) () -> Void).self)()
                return nil
            }, box) == 0 { threads.append(t) }
        }
    }

    public static func join() {
        for t in threads { pthread_join(t, nil) }
        threads = []
    }
}
