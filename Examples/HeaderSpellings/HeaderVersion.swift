/// One header version's calls, as main.swift runs them. A version whose library deprecated
/// its calls marks `run` deprecated: it uses the old names on purpose, and main.swift reaches it
/// through this requirement, which is no use of the deprecated witness (the build stays quiet).
protocol HeaderVersion {
    /// The argument that picks it.
    static var name: String { get }
    static func run()
}
