import HUDCore

/// A HUD as a registry stacks it.
package protocol StackableHUD: AnyObject {
    var bezelSize: Size { get }
    var configuration: HUDConfiguration { get }
    /// Where the stack puts it, from where it would be alone (logical pixels).
    var stackOffset: Point { get set }
    /// The region it covers: HUDs in one region stack as one group.
    var stackRegion: Rect { get }
    /// That region's size in the units of `bezelSize`: the room a stack has.
    var stackArea: Size { get }
    /// Fading out and making room: it keeps its place and the others move into its room.
    var isLeaving: Bool { get }
    /// Called when it starts leaving, or comes back while leaving (the registry restacks).
    var onLeaving: (() -> Void)? { get set }
    /// Called when its bezel changed size by itself (the registry restacks).
    var onResized: (() -> Void)? { get set }
    /// On screen: it slides to a new `stackOffset` from `shownStackOffset`.
    var isOnScreen: Bool { get }
    /// Where its bezel is now, on the way to `stackOffset` or there.
    var shownStackOffset: Point { get }
    /// Not on screen yet: it comes in at `start` and slides to `stackOffset` with the others.
    func enterStack(from start: Point)
}

extension HUDController: StackableHUD {
    package var stackRegion: Rect { region }
    /// Fading out over a compositor, which blends whatever slides beneath. Over a copy of the
    /// screen (no compositor) it keeps its room until it is gone: its window, above a
    /// neighbour sliding in, would show the copy taken before, the page through half of it.
    package var isLeaving: Bool { lifecycle.phase == .hiding && output?.composited == true }
    package var isOnScreen: Bool { output?.isMapped == true }
}

