/// The loop a process's HUDs run on, as what drives them sees it (the HUD server, the library):
/// descriptors watched, timers, work posted from other threads. One thread owns it; only `post`
/// may be called from another. The X11 backend's is `HUDLoop`; tests drive one by hand.
package protocol HUDEventLoop: AnyObject {
    func addReader(fd: Int32, _ handler: @escaping () -> Void)
    func removeReader(fd: Int32)
    func addWriter(fd: Int32, _ handler: @escaping () -> Void)
    func removeWriter(fd: Int32)
    /// An id for `cancelTimer`.
    func addTimer(after delay: Double, _ handler: @escaping () -> Void) -> Int
    func cancelTimer(_ id: Int)
    /// Runs `work` on the loop's thread soon. Safe from any thread.
    func post(_ work: @escaping () -> Void)
    /// Ends the loop with an exit code.
    func stop(exitCode code: Int32)
    /// Display-link ticks so far.
    var ticks: Int { get }
    /// Gives pages freed since the last call back to the system, and, `delay` seconds later (at
    /// most every half minute), the pages of the program's files it no longer runs.
    func releaseFreedMemory(filePagesAfter delay: Double)
}

/// The loop as another thread sees it: it can only post work, which runs on the loop's thread
/// with `owner` (state of the loop's thread, held weakly) if it is still there. The work is
/// `@Sendable`: what it takes from the other thread is checked, what it touches of `owner` is
/// the loop thread's own.
package struct LoopInbox<Owner: AnyObject>: @unchecked Sendable {
    private let loop: any HUDEventLoop
    private weak var owner: Owner?

    package init(_ loop: any HUDEventLoop, owner: Owner) {
        self.loop = loop
        self.owner = owner
    }

    /// Safe from any thread.
    package func post(_ work: @escaping @Sendable (Owner) -> Void) {
        let inbox = self
        loop.post { if let o = inbox.owner { work(o) } }
    }
}
