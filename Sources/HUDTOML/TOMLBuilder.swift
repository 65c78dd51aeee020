/// A table while the document is read: how it came to be decides what may still be added.
final class TOMLBuilder {
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
        case table(TOMLBuilder)
        case tables([TOMLBuilder])
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
