/// The reader of `TOML.parse`: one pass over the bytes, the line and column of `i` kept for
/// messages. Its values, strings and numbers are in the extensions beside this file.
struct TOMLParser {
    let b: [UInt8]
    var i = 0
    var line = 1
    var lineStart = 0
    var depth = 0

    init(_ bytes: [UInt8]) { b = bytes }

    // Bytes
    static let tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, space: UInt8 = 0x20
    static let quote: UInt8 = 0x22, apostrophe: UInt8 = 0x27, hash: UInt8 = 0x23, backslash: UInt8 = 0x5C
    static let comma: UInt8 = 0x2C, dot: UInt8 = 0x2E, equals: UInt8 = 0x3D
    static let lbracket: UInt8 = 0x5B, rbracket: UInt8 = 0x5D, lbrace: UInt8 = 0x7B, rbrace: UInt8 = 0x7D

    var atEnd: Bool { i >= b.count }
    var peek: UInt8? { i < b.count ? b[i] : nil }
    func peek(_ k: Int) -> UInt8? { i + k < b.count ? b[i + k] : nil }

    func error(_ message: String, at position: Int? = nil) -> TOMLError {
        let at = min(position ?? i, b.count)
        // Line and column of `at`: the line is tracked, unless the position is behind its start.
        var l = line, start = lineStart
        if at < lineStart {
            l = 1; start = 0
            for k in 0..<at where b[k] == Self.lf { l += 1; start = k + 1 }
        }
        // Characters, not bytes: a UTF-8 continuation byte starts none.
        var column = 1
        for k in start..<at where b[k] & 0xC0 != 0x80 { column += 1 }
        return TOMLError(line: l, column: column, message: message)
    }

    /// What the byte at `i` is, for messages.
    var found: String {
        guard let c = peek else { return "the end of the file" }
        switch c {
        case Self.lf, Self.cr: return "the end of the line"
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        default:
            if c >= 0x80 {
                var end = i + 1
                while end < b.count && b[end] & 0xC0 == 0x80 && end - i < 4 { end += 1 }
                return "'" + String(decoding: b[i..<end], as: UTF8.self) + "'"
            }
            return "the control character U+" + Self.hex4(UInt32(c))
        }
    }

    mutating func skipSpaces() {
        while let c = peek, c == Self.space || c == Self.tab { i += 1 }
    }

    /// A newline (LF or CRLF) at `i`, consumed; false when there is none.
    mutating func newline() throws(TOMLError) -> Bool {
        guard let c = peek else { return false }
        if c == Self.lf { i += 1; line += 1; lineStart = i; return true }
        if c == Self.cr {
            guard peek(1) == Self.lf else { throw error("a carriage return must be followed by a line feed") }
            i += 2; line += 1; lineStart = i; return true
        }
        return false
    }

    /// A comment from `#` to the end of the line (not the newline).
    mutating func comment() throws(TOMLError) {
        guard peek == Self.hash else { return }
        i += 1
        while let c = peek, c != Self.lf {
            if c == Self.cr && peek(1) == Self.lf { break }
            if (c < 0x20 && c != Self.tab) || c == 0x7F { throw error("\(found) is not allowed in a comment") }
            i += 1
        }
    }

    /// Spaces, a comment, then a newline or the end: what ends a line of a key or a header.
    mutating func endOfLine(after what: String) throws(TOMLError) {
        skipSpaces()
        try comment()
        if atEnd { return }
        guard try newline() else { throw error("expected the end of the line after \(what), found \(found)") }
    }

    /// Spaces, newlines and comments (inside an array).
    mutating func skipBlank() throws(TOMLError) {
        while true {
            skipSpaces()
            try comment()
            guard try newline() else { return }
        }
    }

    // MARK: Document

