#if canImport(Glibc)
import Glibc
#endif
/// How a text block is to be laid out; the renderer measures and draws with the same request.
/// Equal and hashed by its text's bytes: the String's own equality and hash normalize the text
/// at every look-up, which for 16 KB of combining marks took milliseconds of a request's time.
package struct TextRequest: Hashable, Sendable {
    package var text: String
    package var font: String
    package var markup: Bool
    /// Width at which text wraps (multi-line) or is ellipsized (single line).
    package var maxWidth: Double
    /// Height beyond which a multi-line text is cut with an ellipsis; nil for no bound.
    package var maxHeight: Double?
    package var singleLine: Bool
    /// The colour markup's text is drawn in where it sets none of its own. Laid out on another
    /// thread, markup is recorded in its colours (its alphas, backgrounds and underline colours
    /// blend as Pango's one pass blends them), so the default one is part of the request.
    package var ink: RGBA?
    package init(
        text: String, font: String, markup: Bool = false, maxWidth: Double, maxHeight: Double? = nil, singleLine: Bool,
        ink: RGBA? = nil
    ) {
        self.text = text; self.font = font; self.markup = markup
        self.maxWidth = maxWidth; self.maxHeight = maxHeight; self.singleLine = singleLine; self.ink = ink
    }

    package static func == (a: TextRequest, b: TextRequest) -> Bool {
        guard a.font == b.font, a.markup == b.markup, a.maxWidth == b.maxWidth, a.maxHeight == b.maxHeight,
            a.singleLine == b.singleLine, a.ink == b.ink
        else { return false }
        var x = a.text, y = b.text
        return x.withUTF8 { p in y.withUTF8 { q in p.count == q.count && (p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0) } }
    }

    package func hash(into h: inout Hasher) {
        var t = text
        t.withUTF8 { h.combine(bytes: UnsafeRawBufferPointer($0)) }
        h.combine(font); h.combine(markup); h.combine(maxWidth); h.combine(maxHeight); h.combine(singleLine); h.combine(ink)
    }
}

/// Measures text in logical pixels. Implemented with Pango by the renderer; with fixed metrics in tests.
package protocol TextMeasurer {
    func measure(_ request: TextRequest) -> Size
}

/// Where everything goes, in the parent region's coordinates (logical pixels).
package struct HUDLayout: Equatable, Sendable {
    package var region: Size
    package var bezel: Rect
    package var indicator: Rect?
    /// An image above a bar (an OSD's icon over its level), when the bar has one.
    package var image: Rect?
    package var label: Rect?
    package var details: Rect?
    /// The buttons that fit, left to right: `buttons[i]` is `buttonTitles[i]`'s.
    package var buttons: [Rect] = []
    /// The value text beside a bar ("45%"), when shown.
    package var value: Rect?
    package var labelRequest: TextRequest?
    package var detailsRequest: TextRequest?
    package var buttonRequests: [TextRequest] = []
    package var valueRequest: TextRequest?

    /// The first button (the HUD's `button`, or the first extra one without it).
    package var button: Rect? { buttons.first }
    package var buttonRequest: TextRequest? { buttonRequests.first }
}

extension HUDLayout {
    /// Nothing laid out yet (a HUD before it knows its region): no text measured for it.
    package static let empty = HUDLayout(region: .zero, bezel: Rect(x: 0, y: 0, width: 0, height: 0))

    /// The layout with the bezel and every item starting on a whole device pixel: a 77 px bezel
    /// centred in an even region, or a 37 px ring centred in an even bezel, would otherwise sit
    /// on half pixels and draw its edges and 2 px strokes soft. Moves nothing by more than half a
    /// device pixel.
    /// The same layout moved as a whole (a stack making room).
    package func translated(dx: Double, dy: Double) -> HUDLayout {
        var l = self
        l.bezel = bezel.offsetBy(dx: dx, dy: dy)
        l.indicator = indicator?.offsetBy(dx: dx, dy: dy)
        l.image = image?.offsetBy(dx: dx, dy: dy)
        l.label = label?.offsetBy(dx: dx, dy: dy)
        l.details = details?.offsetBy(dx: dx, dy: dy)
        l.buttons = buttons.map { $0.offsetBy(dx: dx, dy: dy) }
        l.value = value?.offsetBy(dx: dx, dy: dy)
        return l
    }

    package func snapped(toScale scale: Double) -> HUDLayout {
        func snap(_ r: Rect?) -> Rect? {
            guard let r, scale > 0, r.x.isFinite, r.y.isFinite else { return r }
            return Rect(x: (r.x * scale).rounded() / scale, y: (r.y * scale).rounded() / scale, width: r.width, height: r.height)
        }
        var l = self
        l.bezel = snap(bezel)!
        l.indicator = snap(indicator)
        l.image = snap(image)
        l.label = snap(label)
        l.details = snap(details)
        l.buttons = buttons.map { snap($0)! }
        l.value = snap(value)
        return l
    }
}

