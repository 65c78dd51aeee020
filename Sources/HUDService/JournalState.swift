#if canImport(Glibc)
import Glibc
#endif
import HUDSocket

/// What a named HUD's records come to: the requests that show it again (its first, its whole
/// look, and its latest updates), when it hides, and when it last changed.
struct JournalEntry: Equatable, Sendable {
    let key: String
    var requests: [Wire.Request]
    /// Each request's record size on disk.
    var sizes: [Int]
    var deadline: Double
    var hideAfter: Double?
    /// Larger: changed later.
    var order: Int
}

/// The live named HUDs a log of records comes to, folded the same way whether the records are
/// being written or read back: the state a log holds is exactly what its writer kept in memory.
/// Bounded: past `maxHUDs` HUDs or `maxBytes` of records, the HUDs that changed longest ago are
/// dropped, never the one that just changed.
struct JournalState: Equatable, Sendable {
    /// Requests kept a HUD: its first (its whole look) and its latest updates.
    static let perHUD = 16
    static let maxHUDs = 64
    static let maxBytes = 4 << 20

    private(set) var entries: [String: JournalEntry] = [:]
    /// The records' size once compacted (what the file holds at least).
    private(set) var bytes = 0
    private var counter = 0

    init() {}

    init(_ records: [JournalRecord]) {
        for r in records { apply(r, size: r.framedSize) }
    }

    /// Wall-clock seconds: what a deadline that outlives the process is measured in.
    static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Applies `record` (`size`: its framed size).
    mutating func apply(_ record: JournalRecord, size: Int) {
        counter += 1
        switch record {
        case .hidden(let key):
            if let e = entries.removeValue(forKey: key) { bytes -= e.sizes.reduce(0, +) }
        case .shown(let key, let request, let deadline, let hideAfter):
            var e = entries[key] ?? JournalEntry(key: key, requests: [], sizes: [], deadline: deadline, hideAfter: hideAfter, order: 0)
            e.requests.append(request)
            e.sizes.append(size)
            bytes += size
            if e.requests.count > Self.perHUD {
                e.requests.remove(at: 1)
                bytes -= e.sizes.remove(at: 1)
            }
            e.deadline = deadline
            e.hideAfter = hideAfter
            e.order = counter
            entries[key] = e
            while entries.count > Self.maxHUDs || bytes > Self.maxBytes, entries.count > 1 {
                guard let oldest = entries.values.filter({ $0.key != key }).min(by: { $0.order < $1.order }) else { break }
                apply(.hidden(key: oldest.key), size: 0)
            }
        }
    }

    /// Drops the HUDs whose time is over by `now` (wall clock): they show no more.
    mutating func dropFinished(now: Double) {
        for e in entries.values where e.deadline <= now { apply(.hidden(key: e.key), size: 0) }
    }

    /// The HUDs, the one that changed last first.
    var newestFirst: [JournalEntry] { entries.values.sorted { $0.order > $1.order } }

    /// The records a compacted log holds: folded, they come to this state.
    var records: [JournalRecord] {
        entries.values.sorted { $0.order < $1.order }.flatMap { e in
            e.requests.map { JournalRecord.shown(key: e.key, request: $0, deadline: e.deadline, hideAfter: e.hideAfter) }
        }
    }
}
