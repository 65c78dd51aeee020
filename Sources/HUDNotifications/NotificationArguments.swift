import HUDCore

/// A notification as the `xhud` invocation that shows the same HUD: the server then does with it
/// exactly what it does with that command line (the configuration's `[notification]` and
/// `[id.KEY]` sections, stacking, the image's size limits, updates in place).
extension Notification {
    /// The notification verb its urgency (or category) asks for.
    package var verb: String {
        if let c = hints.category {
            if c.hasSuffix(".error") { return "error" }
            if c.hasSuffix(".complete") { return "success" }
        }
        return hints.urgency >= 2 ? "warning" : "info"
    }

    /// The image to show: raw pixels first (written to `imageFile` by the caller), then
    /// `image-path`, then `app_icon`, as the specification orders them. A `file://` URI is
    /// its path; a name is an icon name.
    package func image(imageFile: String?) -> String? {
        if let imageFile { return imageFile }
        for candidate in [hints.image, appIcon.isEmpty ? nil : appIcon] {
            guard let c = candidate else { continue }
            if c.hasPrefix("file://") { return Self.path(ofFileURI: c) }
            return c
        }
        return nil
    }

    /// The seconds it shows: nil for the server's default (the `[notification]` durations); a
    /// day (the longest any HUD waits) for one that never expires.
    package var hideAfter: Double? {
        if expireTimeout == 0 || (expireTimeout < 0 && hints.urgency >= 2 && hints.value == nil) {
            return Limits.seconds.upperBound  // critical notifications stay until closed, as the specification advises
        }
        if expireTimeout < 0 { return nil }
        return min(Limits.seconds.upperBound, Double(expireTimeout) / 1000)
    }

    /// The arguments of the equivalent `xhud` invocation for the HUD named `key`. Every part a
    /// notification has is given, empty when absent: a replacement sets the whole HUD.
    package func arguments(key: String, imageFile: String? = nil) -> [String] {
        let label = Limits.text(NotificationMarkup.escaped(Limits.text(summary, maxBytes: Limits.labelBytes)), maxBytes: Limits.labelBytes)
        var args: [String]
        if let v = hints.value {
            // An OSD: `xhud --id KEY --mode bar --progress V --image ICON` (the icon above the bar).
            args = ["--id=\(key)", "--mode=bar", "--progress=\(Double(v) / 100)"]
            if let i = image(imageFile: imageFile), !i.isEmpty { args.append("--image=\(i)") }
        } else {
            let verb = self.verb
            args = [
                verb, "--id=\(key)", "--bus-notification", "--\(verb)-image=\(image(imageFile: imageFile) ?? "")",
                "--button=\(buttonActions.first?.label ?? "")", "--bus-app=\(appName)", "--bus-urgency=\(hints.urgency)",
            ]
            // Every further action a button; `--extra-button=` alone takes a replaced one's away.
            args += buttonActions.count > 1 ? buttonActions.dropFirst().map { "--extra-button=\($0.label)" } : ["--extra-button="]
            if let c = hints.category { args.append("--bus-category=\(c)") }
        }
        let details = NotificationMarkup.body(body)
        // Text with no tag and no entity is the same as plain text, which is drawn without Pango
        // (a few milliseconds less on an OSD's every update).
        let plain = !(label + details).contains { $0 == "<" || $0 == "&" }
        args += ["--label=\(label)", "--details=\(details)", plain ? "--no-markup" : "--markup"]
        if let t = hideAfter { args.append("--hide-after=\(t)") }
        return args
    }

    /// `file:///a%20b.png` -> `/a b.png`.
    static func path(ofFileURI uri: String) -> String {
        var bytes: [UInt8] = []
        var rest = Array(uri.utf8.dropFirst(7))
        // file://host/path: the host is this machine's (or empty).
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) { rest = Array(rest[slash...]) } else { return "" }
        var i = 0
        while i < rest.count {
            if rest[i] == UInt8(ascii: "%"), i + 2 < rest.count,
                let v = UInt8(String(decoding: rest[(i + 1)...(i + 2)], as: UTF8.self), radix: 16), v != 0
            {
                bytes.append(v)
                i += 3
            } else {
                bytes.append(rest[i])
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
