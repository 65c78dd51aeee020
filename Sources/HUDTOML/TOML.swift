/// A small, strict TOML 1.0 reader in plain Swift: no Foundation, no C. It reads what xhud's
/// configuration files and themes are made of — tables (`[a.b]`, `[[a]]`), dotted and quoted
/// keys, basic and literal strings (multi-line too, escapes including `\uXXXX`), integers
/// (underscores, `0x`/`0o`/`0b`), floats (exponents, `inf`, `nan`), booleans, arrays (nested,
/// over several lines, a trailing comma) and inline tables — and refuses dates and times with an
/// error that says so. Every key remembers its line, so that a warning about a value can name it.
///
/// One pass over the bytes, no backtracking: the time is linear in the input (a megabyte in
/// milliseconds), nesting is bounded (`maxDepth`), and any input gives a table or a `TOMLError`
/// with its line and column, never a trap (fuzz/targets/toml.swift).
package enum TOML {
    /// Arrays and inline tables nested deeper than this are refused, and keys of more parts
    /// than `maxKeyParts`: tables are built and read back recursively, and a stack is finite.
    package static let maxDepth = 32
    package static let maxKeyParts = 32

    package static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var p = Parser(Array(text.utf8))
        return try p.document()
    }
}

package enum TOMLValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case bool(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The type as TOML names it, for messages.
    package var typeName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .float: return "float"
        case .bool: return "boolean"
        case .array: return "array"
        case .table: return "table"
        }
    }

    package var table: TOMLTable? { if case .table(let t) = self { return t } else { return nil } }
}

/// A table: its keys in the order they were written, each with its value and the line it is on
/// (a table's: the line of its `[header]`, or of the first key that made it).
package struct TOMLTable: Equatable, Sendable {
    package private(set) var keys: [String] = []
    private var entries: [String: (value: TOMLValue, line: Int)] = [:]

    package init() {}

    init(keys: [String], entries: [String: (value: TOMLValue, line: Int)]) {
        self.keys = keys
        self.entries = entries
    }

    package subscript(key: String) -> TOMLValue? { entries[key]?.value }
    package func line(of key: String) -> Int? { entries[key]?.line }
    package var count: Int { keys.count }

    mutating func set(_ key: String, _ value: TOMLValue, line: Int) {
        if entries.updateValue((value, line), forKey: key) == nil { keys.append(key) }
    }

    package static func == (a: TOMLTable, b: TOMLTable) -> Bool {
        a.keys == b.keys && a.keys.allSatisfy { a.entries[$0]!.value == b.entries[$0]!.value && a.entries[$0]!.line == b.entries[$0]!.line }
    }
}

/// Why a text is not TOML, and where: `line:column: message` (both from 1; the column counts
/// characters).
package struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String
    package var description: String { "\(line):\(column): \(message)" }
}

// MARK: - The tables being built

/// A table while the document is read: how it came to be decides what may still be added.
private final class Builder {
    enum Origin {
        /// Made as the parent of a `[header]`: a `[header]` of its own may still define it.
        case implicit
        /// Defined by a `[header]` (or an element of an array of tables).
        case header
        /// Made by a dotted key (`a.b = 1`): other dotted keys of the same table may add to it.
        case dotted
        /// An inline table: closed once written.
        case inline
    }
    enum Entry {
        case value(TOMLValue)
        case table(Builder)
        case tables([Builder])
    }
    var origin: Origin
    var keys: [String] = []
    var entries: [String: (entry: Entry, line: Int)] = [:]

    init(_ origin: Origin) { self.origin = origin }

    func set(_ key: String, _ entry: Entry, line: Int) {
        if entries.updateValue((entry, line), forKey: key) == nil { keys.append(key) }
    }

    func seal() {
        origin = .inline
        for k in keys { if case .table(let t) = entries[k]!.entry { t.seal() } }
    }

    var table: TOMLTable {
        // mapValues keeps the dictionary's layout: nothing is hashed again.
        TOMLTable(
            keys: keys,
            entries: entries.mapValues { e in
                switch e.entry {
                case .value(let v): return (v, e.line)
                case .table(let b): return (.table(b.table), e.line)
                case .tables(let bs): return (.array(bs.map { .table($0.table) }), e.line)
                }
            })
    }
}

// MARK: - The parser

