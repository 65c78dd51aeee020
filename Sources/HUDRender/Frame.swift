import HUDCore

/// One frame of a HUD: what to draw and where, at one instant.
public struct HUDFrame {
    public var configuration: HUDConfiguration
    public var layout: HUDLayout
    public var presentation: Presentation = .shown
    /// Seconds on any time line; drives the spinner.
    public var time: Double = 0
    /// Progress as displayed (smoothed by the caller when it animates).
    public var progress: Double
    public var buttonPressed: Bool = false
    /// The target surface's top-left corner in the region's coordinates (a window may cover only
    /// the bezel), in logical pixels.
    public var origin: Point = .zero
    /// Device pixels per logical pixel.
    public var scale: Double = 1
    /// Whether the mask is painted (false when the surface covers only the bezel).
    public var drawsMask: Bool = true
    /// The bezel's rectangle while it animates to `layout.bezel` (a resize), nil otherwise.
    public var bezelOverride: Rect? = nil
    /// The content's opacity inside the bezel (below 1 while a growing bezel uncovers it).
    public var contentAlpha: Double = 1
    /// Draws everything but the spinner: the content layer that a backend composites the turning
    /// spinner sprite over.
    public var leavesOutSpinner: Bool = false

    /// This frame reduced to its bezel, filled opaque: what a window's shape follows. Everything a
    /// HUD draws lies inside its bezel, so the outline covers it whatever the bezel's colour, and
    /// it costs a rounded rectangle where the whole frame (text, rings) would be drawn a second
    /// time.
    public var outline: HUDFrame {
        var o = self
        o.layout.indicator = nil
        o.layout.image = nil
        o.layout.label = nil
        o.layout.details = nil
        o.layout.button = nil
        o.layout.value = nil
        o.configuration.bezelColor = RGBA(0, 0, 0, 1)
        o.configuration.shadow = false
        o.drawsMask = false
        return o
    }

    public init(configuration: HUDConfiguration, layout: HUDLayout) {
        self.configuration = configuration
        self.layout = layout
        self.progress = configuration.progress
    }
}

public enum RenderMetrics {
    /// How far the drop shadow reaches beyond the bezel.
    public static let shadowReach = 14.0
    public static let shadowOffsetY = 3.0
    /// The edge's hairline: white at this alpha on a dark bezel, black at this one on a light.
    public static let hairlineOnDark = 0.16
    public static let hairlineOnLight = 0.12
}

extension HUDFrame {
    /// Everything the bezel (with shadow and zoom) can touch, in region coordinates.
    public var bezelExtent: Rect {
        var r = (bezelOverride ?? layout.bezel).scaledAboutCentre(max(1, presentation.scale))
        if configuration.shadow {
            let s = RenderMetrics.shadowReach
            r = Rect(x: r.x - s, y: r.y - s, width: r.width + 2 * s, height: r.height + 2 * s + RenderMetrics.shadowOffsetY)
        }
        return r
    }
}
