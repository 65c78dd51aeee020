import HUDCore
import HUDSettings

extension ConfiguredInvocation {
    /// `xhud --print-config`: every key with its effective value for this invocation, and where
    /// the value comes from, as a TOML file that can be read back.
    package func printedConfiguration() -> String {
        let c = (try? options.hudConfiguration()) ?? HUDConfiguration()
        var out = "# The effective configuration of this invocation: each key, its value, where it comes from.\n"
        let files = resolutionFiles
        out += "# files: " + (files.isEmpty ? "none (\(Locations.configFiles.reversed().joined(separator: ", ")) do not exist)" : files.joined(separator: ", ")) + "\n"
        out += "# themes: " + Theme.available.joined(separator: ", ") + " (in " + Theme.searchPath.joined(separator: ", ") + ")\n"
        let winners = Dictionary(resolution.settings.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        for (key, _) in SettingKeys.all {
            let value: SettingValue? = key == "theme"
                ? .string(options.theme ?? resolution.theme?.name ?? "default")
                : effectiveValue(key, c)
            let source: String
            if given.contains(key) { source = "command line" }
            else if key == "theme", let t = resolution.theme { source = winners["theme"]?.source.description ?? "theme \(t.name)" }
            else if let s = winners[key] { source = s.source.description }
            else { source = "built-in" }
            let text = value.map { "\(key) = \($0)" } ?? "# \(key) (not set)"
            out += text.padding(to: 44) + " # " + source + "\n"
        }
        return out
    }

    private var resolutionFiles: [String] {
        var seen: [String] = []
        for s in resolution.settings { if let f = s.source.file, s.source.theme == nil, !seen.contains(f) { seen.append(f) } }
        return seen
    }

    private func effectiveValue(_ key: String, _ c: HUDConfiguration) -> SettingValue? {
        let o = options
        func n(_ v: Double) -> SettingValue { .number(v) }
        func color(_ v: RGBA) -> SettingValue { .string(v.description) }
        switch key {
        case "mode": return .string(c.mode.rawValue)
        case "spinner": return .string(c.spinner.rawValue)
        case "label": return .string(c.label)
        case "details": return .string(c.details)
        case "button": return .string(c.buttonTitle)
        case "image": return c.imagePath.map { .string($0) }
        case "image-size": return n(c.imageSize)
        case "tint-image": return .bool(c.tintImage)
        case "success-image": return c.successImage.map { .string($0) }
        case "error-image": return c.errorImage.map { .string($0) }
        case "info-image": return c.infoImage.map { .string($0) }
        case "warning-image": return c.warningImage.map { .string($0) }
        case "ring-thickness": return n(c.ringThickness)
        case "ring-radius": return c.ringRadius.map(n)
        case "show-value": return .bool(c.showValue)
        case "alternate-color": return color(c.alternateColor)
        case "markup": return .bool(c.markup)
        case "smooth": return .bool(o.smooth ?? false)
        case "style": return .string(c.style.rawValue)
        case "bezel-color": return color(c.effectiveBezelColor)
        case "content-color": return color(c.effectiveContentColor)
        case "mask":
            switch c.effectiveMask {
            case .none: return .string("none")
            case .clear: return .string("clear")
            case .black: return .string("black")
            case .gradient: return .string("gradient")
            case .color(let v): return color(v)
            case .blur(let v): return .string(v.a == 0 ? "blur" : "blur:" + v.description)
            }
        case "shadow": return .bool(c.shadow)
        case "blur": return n(c.blur)
        case "margin": return n(c.margin)
        case "spacing": return n(c.spacing)
        case "corner-radius": return n(c.cornerRadius)
        case "min-size": return .list([n(c.minSize.width), n(c.minSize.height)])
        case "square": return .bool(c.square)
        case "offset": return .list([n(c.offset.x), n(c.offset.y)])
        case "max-text-width": return n(c.maxTextWidth)
        case "font": return .string(c.labelFont)
        case "details-font": return .string(c.detailsFont)
        case "animation": return .string(c.animation.rawValue)
        case "fade-in": return c.showDuration.map(n)
        case "fade-out": return c.hideDuration.map(n)
        case "grace": return n(o.grace ?? (o.command.isEmpty ? c.graceTime : 0.5))
        case "min-show": return n(o.minShow ?? (o.command.isEmpty ? c.minShowTime : 0.5))
        case "hide-after": return o.hideAfter.map(n)
        case "min-duration": return n(o.minDuration)
        case "max-duration": return o.maxDuration.map(n)
        case "click-through": return .bool(o.clickThrough ?? false)
        case "monitor": return .string(o.monitor ?? "pointer")
        case "scale": return o.scale.map(n)
        case "result-time": return n(o.resultTime)
        case "kill-timeout": return n(o.killTimeout)
        case "progress-from-output": return .bool(o.progressFromOutput ?? false)
        case "linger": return n(o.linger ?? 10)
        case "icon-theme": return .string(o.iconTheme ?? IconTheme.userTheme ?? "hicolor")
        default: return nil
        }
    }
}

private extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
