import Foundation
import XCTest

/// Runs one of the package's example programs (built beside the tests: XHUDTests depend on them)
/// on the tests' display, with a watchdog: a program that hangs is killed and reported, never
/// left to hang the test run.
enum ExampleRunner {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        let timedOut: Bool
        var summary: String { "status \(status), stdout \(stdout.debugDescription), stderr \(String(stderr.suffix(2000)).debugDescription)" }
    }

    /// The directory of the test bundle, where SwiftPM puts the executables of the same build.
    static var products: URL {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).deletingLastPathComponent()
    }

    static func run(_ name: String, _ arguments: [String] = [], display: String, timeout: Double = 20) throws -> Outcome {
        let url = products.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            XCTFail("\(url.path) is not built (swift build --build-tests builds it with the tests)")
            throw XCTSkip("no \(name)")
        }
        let p = Process()
        p.executableURL = url
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = display
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        p.terminationHandler = { _ in ended.signal() }
        // Both pipes drained while it runs: a full pipe would block the program, not a deadlock of its own.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let readers = DispatchGroup()
        DispatchQueue.global().async(group: readers) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: readers) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        try p.run()
        var timedOut = false
        if ended.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            ended.wait()
        }
        readers.wait()
        return Outcome(
            status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self), timedOut: timedOut)
    }
}
