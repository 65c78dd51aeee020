// Booleans, integers and floats, and the syntax each is written in.
extension TOMLParser {
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
