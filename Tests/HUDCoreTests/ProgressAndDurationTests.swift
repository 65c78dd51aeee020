import Foundation
import HUDCore
import XCTest

final class DisplayDurationTests: XCTestCase {
    /// SVProgressHUD's displayDurationForString: min(max(characters x 0.06 + 0.5, minimum), maximum).
    func testFormula() {
        XCTAssertEqual(displayDuration(for: ""), 5, accuracy: 1e-12, "short texts get the minimum of 5 s")
        XCTAssertEqual(displayDuration(for: "Saved"), 5, accuracy: 1e-12)
        XCTAssertEqual(displayDuration(for: String(repeating: "a", count: 75)), 5, accuracy: 1e-9, "75 x 0.06 + 0.5 = 5")
        XCTAssertEqual(displayDuration(for: String(repeating: "a", count: 100)), 6.5, accuracy: 1e-9)
        XCTAssertEqual(displayDuration(for: String(repeating: "a", count: 200)), 12.5, accuracy: 1e-9)
    }

    func testMinimumAndMaximum() {
        XCTAssertEqual(displayDuration(for: "0123456789", minimum: 0), 1.1, accuracy: 1e-9)
        XCTAssertEqual(displayDuration(for: "", minimum: 0), 0.5, accuracy: 1e-9)
        XCTAssertEqual(displayDuration(for: "", minimum: 2), 2, accuracy: 1e-9)
        XCTAssertEqual(displayDuration(for: String(repeating: "a", count: 1000), maximum: 8), 8, accuracy: 1e-9)
        XCTAssertEqual(displayDuration(for: "", minimum: 5, maximum: 3), 3, accuracy: 1e-9, "the maximum wins")
        XCTAssertEqual(
            displayDuration(for: String(repeating: "a", count: 1000)), 60.5, accuracy: 1e-9,
            "unbounded by default")
    }

    func testCountsCharactersNotBytes() {
        // "é" is two bytes in UTF-8 and "👍🏽" eight; each is one character.
        XCTAssertEqual(displayDuration(for: String(repeating: "é", count: 100)), 6.5, accuracy: 1e-9)
        XCTAssertEqual(displayDuration(for: String(repeating: "👍🏽", count: 100)), 6.5, accuracy: 1e-9)
    }

    func testGrowsWithLength() {
        var previous = 0.0
        for n in stride(from: 0, through: 500, by: 10) {
            let d = displayDuration(for: String(repeating: "x", count: n), minimum: 0)
            XCTAssertGreaterThan(d, previous)
            previous = d
        }
    }
}

final class ProgressValueTests: XCTestCase {
    func testInitClamps() {
        XCTAssertEqual(ProgressValue().value, 0)
        XCTAssertEqual(ProgressValue(0.25).value, 0.25)
        XCTAssertEqual(ProgressValue(-1).value, 0)
        XCTAssertEqual(ProgressValue(2).value, 1)
        XCTAssertEqual(ProgressValue(.infinity).value, 1)
        XCTAssertEqual(ProgressValue(-.infinity).value, 0)
    }

    func testNaNProgressIsZero() {
        XCTAssertEqual(ProgressValue(.nan).value, 0)
        XCTAssertEqual(HUDLayout.valueText(.nan), "0%")
    }

    func testSetterClamps() {
        let p = ProgressValue()
        p.value = 0.5
        XCTAssertEqual(p.value, 0.5)
        p.value = 1.5
        XCTAssertEqual(p.value, 1)
        p.value = -0.5
        XCTAssertEqual(p.value, 0)
        p.value = .nan
        XCTAssertEqual(p.value, 0, "NaN reads as 0")
        p.value = .infinity
        XCTAssertEqual(p.value, 1)
    }

    func testSnapshotAndCancel() {
        let p = ProgressValue(0.3)
        XCTAssertEqual(p.snapshot(), ProgressSnapshot(fraction: 0.3, isCancelled: false, description: nil))
        p.cancel()
        XCTAssertTrue(p.snapshot().isCancelled)
        XCTAssertEqual(p.snapshot().fraction, 0.3)
        p.value = 0.9
        XCTAssertEqual(p.snapshot(), ProgressSnapshot(fraction: 0.9, isCancelled: true))
    }

    func testUsableAsAProgressSource() {
        let source: ProgressSource = ProgressValue(0.75)
        XCTAssertEqual(source.snapshot().fraction, 0.75)
    }

    func testValueWrittenOnAnotherThreadIsRead() {
        let p = ProgressValue()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            p.value = 0.625
            p.cancel()
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(p.value, 0.625)
        XCTAssertTrue(p.snapshot().isCancelled)
    }

    /// State shared between the test and its reader thread, behind a lock.
    private final class ReaderState: @unchecked Sendable {
        let lock = NSLock()
        var finished = false
        var reads = 0
        var problems: [String] = []
        func locked<T>(_ body: () -> T) -> T { lock.lock(); defer { lock.unlock() }; return body() }
    }

    /// A writer thread counts up while a reader polls (as the display link does): every read is a
    /// value that was written (no torn doubles), in range, and never goes backwards.
    func testConcurrentReadsSeeWholeIncreasingValues() {
        let p = ProgressValue()
        let steps = 200_000
        let writerDone = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        let state = ReaderState()

        Thread.detachNewThread {
            var last = 0.0
            var count = 0
            var bad: [String] = []
            while true {
                let stop = state.locked { state.finished }
                let v = p.snapshot().fraction
                count += 1
                if !(0...1).contains(v) { bad.append("out of range: \(v)") }
                let scaled = v * Double(steps)
                if abs(scaled - scaled.rounded()) > 1e-6 { bad.append("not a written value: \(v)") }
                if v < last { bad.append("went backwards: \(last) -> \(v)") }
                last = v
                if stop || bad.count > 10 { break }
            }
            state.locked {
                state.reads = count; state.problems = bad
            }
            readerDone.signal()
        }
        Thread.detachNewThread {
            for i in 0...steps { p.value = Double(i) / Double(steps) }
            writerDone.signal()
        }
        XCTAssertEqual(writerDone.wait(timeout: .now() + 60), .success)
        state.locked { state.finished = true }
        XCTAssertEqual(readerDone.wait(timeout: .now() + 60), .success)
        state.locked {
            XCTAssertEqual(state.problems, [])
            XCTAssertGreaterThan(state.reads, 0)
        }
        XCTAssertEqual(p.value, 1)
    }

    func testManyWritersLeaveOneOfTheirValues() {
        let p = ProgressValue()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for _ in 0..<10_000 { p.value = Double(i + 1) / 8 }
        }
        let v = p.value
        XCTAssertTrue((1...8).map { Double($0) / 8 }.contains(v), "\(v) is one writer's value")
    }
}
