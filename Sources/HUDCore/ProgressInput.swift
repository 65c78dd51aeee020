/// Splits input into lines of at most `limit` bytes, decoded as UTF-8.
package struct LineBuffer: Sendable {
    /// One line: its text, and what was wrong with its bytes (reported once, never silent).
    package struct Line: Sendable, Equatable {
        package var line: String
        /// Longer than `limit`: the rest was dropped.
        package var truncated: Bool
        /// False when invalid UTF-8 was replaced.
        package var valid: Bool
        /// It held NUL bytes, which were removed (C strings would cut the text there).
        package var hadNUL: Bool = false

        /// What was wrong with its bytes, in a few words for a warning (nil: nothing), from a
        /// buffer of `limit` bytes a line.
        package func byteProblem(limit: Int) -> String? {
            truncated
                ? "longer than \(limit) bytes; the rest was dropped"
                : hadNUL
                    ? "contains NUL bytes; they were removed"
                    : !valid ? "not valid UTF-8; the bad bytes were replaced" : nil
        }
    }

    package let limit: Int
    private var bytes: [UInt8] = []
    private var overflowing = false
    private var sawNUL = false
    package init(limit: Int = 64 * 1024) { self.limit = limit }

    /// Returns the complete lines in `chunk`.
    package mutating func append(_ chunk: UnsafeRawBufferPointer) -> [Line] {
        var out: [Line] = []
        for b in chunk {
            if b == 10 {
                out.append(take())
            } else if b == 0 {
                sawNUL = true
            } else if bytes.count < limit {
                bytes.append(b)
            } else {
                overflowing = true
            }
        }
        return out
    }

    /// What is left at end of input.
    package mutating func finish() -> Line? {
        bytes.isEmpty && !sawNUL ? nil : take()
    }

    private mutating func take() -> Line {
        var l = LineBuffer.decode(bytes, overflowing)
        l.hadNUL = sawNUL
        bytes.removeAll(keepingCapacity: true)
        overflowing = false
        sawNUL = false
        return l
    }

    /// A line cut at the limit may end inside a character: that cut is not counted as invalid.
    private static func decode(_ bytes: [UInt8], _ cut: Bool) -> Line {
        if let s = String(validating: bytes, as: UTF8.self) { return Line(line: s, truncated: cut, valid: true) }
        var end = bytes.count
        if cut {
            while end > 0 && end > bytes.count - 4 && bytes[end - 1] & 0xC0 == 0x80 { end -= 1 }; if end > 0 && bytes[end - 1] >= 0xC0 { end -= 1 }
        }
        if cut, let s = String(validating: bytes[0..<end], as: UTF8.self) { return Line(line: s, truncated: cut, valid: true) }
        return Line(line: String(decoding: bytes, as: UTF8.self), truncated: cut, valid: false)
    }
}

extension String {
    /// The text with control characters written out (`\e`, `\n`, `\x07`, `\u{9B}`): what goes to
    /// a terminal in a message never carries raw escape sequences from input.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value <= 0x9F) }) else { return self }
        var out = ""
        for u in unicodeScalars {
            switch u.value {
            case 0x1B: out += "\\e"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F:
                let h = String(u.value, radix: 16, uppercase: true)
                out += "\\x" + (h.count < 2 ? "0" + h : h)
            case 0x80...0x9F: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
