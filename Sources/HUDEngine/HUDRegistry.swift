import HUDCore

/// A HUD as a registry stacks it.
public protocol StackableHUD: AnyObject {
    var bezelSize: Size { get }
    var configuration: HUDConfiguration { get }
    /// Where the stack puts it, from where it would be alone (logical pixels).
    var stackOffset: Point { get set }
    /// The region it covers: HUDs in one region stack as one group.
    var stackRegion: Rect { get }
    /// That region's size in the units of `bezelSize`: the room a stack has.
    var stackArea: Size { get }
}

extension HUDController: StackableHUD {
    public var stackRegion: Rect { region }
}

/// The HUDs of a process that share the screen, each under a key: the order they appeared in
/// (their stacking order), activity counts (SVProgressHUD's push and pop), and what hidden named
/// HUDs looked like, so that the next invocation of a name brings its HUD back as it was.
/// Platform-free: the display's server uses it, and any backend or the library can.
///
/// Not thread-safe: it belongs to the thread that runs its HUDs.
public final class HUDRegistry<HUD: StackableHUD, Parent: Hashable> {
    public final class Entry {
        public let hud: HUD
        public let parent: Parent
        /// push adds one, pop takes one: the HUD stays while the count is above zero.
        public var activity = 0
        /// Kept for the next invocation of its key once hidden (a named HUD, not a notification).
        public var remembered: Bool
        init(hud: HUD, parent: Parent, remembered: Bool) { self.hud = hud; self.parent = parent; self.remembered = remembered }
    }

    /// Pixels between stacked bezels.
    public var gap = 8.0
    /// Pixels a stack keeps from its region's edges.
    public var margin = 16.0
    /// How many hidden HUDs' looks are kept.
    public var memory = 64
    public private(set) var keys: [String] = []
    private var entries: [String: Entry] = [:]
    private var looks: [String: (configuration: HUDConfiguration, parent: Parent)] = [:]
    private var looksOrder: [String] = []

    public init() {}

    /// Regions whose columns, side by side, no longer fit them (the last HUD added to one has
    /// no place on screen: its adder takes it back).
    public private(set) var crowded: Set<Rect> = []
    /// At most this many HUDs at once, whatever room their regions have: each is a window, a
    /// canvas and a share of every frame.
    public var capacity = 256

    /// Whether one more HUD may be added (the count only: room is known once it is stacked).
    public var isFull: Bool { entries.count >= capacity }

    public subscript(key: String) -> Entry? { entries[key] }
    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }

    /// Adds a HUD on top of its region's group, and stacks again.
    @discardableResult
    public func add(_ hud: HUD, key: String, parent: Parent, remembered: Bool = false) -> Entry {
        let e = Entry(hud: hud, parent: parent, remembered: remembered)
        if entries[key] != nil { keys.removeAll { $0 == key } }
        entries[key] = e
        keys.append(key)
        restack()
        return e
    }

    /// Takes a HUD out (its look is kept when its entry says so), and stacks the rest again.
    @discardableResult
    public func remove(_ key: String) -> Entry? {
        guard let e = entries.removeValue(forKey: key) else { return nil }
        keys.removeAll { $0 == key }
        if e.remembered { remember(key, e.hud.configuration, parent: e.parent) }
        restack()
        return e
    }

    /// What a hidden HUD under `key` looked like, while it is remembered.
    public func look(of key: String) -> (configuration: HUDConfiguration, parent: Parent)? { looks[key] }

    public func remember(_ key: String, _ configuration: HUDConfiguration, parent: Parent) {
        looks[key] = (configuration, parent)
        looksOrder.removeAll { $0 == key }
        looksOrder.append(key)
        if looksOrder.count > memory { looks[looksOrder.removeFirst()] = nil }
    }

    /// Forgets every hidden HUD's look (the configuration file changed: new HUDs start from it).
    public func forgetLooks() { looks = [:]; looksOrder = [] }

    /// HUDs in one region stack top to bottom in the order they appeared, `gap` apart, the group
    /// centred where one HUD would be; when the first sits below the centre (an OSD pinned to the
    /// bottom) they grow upwards from it instead. A column that would leave the region goes on
    /// in the next one, the columns side by side and centred as a group: twenty HUDs from twenty
    /// clients are all in sight, none over another.
    public func restack() {
        crowded = []
        var groups: [Rect: [Entry]] = [:], regions: [Rect] = []
        for key in keys {
            guard let e = entries[key] else { continue }
            let region = e.hud.stackRegion
            if groups[region] == nil { regions.append(region) }
            groups[region, default: []].append(e)
        }
        for region in regions {
            let group = groups[region]!
            let first = group[0].hud
            let upwards = first.configuration.offset.y > 0
            let area = first.stackArea
            // The height a column may take: the region less a margin, or (growing upwards) the
            // room above the first HUD's lower edge.
            let room = upwards ? area.height / 2 + first.configuration.offset.y + first.bezelSize.height / 2 - margin
                               : area.height - 2 * margin
            var columns: [[Entry]] = [[]]
            var used = 0.0
            for e in group {
                let h = e.hud.bezelSize.height
                if !columns[columns.count - 1].isEmpty && used + gap + h > room {
                    columns.append([])
                    used = 0
                }
                used += (columns[columns.count - 1].isEmpty ? 0 : gap) + h
                columns[columns.count - 1].append(e)
            }
            let widths = columns.map { $0.map(\.hud.bezelSize.width).max() ?? 0 }
            let span = widths.reduce(0, +) + gap * Double(columns.count - 1)
            if columns.count > 1 && span > area.width - 2 * margin { crowded.insert(region) }
            var x = -span / 2
            for (c, column) in columns.enumerated() {
                let centreX = columns.count == 1 ? 0 : x + widths[c] / 2
                x += widths[c] + gap
                let heights = column.map { $0.hud.bezelSize.height }
                let total = heights.reduce(0, +) + gap * Double(column.count - 1)
                var top = upwards ? 0 : -total / 2 + heights[0] / 2
                for (i, e) in column.enumerated() {
                    if i > 0 { top += heights[i - 1] / 2 + gap + heights[i] / 2 }
                    e.hud.stackOffset = Point(x: centreX, y: upwards ? -top : top)
                }
            }
        }
    }
}
