/// The nearest of some words to a mistyped one, for "did you mean" in a usage error: the
/// restricted Damerau-Levenshtein distance (a swap of two neighbours is one edit, as typing
/// makes them), at most a third of the word's length (2 from four letters on, 1 below), ties to
/// the first.
package enum Suggestion {
    package static func nearest(to word: String, among candidates: [String]) -> String? {
        let w = Array(word.lowercased().utf8)
        // Nothing longer than a line is a misspelt name: a megabyte of option is refused at once,
        // not compared with every name in time proportional to its length.
        guard !w.isEmpty, w.count <= 80 else { return nil }
        let limit = w.count < 4 ? 1 : max(2, w.count / 3)
        var best: (word: String, distance: Int)?
        for c in candidates {
            // The distance is at least the difference of the lengths.
            if abs(c.utf8.count - w.count) > limit, !(w.count >= 3 && c.lowercased().hasPrefix(word.lowercased())) { continue }
            // A prefix of an option names it well enough ("--hide" for "--hide-after").
            let d = c.lowercased().hasPrefix(word.lowercased()) && w.count >= 3 ? 1 : distance(w, Array(c.lowercased().utf8))
            if d <= limit, d < (best?.distance ?? .max) { best = (c, d) }
        }
        return best?.word
    }

    /// ", did you mean 'X'?" or "".
    package static func hint(for word: String, among candidates: [String], prefix: String = "") -> String {
        nearest(to: word, among: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }

    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], before[j - 2] + 1) }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
