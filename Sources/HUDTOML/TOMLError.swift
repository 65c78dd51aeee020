/// Why a text is not TOML, and where: `line:column: message` (both from 1; the column counts
/// characters).
package struct TOMLError: Error, Equatable, Sendable, CustomStringConvertible {
    package let line: Int
    package let column: Int
    package let message: String
    package var description: String { "\(line):\(column): \(message)" }
}
