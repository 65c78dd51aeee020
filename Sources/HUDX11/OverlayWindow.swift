import CX11
import CXFixes
import HUDCore

/// The HUD's override-redirect window, and the input-only window that blocks input over the
/// parent region. What it shows is composed on the server (ServerCanvas).
///
/// The window has a 32-bit ARGB visual when a compositor runs (it blends the window), and the
/// screen's own visual when none does: what it shows is then opaque anyway (composed over a copy
/// of the screen), and an ARGB window without a compositor is redirected by the X server itself,
/// which keeps a pixmap of it and composites every change to the screen a second time.
package final class OverlayWindow {
    package let display: X11Display
    package private(set) var window: Window = 0
    package private(set) var blocker: Window = 0
    package private(set) var rect: Rect  // root coordinates, device pixels
    package private(set) var isMapped = false
    /// Where the blocker covers (root coordinates), when there is one.
    package private(set) var blockerRect: Rect?
    /// `_NET_WM_WINDOW_OPACITY` as last set, nil while the property is absent.
    private var opacity: UInt?
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    let colormap: Colormap

    package init(display: X11Display, rect: Rect, blockInputOver region: Rect?, clickThrough: Bool, translucent: Bool) {
        self.display = display
        self.rect = rect
        let d = display.handle
        var info = XVisualInfo()
        if translucent, XMatchVisualInfo(d, display.screen, 32, TrueColor, &info) != 0 {
            visual = info.visual
            depth = 32
        } else {
            visual = XDefaultVisual(d, display.screen)
            depth = XDefaultDepth(d, display.screen)
        }
        var attrs = XSetWindowAttributes()
        attrs.override_redirect = 1
        colormap = XCreateColormap(d, display.root, visual, AllocNone)
        attrs.colormap = colormap
        attrs.border_pixel = 0
        attrs.background_pixmap = 0  // None: nothing is painted before the first frame
        attrs.event_mask = Int(ButtonPressMask | ButtonReleaseMask | ExposureMask | PointerMotionMask | LeaveWindowMask)
        let r = rect.integral
        window = XCreateWindow(
            d, display.root, Int32(saturating: r.x), Int32(saturating: r.y), UInt32(saturating: max(1, r.width)),
            UInt32(saturating: max(1, r.height)), 0,
            depth, UInt32(InputOutput), visual,
            UInt(CWOverrideRedirect | CWColormap | CWBorderPixel | CWBackPixmap | CWEventMask), &attrs)
        setProperties(window)
        if clickThrough { setInputShape(empty: true) }

        if let region = region?.integral {
            blockerRect = region
            var battrs = XSetWindowAttributes()
            battrs.override_redirect = 1
            battrs.event_mask = Int(ButtonPressMask | ButtonReleaseMask)
            blocker = XCreateWindow(
                d, display.root, Int32(saturating: region.x), Int32(saturating: region.y), UInt32(saturating: max(1, region.width)),
                UInt32(saturating: max(1, region.height)), 0,
                0, UInt32(InputOnly), nil, UInt(CWOverrideRedirect | CWEventMask), &battrs)
            setProperties(blocker)
        }
    }

    deinit {
        let d = display.handle
        if blocker != 0 { XDestroyWindow(d, blocker) }
        XDestroyWindow(d, window)
        XFreeColormap(d, colormap)  // a long-lived server makes one per HUD
        XFlush(d)
    }

    /// The name window lists and screen readers show (`_NET_WM_NAME`, UTF-8); the class stays
    /// "xhud" for compositor rules.
    func setTitle(_ title: String) {
        let bytes = Array((title.isEmpty ? "xhud" : title).utf8)
        XChangeProperty(
            display.handle, window, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace,
            bytes, Int32(bytes.count))
    }

    /// Names and types that compositor rules and window managers can target.
    private func setProperties(_ w: Window) {
        let d = display.handle
        "xhud".withCString { name in
            var hint = XClassHint(res_name: UnsafeMutablePointer(mutating: name), res_class: UnsafeMutablePointer(mutating: name))
            XSetClassHint(d, w, &hint)
            XStoreName(d, w, name)
            XChangeProperty(
                d, w, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace,
                UnsafeRawPointer(name).assumingMemoryBound(to: UInt8.self), 4)
        }
        var type = display.atom("_NET_WM_WINDOW_TYPE_NOTIFICATION")
        withUnsafeBytes(of: &type) { p in
            _ = XChangeProperty(
                d, w, display.atom("_NET_WM_WINDOW_TYPE"), XA_ATOM, 32, PropModeReplace,
                p.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
        var states = [display.atom("_NET_WM_STATE_ABOVE"), display.atom("_NET_WM_STATE_SKIP_TASKBAR"), display.atom("_NET_WM_STATE_SKIP_PAGER")]
        states.withUnsafeMutableBytes { p in
            _ = XChangeProperty(
                d, w, display.atom("_NET_WM_STATE"), XA_ATOM, 32, PropModeReplace,
                p.baseAddress!.assumingMemoryBound(to: UInt8.self), 3)
        }
        // Never take keyboard focus.
        var hints = XWMHints()
        hints.flags = Int(InputHint)
        hints.input = 0
        XSetWMHints(d, w, &hints)
    }

    /// Whether the window has been mapped once: before that it is never configured (see `map`).
    package private(set) var everMapped = false

    /// Maps, then raises: a raise of a window not yet mapped reaches a compositor as a
    /// ConfigureNotify before its MapNotify, and xcompmgr -c then builds a shadow for it before
    /// it knows the window is ARGB, and draws that shadow under it forever (a dark box around
    /// the bezel). XMapRaised does exactly that when the blocker was created above the HUD.
    /// Whether a compositor can blend it (an ARGB window).
    package var hasAlpha: Bool { depth == 32 }

    package func map() {
        let d = display.handle
        if blocker != 0 { XMapWindow(d, blocker); XRaiseWindow(d, blocker) }
        XMapWindow(d, window)
        XRaiseWindow(d, window)
        isMapped = true
        everMapped = true
    }

    package func unmap() {
        let d = display.handle
        XUnmapWindow(d, window)
        if blocker != 0 { XUnmapWindow(d, blocker) }
        isMapped = false
    }

    /// Keeps the HUD above every other window, the blocker just below it.
    package func raise() {
        let d = display.handle
        if blocker != 0 { XRaiseWindow(d, blocker) }
        XRaiseWindow(d, window)
    }

    package func move(to r: Rect, blocker region: Rect?) {
        let d = display.handle
        let i = r.integral
        rect = i
        XMoveResizeWindow(
            d, window, Int32(saturating: i.x), Int32(saturating: i.y), UInt32(saturating: max(1, i.width)), UInt32(saturating: max(1, i.height)))
        if blocker != 0, let b = region?.integral {
            blockerRect = b
            XMoveResizeWindow(
                d, blocker, Int32(saturating: b.x), Int32(saturating: b.y), UInt32(saturating: max(1, b.width)), UInt32(saturating: max(1, b.height)))
        }
    }

    /// Empty: clicks pass through to the windows below (`--mask none`); otherwise the whole window.
    /// The shapes go through XFixes regions, not the SHAPE extension's own requests: XFixes is
    /// asked for with the connection's first questions (the compositor's selection is watched
    /// with it), SHAPE would cost a connection its own QueryExtension round trip.
    package func setInputShape(empty: Bool) {
        let d = display.handle
        if empty {
            let region = xhud_fixes_create_region(d, nil, 0)
            xhud_fixes_set_window_shape_region(d, window, ShapeInput, 0, 0, region)
            xhud_fixes_destroy_region(d, region)
        } else {
            xhud_fixes_set_window_shape_region(d, window, ShapeInput, 0, 0, 0)
        }
    }

    /// Asks a compositor to blur behind these spans (window coordinates; KWin's and others'
    /// `_KDE_NET_WM_BLUR_BEHIND_REGION`: x, y, width, height each), or not at all (nil).
    package func setBlurBehind(_ spans: [XRectangle]?) {
        let d = display.handle
        let name = display.atom("_KDE_NET_WM_BLUR_BEHIND_REGION")
        guard let spans else { XDeleteProperty(d, window, name); return }
        var values = spans.flatMap { [UInt(Int(truncatingIfNeeded: $0.x)), UInt(Int(truncatingIfNeeded: $0.y)), UInt($0.width), UInt($0.height)] }
        let count = Int32(values.count)
        values.withUnsafeMutableBytes { p in
            _ = XChangeProperty(
                d, window, name, XA_CARDINAL, 32, PropModeReplace,
                p.baseAddress!.assumingMemoryBound(to: UInt8.self), count)
        }
    }

    /// Whether a compositor should shadow the window (`_COMPTON_SHADOW`, read by compton and
    /// picom; 0 turns its shadow off for this window).
    package func setShadowHint(_ on: Bool) {
        var value: UInt = on ? 1 : 0
        withUnsafeBytes(of: &value) { p in
            _ = XChangeProperty(
                display.handle, window, display.atom("_COMPTON_SHADOW"), XA_CARDINAL, 32, PropModeReplace,
                p.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
    }

    /// The window's opacity as a compositor applies it (`_NET_WM_WINDOW_OPACITY`; 1: none), sent
    /// only when it changed. picom and compton scale the blur behind a window by it, and by
    /// nothing else: a fade drawn in the pixels alone shows a fully frosted slab under a
    /// bezel still almost transparent.
    package func setOpacity(_ alpha: Double) {
        let value: UInt? = alpha >= 0.999 ? nil : UInt((max(0, alpha) * Double(UInt32.max)).rounded())
        guard value != opacity else { return }
        opacity = value
        let name = display.atom("_NET_WM_WINDOW_OPACITY")
        guard var value else { XDeleteProperty(display.handle, window, name); return }
        withUnsafeBytes(of: &value) { p in
            _ = XChangeProperty(
                display.handle, window, name, XA_CARDINAL, 32, PropModeReplace,
                p.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
    }

    /// Clips what is shown to horizontal spans (window coordinates); nil shows the whole window.
    package func setBoundingShape(_ spans: [XRectangle]?) {
        let d = display.handle
        guard var spans else {
            xhud_fixes_set_window_shape_region(d, window, ShapeBounding, 0, 0, 0)
            return
        }
        let region = spans.withUnsafeMutableBufferPointer { p in xhud_fixes_create_region(d, p.baseAddress, Int32(p.count)) }
        xhud_fixes_set_window_shape_region(d, window, ShapeBounding, 0, 0, region)
        xhud_fixes_destroy_region(d, region)
    }
}
