#if canImport(Glibc)
import Glibc
#endif
import HUDCore
import HUDSystem

/// Exit codes, as documented in --help.
package enum Status {
    package static let done: Int32 = 0
    package static let cancelled: Int32 = 1
    package static let usage: Int32 = 2
    package static let noDisplay: Int32 = 3
    /// zenity's `--timeout` ran out.
    package static let timedOut: Int32 = 5
}

/// Prints one line on stderr; text from input in it is escaped (no raw control characters).
package func fail(_ message: String, _ code: Int32) -> Int32 {
    Console.error("xhud: \(message.escapingControlCharacters)\n")
    return code
}

/// A message on one line: a list under "...:" (the values a flag accepts) joins the line.
package func oneLine(_ s: String) -> String {
    let lines = s.split(separator: "\n").map { line -> String in
        var l = line.drop { $0 == " " }
        if l.hasPrefix("- ") { l = l.dropFirst(2) }  // a list item, not a flag's dashes
        return String(l)
    }.filter { !$0.isEmpty }
    guard let first = lines.first else { return s }
    return first.hasSuffix(":") && lines.count > 1 ? first + " " + lines.dropFirst().joined(separator: ", ") : first
}
