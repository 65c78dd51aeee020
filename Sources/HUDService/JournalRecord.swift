import HUDSocket
import HUDSystem

/// One change of the named HUDs as the journal's log holds it. On disk each record stands
/// alone: a marker, its length and a CRC-32 of its payload, so that a record a crash cut short
/// (or any damage) is found and skipped, and the reader picks up again at the next marker.
enum JournalRecord: Equatable, Sendable {
    /// `key` showed or changed as `request` says; it hides at `deadline` (CLOCK_REALTIME
    /// seconds: a monotonic clock does not survive a reboot or a new session); `hideAfter`:
    /// its time to show, nil while `push` keeps it up.
    case shown(key: String, request: Wire.Request, deadline: Double, hideAfter: Double?)
    case hidden(key: String)

    var key: String {
        switch self {
        case .shown(let key, _, _, _), .hidden(let key): return key
        }
    }

    static let marker: [UInt8] = [0xD7, 0x4A, 0x52, 0x01]  // "\xD7JR\x01"
    static let headerSize = 12
    /// A payload is a request (at most `Wire.maxPayload`) and its name: anything longer is damage.
    static let maxPayload = 4 * Wire.maxPayload

    /// `framed().count`, without encoding it (a log of megabytes is folded without copying it).
    var framedSize: Int {
        switch self {
        case .shown(let key, let request, _, _):
            let flags = [request.staysConnected, request.stdinIsPipe, request.resumes, request.wantsStats].filter { $0 }.count
            let fields = request.arguments.reduce(request.cwd.utf8.count + 1 + flags + 1) { $0 + $1.utf8.count + 1 }
            return Self.headerSize + 5 + key.utf8.count + 16 + 8 + fields
        case .hidden(let key):
            return Self.headerSize + 5 + key.utf8.count
        }
    }

    /// The record as written: marker, payload length, CRC-32 of the payload, payload.
    func framed() -> [UInt8] {
        var p: [UInt8] = []
        func u32(_ v: UInt32, _ out: inout [UInt8]) { for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
        func f64(_ v: Double) { let b = v.bitPattern; for i in 0..<8 { p.append(UInt8(truncatingIfNeeded: b >> (8 * UInt64(i)))) } }
        let name = Array(key.utf8)
        switch self {
        case .shown(_, let request, let deadline, let hideAfter):
            p.append(1)
            u32(UInt32(name.count), &p)
            p += name
            f64(deadline)
            f64(hideAfter ?? -1)
            p += request.encoded()
        case .hidden:
            p.append(2)
            u32(UInt32(name.count), &p)
            p += name
        }
        var out = Self.marker
        u32(UInt32(p.count), &out)
        u32(CRC32.checksum(p), &out)
        return out + p
    }

    /// Every whole record of `bytes`, in order; `skipped`: bytes that were no record (a torn
    /// tail, damage), passed over up to the next marker.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> (records: [JournalRecord], skipped: Int) {
        var out: [JournalRecord] = []
        var skipped = 0
        var at = 0
        func u32(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 | Int(bytes[i + 2]) << 16 | Int(bytes[i + 3]) << 24 }
        while at + headerSize <= bytes.count {
            if bytes[at] == marker[0], bytes[at + 1] == marker[1], bytes[at + 2] == marker[2], bytes[at + 3] == marker[3] {
                let length = u32(at + 4)
                let end = at + headerSize + length
                if length <= maxPayload, end <= bytes.count {
                    let payload = UnsafeRawBufferPointer(rebasing: bytes[(at + headerSize)..<end])
                    if CRC32.checksum(payload) == UInt32(u32(at + 8)), let r = decode(payload) {
                        out.append(r)
                        at = end
                        continue
                    }
                }
            }
            at += 1
            skipped += 1
        }
        return (out, skipped + (bytes.count - at))
    }

    private static func decode(_ p: UnsafeRawBufferPointer) -> JournalRecord? {
        guard p.count >= 5 else { return nil }
        let n = Int(p[1]) | Int(p[2]) << 8 | Int(p[3]) << 16 | Int(p[4]) << 24
        guard n <= p.count - 5 else { return nil }
        let key = String(decoding: p[5..<(5 + n)], as: UTF8.self)
        let rest = 5 + n
        switch p[0] {
        case 2:
            return rest == p.count ? .hidden(key: key) : nil
        case 1:
            guard p.count >= rest + 16 else { return nil }
            func f64(_ i: Int) -> Double {
                var b: UInt64 = 0
                for k in 0..<8 { b |= UInt64(p[i + k]) << (8 * UInt64(k)) }
                return Double(bitPattern: b)
            }
            let deadline = f64(rest), hideAfter = f64(rest + 8)
            guard deadline.isFinite, hideAfter.isFinite || hideAfter.isNaN else { return nil }
            let frame = Array(p[(rest + 16)...])
            guard frame.count >= 8, let total = try? Wire.frameLength(header: Array(frame.prefix(8)), tag: Wire.requestTag),
                total == frame.count, let request = try? Wire.Request.decode(frame)
            else { return nil }
            return .shown(key: key, request: request, deadline: deadline, hideAfter: hideAfter >= 0 ? hideAfter : nil)
        default:
            return nil
        }
    }
}
