// A value at `i`: a string, an array, an inline table or a scalar, nested no deeper than
// `TOML.maxDepth`.
extension TOMLParser {
    enum Parsed {
        case value(TOMLValue)
        case table(TOMLBuilder)
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
    mutating func inlineTable() throws(TOMLError) -> TOMLBuilder {
        try nest()
        defer { depth -= 1 }
        i += 1
        let t = TOMLBuilder(.dotted)
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
}