private struct Parser {
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
            return "the control character U+" + hex4(UInt32(c))
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
        let root = Builder(.header)
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
    mutating func header(_ root: Builder) throws(TOMLError) -> Builder {
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
                        let t = Builder(.header)
                        table.set(part.name, .tables(ts + [t]), line: table.entries[part.name]!.line)
                        table = t
                    } else {
                        table = ts[ts.count - 1]
                    }
                }
            } else {
                let t = Builder(last ? .header : .implicit)
                table.set(part.name, last && isArray ? .tables([t]) : .table(t), line: headerLine)
                table = t
            }
        }
        return table
    }

    /// `key = value` into `table` (a dotted key making or extending tables of its own).
    mutating func keyValue(into table: Builder) throws(TOMLError) {
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
                let sub = Builder(.dotted)
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

    // MARK: Values

    enum Parsed {
        case value(TOMLValue)
        case table(Builder)
    }

    mutating func value() throws(TOMLError) -> Parsed {
        guard let c = peek else { throw error("expected a value, found the end of the file") }
        switch c {
        case Self.quote:
            if peek(1) == Self.quote && peek(2) == Self.quote { return .value(.string(try multilineBasicString())) }
            return .value(.string(try basicString()))
        case Self.apostrophe:
            if peek(1) == Self.apostrophe && peek(2) == Self.apostrophe { return .value(.string(try multilineLiteralString())) }
            return .value(.string(try literalString()))
        case Self.lbracket:
            return .value(try array())
        case Self.lbrace:
            return .table(try inlineTable())
        default:
            return .value(try scalar())
        }
    }

    mutating func nest() throws(TOMLError) {
        depth += 1
        if depth > TOML.maxDepth { throw error("arrays and inline tables are nested more than \(TOML.maxDepth) deep") }
    }

    mutating func array() throws(TOMLError) -> TOMLValue {
        try nest()
        defer { depth -= 1 }
        i += 1
        var items: [TOMLValue] = []
        while true {
            try skipBlank()
            if peek == Self.rbracket { i += 1; return .array(items) }
            switch try value() {
            case .value(let v): items.append(v)
            case .table(let t): items.append(.table(t.table))
            }
            try skipBlank()
            guard let c = peek else { throw error("expected ',' or ']' in an array, found the end of the file") }
            if c == Self.comma { i += 1; continue }
            if c == Self.rbracket { i += 1; return .array(items) }
            throw error("expected ',' or ']' in an array, found \(found)")
        }
    }

    /// `{ a = 1, b.c = "x" }`: on one line, no trailing comma, closed once written.
    mutating func inlineTable() throws(TOMLError) -> Builder {
        try nest()
        defer { depth -= 1 }
        i += 1
        let t = Builder(.dotted)
        skipSpaces()
        if peek == Self.rbrace { i += 1; t.seal(); return t }
        while true {
            skipSpaces()
            try keyValue(into: t)
            skipSpaces()
            guard let c = peek else { throw error("expected ',' or '}' in an inline table, found the end of the file") }
            if c == Self.comma { i += 1; skipSpaces(); if peek == Self.rbrace { throw error("an inline table cannot end with a comma") }; continue }
            if c == Self.rbrace { i += 1; t.seal(); return t }
            throw error("expected ',' or '}' in an inline table, found \(found) (an inline table is written on one line)")
        }
    }

    // MARK: Strings

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
                throw error("U+\(hex4(v)) is not a Unicode scalar value (a surrogate, or past U+10FFFF)", at: at)
            }
            out += Array(String(Character(scalar)).utf8)
        default:
            i -= 1
            throw error(
                "unknown escape sequence '\\\(found.trimmingQuotes)' (the escapes are \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", at: at)
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

    // MARK: Numbers, booleans

    /// A boolean, integer or float: the run of characters they are made of, then its reading.
    mutating func scalar() throws(TOMLError) -> TOMLValue {
        let start = i
        while let c = peek, Self.isBare(c) || c == 0x2B || c == Self.dot || c == 0x3A { i += 1 }  // + . :
        guard i > start else { throw error("expected a value, found \(found)") }
        let token = b[start..<i]
        if let first = token.first, first >= 0x61 || token.count > 1 && token[start + 1] >= 0x61 {  // a letter first (or after a sign)
            switch String(decoding: token, as: UTF8.self) {
            case "true": return .bool(true)
            case "false": return .bool(false)
            case "inf", "+inf": return .float(.infinity)
            case "-inf": return .float(-.infinity)
            case "nan", "+nan", "-nan": return .float(.nan)
            default: break
            }
        }
        var text: String { String(decoding: token, as: UTF8.self) }
        if Self.looksLikeDate(token) {
            throw error("dates and times are not supported (no setting takes one): write a string, \"\(text)\"", at: start)
        }
        if let v = Self.integer(token) { return .integer(v) }
        if let d = Self.float(token) { return .float(d) }
        if Self.integerSyntax(token) { throw error("\(text) does not fit in a 64-bit integer", at: start) }
        if let c = token.first, !(c >= 0x30 && c <= 0x39) && c != 0x2B && c != 0x2D && c != Self.dot {
            throw error("expected a value, found '\(text)' (a string is written in quotes: \"\(text)\")", at: start)
        }
        throw error("'\(text)' is not a valid number", at: start)
    }

    /// 1979-05-27, 07:32:00, 1979-05-27T07:32:00Z...
    static func looksLikeDate(_ t: ArraySlice<UInt8>) -> Bool {
        let s = t.startIndex
        func digit(_ k: Int) -> Bool { k < t.count && t[s + k] >= 0x30 && t[s + k] <= 0x39 }
        if t.count >= 5 && digit(0) && digit(1) && digit(2) && digit(3) && t[s + 4] == 0x2D { return true }
        if t.count >= 3 && digit(0) && digit(1) && t[s + 2] == 0x3A { return true }
        return false
    }

    /// Digits with single underscores between them, in `base`; nil when the text is not that.
    static func digits(_ t: ArraySlice<UInt8>, base: Int) -> [UInt8]? {
        guard let first = t.first, let last = t.last, first != 0x5F, last != 0x5F else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(t.count)
        var previous: UInt8 = 0
        for c in t {
            if c == 0x5F {
                if previous == 0x5F { return nil }
            } else {
                guard let d = hexDigit(c), Int(d) < base else { return nil }
                out.append(d)
            }
            previous = c
        }
        return out
    }

    /// Whether the token is written as an integer (whatever its size).
    static func integerSyntax(_ token: ArraySlice<UInt8>) -> Bool {
        var t = token
        if t.first == 0x2B || t.first == 0x2D { t = t.dropFirst() }
        guard let ds = digits(t, base: 10) else { return false }
        return !(ds.count > 1 && t.first == 0x30)
    }

    static func integer(_ token: ArraySlice<UInt8>) -> Int64? {
        var t = token
        // 0x, 0o, 0b: no sign, leading zeros allowed.
        var prefixed: Int?
        if t.count > 2 && t.first == 0x30 {
            switch t[t.startIndex + 1] {
            case 0x78: prefixed = 16
            case 0x6F: prefixed = 8
            case 0x62: prefixed = 2
            default: break
            }
        }
        if let base = prefixed {
            guard let ds = digits(t.dropFirst(2), base: base) else { return nil }
            var v: Int64 = 0
            for d in ds {
                let (m, o1) = v.multipliedReportingOverflow(by: Int64(base))
                let (s, o2) = m.addingReportingOverflow(Int64(d))
                if o1 || o2 { return nil }
                v = s
            }
            return v
        }
        var negative = false
        if t.first == 0x2B || t.first == 0x2D { negative = t.first == 0x2D; t = t.dropFirst() }
        guard let ds = digits(t, base: 10), !(ds.count > 1 && t.first == 0x30) else { return nil }
        var v: Int64 = 0
        for d in ds {
            // Built negative: Int64.min has no positive counterpart.
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.subtractingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            v = s
        }
        if negative { return v }
        let (p, o) = Int64(0).subtractingReportingOverflow(v)
        return o ? nil : p
    }

    /// [+-] integer part (no leading zero), then `.digits` and/or `e[+-]digits`.
    static func float(_ token: ArraySlice<UInt8>) -> Double? {
        var t = token
        var text = ""
        if t.first == 0x2B || t.first == 0x2D { if t.first == 0x2D { text = "-" }; t = t.dropFirst() }
        let exponentAt = t.firstIndex { $0 == 0x65 || $0 == 0x45 }
        let mantissa = t[..<(exponentAt ?? t.endIndex)]
        let dotAt = mantissa.firstIndex(of: dot)
        let whole = mantissa[..<(dotAt ?? mantissa.endIndex)]
        guard let w = digits(whole, base: 10), !(w.count > 1 && whole.first == 0x30) else { return nil }
        text += String(decoding: w.map { $0 + 0x30 }, as: UTF8.self)
        if let dotAt {
            guard let f = digits(mantissa[(dotAt + 1)...], base: 10) else { return nil }
            text += "." + String(decoding: f.map { $0 + 0x30 }, as: UTF8.self)
        }
        if let exponentAt {
            var e = t[(exponentAt + 1)...]
            text += "e"
            if e.first == 0x2B || e.first == 0x2D { if e.first == 0x2D { text += "-" }; e = e.dropFirst() }
            guard let ds = digits(e, base: 10) else { return nil }
            text += String(decoding: ds.map { $0 + 0x30 }, as: UTF8.self)
        }
        guard dotAt != nil || exponentAt != nil else { return nil }
        return Double(text)
    }
}

private func hex4(_ v: UInt32) -> String {
    let h = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - h.count)) + h
}

private extension String {
    /// `'x'` → `x` (for messages that quote a character of their own).
    var trimmingQuotes: String {
        hasPrefix("'") && hasSuffix("'") && count >= 2 ? String(dropFirst().dropLast()) : self
    }
}
