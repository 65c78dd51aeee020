/// Splits bytes into lines; a line longer than `limit` is cut (the rest is dropped up to the
/// newline) so that no input can make the HUD hold unbounded memory.
public struct LineBuffer: Sendable {
    public let limit: Int
    private var bytes: [UInt8] = []
    private var overflowing = false
    public init(limit: Int = 64 * 1024) { self.limit = limit }

    /// Returns the complete lines in `chunk`, each decoded as UTF-8 (invalid bytes replaced, and
    /// `valid` false).
    public mutating func append(_ chunk: UnsafeRawBufferPointer) -> [(line: String, truncated: Bool, valid: Bool)] {
        var out: [(String, Bool, Bool)] = []
        for b in chunk {
            if b == 10 {
                out.append(LineBuffer.decode(bytes, overflowing))
                bytes.removeAll(keepingCapacity: true)
                overflowing = false
            } else if bytes.count < limit {
                bytes.append(b)
            } else {
                overflowing = true
            }
        }
        return out
    }

    /// What is left at end of input.
    public mutating func finish() -> (line: String, truncated: Bool, valid: Bool)? {
        defer { bytes.removeAll(); overflowing = false }
        return bytes.isEmpty ? nil : LineBuffer.decode(bytes, overflowing)
    }

    /// A line cut at the limit may end inside a character: that cut is not counted as invalid.
    private static func decode(_ bytes: [UInt8], _ cut: Bool) -> (String, Bool, Bool) {
        if let s = String(validating: bytes, as: UTF8.self) { return (s, cut, true) }
        var end = bytes.count
        if cut { while end > 0 && end > bytes.count - 4 && bytes[end - 1] & 0xC0 == 0x80 { end -= 1 }; if end > 0 && bytes[end - 1] >= 0xC0 { end -= 1 } }
        if cut, let s = String(validating: bytes[0..<end], as: UTF8.self) { return (s, cut, true) }
        return (String(decoding: bytes, as: UTF8.self), cut, false)
    }
}
