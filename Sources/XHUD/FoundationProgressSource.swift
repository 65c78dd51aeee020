import Foundation
import HUDCore

/// Reads a Foundation `Progress` (thread-safe to read) for the display link.
public final class FoundationProgressSource: ProgressSource, @unchecked Sendable {
    public let progress: Progress
    public init(_ progress: Progress) { self.progress = progress }

    public func snapshot() -> ProgressSnapshot {
        let f = progress.fractionCompleted
        let text = progress.localizedDescription ?? ""
        return ProgressSnapshot(
            fraction: f.isFinite ? min(max(f, 0), 1) : 0, isCancelled: progress.isCancelled,
            description: text.isEmpty ? nil : text)
    }
}
