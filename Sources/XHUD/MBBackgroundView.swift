import HUDCore

/// MBProgressHUD's `MBBackgroundView`: the bezel (its `style` sets the bezel's blur, its
/// `color` the bezel's colour) or the background view over the whole parent (`.blur` blurs the
/// parent region behind and tints it with `color`, `HUDMask.blur(_:)`; `.solidColor` with a
/// visible colour dims it, `HUDMask.color(_:)`; clear is the HUD's default mask).
public final class MBBackgroundView: @unchecked Sendable {
    private let hud: HUD?
    private let bezel: Bool

    init(_ hud: HUD?, bezel: Bool) {
        self.hud = hud
        self.bezel = bezel
    }

    /// `.blur` (the bezel's default, as MBProgressHUD's) or `.solidColor` (the background's).
    public var style: MBProgressHUDBackgroundStyle {
        get {
            guard let c = hud?.configuration else { return bezel ? .blur : .solidColor }
            if bezel { return c.blur > 0 ? .blur : .solidColor }
            if case .blur = c.mask { return .blur }
            return .solidColor
        }
        set {
            hud?.modify { c in
                if bezel {
                    c.blur = newValue == .blur ? MBProgressHUD.bezelBlurRadius : 0
                } else {
                    c.mask = MBBackgroundView.mask(style: newValue, color: MBBackgroundView.colour(of: c.mask), from: c.mask)
                }
            }
        }
    }

    /// The colour: the bezel's (nil: the style's), or the background's (clear by default).
    public var color: HUDColor? {
        get {
            guard let c = hud?.configuration else { return nil }
            return bezel ? c.bezelColor : MBBackgroundView.colour(of: c.mask)
        }
        set {
            hud?.modify { c in
                if bezel {
                    c.bezelColor = newValue
                } else {
                    let style: MBProgressHUDBackgroundStyle
                    if case .blur = c.mask { style = .blur } else { style = .solidColor }
                    c.mask = MBBackgroundView.mask(style: style, color: newValue ?? .clear, from: c.mask)
                }
            }
        }
    }

    /// The mask a background view of this style and colour is: a clear solid one leaves the
    /// HUD's own (default, or one that lets input through).
    static func mask(style: MBProgressHUDBackgroundStyle, color: HUDColor, from old: HUDMask?) -> HUDMask? {
        if style == .blur { return .blur(color) }
        if color.a > 0 { return .color(color) }
        switch old {
        case HUDMask.none?, HUDMask.clear?: return old
        default: return nil
        }
    }

    static func colour(of mask: HUDMask?) -> HUDColor {
        switch mask {
        case .color(let c)?, .blur(let c)?: return c
        case .black?: return HUDColor(0, 0, 0, 0.4)
        default: return .clear
        }
    }
}
