#if canImport(Glibc)
import Glibc
#endif

/// A `DBusMessageIter` (caller-allocated: 72 bytes on 64-bit systems, 16 pointers at most on any;
/// 128 bytes are allocated) and the reads and writes of the message it walks. Used on the bus
/// thread alone.
package final class BusIter {
    /// D-Bus type codes.
    package enum Code {
        package static let byte = Int32(UInt8(ascii: "y")), bool = Int32(UInt8(ascii: "b")), int16 = Int32(UInt8(ascii: "n"))
        package static let uint16 = Int32(UInt8(ascii: "q")), int32 = Int32(UInt8(ascii: "i")), uint32 = Int32(UInt8(ascii: "u"))
        package static let int64 = Int32(UInt8(ascii: "x")), uint64 = Int32(UInt8(ascii: "t")), double = Int32(UInt8(ascii: "d"))
        package static let string = Int32(UInt8(ascii: "s")), objectPath = Int32(UInt8(ascii: "o")), array = Int32(UInt8(ascii: "a"))
        package static let variant = Int32(UInt8(ascii: "v")), structure = Int32(UInt8(ascii: "r")), dictEntry = Int32(UInt8(ascii: "e"))
    }

    package let lib: LibDBus
    package let raw = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 16)

    package init(_ lib: LibDBus) {
        self.lib = lib
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: 128)
    }
    deinit { raw.deallocate() }

    package static func reading(_ lib: LibDBus, _ message: LibDBus.Ptr) -> BusIter? {
        let it = BusIter(lib)
        return lib.iterInit(message, it.raw) != 0 ? it : nil
    }

    package static func appending(_ lib: LibDBus, _ message: LibDBus.Ptr) -> BusIter {
        let it = BusIter(lib)
        lib.iterInitAppend(message, it.raw)
        return it
    }

    package var type: Int32 { lib.iterArgType(raw) }
    @discardableResult package func next() -> Bool { lib.iterNext(raw) != 0 }

    package func recurse() -> BusIter {
        let sub = BusIter(lib)
        lib.iterRecurse(raw, sub.raw)
        return sub
    }

    package var string: String? {
        guard type == Code.string || type == Code.objectPath else { return nil }
        var p: UnsafePointer<CChar>?
        lib.iterGetBasic(raw, &p)
        return p.map { String(cString: $0) }
    }

    /// Any integer or boolean, widened.
    package var integer: Int64? {
        var v: UInt64 = 0
        let t = type
        guard [Code.byte, Code.bool, Code.int16, Code.uint16, Code.int32, Code.uint32, Code.int64, Code.uint64].contains(t) else {
            if t == Code.double {
                var d = 0.0
                lib.iterGetBasic(raw, &d)
                return d.isFinite ? Int64(max(-1e15, min(1e15, d))) : nil
            }
            return nil
        }
        lib.iterGetBasic(raw, &v)
        switch t {
        case Code.byte: return Int64(UInt8(truncatingIfNeeded: v))
        case Code.bool, Code.uint32: return Int64(UInt32(truncatingIfNeeded: v))
        case Code.int16: return Int64(Int16(truncatingIfNeeded: v))
        case Code.uint16: return Int64(UInt16(truncatingIfNeeded: v))
        case Code.int32: return Int64(Int32(truncatingIfNeeded: v))
        case Code.uint64: return Int64(clamping: v)
        default: return Int64(bitPattern: v)
        }
    }

    /// The bytes of an array of bytes this iterator points at.
    package var bytes: [UInt8]? {
        guard type == Code.array else { return nil }
        let sub = recurse()
        guard sub.type == Code.byte || sub.type == 0 else { return nil }
        var p: UnsafeMutableRawPointer?
        var n: Int32 = 0
        lib.iterFixedArray(sub.raw, &p, &n)
        guard let p, n > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: Int(n)))
    }

    // MARK: Writing

    package func append(_ v: UInt32) {
        var v = v
        _ = lib.iterAppendBasic(raw, Code.uint32, &v)
    }

    package func append(_ s: String) {
        // A string on the bus is UTF-8 without NUL (ours always are; NULs are dropped).
        let clean = s.contains("\0") ? s.replacingAll("\0", "") : s
        clean.withCString { c in
            var p: UnsafePointer<CChar>? = c
            _ = lib.iterAppendBasic(raw, Code.string, &p)
        }
    }

    package func append(strings: [String]) {
        let sub = BusIter(lib)
        _ = lib.iterOpen(raw, Code.array, "s", sub.raw)
        for s in strings { sub.append(s) }
        _ = lib.iterClose(raw, sub.raw)
    }
}

