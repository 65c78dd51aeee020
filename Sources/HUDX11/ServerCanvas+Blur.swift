#if canImport(Glibc)
import Glibc
#endif
import CX11
import HUDCore

// What shows through the bezel without a compositor, blurred on the X server: the background's
// copy scaled down, convolved, saturated and scaled up, drawn clipped to the bezel.
extension ServerCanvas {
    /// Blur what shows through the bezel by `radius` device pixels, within `spans` (the bezel's
    /// shape, window pixels). Only without a compositor: with one, the compositor blurs.
    func setBlur(radius: Double, spans: [Rect]) {
        let r = min(max(0, radius), 128)
        if r != blurRadius { dropBlurred(); generation += 1 }
        blurRadius = r
        let clip = spans.map {
            XRectangle(
                x: Int16(saturating: $0.x), y: Int16(saturating: $0.y),
                width: UInt16(saturating: $0.width), height: UInt16(saturating: $0.height))
        }
        if clip.count != blurClip.count
            || !zip(clip, blurClip).allSatisfy({ $0.x == $1.x && $0.y == $1.y && $0.width == $1.width && $0.height == $1.height })
        {
            blurClip = clip
            generation += 1
            if blurTargetPicture != 0 { XRenderFreePicture(display.handle, blurTargetPicture); blurTargetPicture = 0 }
        }
    }

    func blurTarget() -> Picture {
        if blurTargetPicture == 0 {
            let d = display.handle
            blurTargetPicture = XRenderCreatePicture(d, back.pixmap, backFormat, 0, nil)
            XRenderSetPictureClipRectangles(d, blurTargetPicture, 0, 0, &blurClip, Int32(blurClip.count))
        }
        return blurTargetPicture
    }

    func dropBlurred() {
        guard let b = blurred else { return }
        XRenderFreePicture(display.handle, b.picture)
        XFreePixmap(display.handle, b.pixmap)
        blurred = nil
    }

