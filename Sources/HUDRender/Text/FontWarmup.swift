#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CDirectText
import CPango
import HUDSystem

/// Loads fontconfig's configuration and caches (XML parsing, a few milliseconds) on a second
/// thread while the main thread parses options, connects to X and loads HarfBuzz. Text waits for
/// it (`waitForConfiguration`). A process must join the thread before a fork: a child must not
/// inherit a lock the thread holds.
package enum FontWarmup {
    /// Owned by the thread that calls `start`, `settle` and `join` (one thread).
    nonisolated(unsafe) private static var thread: pthread_t?
    /// Whether text must wait for a warm-up thread's configuration: any thread may wait (the
    /// loop's, the text shaper's).
    private static let loading = Locked(false)
    /// Posted by the warm-up thread once fontconfig's configuration is loaded.
    nonisolated(unsafe) private static let configured: UnsafeMutablePointer<sem_t> = {
        let s = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(s, 0, 0)
        return s
    }()

    /// Starts reading fontconfig's configuration, unless the kept font matches hold
    /// (FontMatchCache): then the first label's font opens without it, and the configuration
    /// is read later, off the first frame's path (`settle`), or by the first text that needs it.
    package static func start() {
        guard thread == nil else { return }
        keptMatchesHeld = DirectFonts.readKeptMatches()
        if keptMatchesHeld { return }
        startThread(thenSettle: false)
    }

    /// Whether `start` found kept matches that hold (`settle` then has the configuration to load).
    nonisolated(unsafe) package private(set) static var keptMatchesHeld = false

    /// Loads the configuration on a thread, checks the kept font matches against it and keeps
    /// the new ones (`DirectFonts.settle`). A server calls it once its first HUDs are up, whether
    /// or not the matches held: it is what writes them.
    package static func settle() {
        guard !settled else { return }
        settled = true
        join()
        startThread(thenSettle: true)
    }
    nonisolated(unsafe) private static var settled = false

    /// A thread that loads the configuration and says so, then checks the kept font matches if
    /// asked. It says so first: a renderer may wait for the configuration holding the font
    /// table's lock, which the check takes.
    private static func startThread(thenSettle: Bool) {
        _ = configured
        loading.withLock { $0 = true }
        var t = pthread_t()
        if pthread_create(&t, nil, { settle in
            FcInit()
            sem_post(FontWarmup.configured)
            if settle != nil { DirectFonts.settle() }
            return nil
        }, thenSettle ? UnsafeMutableRawPointer(bitPattern: 1) : nil) == 0 {
            thread = t
        } else {
            loading.withLock { $0 = false }   // no thread: fontconfig loads with the first text
        }
    }

    /// Loads HarfBuzz on the calling thread now, while the warm-up thread reads fontconfig's
    /// configuration: a server started for a waiting client calls it first thing. Its first
    /// label is plain text (DirectText), which needs the configuration and HarfBuzz, not Pango
    /// (17 libraries and a first layout of 2 ms, loaded only by text that needs it).
    package static func loadShaping() { _ = xhud_direct_load() }

    /// Loads Pango on the calling thread now (a server up before anyone asks: its first markup
    /// or right-to-left text is then as fast as any).
    package static func loadPango() { _ = xhud_pango_load() }

    /// Returns once fontconfig's configuration is loaded (at once without a warm-up thread).
    /// Any thread.
    package static func waitForConfiguration() {
        guard loading.withLock({ $0 }) else { return }
        while sem_wait(configured) != 0 && errno == EINTR {}
        sem_post(configured)   // a latch: every thread that waits passes, and so does the next
        loading.withLock { $0 = false }
    }

    package static func join() {
        guard let t = thread else { return }
        waitForConfiguration()
        thread = nil
        pthread_join(t, nil)
    }
}
