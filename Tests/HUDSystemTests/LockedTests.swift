#if canImport(Glibc)
import Glibc
#endif
import XCTest
@testable import HUDSystem

final class LockedTests: XCTestCase {
    /// Taken again by its holder, a recursive lock goes on (a plain one would wait for itself
    /// forever), and it still keeps other threads out until its last release.
    func testARecursiveLockIsTakenAgainByItsHolderAlone() {
        let lock = Locked<Void>.recursive()
        let order = Locked<[String]>([])
        let nested = DispatchSemaphore(value: 0), held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread {
            lock.withLock {
                lock.withLock { order.withLock { $0.append("nested") } }
                held.signal()
                release.wait()
                order.withLock { $0.append("released") }
            }
            nested.signal()
        }.start()
        XCTAssertEqual(held.wait(timeout: .now() + 5), .success, "the holder could not take its lock again")
        let other = DispatchSemaphore(value: 0)
        Thread {
            lock.withLock { order.withLock { $0.append("other") } }
            other.signal()
        }.start()
        usleep(50_000)
        XCTAssertEqual(order.withLock { $0 }, ["nested"], "another thread took the lock while it was held")
        release.signal()
        XCTAssertEqual(nested.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(other.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(order.withLock { $0 }, ["nested", "released", "other"])
    }
}