    /// A Gaussian blur of the background on the server with XRender's convolution filter, one
    /// pass across and one down; the radius is the standard deviation, as CSS's blur(). A copy
    /// scaled down by `f`, the largest power of two at most half the radius, in halvings (each
    /// averages 2x2 pixels, so nothing aliases), is blurred by what is left, 2-4 of its pixels
    /// (9-17 taps), and scaled back up: the convolution, pixman's slowest path, sees a 64th of
    /// the pixels for the default 20.
    func makeBlurred() {
        let d = display.handle
        let format = XRenderFindVisualFormat(d, XDefaultVisual(d, display.screen))
        let depth = UInt32(XDefaultDepth(d, display.screen))
        // All the copy of the screen (a slide's path is blurred once).
        let area = snapshotRect
        let width = max(1, Int(area.width)), height = max(1, Int(area.height))
        var f = 1
        while Double(f * 2) <= blurRadius / 2, f < 64 { f *= 2 }
        func picture(_ w: Int, _ h: Int) -> (Pixmap, Picture) {
            let p = XCreatePixmap(d, display.root, UInt32(w), UInt32(h), depth)
            var attrs = XRenderPictureAttributes()
            attrs.repeat = RepeatPad  // edge pixels extend: no dark rim at the window's edge
            return (p, XRenderCreatePicture(d, p, format, UInt(CPRepeat), &attrs))
        }
        func free(_ p: (Pixmap, Picture)) { XRenderFreePicture(d, p.1); XFreePixmap(d, p.0) }
        // 1. The background under the window, then halved until a pixel is f of them: each
        // halving samples between four pixels, bilinearly, which is their average.
        var small = picture(width, height)
        XRenderComposite(d, PictOpSrc, backgroundPicture, 0, small.1, 0, 0, 0, 0, 0, 0, UInt32(width), UInt32(height))
        var sw = width, sh = height
        for _ in 0..<f.trailingZeroBitCount {
            let hw = (sw + 1) / 2, hh = (sh + 1) / 2
            let half = picture(hw, hh)
            setTransform(small.1, [2, 0, 0, 0, 2, 0])
            setFilter(small.1, "bilinear")
            XRenderComposite(d, PictOpSrc, small.1, 0, half.1, 0, 0, 0, 0, 0, 0, UInt32(hw), UInt32(hh))
            free(small)
            small = half
            (sw, sh) = (hw, hh)
        }
        let across = picture(sw, sh), down = picture(sw, sh)
        // 2. Across, then down: a Gaussian to two deviations.
        let sigma = max(0.5, blurRadius / Double(f))
        let r = max(1, Int((2 * sigma).rounded(.up)))
        var weights = (-r...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = weights.reduce(0, +)
        weights = weights.map { $0 / sum }
        func convolve(_ from: (Pixmap, Picture), _ to: (Pixmap, Picture), horizontal: Bool) {
            var params: [XFixed] = [XFixed((horizontal ? 2 * r + 1 : 1) << 16), XFixed((horizontal ? 1 : 2 * r + 1) << 16)]
            params += weights.map { XFixed(($0 * 65536).rounded()) }
            "convolution".withCString { XRenderSetPictureFilter(d, from.1, $0, &params, Int32(params.count)) }
            XRenderComposite(d, PictOpSrc, from.1, 0, to.1, 0, 0, 0, 0, 0, 0, UInt32(sw), UInt32(sh))
        }
        convolve(small, across, horizontal: true)
        convolve(across, down, horizontal: false)
        // The two passes' pictures are the saturation's scratch (no new pixmaps per blur).
        setFilter(small.1, "nearest")
        setFilter(across.1, "nearest")
        let minus = picture(sw, sh)
        saturate(down.1, width: sw, height: sh, lum: small.1, plus: across.1, minus: minus.1)
        free(small)
        free(across)
        free(minus)
        // 3. Back to the window's size, smoothly.
        let result = picture(width, height)
        if f > 1 {
            setTransform(down.1, [1 / Double(f), 0, 0, 0, 1 / Double(f), 0])
            setFilter(down.1, "bilinear")
        }
        XRenderComposite(d, PictOpSrc, down.1, 0, result.1, 0, 0, 0, 0, 0, 0, UInt32(width), UInt32(height))
        free(down)
        blurred = result
        blurredArea = area
    }

    /// How much further from grey the blurred colours go: iOS's materials raise saturation so
    /// that colour glows through the frost; less than iOS's 1.8x, so that the same HUD stays
    /// within 10 levels of itself under a compositor that blurs without raising it.
    static let saturationBoost = 0.35

    /// Raises the saturation of an opaque picture on the server: B + s(B - L), L its luminosity
    /// as grey. XRender has no subtraction, so the positive and negative parts of B - L are made
    /// apart with saturating adds and inversions (a difference with white), and B gets one
    /// added and the other taken away. A dozen requests on the scaled-down copy: the blur's
    /// cost, not the frame's.
    private func saturate(_ b: Picture, width w: Int, height h: Int, lum: Picture, plus: Picture, minus: Picture) {
        let d = display.handle
        let white = display.solidPicture(grey: 1), grey = display.solidPicture(grey: 0.5)
        let amount = display.solidPicture(grey: 0, alpha: Self.saturationBoost)
        func op(_ o: Int32, _ src: Picture, _ dst: Picture, mask: Picture = 0) {
            XRenderComposite(d, o, src, mask, dst, 0, 0, 0, 0, 0, 0, UInt32(w), UInt32(h))
        }
        // L: a neutral grey given B's luminosity.
        op(PictOpSrc, grey, lum)
        op(PictOpHSLLuminosity, b, lum)
        // plus = max(0, B - L) = 1 - min(1, L + (1 - B)).
        op(PictOpSrc, white, plus)
        op(PictOpDifference, b, plus)  // 1 - B
        op(PictOpAdd, lum, plus)  // min(1, L + 1 - B)
        op(PictOpDifference, white, plus)  // max(0, B - L)
        // minus = max(0, L - B) = 1 - min(1, B + (1 - L)).
        op(PictOpSrc, white, minus)
        op(PictOpDifference, lum, minus)  // 1 - L
        op(PictOpAdd, b, minus)  // min(1, B + 1 - L)
        op(PictOpDifference, white, minus)  // max(0, L - B)
        // B + s·plus - s·minus (the subtraction: invert, add, invert).
        op(PictOpAdd, plus, b, mask: amount)
        op(PictOpDifference, white, b)
        op(PictOpAdd, minus, b, mask: amount)
        op(PictOpDifference, white, b)
    }
}
