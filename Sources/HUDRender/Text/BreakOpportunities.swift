/// Break opportunities in runs of text that have none: a zero-width space after every `run`
/// characters of a run without whitespace. Pango wraps a run with no break opportunity by
/// looking for the next one on every line, to the run's end: a details label of one 16,000-letter
/// word took a quarter of a second to lay out, on the loop every HUD of the display runs on.
/// With an opportunity at least every `run` characters each line looks that far at most. Text of
/// words, and runs shorter than `run` (URLs, paths), are left as they are.
enum BreakOpportunities {
    static let run = 256

    /// `text` with the opportunities added; markup's tags and entities are left whole.
    static func add(to text: String, markup: Bool, run: Int = BreakOpportunities.run) -> String {
        // Cheap test first: a text shorter than a run has nothing to break.
        guard text.utf8.count > run else { return text }
        var out = ""
        var count = 0
        var inTag = false, inEntity = false, changed = false
        for ch in text {
            out.append(ch)
            if markup {
                if inTag { if ch == ">" { inTag = false }; continue }
                if inEntity { if ch == ";" || ch.isWhitespace { inEntity = false }; continue }
                if ch == "<" { inTag = true; continue }
                if ch == "&" { inEntity = true; continue }
            }
            if ch.isWhitespace || ch == "\u{200B}" || ch == "-" {
                count = 0
            } else {
                count += 1
                if count >= run {
                    out.append("\u{200B}")
                    count = 0
                    changed = true
                }
            }
        }
        return changed ? out : text
    }
}
