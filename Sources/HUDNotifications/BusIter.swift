#if canImport(Glibc)
import Glibc
#endif

/// A `DBusMessageIter` (caller-allocated: 72 bytes on 64-bit systems, 16 pointers at most on any;
/// 128 bytes are allocated) and the reads and writes of the message it walks. Used on the bus
/// thread alone.
final class BusIter {
    /// D-Bus type codes.
    enum Code {
        static let byte = Int32(UInt8(ascii: "y")), bool = Int32(UInt8(ascii: "b")), int16 = Int32(UInt8(ascii: "n"))
        static let uint16 = Int32(UInt8(ascii: "q")), int32 = Int32(UInt8(ascii: "i")), uint32 = Int32(UInt8(ascii: "u"))
        static let int64 = Int32(UInt8(ascii: "x")), uint64 = Int32(UInt8(ascii: "t")), double = Int32(UInt8(ascii: "d"))
        static let string = Int32(UInt8(ascii: "s")), objectPath = Int32(UInt8(ascii: "o")), array = Int32(UInt8(ascii: "a"))
        static let variant = Int32(UInt8(ascii: "v")), structure = Int32(UInt8(ascii: "r")), dictEntry = Int32(UInt8(ascii: "e"))
    }

    let lib: LibDBus
    let raw = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 16)

    init(_ lib: LibDBus) {
        self.lib = lib
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: 128)
    }
    deinit { raw.deallocate() }

    static func reading(_ lib: LibDBus, _ message: LibDBus.Ptr) -> BusIter? {
        let it = BusIter(lib)
        return lib.iterInit(message, it.raw) != 0 ? it : nil
    }

    static func appending(_ lib: LibDBus, _ message: LibDBus.Ptr) -> BusIter {
        let it = BusIter(lib)
        lib.iterInitAppend(message, it.raw)
        return it
    }

    var type: Int32 { lib.iterArgType(raw) }
    @discardableResult func next() -> Bool { lib.iterNext(raw) != 0 }

    func recurse() -> BusIter {
        let sub = BusIter(lib)
        lib.iterRecurse(raw, sub.raw)
        return sub
    }

    var string: String? {
        guard type == Code.string || type == Code.objectPath else { return nil }
        var p: UnsafePointer<CChar>?
        lib.iterGetBasic(raw, &p)
        return p.map { String(cString: $0) }
    }

    /// Any integer or boolean, widened.
    var integer: Int64? {
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
    var bytes: [UInt8]? {
        guard type == Code.array else { return nil }
        let sub = recurse()
        guard sub.type == Code.byte || sub.type == 0 else { return nil }
        var p: UnsafeMutableRawPointer?
        var n: Int32 = 0
        lib.iterFixedArray(sub.raw, &p, &n)
        guard let p, n > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: Int(n)))
    }

    /// A value of the message, as far as the hints need one.
    var value: HintValue? {
        switch type {
        case Code.string, Code.objectPath: return string.map(HintValue.string)
        case Code.variant: return recurse().value
        case Code.array: return bytes.map(HintValue.bytes)
        case Code.structure:
            var fields: [HintValue] = []
            let sub = recurse()
            while sub.type != 0 {
                guard let v = sub.value, fields.count < 16 else { return nil }
                fields.append(v)
                sub.next()
            }
            return .structure(fields)
        default: return integer.map(HintValue.integer)
        }
    }

    // MARK: Writing

    func append(_ v: UInt32) {
        var v = v
        _ = lib.iterAppendBasic(raw, Code.uint32, &v)
    }

    func append(_ s: String) {
        // A string on the bus is UTF-8 without NUL (ours always are; NULs are dropped).
        let clean = s.contains("\0") ? s.replacingAll("\0", "") : s
        clean.withCString { c in
            var p: UnsafePointer<CChar>? = c
            _ = lib.iterAppendBasic(raw, Code.string, &p)
        }
    }

    func append(strings: [String]) {
        let sub = BusIter(lib)
        _ = lib.iterOpen(raw, Code.array, "s", sub.raw)
        for s in strings { sub.append(s) }
        _ = lib.iterClose(raw, sub.raw)
    }
}

extension String {
    func replacingAll(_ target: Character, _ with: String) -> String {
        var out = ""
        for c in self { if c == target { out += with } else { out.append(c) } }
        return out
    }
}
