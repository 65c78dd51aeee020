// libFuzzer target: the TOML reader of configuration files and themes. Any bytes give a table
// or an error with its line and column inside the text, never a trap, a blown stack or a hang
// (libFuzzer's -timeout). Built into the HUDTOML module by fuzz/run.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTOML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let table = try TOML.parse(text)
        // Every key has a line within the text.
        var lines = 1
        for c in text.utf8 where c == 0x0A { lines += 1 }
        for key in table.keys {
            let line = table.line(of: key)
            precondition(line != nil && line! >= 1 && line! <= lines, "a key's line out of the text")
        }
    } catch {
        var lines = 1
        for c in text.utf8 where c == 0x0A { lines += 1 }
        precondition(error.line >= 1 && error.line <= lines, "an error's line out of the text")
        precondition(error.column >= 1, "an error's column before the line")
        precondition(!error.message.isEmpty, "an error without a message")
    }
    return 0
}
