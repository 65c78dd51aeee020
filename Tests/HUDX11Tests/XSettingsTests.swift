import Testing
@testable import HUDX11

/// `_XSETTINGS_SETTINGS` values laid out as the XSETTINGS specification says.
@Suite struct XSettingsTests {
    private func value(bigEndian: Bool, _ settings: [(UInt8, String, [UInt8])]) -> [UInt8] {
        func c16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func c32(_ v: Int) -> [UInt8] { let b = (0..<4).map { UInt8((v >> (8 * $0)) & 255) }; return bigEndian ? b.reversed() : b }
        func pad(_ b: [UInt8]) -> [UInt8] { b + Array(repeating: 0, count: (4 - b.count % 4) % 4) }
        var out: [UInt8] = [bigEndian ? 1 : 0, 0, 0, 0] + c32(7) + c32(settings.count)
        for (kind, name, body) in settings {
            out += [kind, 0] + c16(name.utf8.count) + pad(Array(name.utf8)) + c32(3)
            out += kind == 1 ? c32(body.count) + pad(body) : body
        }
        return out
    }

    @Test(arguments: [false, true]) func stringsAmongIntegersAndColours(bigEndian: Bool) {
        let v = value(
            bigEndian: bigEndian,
            [
                (0, "Xft/DPI", [0, 0, 1, 128]), (1, "Gtk/FontName", Array("Cantarell 11".utf8)),
                (2, "Gtk/Color", Array(repeating: 9, count: 8)), (1, "Net/ThemeName", Array("Adwaita-dark".utf8)),
            ])
        #expect(X11Display.xsettingsStrings(v) == ["Gtk/FontName": "Cantarell 11", "Net/ThemeName": "Adwaita-dark"])
    }

    @Test func truncatedOrUnknownEndsTheRead() {
        let v = value(bigEndian: false, [(1, "Gtk/FontName", Array("Cantarell 11".utf8)), (1, "Net/ThemeName", Array("Adwaita".utf8))])
        #expect(X11Display.xsettingsStrings(Array(v.dropLast(6))) == ["Gtk/FontName": "Cantarell 11"])
        #expect(X11Display.xsettingsStrings([0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255]) == [:])
        let unknown = value(bigEndian: false, [(7, "X", []), (1, "Gtk/FontName", Array("A 1".utf8))])
        #expect(X11Display.xsettingsStrings(unknown) == [:])
        #expect(X11Display.xsettingsStrings([1, 2]) == [:])
    }
}
