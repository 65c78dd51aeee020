#if canImport(Glibc)
import Glibc
#endif

/// Timing curves, 0...1 -> 0...1.
package enum AnimationCurve: Sendable {
    case linear
    case easeOut
    /// UIKit's spring with damping 1 (critically damped, no overshoot), as MBProgressHUD animates.
    case criticallyDamped

    package func value(_ t: Double) -> Double {
        let t = clamp(t, 0, 1)
        switch self {
        case .linear: return t
        case .easeOut: return 1 - (1 - t) * (1 - t) * (1 - t)
        case .criticallyDamped:
            // x(t) = 1 - (1 + wt) e^(-wt), with w chosen so that it has settled (1e-3) at t = 1.
            let w = 9.233
            let end = 1 - (1 + w) * exp(-w)
            return (1 - (1 + w * t) * exp(-w * t)) / end
        }
    }
}

/// The alpha and zoom of the bezel (and the alpha of the mask, which fades with it).
package struct Presentation: Equatable, Sendable {
    package var alpha: Double
    package var scale: Double
    package init(alpha: Double, scale: Double) { self.alpha = alpha; self.scale = scale }
    package static let shown = Presentation(alpha: 1, scale: 1)
    package static let hidden = Presentation(alpha: 0, scale: 1)
}

extension HUDAnimation {
    package var duration: Double {
        switch self {
        case .none: return 0
        case .pop: return 0.15
        default: return 0.3
        }
    }
    package var curve: AnimationCurve { self == .pop ? .easeOut : .criticallyDamped }

    /// Where a show starts from and where a hide ends.
    package func offscreen(showing: Bool) -> Presentation {
        switch self {
        case .fade, .none: return .hidden
        case .zoom: return Presentation(alpha: 0, scale: showing ? 0.5 : 0.5)
        case .zoomIn: return Presentation(alpha: 0, scale: showing ? 0.5 : 1.5)
        case .zoomOut: return Presentation(alpha: 0, scale: showing ? 1.5 : 0.5)
        case .pop: return Presentation(alpha: 0, scale: showing ? 1.3 : 1 / 1.3)
        }
    }
}

/// An animation between two presentations that began at `start`.
package struct Transition: Equatable, Sendable {
    package var from: Presentation, to: Presentation
    package var start: Double, duration: Double
    package var curve: AnimationCurve

    package var end: Double { start + duration }
    package func value(at t: Double) -> Presentation {
        guard duration > 0 else { return to }
        let k = curve.value((t - start) / duration)
        return Presentation(
            alpha: from.alpha + (to.alpha - from.alpha) * k,
            scale: from.scale + (to.scale - from.scale) * k)
    }
}

extension AnimationCurve: Equatable {}

/// Animates a value towards its latest target (smooth progress, bezel resize) instead of snapping.
package struct Tween: Sendable {
    package private(set) var from: Double
    package private(set) var target: Double
    package private(set) var start: Double = -.infinity
    package var duration: Double

    package init(_ value: Double, duration: Double) { from = value; target = value; self.duration = duration }

    package func value(at t: Double) -> Double {
        guard duration > 0, t < start + duration else { return target }
        return from + (target - from) * AnimationCurve.easeOut.value((t - start) / duration)
    }
    package func isMoving(at t: Double) -> Bool { duration > 0 && t < start + duration && from != target }

    /// Retargets from wherever the value is now.
    package mutating func set(_ v: Double, at t: Double, animated: Bool = true) {
        guard v != target else { return }
        from = animated ? value(at: t) : v
        target = v
        start = animated ? t : -.infinity
    }
}

/// A rectangle moving from one frame to another (the bezel resizing when its content changes).
package struct RectTween: Equatable, Sendable {
    package var from: Rect, to: Rect
    package var start: Double, duration: Double
    package init(from: Rect, to: Rect, start: Double, duration: Double = 0.25) {
        self.from = from; self.to = to; self.start = start; self.duration = duration
    }
    package func isMoving(at t: Double) -> Bool { t < start + duration }
    /// How far along the curve it is at `t`, 0 to 1.
    package func fraction(at t: Double) -> Double {
        guard duration > 0, t < start + duration else { return 1 }
        return AnimationCurve.criticallyDamped.value(max(0, t - start) / duration)
    }
    /// Whether it grows in either direction.
    package var grows: Bool { to.width > from.width || to.height > from.height }
    package func value(at t: Double) -> Rect {
        guard duration > 0, t < start + duration else { return to }
        let k = fraction(at: t)
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * k }
        return Rect(x: mix(from.x, to.x), y: mix(from.y, to.y), width: mix(from.width, to.width), height: mix(from.height, to.height))
    }
}
