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
