// libFuzzer target: the stdin line protocol, from raw bytes to a configuration the renderer gets.
// Built into the HUDCore module by fuzz/run (internal names are reachable).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStdin(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var lines = LineBuffer(limit: 256)
    var config = HUDConfiguration()
    var all = lines.append(UnsafeRawBufferPointer(start: data, count: size))
    if let last = lines.finish() { all.append(last) }
    for l in all {
        // Each invalid byte becomes U+FFFD (3 bytes): the text is at most three times the limit.
        precondition(l.line.utf8.count <= 3 * 256, "a line longer than the limit allows")
        precondition(!l.line.utf8.contains(0), "a NUL reached the text")
        _ = l.line.escapingControlCharacters
        switch InputCommand.parse(l.line) {
        case .set(let change):
            change.apply(to: &config)
            precondition((0...1).contains(config.progress), "progress out of range: \(config.progress)")
        case .hide(let delay):
            precondition(delay.isFinite && Limits.seconds.contains(delay), "hide delay out of range: \(delay)")
        default: break
        }
    }
    let c = config.clamped
    precondition(c.clamped == c, "clamping is not idempotent")
    return 0
}
