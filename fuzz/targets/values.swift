// libFuzzer target: colours, masks, geometry, and every number of a configuration through
// clamping, layout and the conversions that reach C calls: nothing may trap.
// Built into the HUDCore module by fuzz/run.

private struct FixedMeasurer: TextMeasurer {
    func measure(_ r: TextRequest) -> Size {
        let w = Double(r.text.utf8.count) * 9
        return Size(width: min(w, max(0, r.maxWidth)), height: r.text.isEmpty ? 0 : 19)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValues(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    _ = try? RGBA.parse(text)
    // Text is bounded whatever it holds: bytes, and marks on a character.
    let bounded = Limits.text(text, maxBytes: 64)
    precondition(bounded.utf8.count <= 64, "text past its bound")
    _ = try? HUDMask.parse(text)
    if let r = parseGeometry(text) {
        precondition(Limits.extent.contains(Int(r.width)) && Limits.extent.contains(Int(r.height)), "geometry size out of range")
        precondition(Limits.coordinate.contains(Int(r.x)) && Limits.coordinate.contains(Int(r.y)), "geometry position out of range")
    }
    // Raw doubles (any bit pattern: NaN, infinities, subnormals) into every numeric field.
    var doubles: [Double] = []
    var i = 0
    while i + 8 <= size {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(bytes[i + k]) << (8 * k) }
        doubles.append(Double(bitPattern: bits))
        i += 8
    }
    guard doubles.count >= 12 else { return 0 }
    var c = HUDConfiguration()
    c.mode = HUDMode.allCases[Int(bytes[0]) % HUDMode.allCases.count]
    c.label = "Label"; c.details = String(repeating: "details ", count: Int(bytes[1] % 40))
    c.progress = doubles[0]; c.margin = doubles[1]; c.cornerRadius = doubles[2]; c.imageSize = doubles[3]
    c.minSize = Size(width: doubles[4], height: doubles[5]); c.offset = Point(x: doubles[6], y: doubles[7])
    c.graceTime = doubles[8]; c.minShowTime = doubles[9]; c.spacing = doubles[10]
    c = c.clamped
    let region = Size(width: Limits.scale.clamp(doubles[11]) * 1000, height: 800)
    let layout = HUDLayout.compute(c, region: region, measurer: FixedMeasurer())
    // What the X11 backend converts: device pixels of the bezel at any scale.
    for v in [layout.bezel.x, layout.bezel.y, layout.bezel.width, layout.bezel.height] + doubles {
        _ = Int32(saturating: v * 8); _ = UInt32(saturating: v); _ = Int16(saturating: v)
        _ = Int32(saturatingMilliseconds: v)
    }
    return 0
}
