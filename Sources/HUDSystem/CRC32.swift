/// CRC-32 (IEEE 802.3, as zlib and Python's `zlib.crc32`): a record's checksum in a file a
/// crash may leave half written.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    @_optimize(speed)  // a journal of megabytes is checked in a debug build too
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return c ^ 0xFFFF_FFFF
    }

    package static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        if let c = bytes.withContiguousStorageIfAvailable({ checksum(UnsafeRawBufferPointer($0)) }) { return c }
        return Array(bytes).withUnsafeBytes { checksum($0) }
    }
}
