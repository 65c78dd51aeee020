import HUDCore

/// The specification's body markup (`b`, `i`, `u`, `a`, `img`) as the Pango markup xhud draws:
/// bold, italic and underline kept and balanced, a link's text drawn as a link (underlined, in
/// `linkColor`), an image replaced by its `alt` text, any other tag dropped; `&`, `<` and `>`
/// that are not markup are escaped, so that whatever a client sends, Pango parses it.
package enum NotificationMarkup {
    /// A blue that reads on the dark and the light themes' bezels alike.
    package static let linkColor = "#3d8fe8"
    /// A link's text is marked (`HUDConfiguration.linkMark`) before and after, for a click to
    /// find which link it is on.
    static let linkOpen = "<span underline=\"single\" foreground=\"\(linkColor)\">" + String(Character(HUDConfiguration.linkMark))
    static let linkClose = String(Character(HUDConfiguration.linkMark)) + "</span>"

    /// Plain text (the summary) as markup.
    package static func escaped(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The body as Pango markup, at most `maxBytes` long (cut in the text, never in a tag).
    package static func body(_ s: String, maxBytes: Int = Limits.detailsBytes) -> String {
        var input = Limits.text(s, maxBytes: maxBytes)
        var out = sanitized(input)
        // Escaping lengthens the text (an `&` becomes 5 bytes): the input is cut shorter.
        while out.utf8.count > maxBytes, !input.isEmpty {
            input = Limits.text(input, maxBytes: input.utf8.count * maxBytes / out.utf8.count * 9 / 10)
            out = sanitized(input)
        }
        return out
    }

    static func sanitized(_ s: String) -> String {
        let chars = Array(s)
        var out = ""
        var open: [String] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == "<", let end = chars[(i + 1)...].prefix(1024).firstIndex(of: ">"), let tag = Tag(String(chars[(i + 1)..<end])) {
                i = end + 1
                switch tag.name {
                case "b", "i", "u", "a":
                    let pango = tag.name == "a" ? "span" : tag.name
                    if tag.closing {
                        if open.last == tag.name { open.removeLast(); out += tag.name == "a" ? linkClose : "</\(pango)>" }
                    } else {
                        open.append(tag.name)
                        out += tag.name == "a" ? linkOpen : "<\(pango)>"
                    }
                case "img":
                    if !tag.closing, let alt = tag.attribute("alt") { out += escaped(alt) }
                case "br":
                    out += "\n"
                default:
                    break  // any other tag: its text stays, the tag goes
                }
                continue
            }
            switch c {
            case "&": out += entity(at: i, in: chars) ? "&" : "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
            i += 1
        }
        for t in open.reversed() { out += t == "a" ? linkClose : "</\(t)>" }
        return out
    }

    /// Every link's address in a body, in order (`<a href="...">`, entities read; nil for one
    /// without an address), as `body` marks them: the n-th marked span is the n-th link.
    package static func links(_ body: String) -> [String?] {
        var out: [String?] = []
        var rest = Substring(body)
        while let lt = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: lt)...]
            guard let gt = after.prefix(1024).firstIndex(of: ">") else { break }
            if let tag = Tag(String(after[..<gt])), tag.name == "a", !tag.closing {
                out.append(tag.attribute("href").flatMap { $0.isEmpty ? nil : HUDConfiguration.plainText(ofMarkup: $0) })
            }
            rest = after[after.index(after: gt)...]
        }
        return out
    }

    /// Whether an entity Pango knows starts at `i` (`&amp;`, `&#169;`, `&#xA9;`, ...).
    static func entity(at i: Int, in chars: [Character]) -> Bool {
        guard let semi = chars[(i + 1)...].prefix(12).firstIndex(of: ";") else { return false }
        let name = String(chars[(i + 1)..<semi])
        if ["amp", "lt", "gt", "quot", "apos"].contains(name) { return true }
        guard name.hasPrefix("#") else { return false }
        let digits = name.dropFirst()
        let value = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let v = value, v != 0, let u = Unicode.Scalar(v) else { return false }
        return u.value >= 0x20 || u == "\t" || u == "\n" || u == "\r"
    }

    /// A tag: `<name attr="v" ...>`, `</name>`, `<name/>`.
    struct Tag {
        let name: String
        let closing: Bool
        let text: String

        init?(_ inner: String) {
            var body = Substring(inner)
            closing = body.hasPrefix("/")
            if closing { body = body.dropFirst() }
            if body.hasSuffix("/") { body = body.dropLast() }
            let name = body.prefix { $0.isASCII && $0.isLetter }
            guard !name.isEmpty else { return nil }
            let rest = body.dropFirst(name.count)
            guard rest.isEmpty || rest.first!.isWhitespace else { return nil }
            self.name = name.lowercased()
            text = String(rest)
        }

        /// An attribute's value, quoted with `"` or `'`, entities as written.
        func attribute(_ key: String) -> String? {
            var s = Substring(text)
            while let r = s.range(of: key + "=") {
                let after = s[r.upperBound...]
                if let q = after.first, q == "\"" || q == "'" {
                    let value = after.dropFirst().prefix { $0 != q }
                    return String(value)
                }
                s = after
            }
            return nil
        }
    }
}

extension Substring {
    func range(of needle: String) -> Range<Index>? {
        var i = startIndex
        while i < endIndex {
            if self[i...].hasPrefix(needle) { return i..<index(i, offsetBy: needle.count) }
            i = index(after: i)
        }
        return nil
    }
}
