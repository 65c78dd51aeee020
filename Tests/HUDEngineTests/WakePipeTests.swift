#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import XCTest
@testable import HUDEngine
import HUDSystem

/// The event loop's wake-up: no wake may be lost, however the waking thread and the loop
/// interleave. A lost wake leaves the flag set and the pipe empty, and the loop waits forever
/// (a frozen HUD); here it shows as a poll that times out while another thread keeps waking.
final class WakePipeTests: XCTestCase {
    func testNoWakeIsLostUnderContention() {
        let pipe = WakePipe()
        let stop = Flag()
        let waker = Thread {
            while !stop.value.load(ordering: .relaxed) { pipe.wake() }
        }
        waker.start()
        var rounds = 0, lost = 0
        let end = MonotonicTime.seconds() + 2
        while MonotonicTime.seconds() < end {
            var p = pollfd(fd: pipe.readFD, events: Int16(POLLIN), revents: 0)
            // The waker never pauses: a poll that waits 200 ms means the wakes stopped arriving.
            if poll(&p, 1, 200) == 0 { lost += 1; break }
            pipe.drain()
            rounds += 1
        }
        stop.value.store(true, ordering: .relaxed)
        XCTAssertEqual(lost, 0, "a wake was lost after \(rounds) rounds: the loop would sleep for good")
        XCTAssertGreaterThan(rounds, 1000)
    }
}

private final class Flag: Sendable { let value = Atomic<Bool>(false) }
