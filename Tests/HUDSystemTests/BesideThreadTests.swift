#if canImport(Glibc)
import Glibc
#endif
import CSched
import XCTest
@testable import HUDSystem

final class BesideThreadTests: XCTestCase {
    /// A helper kept beside its starter may not run on the starter's CPU until released; once
    /// released it may run anywhere again. On one CPU nothing is kept off.
    func testTheHelperKeepsOffTheStartersCPUUntilReleased() throws {
        let starterCPU = xhud_sched_cpu_among_several()
        let placement = BesideThread()
        let observed = Locked<(whileKept: Bool?, afterRelease: Bool?)>((nil, nil))
        let kept = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let cpu = starterCPU
        let thread = Thread {
            placement.keepOff()
            observed.withLock { $0.whileKept = cpu < 0 ? nil : xhud_sched_allowed(cpu) != 0 }
            kept.signal()
            released.wait()
            observed.withLock { $0.afterRelease = cpu < 0 ? nil : xhud_sched_allowed(cpu) != 0 }
            done.signal()
        }
        thread.start()
        kept.wait()
        placement.release()
        released.signal()
        done.wait()
        let seen = observed.withLock { $0 }
        if starterCPU < 0 {
            XCTAssertNil(seen.whileKept, "one CPU: nothing to keep off")
        } else {
            XCTAssertEqual(seen.whileKept, false, "the helper may still run on its starter's CPU \(starterCPU)")
            XCTAssertEqual(seen.afterRelease, true, "released, the helper still keeps off CPU \(starterCPU)")
        }
    }

    /// Released before the helper placed itself, it is never kept off at all (its starter is
    /// already waiting for it).
    func testAReleaseBeforeThePlacementKeepsNothingOff() {
        let starterCPU = xhud_sched_cpu_among_several()
        let placement = BesideThread()
        placement.release()
        let allowed = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        let cpu = starterCPU
        Thread {
            placement.keepOff()
            allowed.withLock { $0 = cpu < 0 ? nil : xhud_sched_allowed(cpu) != 0 }
            done.signal()
        }.start()
        done.wait()
        if starterCPU >= 0 { XCTAssertEqual(allowed.withLock { $0 }, true) }
    }
}
