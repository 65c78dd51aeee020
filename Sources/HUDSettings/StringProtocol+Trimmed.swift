extension StringProtocol {
    /// Without spaces and tabs at either end (and a CR at the end).
    package var trimmed: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
}