    mutating func document() throws(TOMLError) -> TOMLTable {
        let root = TOMLBuilder(.header)
        var current = root
        // Skip a byte order mark.
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3; lineStart = 3 }
        while true {
            skipSpaces()
            try comment()
            if atEnd { break }
            if try newline() { continue }
            if peek == Self.lbracket {
                current = try header(root)
            } else {
                try keyValue(into: current)
                try endOfLine(after: "a value")
            }
        }
        return root.table
    }

    /// `[a.b]` or `[[a.b]]`: the table that the following keys go into.
    mutating func header(_ root: TOMLBuilder) throws(TOMLError) -> TOMLBuilder {
        let start = i
        let headerLine = line
        i += 1
        let isArray = peek == Self.lbracket
        if isArray { i += 1 }
        skipSpaces()
        let path = try key()
        guard peek == Self.rbracket else { throw error("expected ']' to end the table's name, found \(found)") }
        i += 1
        if isArray {
            guard peek == Self.rbracket else { throw error("expected ']]' to end the array of tables' name, found \(found)") }
            i += 1
        }
        try endOfLine(after: "a table's header")
        let name = path.map { $0.name }.joined(separator: ".")
        var table = root
        for (k, part) in path.enumerated() {
            let last = k == path.count - 1
            if let existing = table.entries[part.name] {
                switch existing.entry {
                case .value:
                    throw error("'\(name)': '\(part.name)' already has a value (line \(table.entries[part.name]!.line))", at: part.at)
                case .table(let t):
                    if t.origin == .inline { throw error("'\(name)': the inline table '\(part.name)' cannot be extended", at: part.at) }
                    if last {
                        if isArray { throw error("'\(name)' is already a table, not an array of tables", at: part.at) }
                        guard t.origin == .implicit else { throw error("table '\(name)' is defined twice", at: start) }
                        t.origin = .header
                    }
                    table = t
                case .tables(let ts):
                    if last {
                        guard isArray else { throw error("'\(name)' is an array of tables, written [[\(name)]]", at: start) }
                        let t = TOMLBuilder(.header)
                        table.set(part.name, .tables(ts + [t]), line: table.entries[part.name]!.line)
                        table = t
                    } else {
                        table = ts[ts.count - 1]
                    }
                }
            } else {
                let t = TOMLBuilder(last ? .header : .implicit)
                table.set(part.name, last && isArray ? .tables([t]) : .table(t), line: headerLine)
                table = t
            }
        }
        return table
    }

    /// `key = value` into `table` (a dotted key making or extending tables of its own).
    mutating func keyValue(into table: TOMLBuilder) throws(TOMLError) {
        let keyLine = line
        let path = try key()
        let name = path.map { $0.name }.joined(separator: ".")
        guard peek == Self.equals else { throw error("expected '=' after the key '\(name)', found \(found)") }
        i += 1
        skipSpaces()
        var t = table
        for part in path.dropLast() {
            if let existing = t.entries[part.name] {
                guard case .table(let sub) = existing.entry, sub.origin == .dotted else {
                    throw error(
                        "'\(name)': '\(part.name)' is already defined (line \(existing.line)) and cannot be extended by a dotted key", at: part.at)
                }
                t = sub
            } else {
                let sub = TOMLBuilder(.dotted)
                t.set(part.name, .table(sub), line: keyLine)
                t = sub
            }
        }
        let last = path[path.count - 1]
        if let existing = t.entries[last.name] {
            throw error("the key '\(name)' is defined twice (first on line \(existing.line))", at: last.at)
        }
        let v = try value()
        switch v {
        case .table(let inline): t.set(last.name, .table(inline), line: keyLine)
        case .value(let value): t.set(last.name, .value(value), line: keyLine)
        }
    }

    /// A key, bare, quoted or dotted, and the spaces after it.
    mutating func key() throws(TOMLError) -> [(name: String, at: Int)] {
        var parts: [(name: String, at: Int)] = []
        while true {
            let at = i
            guard let c = peek else { throw error("expected a key, found the end of the file") }
            let name: String
            if c == Self.quote {
                if peek(1) == Self.quote && peek(2) == Self.quote { throw error("a key cannot be a multi-line string") }
                name = try basicString()
            } else if c == Self.apostrophe {
                if peek(1) == Self.apostrophe && peek(2) == Self.apostrophe { throw error("a key cannot be a multi-line string") }
                name = try literalString()
            } else {
                let start = i
                while let c = peek, Self.isBare(c) { i += 1 }
                guard i > start else { throw error("expected a key, found \(found)") }
                name = String(decoding: b[start..<i], as: UTF8.self)
            }
            parts.append((name, at))
            if parts.count > TOML.maxKeyParts { throw error("a key of more than \(TOML.maxKeyParts) parts", at: at) }
            skipSpaces()
            guard peek == Self.dot else { return parts }
            i += 1
            skipSpaces()
        }
    }

    static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x5F || c == 0x2D
    }

    /// `v` in hexadecimal, at least four digits (as U+ names are written).
    static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }
}
