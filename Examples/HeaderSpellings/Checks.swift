import Foundation
import XHUD

func fail(_ why: String) -> Never {
    print("FAIL \(why)")
    exit(1)
}

func expect(_ ok: Bool, _ what: @autoclosure () -> String, line: Int = #line) {
    if !ok { fail("\(what()) (line \(line))") }
}

/// Waits for `count` signals (callbacks arrive on the library's callback thread: this main
/// thread never runs the main queue).
func waitFor(_ done: DispatchSemaphore, _ what: String, count: Int = 1) {
    for _ in 0..<count where done.wait(timeout: .now() + 10) == .timedOut { fail("no \(what)") }
}

/// SVProgressHUD's notifications with their status, as posted.
final class Posted: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(String, String?)] = []
    private var tokens: [NSObjectProtocol] = []

    init(_ names: [Notification.Name]) {
        for name in names {
            tokens.append(
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [self] note in
                    let status = note.userInfo?[SVProgressHUDStatusUserInfoKey] as? String
                    lock.withLock { list.append((note.name.rawValue, status)) }
                })
        }
    }

    func has(_ name: String, _ status: String?) -> Bool { lock.withLock { list.contains { $0.0 == name && $0.1 == status } } }

    /// Waits until `name` with `status` was posted.
    func wait(_ name: String, _ status: String?) {
        let end = Date().addingTimeInterval(10)
        while !has(name, status) {
            if Date() > end { fail("no \(name) with status \(status ?? "nil")") }
            usleep(5_000)
        }
    }

    func stop() { for t in tokens { NotificationCenter.default.removeObserver(t) } }
}
