// libFuzzer target: the named-HUD server's message framing and decoding.
// Built into the HUDSocket module by fuzz/run.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if bytes.count >= 8 {
        if let n = try? Wire.frameLength(header: Array(bytes.prefix(8)), tag: Wire.requestTag) {
            precondition(n >= 8 && n <= 8 + 64 * 1024, "frame length out of bounds: \(n)")
        }
    }
    if let r = try? Wire.Request.decode(bytes) {
        // What decodes encodes back to the same bytes.
        precondition(r.encoded() == bytes, "request does not round-trip")
    }
    if let r = try? Wire.Reply.decode(bytes) {
        precondition(Wire.Reply.decodeRoundTrips(r), "reply does not round-trip")
    }
    return 0
}

extension Wire.Reply {
    static func decodeRoundTrips(_ r: Wire.Reply) -> Bool { (try? Wire.Reply.decode(r.encoded())) == r }
}
