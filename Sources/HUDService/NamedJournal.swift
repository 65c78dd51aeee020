#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDFiles
import HUDSocket

/// The requests behind the named HUDs and notifications a server shows, kept beside its socket
/// while they show: a server that dies under them (SIGKILL, a crash) leaves the file, and the
/// next server (the next key press, or the service manager's restart) shows them again for the
/// time they had left, as a waiting client shows its own HUD again. A server that ends as it
/// should removes the file. Owned by the loop's thread.
final class NamedJournal {
    struct Record: Equatable {
        var key: String
        /// CLOCK_MONOTONIC seconds (one clock for every process of the machine) when it hides.
        var deadline: Double
        var request: Wire.Request
    }

    /// Requests kept a HUD: its first (its whole look) and its latest updates.
    static let perHUD = 16
    static let maxHUDs = 64
    /// A HUD kept up by `push` has no deadline: it comes back for this long at most.
    static let pushedFor = 3600.0

    let path: String
    private(set) var records: [Record] = []

    init(socketPath: String) {
        path = (socketPath.hasSuffix(".sock") ? String(socketPath.dropLast(5)) : socketPath) + ".named"
    }

    /// `key` showed or changed as `request` says, until `hideAfter` from now (nil: until popped).
    func shown(_ key: String, _ request: Wire.Request, hideAfter: Double?) {
        let deadline = MonotonicClock.seconds() + (hideAfter ?? Self.pushedFor) + 1
        var mine = records.filter { $0.key == key }
        records.removeAll { $0.key == key }
        mine.append(Record(key: key, deadline: deadline, request: request))
        if mine.count > Self.perHUD { mine.remove(at: 1) }
        for i in mine.indices { mine[i].deadline = deadline }
        let keys = Set(records.map(\.key))
        if keys.count >= Self.maxHUDs, let oldest = records.first?.key { records.removeAll { $0.key == oldest } }
        records += mine
        save()
    }

    func hidden(_ key: String) {
        guard records.contains(where: { $0.key == key }) else { return }
        records.removeAll { $0.key == key }
        save()
    }

    /// The server ends as it should: nothing is to come back.
    func clear() {
        records = []
        unlink(path)
    }

    /// What a server that died left, still due (the file is the user's own: in the private
    /// directory, read without blocking and within bounds); the file is removed.
    func takeOver() -> [Record] {
        defer { unlink(path) }
        guard case .bytes(let bytes) = FileText.bytes(path, limit: 4 << 20, ownOnly: true) else { return [] }
        var out: [Record] = []
        var at = 0
        let now = MonotonicClock.seconds()
        while at + 16 <= bytes.count {
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[at + i]) << (8 * UInt64(i)) }
            let keyLength = Int(bytes[at + 8]) | Int(bytes[at + 9]) << 8
            at += 16
            guard at + keyLength + 8 <= bytes.count else { break }
            let key = String(decoding: bytes[at..<(at + keyLength)], as: UTF8.self)
            at += keyLength
            guard let total = try? Wire.frameLength(header: Array(bytes[at..<(at + 8)]), tag: Wire.requestTag),
                  at + total <= bytes.count, let request = try? Wire.Request.decode(Array(bytes[at..<(at + total)])) else { break }
            at += total
            let deadline = Double(bitPattern: bits)
            if deadline > now, deadline < now + Self.pushedFor + 2 { out.append(Record(key: key, deadline: deadline, request: request)) }
        }
        return out
    }

    private func save() {
        guard !records.isEmpty else { unlink(path); return }
        var bytes: [UInt8] = []
        for r in records {
            let bits = r.deadline.bitPattern
            for i in 0..<8 { bytes.append(UInt8((bits >> (8 * UInt64(i))) & 0xFF)) }
            let key = Array(r.key.utf8.prefix(65535))
            bytes += [UInt8(key.count & 0xFF), UInt8(key.count >> 8), 0, 0, 0, 0, 0, 0]
            bytes += key
            bytes += r.request.encoded()
        }
        _ = PrivateCache.write(bytes, to: path)
    }
}
