import CX11

/// The XSETTINGS a settings daemon serves (gsd-xsettings, xfsettingsd, xsettingsd): the
/// `_XSETTINGS_SETTINGS` property of the owner of `_XSETTINGS_S<screen>`, read as the
/// specification lays it out. Only the string settings are kept (`Gtk/FontName`,
/// `Net/ThemeName`); none when no daemon runs.
extension X11Display {
    package func xsettingsStrings() -> [String: String] {
        let owner = XGetSelectionOwner(handle, atom("_XSETTINGS_S\(screen)"))
        guard owner != 0 else { return [:] }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>? = nil
        let property = atom("_XSETTINGS_SETTINGS")
        // The owner may be gone between the two requests: a BadWindow, which the handler keeps.
        let status = XGetWindowProperty(handle, owner, property, 0, 1 << 16, 0, property, &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 8, let data else { return [:] }
        return Self.xsettingsStrings(Array(UnsafeBufferPointer(start: data, count: Int(count))))
    }

    /// The string settings in a `_XSETTINGS_SETTINGS` value; what does not parse ends the read.
    static func xsettingsStrings(_ b: [UInt8]) -> [String: String] {
        guard b.count >= 12 else { return [:] }
        let bigEndian = b[0] == 1
        func card16(_ i: Int) -> Int? {
            guard i + 2 <= b.count else { return nil }
            return bigEndian ? Int(b[i]) << 8 | Int(b[i + 1]) : Int(b[i + 1]) << 8 | Int(b[i])
        }
        func card32(_ i: Int) -> Int? {
            guard i + 4 <= b.count else { return nil }
            let v = (0..<4).reduce(0) { $0 | Int(b[i + $1]) << (8 * (bigEndian ? 3 - $1 : $1)) }
            return v
        }
        func padded(_ n: Int) -> Int { (n + 3) & ~3 }
        var out: [String: String] = [:]
        guard let n = card32(8) else { return [:] }
        var i = 12
        for _ in 0..<min(n, 4096) {
            guard i + 4 <= b.count, let nameLength = card16(i + 2) else { break }
            let kind = b[i]
            let nameStart = i + 4
            guard nameStart + nameLength <= b.count else { break }
            let name = String(decoding: b[nameStart..<nameStart + nameLength], as: UTF8.self)
            i = nameStart + padded(nameLength) + 4  // and the last-change serial
            switch kind {
            case 0: i += 4  // an integer
            case 1:  // a string
                guard let length = card32(i), i + 4 + length <= b.count else { return out }
                out[name] = String(decoding: b[i + 4..<i + 4 + length], as: UTF8.self)
                i += 4 + padded(length)
            case 2: i += 8  // a colour
            default: return out
            }
        }
        return out
    }
}
