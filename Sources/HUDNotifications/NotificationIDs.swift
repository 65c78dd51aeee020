/// The ids the bus hands out and the named HUD each one is: `notify-ID`, or the tag's own name
/// for notifications that update one HUD (`x-canonical-private-synchronous`, ...), so that
/// `notify-send -h string:x-dunst-stack-tag:volume` and `xhud --id volume` are the same HUD.
/// Owned by the bus thread.
package struct NotificationIDs: Sendable {
    private var last: UInt32 = 0
    private var tags: [String: UInt32] = [:]
    private var keys: [UInt32: String] = [:]
    /// Tags remembered at most: a client inventing a new tag each time costs no memory.
    static let maxTags = 1024

    package init() {}

    /// The id and HUD key of a `Notify`: the id it replaces (the specification returns it as
    /// given), the id its tag had, or a new one.
    package mutating func assign(replaces: UInt32, tag: String?) -> (id: UInt32, key: String) {
        if let tag, let id = tags[tag], let key = keys[id] { return (id, key) }
        let id = replaces != 0 ? replaces : next()
        let key: String
        if let tag {
            if tags.count >= Self.maxTags { tags.removeAll(); keys = keys.filter { $0.value.hasPrefix("notify-") } }
            key = Self.key(forTag: tag, id: id)
            tags[tag] = id
        } else {
            key = keys[id] ?? "notify-\(id)"
        }
        keys[id] = key
        return (id, key)
    }

    /// The HUD of an id, for `CloseNotification`.
    package func key(of id: UInt32) -> String? { keys[id] }

    /// The notification of `id` is over: a later `replaces_id` naming it starts a new HUD under
    /// the same id; a tag keeps its id.
    package mutating func ended(_ id: UInt32) {
        if let k = keys[id], k.hasPrefix("notify-") { keys[id] = nil }
    }

    private mutating func next() -> UInt32 {
        repeat { last = last == UInt32.max ? 1 : last + 1 } while keys[last] != nil
        return last
    }

    /// A tag that is a valid `--id` is one; any other is made one (letters, digits, `-_.`, at
    /// most 64), with the id after it so that two tags never meet.
    static func key(forTag tag: String, id: UInt32) -> String {
        let valid =
            tag.count <= 64 && !tag.hasPrefix("notify-")
            && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        if valid { return tag }
        let kept = String(tag.map { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) ? $0 : "_" }.prefix(40))
        return "tag-\(kept)-\(id)"
    }
}
