import CWayland
import HUDCore

/// A `wl_output`: its current mode (pixels), its size in surface coordinates, its integer
/// scale and its refresh rate.
struct WaylandScreen {
    let proxy: OpaquePointer
    /// Its global's name in the registry (what `global_remove` names).
    let name: UInt32
    var pixelWidth = 0, pixelHeight = 0
    /// wl_output's scale: the buffer scale where a buffer cannot be scaled by a fraction.
    var bufferScale = 1
    /// Its size in surface coordinates (xdg-output's logical size; 0: not said).
    var logicalWidth = 0, logicalHeight = 0
    var refresh = 60.0
    /// Its name (`HEADLESS-1`, `DP-2`), from compositors with wl_output version 4.
    var outputName: String?
    /// Its xdg-output, which says its logical size.
    var xdgOutput: OpaquePointer?

    /// Device pixels per surface coordinate. `fractional`: a buffer may be shown at a size of
    /// its own (wp_fractional_scale and wp_viewporter): the output's own ratio of its mode to its
    /// logical size (1.5 at KDE's 150 %). Otherwise the integer buffer scale, which the
    /// compositor scales down from where the output's scale is a fraction.
    func scale(fractional: Bool) -> Double {
        guard fractional, logicalWidth > 0, logicalHeight > 0, pixelWidth > 0, pixelHeight > 0 else { return Double(bufferScale) }
        // The mode is in the output's own orientation, the logical size in the desktop's.
        let s = Double(max(pixelWidth, pixelHeight)) / Double(max(logicalWidth, logicalHeight))
        // As wp_fractional_scale_v1 states a scale: in 120ths.
        return s > 0 ? (s * 120).rounded() / 120 : Double(bufferScale)
    }

    /// Its size in surface coordinates: what xdg-output says, else the mode over the integer scale.
    var logicalSize: Size {
        if logicalWidth > 0, logicalHeight > 0 { return Size(width: Double(logicalWidth), height: Double(logicalHeight)) }
        let k = Double(max(1, bufferScale))
        return Size(width: (Double(max(1, pixelWidth)) / k).rounded(.down), height: (Double(max(1, pixelHeight)) / k).rounded(.down))
    }

    /// The output at `scale` device pixels per surface coordinate, its top-left at the origin (a
    /// layer surface is placed on its own output).
    func rect(scale: Double) -> Rect {
        let l = logicalSize
        return Rect(x: 0, y: 0, width: max(1, (l.width * scale).rounded()), height: max(1, (l.height * scale).rounded()))
    }
}
