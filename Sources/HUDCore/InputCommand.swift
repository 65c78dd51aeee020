/// One line of the `xhud` stdin protocol: zenity/yad's lines (a bare percentage, `# label`,
/// `pulsate:true|false`) plus `key=value` commands (`label=`, `details=`, `progress=`, `mode=`,
/// `button=`, `alternate=`, `hide[=s]`, `show`, `done`, `cancel`, `success|error|info|warning[=text]`).
package enum InputCommand: Equatable, Sendable {
    case empty
    case set(Change)
    case show
    case hide(delay: Double)
    /// Hide, then end the program (see `Ending.exitStatus`).
    case finish(Ending)
    case invalid(line: String, reason: String)

    /// A change to the HUD's configuration, applied with `apply(to:)`.
    package enum Change: Equatable, Sendable {
        case label(String)
        case details(String)
        /// A fraction 0...1.
        case progress(Double)
        case mode(HUDMode)
        /// An empty title removes the button.
        case button(String)
        case alternate(Bool)
        case pulsate(Bool)
        /// zenity's `#` line: plain text, whatever the label's markup setting.
        case text(String)
        /// zenity's percentage, a fraction 0...1: the bar moves, a pulsating one goes on pulsating.
        case percentage(Double)

        package func apply(to c: inout HUDConfiguration) {
            switch self {
            case .label(let s): c.label = s
            case .details(let s): c.details = s
            case .button(let s): c.button = s
            case .alternate(let on): c.alternate = on
            case .mode(let m): c.mode = m
            case .progress(let p):
                c.progress = p
                // A number on a spinner turns it into a ring, as zenity's pulsating bar stops;
                // icon and text modes are left alone.
                if c.mode == .indeterminate { c.mode = .annular }
            case .pulsate(let on):
                if on { c.mode = .indeterminate } else if c.mode == .indeterminate { c.mode = .annular }
            case .text(let s): c.label = c.markup ? s.escapingMarkup : s
            case .percentage(let p): c.progress = p
            }
        }
    }

    package enum Ending: Equatable, Sendable {
        case done
        case cancel
        /// Show this icon mode (and label, when given), then hide after `displayDuration`.
        case result(HUDMode, String?)

        package var exitStatus: Int32 { self == .cancel ? 1 : 0 }
    }

    /// Lines longer than this are shortened in `.invalid`, so that an error message stays one line.
    package static let maxReportedLength = 200

    package static func parse(_ raw: String) -> InputCommand {
        let unterminated = raw.droppingLineEnd()
        let line = unterminated.trimmingSpaces()
        func invalid(_ reason: String) -> InputCommand { .invalid(line: clip(line, maxReportedLength), reason: reason) }

        if line.isEmpty { return .empty }
        // zenity/yad compatibility first, so that these lines mean exactly what they do there.
        if line.hasPrefix("#") { return .set(.label(String(line.dropFirst()).trimmingSpaces())) }
        if let p = number(line, percentAllowed: true) { return .set(.progress(min(max(p.value, 0), 100) / 100)) }
        switch line.lowercased() {
        case "pulsate:true": return .set(.pulsate(true))
        case "pulsate:false": return .set(.pulsate(false))
        default: break
        }

        // key[=value]: the value is taken from the untrimmed line, so text keeps its spaces.
        let key: String, value: String?
        if let eq = unterminated.firstIndex(of: "=") {
            key = String(unterminated[..<eq]).trimmingSpaces().lowercased()
            value = String(unterminated[unterminated.index(after: eq)...])
        } else {
            key = line.lowercased()
            value = nil
        }
        let trimmed = value?.trimmingSpaces()
        func needsValue(_ example: String) -> InputCommand { invalid("expected \(key)=\(example)") }
        func noValue() -> InputCommand { invalid("'\(key)' takes no value") }

        switch key {
        case "label": return value.map { .set(.label($0)) } ?? needsValue("TEXT")
        case "details": return value.map { .set(.details(unescape($0))) } ?? needsValue("TEXT")
        case "button": return value.map { .set(.button($0)) } ?? needsValue("TITLE")
        case "progress":
            // Unlike zenity's numbers, an explicit progress out of range is a mistake worth reporting.
            guard let trimmed else { return needsValue("0.42 or \(key)=42%") }
            guard let p = number(trimmed, percentAllowed: true),
                p.isPercent ? (0...100).contains(p.value) : (0...1).contains(p.value)
            else { return invalid("progress must be 0...1 or 0...100%") }
            return .set(.progress(p.isPercent ? p.value / 100 : p.value))
        case "mode":
            guard let trimmed else { return needsValue("NAME") }
            if let m = HUDMode(named: trimmed) { return .set(.mode(m)) }
            return invalid("unknown mode '\(clip(trimmed, 40))' (expected one of \(HUDMode.vocabulary))")
        case "alternate":
            guard let trimmed else { return needsValue("true|false") }
            switch trimmed.lowercased() {
            case "true", "on", "1", "yes": return .set(.alternate(true))
            case "false", "off", "0", "no": return .set(.alternate(false))
            default: return invalid("alternate must be true or false (on/off, 1/0, yes/no)")
            }
        case "hide":
            guard let trimmed else { return .hide(delay: 0) }
            guard let d = number(trimmed, percentAllowed: false)?.value, Limits.seconds.contains(d)
            else { return invalid("hide delay must be \(Limits.describe(Limits.seconds)) seconds") }
            return .hide(delay: d)
        case "show": return value == nil ? .show : noValue()
        case "done": return value == nil ? .finish(.done) : noValue()
        case "cancel": return value == nil ? .finish(.cancel) : noValue()
        case "success", "error", "info", "warning":
            return .finish(.result(HUDMode(rawValue: key)!, value))
        default:
            return invalid("unknown command '\(clip(key, 40))'")
        }
    }

    /// A finite number, optionally followed by `%`.
    static func number(_ s: String, percentAllowed: Bool) -> (value: Double, isPercent: Bool)? {
        let isPercent = percentAllowed && s.hasSuffix("%")
        let digits = isPercent ? String(s.dropLast()).trimmingSpaces() : s
        guard let v = Double(digits), v.isFinite else { return nil }
        return (v, isPercent)
    }

    /// `\n` becomes a newline and `\\` a backslash; any other backslash is kept as typed.
    static func unescape(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = ""
        var it = s.makeIterator()
        while let ch = it.next() {
            guard ch == "\\" else { out.append(ch); continue }
            switch it.next() {
            case "n": out.append("\n")
            case "\\": out.append("\\")
            case let next?: out.append(ch); out.append(next)
            case nil: out.append(ch)
            }
        }
        return out
    }

    static func clip(_ s: String, _ limit: Int) -> String {
        s.count > limit ? String(s.prefix(limit - 1)) + "…" : s
    }
}

extension String {
    /// The text as Pango markup that shows it as written (`&`, `<`, `>`, quotes escaped).
    package var escapingMarkup: String {
        guard contains(where: { "&<>\"'".contains($0) }) else { return self }
        var out = ""
        for ch in self {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(ch)
            }
        }
        return out
    }

    /// Drops a trailing CR and/or LF. Done on scalars: "\r\n" is one Character, which
    /// `trimmingSpaces` would not recognise.
    func droppingLineEnd() -> String {
        var scalars = Substring(self).unicodeScalars
        while let last = scalars.last, last == "\r" || last == "\n" { scalars.removeLast() }
        return String(scalars)
    }
}
