#if canImport(Glibc)
import Glibc
#endif
import CCairo

/// Loads fontconfig's configuration and caches (XML parsing, a few milliseconds) on a second
/// thread while the main thread parses options and connects to X. Text layout joins it first.
/// It must also be joined before a fork: a child must not inherit a lock the thread holds.
public enum FontWarmup {
    nonisolated(unsafe) private static var thread: pthread_t?

    public static func start() {
        guard thread == nil else { return }
        var t = pthread_t()
        if pthread_create(&t, nil, { _ in
            FcInit()
            return nil
        }, nil) == 0 { thread = t }
    }

    public static func join() {
        guard let t = thread else { return }
        thread = nil
        pthread_join(t, nil)
    }
}
