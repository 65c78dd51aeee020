/// What an SVG may ask of librsvg before it is handed over: an icon is a few kilobytes of paths,
/// and librsvg, in the one process that draws every HUD, spends whatever a document asks for
/// (a turbulence filter of a million octaves, text of a hundred thousand glyphs, an entity
/// expanded twenty thousand times, a compressed bomb, an embedded bitmap past the PNG limit).
/// The document is read as bytes, without a parser of its own to attack.
enum SVGLimits {
    /// Larger documents are no icons.
    static let maxBytes = 1 << 20
    /// Characters of text in all `<text>` elements together.
    static let maxTextBytes = 4_096
    /// A turbulence filter's octaves (each octave is a pass over every pixel it covers).
    static let maxOctaves = 8
    /// Filter primitives in the whole document.
    static let maxFilterPrimitives = 32
    /// Embedded bitmaps (`data:` URIs), each checked against the PNG limit.
    static let maxEmbeddedImages = 8

    /// Why the document may not be drawn, or nil.
    static func problem(_ bytes: [UInt8]) -> String? {
        if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B {
            return "compressed SVG (.svgz) is not drawn: decompress it (gunzip -S .svgz)"
        }
        guard bytes.count <= maxBytes else { return "an SVG of more than \(maxBytes >> 20) MB is no icon" }
        if find(bytes, "<!ENTITY", from: 0) != nil { return "SVG entity declarations are not allowed" }
        var text = 0
        var at = 0
        while let open = find(bytes, "<text", from: at) {
            guard let start = find(bytes, ">", from: open) else { break }
            let end = find(bytes, "</text", from: start) ?? bytes.count
            text += end - start
            at = end
            if text > maxTextBytes { return "SVG text longer than \(maxTextBytes) bytes is not drawn" }
        }
        if occurrences(of: "<fe", in: bytes, past: maxFilterPrimitives) {
            return "an SVG with more than \(maxFilterPrimitives) filter primitives is not drawn"
        }
        at = 0
        while let o = find(bytes, "numOctaves", from: at) {
            at = o + 10
            if let n = attributeNumber(bytes, after: at), n > Double(maxOctaves) {
                return "an SVG turbulence of \(Int(min(n, 1e9))) octaves is not drawn (at most \(maxOctaves))"
            }
        }
        if occurrences(of: "data:", in: bytes, past: maxEmbeddedImages) {
            return "an SVG with more than \(maxEmbeddedImages) embedded images is not drawn"
        }
        at = 0
        while let d = find(bytes, "data:", from: at) {
            at = d + 5
            if let why = embeddedImageProblem(bytes, at: at) { return why }
        }
        return nil
    }

    /// Whether `needle` occurs more than `limit` times (the scan stops there).
    private static func occurrences(of needle: String, in bytes: [UInt8], past limit: Int) -> Bool {
        var count = 0, at = 0
        while let i = find(bytes, needle, from: at) {
            count += 1
            if count > limit { return true }
            at = i + needle.utf8.count
        }
        return false
    }

    /// A `data:` URI's image: a PNG within the PNG limits (read from its base64 header), or
    /// nothing else (a JPEG's size is not where a scan can read it).
    private static func embeddedImageProblem(_ bytes: [UInt8], at start: Int) -> String? {
        guard let comma = find(bytes, ",", from: start), comma - start < 100 else { return "an SVG's data: URI is malformed" }
        let header = String(decoding: bytes[start..<comma], as: UTF8.self).lowercased()
        guard header.hasPrefix("image/png"), header.hasSuffix(";base64") else {
            return "an SVG's embedded image must be a base64 PNG (got data:\(header.prefix(40)))"
        }
        // The first 24 bytes of the PNG: signature, IHDR length and type, width, height.
        guard let png = base64Prefix(bytes, from: comma + 1, count: 24), png.count == 24,
            png[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        else { return "an SVG's embedded PNG is not a PNG" }
        func be32(_ i: Int) -> Int { Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3]) }
        let w = be32(16), h = be32(20)
        guard w > 0, h > 0, w <= ImageFile.maxPixels, h <= ImageFile.maxPixels, w * h <= ImageFile.maxPixels else {
            return "an SVG's embedded PNG of \(w)x\(h) pixels is more than a HUD image may have"
        }
        return nil
    }

    private static func base64Prefix(_ bytes: [UInt8], from start: Int, count: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var acc = 0, bits = 0, i = start
        while out.count < count, i < bytes.count {
            let c = bytes[i]
            i += 1
            let v: Int
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = Int(c) - 65
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = Int(c) - 71
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = Int(c) + 4
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return out
            }
            acc = (acc << 6) | v
            bits += 6
            if bits >= 8 { bits -= 8; out.append(UInt8((acc >> bits) & 0xFF)) }
        }
        return out
    }

    /// The number in `="N"` (or `='N'`) right after an attribute's name.
    private static func attributeNumber(_ bytes: [UInt8], after i: Int) -> Double? {
        var j = i
        while j < bytes.count,
            bytes[j] == 0x20 || bytes[j] == UInt8(ascii: "=") || bytes[j] == UInt8(ascii: "\"")
                || bytes[j] == UInt8(ascii: "'")
        { j += 1 }
        var k = j
        while k < bytes.count, k - j < 32,
            (bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9"))
                || bytes[k] == UInt8(ascii: ".") || bytes[k] == UInt8(ascii: "e") || bytes[k] == UInt8(ascii: "+")
        { k += 1 }
        if k - j >= 32 { return .infinity }
        return Double(String(decoding: bytes[j..<k], as: UTF8.self))
    }

    /// The first index of `needle` at or after `from`.
    static func find(_ bytes: [UInt8], _ needle: String, from: Int) -> Int? {
        let n = Array(needle.utf8)
        guard let first = n.first, bytes.count >= n.count, from <= bytes.count - n.count else { return nil }
        var i = from
        let last = bytes.count - n.count
        while i <= last {
            if bytes[i] == first {
                var k = 1
                while k < n.count && bytes[i + k] == n[k] { k += 1 }
                if k == n.count { return i }
            }
            i += 1
        }
        return nil
    }
}
