/// The loop as another thread sees it: it can only post work, which runs on the loop's thread
/// with `owner` (state of the loop's thread, held weakly) if it is still there. The work is
/// `@Sendable`: what it takes from the other thread is checked, what it touches of `owner` is
/// the loop thread's own.
public struct LoopInbox<Owner: AnyObject>: @unchecked Sendable {
    private let loop: HUDLoop
    private weak var owner: Owner?

    public init(_ loop: HUDLoop, owner: Owner) {
        self.loop = loop
        self.owner = owner
    }

    /// Safe from any thread.
    public func post(_ work: @escaping @Sendable (Owner) -> Void) {
        let inbox = self
        loop.post { if let o = inbox.owner { work(o) } }
    }
}
