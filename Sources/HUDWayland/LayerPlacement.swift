import HUDCore

/// Where a layer surface goes on its output: the HUD's window rectangle (device pixels, the
/// output's top-left at the origin) as a size, anchors and margins in surface coordinates. Each
/// axis is anchored to the nearer edge, so that a HUD at an edge (`--position`) stays there
/// if the output's size changes; a centred one to neither, so that it stays centred.
struct LayerPlacement: Equatable {
    /// zwlr_layer_surface_v1.anchor's bits.
    static let top: UInt32 = 1, bottom: UInt32 = 2, left: UInt32 = 4, right: UInt32 = 8

    var anchor: UInt32
    /// top, right, bottom, left (surface coordinates).
    var margins: (top: Int, right: Int, bottom: Int, left: Int)
    /// The surface's size (surface coordinates).
    var width: Int, height: Int
    /// Device pixels per surface coordinate.
    var scale: Double

    /// `output`: the output's size in surface coordinates.
    init(rect: Rect, output: Size, scale: Double) {
        let s = max(0.01, scale)
        self.scale = s
        let r = rect.integral
        width = max(1, Int((r.width / s).rounded(.up)))
        height = max(1, Int((r.height / s).rounded(.up)))
        let outW = Int(output.width.rounded(.down)), outH = Int(output.height.rounded(.down))
        let x = Int((r.x / s).rounded(.down)), y = Int((r.y / s).rounded(.down))
        let rightGap = outW - x - width, bottomGap = outH - y - height
        var a: UInt32 = 0
        var m = (top: 0, right: 0, bottom: 0, left: 0)
        // Centred on an axis: anchored to neither edge, which the compositor centres on whatever
        // output it is on (its own choice, or after a change of size) from the first frame.
        if abs(rightGap - x) <= 1 {
        } else if rightGap < x {
            a |= Self.right; m.right = rightGap
        } else {
            a |= Self.left; m.left = x
        }
        if abs(bottomGap - y) <= 1 {
        } else if bottomGap < y {
            a |= Self.bottom; m.bottom = bottomGap
        } else {
            a |= Self.top; m.top = y
        }
        anchor = a
        margins = m
    }

    /// The buffer's size in pixels: the surface's at `scale`, as wp_fractional_scale_v1 rounds it.
    var bufferWidth: Int { max(1, Int((Double(width) * scale).rounded())) }
    var bufferHeight: Int { max(1, Int((Double(height) * scale).rounded())) }

    static func == (a: LayerPlacement, b: LayerPlacement) -> Bool {
        a.anchor == b.anchor && a.width == b.width && a.height == b.height && a.scale == b.scale && a.margins.top == b.margins.top
            && a.margins.right == b.margins.right && a.margins.bottom == b.margins.bottom && a.margins.left == b.margins.left
    }
}
