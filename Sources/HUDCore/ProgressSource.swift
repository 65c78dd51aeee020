import Synchronization

/// What the display link reads from a progress object once per frame.
public struct ProgressSnapshot: Equatable, Sendable {
    public var fraction: Double
    public var isCancelled: Bool
    /// A description to show as the details label, when the source has one.
    public var description: String?
    public init(fraction: Double, isCancelled: Bool = false, description: String? = nil) {
        self.fraction = fraction; self.isCancelled = isCancelled; self.description = description
    }
}

/// A progress object, polled by the display link (never pushed into the HUD).
public protocol ProgressSource: AnyObject, Sendable {
    func snapshot() -> ProgressSnapshot
}

/// A plain progress value settable from any thread without locks.
public final class ProgressValue: ProgressSource {
    private let bits: Atomic<UInt64>
    private let cancelled = Atomic<Bool>(false)

    public init(_ value: Double = 0) { bits = Atomic(clamp(value, 0, 1).bitPattern) }

    public var value: Double {
        get { Double(bitPattern: bits.load(ordering: .acquiring)) }
        set { bits.store(clamp(newValue.isNaN ? 0 : newValue, 0, 1).bitPattern, ordering: .releasing) }
    }
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    public func snapshot() -> ProgressSnapshot {
        ProgressSnapshot(fraction: value, isCancelled: cancelled.load(ordering: .acquiring))
    }
}
