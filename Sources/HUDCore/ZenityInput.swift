/// stdin as `zenity --progress` reads it (zenity 3.44, src/progress.c), so that its producers run
/// unchanged: a line starting with `#` is the text, one starting with `pulsate` and holding a
/// colon switches pulsation, one starting with a digit is a percentage; every other line,
/// xhud's own `key=value` words included, is ignored. Nothing here ends the HUD: zenity has no
/// such words, and a producer must never be cut off by one.
extension InputCommand {
    package static func parseZenity(_ raw: String) -> InputCommand {
        // zenity strips only the newline; a CR before it is taken as part of the line end too.
        let line = raw.droppingLineEnd()
        guard let first = line.utf8.first else { return .empty }
        if first == UInt8(ascii: "#") {
            return .set(.text(zenityUnescape(String(line.dropFirst()).trimmingSpaces())))
        }
        if line.hasPrefix("pulsate") {
            guard let colon = line.firstIndex(of: ":") else { return .empty }
            let value = line[line.index(after: colon)...].drop(while: { $0 == " " || $0 == "\t" })
            return .set(.pulsate(value.lowercased() != "false"))
        }
        guard first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9") else { return .empty }
        return .set(.percentage(min(max(Double(zenityNumber(line)), 0), 100) / 100))
    }

    /// zenity's own reading of a number: every digit of the line in turn, a `.` or `,` anywhere
    /// making the digits after it decimals ("100 files to go" is 100, "2,5" is 2.5, "50 of 200"
    /// is 50200, so 100 once clamped). In `Float`, as zenity computes it, so that exactly the
    /// lines that reach 100 there reach it here.
    static func zenityNumber(_ s: String) -> Float {
        var result: Float = 0, factor: Float = 1
        var pointSeen = false
        for b in s.utf8 {
            if b == UInt8(ascii: ".") || b == UInt8(ascii: ",") { pointSeen = true; continue }
            guard b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") else { continue }
            if pointSeen { factor /= 10 }
            result = result * 10 + Float(b - UInt8(ascii: "0"))
        }
        return result * factor
    }

    /// GLib's `g_strcompress`, which zenity applies to its `#` lines: `\n`, `\t`, `\b`, `\f`,
    /// `\r`, `\v`, octal `\NNN`; any other escaped character stands for itself (`\\`, `\"`); a
    /// lone backslash at the end ends the text.
    static func zenityUnescape(_ s: String) -> String {
        guard s.utf8.contains(UInt8(ascii: "\\")) else { return s }
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            guard b == UInt8(ascii: "\\") else { out.append(b); continue }
            guard let e = bytes.popFirst() else { break }
            switch e {
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var v = Int(e - UInt8(ascii: "0"))
                for _ in 0..<2 {
                    guard let d = bytes.first, d >= UInt8(ascii: "0") && d <= UInt8(ascii: "7") else { break }
                    v = v * 8 + Int(d - UInt8(ascii: "0")); bytes.removeFirst()
                }
                out.append(UInt8(truncatingIfNeeded: v))
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "v"): out.append(11)
            default: out.append(e)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
