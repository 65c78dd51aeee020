/// The light markup of the man page's texts in the option table, and its roff: `` `literal` ``
/// is bold (option names, words to type as they are), `*word*` italic (what the user supplies,
/// file names), also inside a literal (`` `rgba(*r*,*g*,*b*,*a*)` ``). In roff a `-` in a
/// literal or starting an option is `\-` (a minus sign, which copies as the dash a shell needs);
/// a hyphen inside a word stays one. Each sentence starts a line, as roff wants.
package enum ManualMarkup {
    package static func roff(_ text: String) -> String {
        var out = ""
        var bold = false, italic = false
        let chars = Array(text)
        for (i, c) in chars.enumerated() {
            let previous: Character? = i > 0 ? chars[i - 1] : nil
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            switch c {
            case "`":
                bold.toggle()
                out += bold ? "\\fB" : "\\fR"
            case "*":
                italic.toggle()
                out += italic ? "\\fI" : (bold ? "\\fB" : "\\fR")
            case "\\": out += "\\e"
            case "-":
                let inWord = previous.map(isWordCharacter) == true && next.map(isWordCharacter) == true
                out += bold || italic || !inWord ? "\\-" : "-"
            case "“": out += "\\(lq"
            case "”": out += "\\(rq"
            case " " where !bold && !italic && previous == "." && next.map(startsSentence) == true:
                out += "\n"
            default: out.append(c)
            }
        }
        // A line starting with a dot or a quote would be a request.
        return out.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") || $0.hasPrefix("'") ? "\\&" + $0 : String($0) }
            .joined(separator: "\n")
    }

    private static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    private static func startsSentence(_ c: Character) -> Bool { c.isUppercase || c == "`" }
}
