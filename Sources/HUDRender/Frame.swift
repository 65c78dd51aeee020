import HUDCore

/// One frame of a HUD: what to draw and where, at one instant.
package struct HUDFrame {
    package var configuration: HUDConfiguration
    package var layout: HUDLayout
    package var presentation: Presentation = .shown
    /// Seconds on any time line; drives the spinner.
    package var time: Double = 0
    /// Progress as displayed (smoothed by the caller when it animates).
    package var progress: Double
    /// The button held down (an index into `layout.buttons`), drawn filled.
    package var pressedButton: Int? = nil
    /// The target surface's top-left corner in the region's coordinates (a window may cover only
    /// the bezel), in logical pixels.
    package var origin: Point = .zero
    /// Device pixels per logical pixel.
    package var scale: Double = 1
    /// Whether the mask is painted (false when the surface covers only the bezel).
    package var drawsMask: Bool = true
    /// The bezel's rectangle while it animates to `layout.bezel` (a resize), nil otherwise.
    package var bezelOverride: Rect? = nil
    /// While a bezel grows: the layout it grows from and how far it is (0 to 1). What both
    /// layouts show moves from its old place, what is new fades in (`HUDLayout.growing`).
    package var growth: (from: HUDLayout, fraction: Double)?
    /// Draws everything but the spinner: the content layer that a backend composites the turning
    /// spinner sprite over.
    package var leavesOutSpinner: Bool = false

    /// This frame reduced to its bezel, filled opaque: what a window's shape follows. Everything a
    /// HUD draws lies inside its bezel, so the outline covers it whatever the bezel's colour, and
    /// it costs a rounded rectangle where the whole frame (text, rings) would be drawn a second
    /// time.
    package var outline: HUDFrame {
        var o = self
        o.layout.indicator = nil
        o.layout.image = nil
        o.layout.label = nil
        o.layout.details = nil
        o.layout.buttons = []
        o.layout.value = nil
        o.configuration.bezelColor = RGBA(0, 0, 0, 1)
        o.configuration.shadow = false
        o.drawsMask = false
        return o
    }

    package init(configuration: HUDConfiguration, layout: HUDLayout) {
        self.configuration = configuration
        self.layout = layout
        self.progress = configuration.progress
    }
}

package enum RenderMetrics {
    /// How far the drop shadow reaches beyond the bezel.
    package static let shadowReach = 14.0
    package static let shadowOffsetY = 3.0
    /// The edge's hairline: white at this alpha on a dark bezel, black at this one on a light.
    package static let hairlineOnDark = 0.16
    package static let hairlineOnLight = 0.12
}

extension HUDFrame {
    /// Everything the bezel (with shadow and zoom) can touch, in region coordinates.
    package var bezelExtent: Rect {
        var r = (bezelOverride ?? layout.bezel).scaledAboutCentre(max(1, presentation.scale))
        if configuration.shadow {
            let s = RenderMetrics.shadowReach
            r = Rect(x: r.x - s, y: r.y - s, width: r.width + 2 * s, height: r.height + 2 * s + RenderMetrics.shadowOffsetY)
        }
        return r
    }
}
