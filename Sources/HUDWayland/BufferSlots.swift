import HUDCore

/// Which of an output's buffers a frame is drawn into, and how much of it must be drawn: a
/// buffer the compositor still reads is busy until it releases it; a free one holds the frame it
/// last showed, so it is drawn where the frames since then changed as well as where this one
/// does. Pure bookkeeping (the buffers are the caller's), on the loop's thread.
struct BufferSlots {
    private struct Slot {
        var busy = false
        /// What changed since this slot was last drawn; nil: nothing; `whole`: never drawn.
        var stale: Rect?
        var whole = true
    }
    private var slots: [Slot]

    init(count: Int = 2) { slots = Array(repeating: Slot(), count: count) }

    var count: Int { slots.count }

    /// A free slot (the one drawn longest ago first: it is the one the compositor released).
    func free() -> Int? { slots.indices.first { !slots[$0].busy } }

    /// What slot `i` must have drawn for a frame that changes `area` (nil: the whole buffer).
    func repaint(_ i: Int, area: Rect?) -> Rect? {
        guard let area, !slots[i].whole else { return nil }
        return slots[i].stale.map { $0.union(area) } ?? area
    }

    /// Slot `i` now shows the frame that changed `changed` (nil: all of it) since the frame
    /// before, and goes to the compositor: the other slots miss that change. What slot `i` drew
    /// beyond it (catching up) changes nothing on screen.
    mutating func attached(_ i: Int, changed: Rect?) {
        slots[i].busy = true
        slots[i].stale = nil
        slots[i].whole = false
        for j in slots.indices where j != i {
            guard !slots[j].whole else { continue }
            if let changed { slots[j].stale = slots[j].stale.map { $0.union(changed) } ?? changed } else { slots[j].whole = true }
        }
    }

    /// The compositor no longer reads slot `i`.
    mutating func released(_ i: Int) { slots[i].busy = false }

    /// Every slot must be drawn whole (new buffers, a new size).
    mutating func reset() { slots = Array(repeating: Slot(), count: slots.count) }
}
