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
        var p = TOMLParser(Array(text.utf8))
        return try p.document()
    }
}
