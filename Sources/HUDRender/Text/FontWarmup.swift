#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CDirectText
import CFontMatch
import CPango
import HUDSystem

/// Reads the kept font matches, then loads HarfBuzz (when they hold) or fontconfig's
/// configuration (XML parsing, a few milliseconds; when they do not), on a second thread while
/// the main thread parses options and connects to X: checking the matches is a `stat` of each
/// file they came from (about 80), which is not on the way to the X server. Text waits for what
/// it needs (`waitForKeptMatches`, `waitForConfiguration`). A process must join the thread
/// before a fork: a child must not inherit a lock the thread holds.
package enum FontWarmup {
    /// Owned by the thread that calls `start`, `settle` and `join` (one thread).
    nonisolated(unsafe) private static var thread: pthread_t?
    /// Whether text must wait for a warm-up thread's configuration: any thread may wait (the
    /// loop's, the text shaper's).
    private static let loading = Locked(false)
    /// Posted by the warm-up thread once fontconfig's configuration is loaded (or, when the kept
    /// matches hold, once it will not load it).
    nonisolated(unsafe) private static let configured: UnsafeMutablePointer<sem_t> = latch()
    /// Whether the kept matches are being read, and whether they held; posted once they are read.
    private static let readingKept = Locked(false)
    private static let held = Locked(false)
    nonisolated(unsafe) private static let keptRead: UnsafeMutablePointer<sem_t> = latch()
    /// The warm-up thread keeps off the CPU of the thread that started it (the server's loop,
    /// which sleeps on each X round trip meanwhile) until someone waits for it.
    private static let placement = Locked<BesideThread?>(nil)

    private static func latch() -> UnsafeMutablePointer<sem_t> {
        let s = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(s, 0, 0)
        return s
    }

    /// Reads the kept matches on the warm-up thread: when they hold (FontMatchCache), the first
    /// label's font opens without the configuration, which is read later, off the first frame's
    /// path (`settle`), or by the first text that needs it; else the thread reads it. A server
    /// started with the font helper's pipe (`helper`, taken over) waits for its matches when none
    /// are kept, instead of reading the configuration itself.
    package static func start(helper: Int32? = nil) {
        ownsConfiguration.withLock { $0 = true }
        guard thread == nil else {
            if let helper { close(helper) }
            return
        }
        readingKept.withLock { $0 = true }
        startThread(readKept: true, thenSettle: false, helper: helper)
    }

    /// Whether `start` found kept matches that hold (`settle` then has the configuration to load).
    package static var keptMatchesHeld: Bool {
        waitForKeptMatches()
        return held.withLock { $0 }
    }

    /// Returns once the kept matches are read (at once when no thread reads them). Any thread.
    static func waitForKeptMatches() {
        guard readingKept.withLock({ $0 }) else { return }
        pass(keptRead, releasing: true)
        readingKept.withLock { $0 = false }
    }

    /// Loads the configuration on a thread, checks the kept font matches against it and keeps
    /// the new ones (`DirectFonts.settle`). A server calls it once its first HUDs are up, whether
    /// or not the matches held: it is what writes them.
    package static func settle() {
        guard !settled else { return }
        settled = true
        // The start's thread is joined by the new one, not here: it may still be waiting on the
        // font helper (a slow one, reading font caches anew), and the caller is a server's loop.
        previous = thread
        thread = nil
        startThread(readKept: false, thenSettle: true)
    }
    nonisolated(unsafe) private static var settled = false
    /// The start's thread, for the settling thread to join (written before that one starts).
    nonisolated(unsafe) private static var previous: pthread_t?

    /// A thread that reads the kept matches if asked (and says so), loads the configuration
    /// unless they held (and says so), then checks the kept font matches if asked. It says so
    /// first: a renderer may wait for the configuration holding the font table's lock, which
    /// the check takes.
    private static func startThread(readKept: Bool, thenSettle: Bool, helper: Int32? = nil) {
        _ = configured
        _ = keptRead
        loading.withLock { $0 = true }
        var t = pthread_t()
        // What to do, and the helper's pipe (plus one) above it: the thread's one argument.
        let mode = (readKept ? 1 : 0) | (thenSettle ? 2 : 0) | Int((helper ?? -1) + 1) << 2
        // Only the start's thread, whose work is on the way to a first frame, is kept beside.
        placement.withLock { $0 = readKept ? BesideThread() : nil }
        if pthread_create(
            &t, nil,
            { mode in
                FontWarmup.placement.withLock { $0 }?.keepOff()
                let mode = Int(bitPattern: mode)
                if mode & 1 != 0 {
                    var h = DirectFonts.readKeptMatches()
                    // The font helper's matches, when none are kept: they come while the main thread
                    // talks to X, and stand for kept ones (a font the helper does not answer loads
                    // the configuration itself).
                    var pipe = Int32(mode >> 2) - 1
                    if pipe >= 0, h { close(pipe); pipe = -1 }
                    if pipe >= 0 { DirectFonts.expectHelperMatches(); h = true }
                    FontWarmup.held.withLock { $0 = h }
                    sem_post(FontWarmup.keptRead)
                    if pipe >= 0 {
                        // Waiting on the helper, then a moment's work a line, which the main thread
                        // waits for: on any CPU (kept beside, the thread queued behind the helper
                        // while the main thread's CPU idled). HarfBuzz is the main thread's to load.
                        FontWarmup.placement.withLock { $0?.release() }
                        sem_post(FontWarmup.configured)
                        DirectFonts.takeHelperMatches(from: pipe)
                        return nil
                    }
                    if h {
                        _ = xhud_direct_load()  // the label's shaping, while the main thread talks to X
                        sem_post(FontWarmup.configured)
                        return nil
                    }
                }
                xhud_font_config_load()
                sem_post(FontWarmup.configured)
                if mode & 2 != 0 {
                    if let p = FontWarmup.previous { pthread_join(p, nil) }
                    DirectFonts.settle()
                }
                return nil
            }, UnsafeMutableRawPointer(bitPattern: mode)) == 0
        {
            thread = t
        } else {
            placement.withLock { $0?.release() }
            // No thread: the kept matches are read here, and fontconfig loads with the first text.
            if readKept { held.withLock { $0 = DirectFonts.readKeptMatches() } }
            if let helper { close(helper) }
            readingKept.withLock { $0 = false }
            loading.withLock { $0 = false }
        }
    }

    /// Waits for a latch and leaves it open for every other thread; the warm-up thread may run
    /// on any CPU once someone waits for it.
    private static func pass(_ latch: UnsafeMutablePointer<sem_t>, releasing: Bool) {
        if sem_trywait(latch) != 0 {
            if releasing { placement.withLock { $0?.release() } }
            while sem_wait(latch) != 0 && errno == EINTR {}
        }
        sem_post(latch)
    }

    /// Loads HarfBuzz on the calling thread now, unless the warm-up thread has (it does when
    /// the kept matches hold; else it reads fontconfig's configuration meanwhile): a server
    /// started for a waiting client calls it once its X requests are sent. Its first label is
    /// plain text (DirectText), which needs HarfBuzz, not Pango (17 libraries and a first layout
    /// of 2 ms, loaded only by text that needs it).
    package static func loadShaping() { _ = xhud_direct_load() }

    /// Loads Pango on the calling thread now (a server up before anyone asks: its first markup
    /// or right-to-left text is then as fast as any).
    package static func loadPango() { _ = xhud_pango_load() }

    /// Returns once fontconfig's configuration is loaded: after the warm-up thread's, or, in a
    /// process that warms up, loaded here if none has been yet (the kept matches held, or the
    /// helper answered); at once in any other (the first match loads it). Any thread.
    package static func waitForConfiguration() {
        if loading.withLock({ $0 }) {
            pass(configured, releasing: true)
            loading.withLock { $0 = false }
        }
        // A process that warms fonts up is xhud's own: whichever text needs the configuration
        // first loads it without the files fontconfig only lists (`xhud_font_config_load`).
        if ownsConfiguration.withLock({ $0 }) { xhud_font_config_load() }
    }

    /// Whether `start` was called: this process's fontconfig is xhud's to load (a library's
    /// host program may have a configuration of its own current, which must stay).
    private static let ownsConfiguration = Locked(false)

    package static func join() {
        guard let t = thread else { return }
        waitForKeptMatches()
        waitForConfiguration()
        thread = nil
        pthread_join(t, nil)
    }
}
