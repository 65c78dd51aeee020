#if canImport(Glibc)
import Glibc
#endif
import HUDSystem

/// What other threads hand a bus thread: a locked queue, and a pipe that wakes the thread's
/// `poll` (its `readFD`). Once closed (the thread has stopped) it takes nothing more, and says so.
package final class BusOutbox<Item: Sendable>: Sendable {
    private let queue = Locked<(items: [Item], open: Bool)>(([], true))
    /// Readable when items wait: for the bus thread's `poll`.
    package let readFD: Int32
    private let writeFD: Int32

    package init() {
        var fds: [Int32] = [-1, -1]
        if !makePipe(&fds, nonBlocking: true) { fds = [-1, -1] }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        if readFD >= 0 { Glibc.close(readFD) }
        if writeFD >= 0 { Glibc.close(writeFD) }
    }

    /// From any thread. False once closed: the caller stops posting.
    @discardableResult
    package func post(_ item: Item) -> Bool {
        let open = queue.withLock { q -> Bool in
            if q.open { q.items.append(item) }
            return q.open
        }
        if open {
            var b: UInt8 = 1
            _ = write(writeFD, &b, 1)
        }
        return open
    }

    /// On the bus thread: what waits, in the order it came; the wake-ups are read.
    package func take() -> [Item] {
        var buf = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buf, buf.count) > 0 {}
        return queue.withLock { q in
            defer { q.items.removeAll() }; return q.items
        }
    }

    /// The bus thread has stopped: what waits is dropped, nothing more is taken.
    package func close() { queue.withLock { $0 = ([], false) } }
}