/// The HUDs of a process that share the screen, each under a key: the order they appeared in
/// (their stacking order), activity counts (SVProgressHUD's push and pop), and what hidden named
/// HUDs looked like, so that the next invocation of a name brings its HUD back as it was.
/// Platform-free: the display's server uses it, and any backend or the library can.
///
/// Not thread-safe: it belongs to the thread that runs its HUDs.
package final class HUDRegistry<HUD: StackableHUD, Parent: Hashable> {
    package final class Entry {
        package let hud: HUD
        package let parent: Parent
        /// push adds one, pop takes one: the HUD stays while the count is above zero.
        package var activity = 0
        /// Kept for the next invocation of its key once hidden (a named HUD, not a notification).
        package var remembered: Bool
        init(hud: HUD, parent: Parent, remembered: Bool) { self.hud = hud; self.parent = parent; self.remembered = remembered }
    }

    /// Pixels between stacked bezels.
    package var gap = 8.0
    /// Pixels a stack keeps from its region's edges.
    package var margin = 16.0
    /// How many hidden HUDs' looks are kept.
    package var memory = 64
    package private(set) var keys: [String] = []
    private var entries: [String: Entry] = [:]
    private var looks: [String: (configuration: HUDConfiguration, parent: Parent)] = [:]
    private var looksOrder: [String] = []

    package init() {}

    /// Regions whose columns, side by side, no longer fit them (the last HUD added to one has
    /// no place on screen: its adder takes it back).
    package private(set) var crowded: Set<Rect> = []
    /// At most this many HUDs at once, whatever room their regions have: each is a window, a
    /// canvas and a share of every frame.
    package var capacity = 256

    /// Whether one more HUD may be added (the count only: room is known once it is stacked).
    package var isFull: Bool { entries.count >= capacity }

    package subscript(key: String) -> Entry? { entries[key] }
    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }

    /// Adds a HUD on top of its region's group, and stacks again.
    @discardableResult
    package func add(_ hud: HUD, key: String, parent: Parent, remembered: Bool = false) -> Entry {
        let e = Entry(hud: hud, parent: parent, remembered: remembered)
        if entries[key] != nil { keys.removeAll { $0 == key } }
        entries[key] = e
        keys.append(key)
        hud.onLeaving = { [weak self] in self?.restack() }
        hud.onResized = { [weak self] in self?.restack() }
        restack()
        return e
    }

    /// Puts `key` last in the order (below the HUDs of its group that came after it: a summary
    /// of what waits stays under what shows), and stacks again.
    package func moveToEnd(_ key: String) {
        guard entries[key] != nil, keys.last != key else { return }
        keys.removeAll { $0 == key }
        keys.append(key)
        restack()
    }

    /// Takes a HUD out (its look is kept when its entry says so), and stacks the rest again.
    @discardableResult
    package func remove(_ key: String) -> Entry? {
        guard let e = entries.removeValue(forKey: key) else { return nil }
        keys.removeAll { $0 == key }
        if e.remembered { remember(key, e.hud.configuration, parent: e.parent) }
        restack()
        return e
    }

    /// What a hidden HUD under `key` looked like, while it is remembered.
    package func look(of key: String) -> (configuration: HUDConfiguration, parent: Parent)? { looks[key] }

    package func remember(_ key: String, _ configuration: HUDConfiguration, parent: Parent) {
        looks[key] = (configuration, parent)
        looksOrder.removeAll { $0 == key }
        looksOrder.append(key)
        if looksOrder.count > memory { looks[looksOrder.removeFirst()] = nil }
    }

    /// Forgets every hidden HUD's look (the configuration file changed: new HUDs start from it).
    package func forgetLooks() { looks = [:]; looksOrder = [] }

    /// One layout for every HUD of the process, whatever its region.
    ///
    /// HUDs that would sit at one place (one region, one offset) stack in the order they
    /// appeared, `gap` apart: centred on that place; growing upwards from it when it is below
    /// the centre (an OSD pinned to the bottom), downwards when above. A column that would leave
    /// the region goes on in the next one, the columns side by side and centred as a group:
    /// twenty HUDs from twenty clients are all in sight. Then the groups are placed in the order
    /// they appeared: one that would cover an earlier one (a HUD over a window and one over the
    /// screen with the same centre, a notification pinned where an OSD is) moves along its
    /// growth until it is clear, within its region. A HUD fading out (`isLeaving`) keeps its
    /// place and takes none: the others move into its room as it fades.
    package func restack() {
        crowded = []
        var groups: [Anchor: [Entry]] = [:], anchors: [Anchor] = []
        for key in keys {
            guard let e = entries[key], !e.hud.isLeaving else { continue }
            let a = Anchor(e.hud)
            if groups[a] == nil { anchors.append(a) }
            groups[a, default: []].append(e)
        }
        var placed: [Rect] = []
        for anchor in anchors {
            let group = groups[anchor]!
            var centres = stack(group, at: anchor)
            let s = anchor.scale
            let device = zip(group, centres).map { e, c in
                Rect(
                    x: anchor.region.x + (c.x - e.hud.bezelSize.width / 2) * s, y: anchor.region.y + (c.y - e.hud.bezelSize.height / 2) * s,
                    width: e.hud.bezelSize.width * s, height: e.hud.bezelSize.height * s)
            }
            if let box = device.dropFirst().reduce(device.first, { $0?.union($1) }), !placed.isEmpty {
                let bounds = anchor.region.insetBy(dx: margin * s, dy: margin * s)
                let down = anchor.direction != .up
                if let dy = clear(box, of: placed, within: bounds, down: down) ?? clear(box, of: placed, within: bounds, down: !down), dy != 0 {
                    centres = centres.map { Point(x: $0.x, y: $0.y + dy / s) }
                    placed += device.map { $0.offsetBy(dx: 0, dy: dy) }
                } else {
                    placed += device
                }
            } else {
                placed += device
            }
            var before: HUD?
            for (e, c) in zip(group, centres) {
                let o = e.hud.configuration.offset
                e.hud.stackOffset = Point(x: c.x - (anchor.area.width / 2 + o.x), y: c.y - (anchor.area.height / 2 + o.y))
                // A newcomer comes in beside the HUD before it as that one is now, and both
                // slide: the column moves as one, nothing covers anything on the way.
                if !e.hud.isOnScreen, let b = before {
                    let left = Point(x: b.shownStackOffset.x - b.stackOffset.x, y: b.shownStackOffset.y - b.stackOffset.y)
                    e.hud.enterStack(from: Point(x: e.hud.stackOffset.x + left.x, y: e.hud.stackOffset.y + left.y))
                }
                before = e.hud
            }
        }
    }

    /// Where one group's HUDs go: their centres, logical pixels in their region.
    private func stack(_ group: [Entry], at anchor: Anchor) -> [Point] {
        let first = group[0].hud
        let area = anchor.area
        let h0 = first.bezelSize.height
        // The height a column may take: the region less a margin, or the room from the first
        // HUD's outer edge to the region's other end.
        let room: Double
        switch anchor.direction {
        case .centred: room = area.height - 2 * margin
        case .up: room = anchor.home.y + h0 / 2 - margin
        case .down: room = area.height - margin - (anchor.home.y - h0 / 2)
        }
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
        if columns.count > 1 && span > area.width - 2 * margin { crowded.insert(anchor.region) }
        // Columns centred on the place, kept inside the region (a stack pinned to a side grows inwards).
        var x = anchor.home.x - span / 2
        if columns.count > 1 { x = max(margin, min(x, area.width - margin - span)) }
        var centres: [Point] = []
        for (c, column) in columns.enumerated() {
            let centreX = columns.count == 1 ? anchor.home.x : x + widths[c] / 2
            x += widths[c] + gap
            let heights = column.map { $0.hud.bezelSize.height }
            let total = heights.reduce(0, +) + gap * Double(column.count - 1)
            var y: Double
            switch anchor.direction {
            case .centred: y = anchor.home.y - total / 2 + heights[0] / 2
            case .up, .down: y = anchor.home.y
            }
            for (i, _) in column.enumerated() {
                if i > 0 {
                    let step = heights[i - 1] / 2 + gap + heights[i] / 2
                    y += anchor.direction == .up ? -step : step
                }
                centres.append(Point(x: centreX, y: y))
            }
        }
        return centres
    }

    /// How far (device pixels, along y) a box must move to cover none of `placed`, staying in
    /// `bounds`; nil when it cannot.
    private func clear(_ box: Rect, of placed: [Rect], within bounds: Rect, down: Bool) -> Double? {
        var dy = 0.0
        for _ in 0...placed.count {
            let moved = box.offsetBy(dx: 0, dy: dy)
            let padded = moved.insetBy(dx: -gap, dy: -gap)
            guard let hit = placed.first(where: { !$0.intersection(padded).isEmpty }) else {
                return dy == 0 || bounds.contains(moved) ? dy : nil
            }
            dy = down ? hit.maxY + gap - box.minY : hit.minY - gap - box.maxY
        }
        return nil
    }

    /// Where a HUD alone would be: its region and its centre there (an offset beyond an edge
    /// pins it `margin` from that edge, as its layout does).
    private struct Anchor: Hashable {
        enum Direction { case centred, up, down }
        let region: Rect
        let area: Size
        let home: Point
        let direction: Direction
        var scale: Double { area.width > 0 ? region.width / area.width : 1 }

        init(_ hud: HUD) {
            region = hud.stackRegion
            area = hud.stackArea
            let c = hud.configuration, size = hud.bezelSize
            func place(_ length: Double, _ offset: Double, _ side: Double) -> Double {
                let lo = c.margin + side / 2, hi = length - c.margin - side / 2
                return lo > hi ? length / 2 : min(max(length / 2 + offset, lo), hi)
            }
            home = Point(x: place(area.width, c.offset.x, size.width), y: place(area.height, c.offset.y, size.height))
            direction = c.offset.y > 0 ? .up : c.offset.y < 0 ? .down : .centred
            // The place is the offset's, whatever the size: an offset beyond an edge is that edge.
            key = [
                min(max(c.offset.x, -area.width / 2), area.width / 2).rounded(),
                min(max(c.offset.y, -area.height / 2), area.height / 2).rounded(),
            ]
        }

        private let key: [Double]
        // HUDs of different sizes at one place are one group, stacked from the first one's.
        static func == (a: Anchor, b: Anchor) -> Bool { a.region == b.region && a.key == b.key }
        func hash(into h: inout Hasher) {
            h.combine(region.x); h.combine(region.y); h.combine(region.width); h.combine(region.height); h.combine(key)
        }
    }
}
