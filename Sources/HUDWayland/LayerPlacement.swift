import HUDCore

/// Where a layer surface goes on its output: the HUD's window rectangle (device pixels, the
/// output's top-left at the origin) as a size, anchors and margins in surface coordinates. Each
/// axis is anchored to the nearer edge, so that a HUD at an edge (`--position`) stays there
/// if the output's size changes, and one in the middle stays put by its top-left.
struct LayerPlacement: Equatable {
    /// zwlr_layer_surface_v1.anchor's bits.
    static let top: UInt32 = 1, bottom: UInt32 = 2, left: UInt32 = 4, right: UInt32 = 8

    var anchor: UInt32
    /// top, right, bottom, left (surface coordinates).
    var margins: (top: Int, right: Int, bottom: Int, left: Int)
    /// The surface's size (surface coordinates); the buffer is `scale` times it.
    var width: Int, height: Int

    init(rect: Rect, output: Size, scale: Int) {
        let s = Double(max(1, scale))
        let r = rect.integral
        width = max(1, Int((r.width / s).rounded(.up)))
        height = max(1, Int((r.height / s).rounded(.up)))
        let outW = Int((output.width / s).rounded(.down)), outH = Int((output.height / s).rounded(.down))
        let x = Int((r.x / s).rounded(.down)), y = Int((r.y / s).rounded(.down))
        let rightGap = outW - x - width, bottomGap = outH - y - height
        var a: UInt32 = 0
        var m = (top: 0, right: 0, bottom: 0, left: 0)
        if rightGap < x { a |= Self.right; m.right = rightGap } else { a |= Self.left; m.left = x }
        if bottomGap < y { a |= Self.bottom; m.bottom = bottomGap } else { a |= Self.top; m.top = y }
        anchor = a
        margins = m
    }

    static func == (a: LayerPlacement, b: LayerPlacement) -> Bool {
        a.anchor == b.anchor && a.width == b.width && a.height == b.height && a.margins.top == b.margins.top
            && a.margins.right == b.margins.right && a.margins.bottom == b.margins.bottom && a.margins.left == b.margins.left
    }
}
