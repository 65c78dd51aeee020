/// One line of progress input (zenity/yad's protocol): a bare number is a percentage,
/// `# text` sets the label, `pulsate:true|false` switches the spinner.
public enum ProgressCommand: Equatable, Sendable {
    case percent(Double)
    case label(String)
    case pulsate(Bool)
    case ignored(String)

    public static func parse(_ raw: String) -> ProgressCommand {
        let line = raw.trimmingSpaces()
        if line.hasPrefix("#") { return .label(String(line.dropFirst()).trimmingSpaces()) }
        if let v = Double(line), v.isFinite { return .percent(min(max(v, 0), 100)) }
        switch line.lowercased() {
        case "pulsate:true": return .pulsate(true)
        case "pulsate:false": return .pulsate(false)
        default: return .ignored(line)
        }
    }
}

/// Splits bytes into lines; a line longer than `limit` is cut (the rest is dropped up to the
/// newline) so that no input can make the HUD hold unbounded memory.
public struct LineBuffer: Sendable {
    public let limit: Int
    private var bytes: [UInt8] = []
    private var overflowing = false
    public init(limit: Int = 64 * 1024) { self.limit = limit }

    /// Returns the complete lines in `chunk`, each decoded as UTF-8 (invalid bytes replaced).
    public mutating func append(_ chunk: UnsafeRawBufferPointer) -> [(line: String, truncated: Bool)] {
        var out: [(String, Bool)] = []
        for b in chunk {
            if b == 10 {
                out.append((String(decoding: bytes, as: UTF8.self), overflowing))
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
    public mutating func finish() -> (line: String, truncated: Bool)? {
        defer { bytes.removeAll(); overflowing = false }
        return bytes.isEmpty ? nil : (String(decoding: bytes, as: UTF8.self), overflowing)
    }
}