package enum LayoutMetrics {
    package static let roundIndicator = 37.0  // spinner, pie, ring, icons
    package static let barSize = Size(width: 120, height: 20)
    package static let valueGap = 8.0  // between a bar and its value
    package static let alternateIcon = 16.0  // the alternate state's mark beside a bar
    package static let buttonPadding = Size(width: 20, height: 12)
    package static let buttonGap = 8.0  // between the buttons of a row
}

extension HUDLayout {
    /// Lays out a HUD in a region, following MBProgressHUD: a vertical stack (indicator, label,
    /// details, button) `spacing` apart, `margin` inside the bezel, the bezel `margin` inside the region.
    package static func compute(_ c: HUDConfiguration, region: Size, measurer: TextMeasurer) -> HUDLayout {
        let m = c.margin
        let maxBezel = Size(width: max(0, region.width - 2 * m), height: max(0, region.height - 2 * m))
        let maxContentWidth = max(0, maxBezel.width - 2 * m)
        let maxContentHeight = max(0, maxBezel.height - 2 * m)
        // Text wraps at a readable width (SVProgressHUD: 200 x 300), not at the screen's edge.
        let maxTextWidth = min(maxContentWidth, max(0, c.maxTextWidth))

        // Items top to bottom: (size, kind).
        enum Item { case image, indicator, label, details, button }
        var items: [(Item, Size)] = []
        if c.mode == .bar, c.image != nil {
            let side = min(c.imageSize, maxContentWidth)
            items.append((.image, Size(width: side, height: side)))
        }

        var valueRequest: TextRequest? = nil
        var valueSize = Size.zero
        if let indicator = indicatorSize(c) {
            var size = indicator
            if c.barHasValueSlot {
                // The slot holds the value, or the alternate state's icon (xob's `!`: muted).
                let req = TextRequest(text: "100%", font: c.valueFont, maxWidth: 1000, singleLine: true)
                valueSize = measurer.measure(req)
                if !c.showValue { valueSize.width = LayoutMetrics.alternateIcon }
                if c.showValue && !c.alternate {
                    valueRequest = TextRequest(text: valueText(c.progress), font: c.valueFont, maxWidth: valueSize.width, singleLine: true)
                }
                size.width += LayoutMetrics.valueGap + valueSize.width
            } else if c.showValue && c.mode == .annular {
                valueRequest = TextRequest(text: valueText(c.progress), font: c.ringValueFont, maxWidth: size.width - 6, singleLine: true)
            }
            if size.width > maxContentWidth { size.width = maxContentWidth }
            items.append((.indicator, size))
        }

        var labelRequest: TextRequest? = nil
        if !c.label.isEmpty {
            let req = TextRequest(
                text: c.label, font: c.labelFont, markup: c.markup, maxWidth: maxTextWidth, singleLine: true,
                ink: c.markup ? c.effectiveContentColor : nil)
            labelRequest = req
            items.append((.label, clampWidth(measurer.measure(req), maxTextWidth)))
        }

        let (buttonRequests, buttonWidths, buttonSize) = buttonRow(c, maxWidth: maxContentWidth, measurer: measurer)
        let buttonRequest = buttonRequests.first

        var detailsRequest: TextRequest? = nil
        if !c.details.isEmpty {
            // The details take what height is left; below that they end with an ellipsis.
            let used = items.reduce(0) { $0 + $1.1.height } + (buttonSize.height)
            let count = items.count + (buttonRequest == nil ? 0 : 1)
            let left = max(0, maxContentHeight - used - Double(count) * c.spacing)
            let req = TextRequest(
                text: c.details, font: c.detailsFont, markup: c.markup, maxWidth: maxTextWidth, maxHeight: left,
                singleLine: false, ink: c.markup ? c.effectiveContentColor : nil)
            detailsRequest = req
            var size = clampWidth(measurer.measure(req), maxTextWidth)
            size.height = min(size.height, left)
            items.append((.details, size))
        }
        if buttonRequest != nil { items.append((.button, buttonSize)) }

        let contentWidth = items.map { $0.1.width }.max() ?? 0
        let contentHeight = items.reduce(0) { $0 + $1.1.height } + Double(max(0, items.count - 1)) * c.spacing

        var bezelSize = Size(width: contentWidth + 2 * m, height: contentHeight + 2 * m)
        bezelSize.width = max(bezelSize.width, c.minSize.width)
        bezelSize.height = max(bezelSize.height, c.minSize.height)
        if c.square {
            let side = max(bezelSize.width, bezelSize.height)
            if side <= maxBezel.width && side <= maxBezel.height { bezelSize = Size(width: side, height: side) }
        }
        bezelSize.width = min(bezelSize.width, maxBezel.width)
        bezelSize.height = min(bezelSize.height, maxBezel.height)

        // Centred plus offset; an offset beyond an edge pins the bezel `margin` from that edge.
        let x = clamp(region.width / 2 + c.offset.x - bezelSize.width / 2, m, region.width - m - bezelSize.width)
        let y = clamp(region.height / 2 + c.offset.y - bezelSize.height / 2, m, region.height - m - bezelSize.height)
        let bezel = Rect(x: x, y: y, width: bezelSize.width, height: bezelSize.height)

        var layout = HUDLayout(region: region, bezel: bezel)
        layout.labelRequest = labelRequest
        layout.detailsRequest = detailsRequest
        layout.buttonRequests = buttonRequests
        layout.valueRequest = valueRequest

        // Equal top and bottom spacers: the stack is centred vertically in the bezel.
        var top = bezel.y + (bezel.height - contentHeight) / 2
        for (kind, size) in items {
            let r = Rect(x: bezel.midX - size.width / 2, y: top, width: size.width, height: size.height)
            switch kind {
            case .indicator:
                if c.barHasValueSlot {
                    let bar = indicatorSize(c)!
                    let barWidth = max(0, size.width - LayoutMetrics.valueGap - valueSize.width)
                    layout.indicator = Rect(x: r.x, y: r.y, width: barWidth, height: bar.height)
                    layout.value = Rect(
                        x: r.maxX - valueSize.width, y: r.midY - valueSize.height / 2, width: valueSize.width, height: valueSize.height)
                } else if c.showValue && c.mode == .annular {
                    layout.indicator = r
                    let t = measurer.measure(valueRequest!)
                    layout.value = Rect(x: r.midX - t.width / 2, y: r.midY - t.height / 2, width: t.width, height: t.height)
                } else {
                    layout.indicator = r
                }
            case .image: layout.image = r
            case .label: layout.label = r
            case .details: layout.details = r
            case .button:
                var x = r.x
                for w in buttonWidths {
                    layout.buttons.append(Rect(x: x, y: r.y, width: w, height: r.height))
                    x += w + LayoutMetrics.buttonGap
                }
            }
            top += size.height + c.spacing
        }
        return layout
    }