extension BusIter {
    /// Appends `v` (containers opened and closed around their contents). Make sure it
    /// `isWellFormed` (the writers' tests do): libdbus aborts on a mismatch.
    package func append(_ v: BusValue) {
        switch v {
        case .string(let s): append(s)
        case .objectPath(let p):
            p.withCString { c in
                var p: UnsafePointer<CChar>? = c
                _ = lib.iterAppendBasic(raw, Code.objectPath, &p)
            }
        case .uint32(let u): append(u)
        case .int32(var i): _ = lib.iterAppendBasic(raw, Code.int32, &i)
        case .bool(let b):
            var v: UInt32 = b ? 1 : 0  // dbus_bool_t
            _ = lib.iterAppendBasic(raw, Code.bool, &v)
        case .structure(let fields): container(Code.structure, nil) { sub in for f in fields { sub.append(f) } }
        case .array(let element, let items): container(Code.array, element) { sub in for i in items { sub.append(i) } }
        case .entry(let k, let v):
            container(Code.dictEntry, nil) { sub in
                sub.append(k); sub.append(v)
            }
        case .variant(let inner): container(Code.variant, inner.signature) { sub in sub.append(inner) }
        }
    }

    private func container(_ type: Int32, _ signature: String?, _ body: (BusIter) -> Void) {
        let sub = BusIter(lib)
        _ = lib.iterOpen(raw, type, signature, sub.raw)
        body(sub)
        _ = lib.iterClose(raw, sub.raw)
    }
}

/// A value to write into a message, with its D-Bus signature.
package indirect enum BusValue: Equatable, Sendable {
    case string(String), objectPath(String), uint32(UInt32), int32(Int32), bool(Bool)
    case structure([BusValue])
    /// An array of values whose signature is `element` (given: an array may be empty).
    case array(element: String, [BusValue])
    /// A dictionary entry: only inside an array whose element is `{..}`.
    case entry(BusValue, BusValue)
    case variant(BusValue)

    package var signature: String {
        switch self {
        case .string: return "s"
        case .objectPath: return "o"
        case .uint32: return "u"
        case .int32: return "i"
        case .bool: return "b"
        case .structure(let f): return "(" + f.map(\.signature).joined() + ")"
        case .array(let e, _): return "a" + e
        case .entry(let k, let v): return "{" + k.signature + v.signature + "}"
        case .variant: return "v"
        }
    }

    /// An AT-SPI object reference: (bus name, object path).
    package static func reference(_ name: String, _ path: String) -> BusValue { .structure([.string(name), .objectPath(path)]) }
    /// `a{sv}` (each value in its variant), or `a{ss}` of strings.
    package static func dictionary(_ pairs: [(String, BusValue)]) -> BusValue {
        .array(element: "{sv}", pairs.map { .entry(.string($0.0), .variant($0.1)) })
    }

    package static func dictionary(strings pairs: [(String, String)]) -> BusValue {
        .array(element: "{ss}", pairs.map { .entry(.string($0.0), .string($0.1)) })
    }

    /// Whether every array's items have its element signature (libdbus aborts the process on a
    /// value that does not match the container it is written into).
    package var isWellFormed: Bool {
        switch self {
        case .structure(let f): return !f.isEmpty && f.allSatisfy(\.isWellFormed)
        case .array(let e, let items): return items.allSatisfy { $0.signature == e && $0.isWellFormed }
        case .entry(let k, let v): return k.isWellFormed && v.isWellFormed
        case .variant(let v): return v.isWellFormed
        default: return true
        }
    }
}

extension String {
    func replacingAll(_ target: Character, _ with: String) -> String {
        var out = ""
        for c in self { if c == target { out += with } else { out.append(c) } }
        return out
    }
}
