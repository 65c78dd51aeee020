// Basic and literal strings, on one line or several, and the escapes of basic ones.
extension TOMLParser {
    /// The characters no string may hold raw: control characters other than tab.
    static func isControl(_ c: UInt8) -> Bool { (c < 0x20 && c != tab) || c == 0x7F }

    mutating func basicString() throws(TOMLError) -> String {
        let open = i
        i += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("this string is not closed", at: open) }
            if c == Self.quote { i += 1; break }
            if c == Self.lf || c == Self.cr {
                throw error("this string is not closed on its line (a multi-line string is written \"\"\"...\"\"\")", at: open)
            }
            if c == Self.backslash { try escape(into: &out); continue }
            if Self.isControl(c) { throw error("\(found) must be escaped in a string") }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func multilineBasicString() throws(TOMLError) -> String {
        let open = i
        i += 3
        _ = try newline()  // a newline right after the opening quotes is not part of the string
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("this multi-line string is not closed", at: open) }
            if c == Self.quote {
                var n = 0
                while peek(n) == Self.quote { n += 1 }
                if n >= 3 {
                    guard n <= 5 else { throw error("too many quotes at the end of a multi-line string") }
                    out += repeatElement(Self.quote, count: n - 3)
                    i += n
                    break
                }
                out += repeatElement(Self.quote, count: n)
                i += n
                continue
            }
            if c == Self.backslash {
                // A backslash at the end of a line trims the newlines and spaces after it.
                var k = 1
                while let s = peek(k), s == Self.space || s == Self.tab { k += 1 }
                if peek(k) == Self.lf || (peek(k) == Self.cr && peek(k + 1) == Self.lf) {
                    i += k
                    while true {
                        skipSpaces()
                        guard try newline() else { break }
                    }
                    continue
                }
                try escape(into: &out)
                continue
            }
            if try newline() { out.append(Self.lf); continue }
            if Self.isControl(c) { throw error("\(found) must be escaped in a string") }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    mutating func literalString() throws(TOMLError) -> String {
        let open = i
        i += 1
        let start = i
        while true {
            guard let c = peek else { throw error("this string is not closed", at: open) }
            if c == Self.apostrophe { break }
            if c == Self.lf || c == Self.cr {
                throw error("this string is not closed on its line (a multi-line string is written '''...''')", at: open)
            }
            if Self.isControl(c) { throw error("\(found) is not allowed in a literal string") }
            i += 1
        }
        let s = String(decoding: b[start..<i], as: UTF8.self)
        i += 1
        return s
    }

    mutating func multilineLiteralString() throws(TOMLError) -> String {
        let open = i
        i += 3
        _ = try newline()
        var out: [UInt8] = []
        while true {
            guard let c = peek else { throw error("this multi-line string is not closed", at: open) }
            if c == Self.apostrophe {
                var n = 0
                while peek(n) == Self.apostrophe { n += 1 }
                if n >= 3 {
                    guard n <= 5 else { throw error("too many quotes at the end of a multi-line string") }
                    out += repeatElement(Self.apostrophe, count: n - 3)
                    i += n
                    break
                }
                out += repeatElement(Self.apostrophe, count: n)
                i += n
                continue
            }
            if try newline() { out.append(Self.lf); continue }
            if Self.isControl(c) { throw error("\(found) is not allowed in a literal string") }
            out.append(c)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An escape sequence at `i` (the backslash), its character appended as UTF-8.
    mutating func escape(into out: inout [UInt8]) throws(TOMLError) {
        let at = i
        i += 1
        guard let c = peek else { throw error("a backslash at the end of the file") }
        i += 1
        switch c {
        case 0x62: out.append(0x08)  // \b
        case 0x74: out.append(Self.tab)  // \t
        case 0x6E: out.append(Self.lf)  // \n
        case 0x66: out.append(0x0C)  // \f
        case 0x72: out.append(Self.cr)  // \r
        case Self.quote: out.append(Self.quote)
        case Self.backslash: out.append(Self.backslash)
        case 0x75, 0x55:  // \uXXXX, \UXXXXXXXX
            let digits = c == 0x75 ? 4 : 8
            var v: UInt32 = 0
            for _ in 0..<digits {
                guard let h = peek, let d = Self.hexDigit(h) else {
                    throw error("\\\(Character(Unicode.Scalar(c))) takes \(digits) hexadecimal digits", at: at)
                }
                v = v << 4 | UInt32(d)
                i += 1
            }
            guard let scalar = Unicode.Scalar(v) else {
                throw error("U+\(Self.hex4(v)) is not a Unicode scalar value (a surrogate, or past U+10FFFF)", at: at)
            }
            out += Array(String(Character(scalar)).utf8)
        default:
            i -= 1
            throw error(
                "unknown escape sequence '\\\(Self.unquoted(found))' (the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", at: at)
        }
    }

    static func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    /// `'x'` → `x` (for messages that quote a character of their own).
    static func unquoted(_ s: String) -> String {
        s.hasPrefix("'") && s.hasSuffix("'") && s.count >= 2 ? String(s.dropFirst().dropLast()) : s
    }
}