    /// The row of buttons: each title's request and width, and the row's size. Titles are taken
    /// in order while they fit the text's width (a notification stays its width whatever its
    /// actions); the first always shows, ellipsized at `maxWidth` if it must.
    private static func buttonRow(
        _ c: HUDConfiguration, maxWidth: Double, measurer: TextMeasurer
    )
        -> ([TextRequest], [Double], Size)
    {
        let pad = LayoutMetrics.buttonPadding
        var requests: [TextRequest] = [], widths: [Double] = [], size = Size.zero
        for title in c.buttonTitles {
            let gap = requests.isEmpty ? 0 : LayoutMetrics.buttonGap
            let left = (requests.isEmpty ? maxWidth : min(maxWidth, max(c.maxTextWidth, widths[0]))) - size.width - gap
            // The first button's title is ellipsized to fit; another one fits whole or not at all.
            let req = TextRequest(
                text: title, font: c.buttonFont,
                maxWidth: max(0, (requests.isEmpty ? left : maxWidth) - pad.width), singleLine: true)
            let t = measurer.measure(req)
            let width = t.width + pad.width
            if !requests.isEmpty && width > left { break }
            requests.append(req)
            widths.append(min(width, max(0, left)))
            size = Size(width: size.width + gap + widths[widths.count - 1], height: max(size.height, t.height + pad.height))
        }
        return (requests, widths, size)
    }

    /// The indicator's size for a mode, nil for text only (and for a custom mode without an image).
    package static func indicatorSize(_ c: HUDConfiguration) -> Size? {
        switch c.mode {
        case .text: return nil
        case .bar: return LayoutMetrics.barSize
        case .custom: return c.image == nil ? nil : Size(width: c.imageSize, height: c.imageSize)
        case .success, .error, .info, .warning:
            if c.resultImage != nil { return Size(width: c.imageSize, height: c.imageSize) }
        case .indeterminate where c.spinner == .ring, .annular:
            // The ring's radius is to the middle of its line (SVProgressHUD's): the indicator
            // holds the whole line.
            if let r = c.ringRadius { let side = 2 * r + c.ringThickness; return Size(width: side, height: side) }
        default: break
        }
        return Size(width: LayoutMetrics.roundIndicator, height: LayoutMetrics.roundIndicator)
    }

    package static func valueText(_ progress: Double) -> String {
        "\(Int((clamp(progress, 0, 1) * 100).rounded()))%"
    }
}

@inline(__always)
package func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
    hi < lo || v.isNaN ? lo : min(max(v, lo), hi)
}

private func clampWidth(_ s: Size, _ w: Double) -> Size { Size(width: min(s.width, w), height: s.height) }

extension HUDConfiguration {
    /// A bar keeps a slot at its right for the value ("45%") or the alternate state's icon.
    package var barHasValueSlot: Bool { mode == .bar && (showValue || alternate) }
}
