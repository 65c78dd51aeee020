/// The options by subject, as `--help` and the man page list them, with the man page's
/// introduction to the subject (`ManualMarkup`).
package struct OptionGroup: Sendable {
    package let title: String
    package var manual: String?
    package let options: [OptionSpec]

    init(_ title: String, manual: String? = nil, _ options: [OptionSpec]) {
        self.title = title
        self.manual = manual
        self.options = options
    }
}
