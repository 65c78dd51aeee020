/// Finds the last "NN%" (or "NN.N%") in output, across chunk boundaries: make's "[ 42%]",
/// curl's and rsync's meters (which redraw with \r).
package struct PercentScanner {
    package init() {}
    private var tail: [UInt8] = []
    private var last: Int? = nil

    /// The new percentage when it changed.
    package mutating func scan(_ chunk: ArraySlice<UInt8>) -> Int? {
        let bytes = tail + chunk
        var found: Double? = nil
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%") {
                var j = i
                if j > 0 && bytes[j - 1] == UInt8(ascii: " ") { j -= 1 }
                var k = j
                while k > 0 && (isDigit(bytes[k - 1]) || bytes[k - 1] == UInt8(ascii: ".")) && j - k < 8 { k -= 1 }
                if k < j, let v = Double(String(decoding: bytes[k..<j], as: UTF8.self)), v >= 0, v <= 100 { found = v }
            }
            i += 1
        }
        // Keep a partial number that may end in the next chunk.
        var start = bytes.count
        while start > 0 && bytes.count - start < 12
            && (isDigit(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") || bytes[start - 1] == UInt8(ascii: " "))
        { start -= 1 }
        tail = Array(bytes[start...])
        guard let f = found else { return nil }
        let v = Int(f.rounded(.down))
        if v == last { return nil }
        last = v
        return v
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
}
