// libFuzzer target: the scan that bounds what an SVG may ask of librsvg (SVGLimits), on any
// bytes: it must never trap, never read past the input, and refuse every compressed document.
// Built with Sources/HUDRender/SVGLimits.swift alone by fuzz/run (this shim stands for the PNG
// limit it shares with ImageFile).

enum ImageFile { static let maxPixels = 2048 * 2048 }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSVG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let problem = SVGLimits.problem(bytes)
    if bytes.count >= 2, bytes[0] == 0x1F, bytes[1] == 0x8B { precondition(problem != nil, "a compressed document passed") }
    if bytes.count > SVGLimits.maxBytes { precondition(problem != nil, "an oversized document passed") }
    // The same document as a text inside a valid frame.
    let framed = Array("<svg xmlns=\"http://www.w3.org/2000/svg\">".utf8) + bytes + Array("</svg>".utf8)
    _ = SVGLimits.problem(framed)
    return 0
}
