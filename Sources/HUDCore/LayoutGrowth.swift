/// A bezel that grows (details or a button added) moves what it held to the new places and
/// uncovers what is new: the items of both layouts slide from their old places to their new
/// ones, at full strength, and those only in the new one fade in where they will be. Dimming
/// everything while the bezel grew showed every word at 30 % for 90 ms.
extension HUDLayout {
    /// At `fraction` (0 to 1) of the way from `old`: the items the two share, each moved that
    /// far from its old place (sized as now), and the items only this layout has, in place.
    package func growing(from old: HUDLayout, fraction: Double) -> (kept: HUDLayout, added: HUDLayout) {
        let t = min(1, max(0, fraction))
        func moved(_ from: Rect?, _ to: Rect?) -> Rect? {
            guard let from, let to else { return nil }
            return Rect(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t, width: to.width, height: to.height)
        }
        var kept = self, added = self
        kept.indicator = moved(old.indicator, indicator)
        kept.image = moved(old.image, image)
        kept.label = moved(old.label, label)
        kept.details = moved(old.details, details)
        kept.value = moved(old.value, value)
        let sameButtons = !old.buttons.isEmpty && old.buttons.count == buttons.count
        kept.buttons = sameButtons ? zip(old.buttons, buttons).map { moved($0, $1)! } : []
        if kept.indicator != nil { added.indicator = nil }
        if kept.image != nil { added.image = nil }
        if kept.label != nil { added.label = nil }
        if kept.details != nil { added.details = nil }
        if kept.value != nil { added.value = nil }
        if sameButtons { added.buttons = [] }
        return (kept, added)
    }

    /// Whether it shows anything.
    package var isBlank: Bool {
        indicator == nil && image == nil && label == nil && details == nil && value == nil && buttons.isEmpty
    }
}
