/// The messages between an invocation and a display's server, strict and bounded.
///
/// A request is an invocation's arguments, working directory and how the client runs (whether
/// it stays for the HUD's life, whether its stdin is a pipe); the reply is an exit status, text
/// for the client's stdout and stderr and, when the HUD lives as long as the client, the
/// client's part (`Session.Plan`). Each is a 4-byte tag, a 4-byte little-endian length and that
/// many bytes of NUL-terminated UTF-8 fields. After a reply with a plan the connection carries
/// lines both ways (`Session`).
package enum Wire {
    package static let requestTag: [UInt8] = Array("xhq2".utf8)
    package static let replyTag: [UInt8] = Array("xhr2".utf8)
    package static let maxPayload = 64 * 1024
    package static let maxFields = 512

    package struct Request: Equatable, Sendable {
        package var cwd: String
        package var arguments: [String]
        /// The client stays connected for the HUD's life: a plain, stdin-fed or wrapped HUD
        /// lives exactly as long as this connection.
        package var staysConnected: Bool
        /// The client's stdin is a pipe or FIFO (its lines will follow).
        package var stdinIsPipe: Bool
        /// The client's HUD was showing on a server that died: show it again at once.
        package var resumes: Bool
        /// `XHUD_STATS` is set in the client's environment: its HUD's frame counts come back as
        /// a warning line when it ends.
        package var wantsStats: Bool
        package init(
            cwd: String, arguments: [String], staysConnected: Bool = false, stdinIsPipe: Bool = false,
            resumes: Bool = false, wantsStats: Bool = false
        ) {
            self.cwd = cwd; self.arguments = arguments
            self.staysConnected = staysConnected; self.stdinIsPipe = stdinIsPipe; self.resumes = resumes
            self.wantsStats = wantsStats
        }
        var flags: String { (staysConnected ? "c" : "") + (stdinIsPipe ? "i" : "") + (resumes ? "r" : "") + (wantsStats ? "s" : "") }
        package func encoded() -> [UInt8] { Wire.frame(Wire.requestTag, [cwd, flags] + arguments) }
        package static func decode(_ bytes: [UInt8]) throws(ServerError) -> Request {
            let f = try Wire.fields(bytes, tag: Wire.requestTag)
            guard f.count >= 2 else { throw .protocolError("no working directory") }
            let flags = f[1]
            let r = Request(
                cwd: f[0], arguments: Array(f.dropFirst(2)), staysConnected: flags.contains("c"),
                stdinIsPipe: flags.contains("i"), resumes: flags.contains("r"), wantsStats: flags.contains("s"))
            // One spelling per request: each flag once, in order, none unknown.
            guard r.flags == flags else { throw .protocolError("bad flags '\(flags)'") }
            return r
        }
    }

    package struct Reply: Equatable, Sendable {
        package var status: Int32
        package var output: String
        package var error: String
        /// Set when the HUD lives as long as the connection: what the client does meanwhile.
        package var plan: Session.Plan?
        /// The status of a reply that refuses the client for want of resources (descriptors):
        /// the client says why and goes on without this server, as if it had not answered.
        package static let unavailable: Int32 = 75  // EX_TEMPFAIL
        package init(status: Int32, output: String = "", error: String = "", plan: Session.Plan? = nil) {
            self.status = status; self.output = output; self.error = error; self.plan = plan
        }
        package func encoded() -> [UInt8] {
            Wire.frame(Wire.replyTag, [String(status), output, error] + (plan.map { [$0.encoded] } ?? []))
        }
        package static func decode(_ bytes: [UInt8]) throws(ServerError) -> Reply {
            let f = try Wire.fields(bytes, tag: Wire.replyTag)
            guard f.count == 3 || f.count == 4, let s = Int32(f[0]) else { throw .protocolError("malformed reply") }
            var plan: Session.Plan?
            if f.count == 4 {
                guard let p = Session.Plan(decoding: f[3]) else { throw .protocolError("malformed plan") }
                plan = p
            }
            return Reply(status: s, output: f[1], error: f[2], plan: plan)
        }
    }

    static func frame(_ tag: [UInt8], _ fields: [String]) -> [UInt8] {
        var payload: [UInt8] = []
        for f in fields { payload += f.utf8.filter { $0 != 0 }; payload.append(0) }
        let n = UInt32(payload.count)
        return tag + [UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24)] + payload
    }

    /// How many bytes a frame starting with `header` (8 bytes) holds in all, or an error when
    /// the tag is wrong or the length over the limit (checked before anything is read).
    package static func frameLength(header: [UInt8], tag: [UInt8]) throws(ServerError) -> Int {
        guard header.count >= 8, Array(header[0..<4]) == tag else { throw .protocolError("not an xhud message") }
        let n = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
        guard n <= maxPayload else { throw .protocolError("message of \(n) bytes is over the \(maxPayload)-byte limit") }
        return 8 + n
    }

    static func fields(_ bytes: [UInt8], tag: [UInt8]) throws(ServerError) -> [String] {
        let total = try frameLength(header: bytes, tag: tag)
        guard bytes.count == total else { throw .protocolError("length does not match") }
        let payload = bytes[8...]
        guard payload.isEmpty || payload.last == 0 else { throw .protocolError("unterminated field") }
        var out: [String] = []
        for raw in payload.split(separator: 0, omittingEmptySubsequences: false).dropLast() {
            guard out.count < maxFields else { throw .protocolError("more than \(maxFields) fields") }
            guard let s = String(validating: raw, as: UTF8.self) else { throw .protocolError("a field is not UTF-8") }
            out.append(s)
        }
        return out
    }
}
