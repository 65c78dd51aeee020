/// zenity's `--progress` is a bare flag, ours takes a value: a `--progress` followed by nothing
/// or by another flag is zenity's, so `zenity --progress --text=...` scripts work with the name
/// changed. An option followed by a negative number takes it as its value (`--offset -40,0`,
/// `--progress -1` gets a range error, not "missing value").
package func translatingZenityFlags(_ args: [String]) -> [String] {
    var out: [String] = []
    var i = 0
    func isNegativeNumber(_ s: String) -> Bool {
        guard s.hasPrefix("-"), let c = s.dropFirst().first else { return false }
        return c.isASCII && (c.isNumber || c == ".")
    }
    while i < args.count {
        let a = args[i]
        if a == "--" { out += args[i...]; break }
        let next: String? = i + 1 < args.count ? args[i + 1] : nil
        if a == "--progress", next == nil || (next!.hasPrefix("-") && !isNegativeNumber(next!)) {
            out.append("--progress-dialog")
        } else if a.hasPrefix("--"), !a.contains("="), let n = next, isNegativeNumber(n) {
            out.append(a + "=" + n)
            i += 1
        } else {
            out.append(a)
        }
        i += 1
    }
    return out
}
