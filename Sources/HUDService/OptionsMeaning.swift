import HUDCommandLine
import HUDCore

/// What the parsed options mean: the HUD configuration they name, the parent region, the
/// notification's display time; and zenity's spelling turned into ours before parsing.
extension HUDOptions {
    /// `base` with what these flags name changed (the defaults for a new HUD): each option that
    /// names one property through the table (`OptionSpec.hud`), then what options mean together
    /// and what must be read (colours, the mask, sizes).
    package func hudConfiguration(base: HUDConfiguration = HUDConfiguration()) throws -> HUDConfiguration {
        var c = base
        for o in OptionTable.all { o.hud?(self, &c) }
        if let m = requestedMode { c.mode = m }
        // A rule's urgency: critical is the warning (not over an error or a success).
        if busNotification, let u = urgency, c.mode == .info || c.mode == .warning { c.mode = u == .critical ? .warning : .info }
        // The label: --label, else zenity's --text, else a notification's text.
        if verb?.isNotification == true, let m = message { c.label = m }
        if let t = text { c.label = t }
        if let l = label { c.label = l }
        if let p = percentage { c.progress = Limits.percentage.clamp(p) / 100 }
        if let p = progress { c.progress = p }
        if let b = button { c.button = b } else if zenityProgress && !noCancel && base.button.isEmpty { c.button = cancelLabel ?? "Cancel" }
        if noCancel { c.button = "" }
        // Given, they replace the extra buttons (`--extra-button=` alone: none).
        if !extraButton.isEmpty { c.extraButtons = extraButton.filter { !$0.isEmpty } }
        if let f = uiFamily { c.useUIFamily(f) }
        if let i = image { c.image = i }
        // A result image given as "" is the drawn icon.
        if let i = successImage { c.successImage = i.isEmpty ? nil : i }
        if let i = errorImage { c.errorImage = i.isEmpty ? nil : i }
        if let i = infoImage { c.infoImage = i.isEmpty ? nil : i }
        if let i = warningImage { c.warningImage = i.isEmpty ? nil : i }
        if let m = markup {
            c.markup = m
        }
        // zenity shows its dialog's --text as Pango markup (--no-markup: as written).
        else if zenityProgress && text != nil {
            c.markup = true
        }
        do {
            if let b = bezelColor { c.bezelColor = try RGBA.parse(b) }
            if let f = contentColor { c.contentColor = try RGBA.parse(f) }
            if let a = alternateColor { c.alternateColor = try RGBA.parse(a) }
            if let m = mask { c.mask = try HUDMask.parse(m) }
        } catch let e as RGBA.ParseError {
            throw UsageError(e.description)
        }
        if let s = minSize {
            let p = s.split(separator: "x").compactMap { Double($0) }
            guard p.count == 2, p.allSatisfy({ Limits.minSide.contains($0) }) else {
                throw UsageError("--min-size must be WxH, each \(Limits.describe(Limits.minSide)), e.g. 120x120")
            }
            c.minSize = Size(width: p[0], height: p[1])
        }
        // A position, else a corner for another program's notification; --offset over either.
        if let p = position ?? (busNotification && offset == nil ? .topRight : nil) { c.offset = p.offset }
        if let o = offset {
            let p = o.split(separator: ",").compactMap { Double($0) }
            guard p.count == 2, p.allSatisfy({ $0.isFinite }) else { throw UsageError("--offset must be X,Y, e.g. 0,200") }
            // Beyond an edge pins the bezel to it: huge values are clamped, not refused.
            c.offset = Point(x: Limits.offset.clamp(p[0]), y: Limits.offset.clamp(p[1]))
        }
        return c
    }

    /// The parent region named by the flags; nil when none was given.
    var explicitParent: ParentSpec? {
        if let w = window { return .window(w) }
        if let w = attach { return .window(w) }  // zenity --attach=WINDOW
        if let g = geometry { return .geometry(g) }
        if let m = monitor { return .monitor(m) }
        return nil
    }
    package var parentSpec: ParentSpec { explicitParent ?? .monitor("pointer") }

    /// The notification's display time: --hide-after, else dunst's 10 s for another program's
    /// notification, else SVProgressHUD's formula; the last two within --min-duration and
    /// --max-duration.
    func notificationDuration(for c: HUDConfiguration) -> Double {
        if busNotification && urgency == .critical { return Limits.seconds.upperBound }  // a rule's: until closed
        return hideAfter
            ?? (busNotification
                ? min(max(Self.busTimeout, minDuration), maxDuration ?? .infinity)
                : displayDuration(for: c.label + c.details, minimum: minDuration, maximum: maxDuration ?? .infinity))
    }

    /// The common daemons' default timeout (dunst's, xfce4-notifyd's).
    static let busTimeout = 10.0

    /// When a HUD shown for `duration` starts to hide: another program's notification is gone
    /// at its timeout, as the specification says, so its fade ends then.
    func hideDelay(showing duration: Double, _ c: HUDConfiguration) -> Double {
        busNotification ? max(0, duration - (c.hideDuration ?? c.animation.duration)) : duration
    }
}
