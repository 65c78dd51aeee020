import CX11
import HUDCore

/// What every new HUD asks of the root (the compositor, `Xft.dpi`, the CRTCs' refresh rates),
/// read once and kept while the loop hears of their changes: each is a round trip, and a server
/// busy with a burst of HUDs waits on every round trip behind everything the X server has
/// queued. A PropertyNotify, selection or XRandR event forgets what it changed;
/// without the watch (`watched` false) every question goes to the server. The monitors are kept
/// until an XRandR event or a ConfigureNotify of the root forgets them (`xrandr --setmonitor` sends
/// no XRandR event, but xrandr's ConfigureNotify of the root); a list kept longer than a quarter of
/// a second is read again after the HUD that used it has sent its frame, off its path.
struct RootState {
    var watched = false
    var compositorWatched = false
    var fixesEventBase: Int32 = 0
    var compositor: Bool?
    var compositorBlurs: Bool?
    /// The window owning `_NET_WM_CM_S<screen>` when `compositor` was read.
    var compositorOwner: Window?
    var dpi: Double??
    /// RESOURCE_MANAGER changed since the connection was opened: Xlib's copy is out of date.
    var resourcesChanged = false
    /// XRandR: each lit CRTC's rectangle and refresh rate.
    var randrEventBase: Int32?
    var crtcRates: [(rect: Rect, hz: Double)]?
    /// The monitors, when they were read (monotonic seconds), and for how long they are kept.
    var monitors: [Monitor]?
    var monitorsRead = 0.0
    /// A HUD used monitors kept longer than `monitorsLifetime`: read them again, after the frame.
    var monitorsStale = false
    static let monitorsLifetime = 0.25
    /// The X server attached one of our MIT-SHM segments: it can attach the next ones, which
    /// then need no check (a round trip) of their own.
    var shmAttachWorks = false
}

extension X11Display {
    /// The loop selects PropertyChangeMask and StructureNotifyMask on the root and calls
    /// `noteEvent` for every event.
    func watchRoot() {
        rootState.watched = true
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        if XRRQueryExtension(handle, &eventBase, &errorBase) != 0 {
            XRRSelectInput(handle, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
            rootState.randrEventBase = eventBase
        }
    }

    /// Forgets what an event says has changed; call it before the HUDs see the event.
    func noteEvent(_ ev: inout XEvent) {
        if let base = rootState.randrEventBase, ev.type == base + RRScreenChangeNotify || ev.type == base + RRNotify {
            if ev.type == base + RRScreenChangeNotify { XRRUpdateConfiguration(&ev) }   // Xlib's screen size
            rootState.crtcRates = nil
            rootState.monitors = nil
        } else if ev.type == ConfigureNotify, ev.xconfigure.window == root {
            rootState.monitors = nil
        } else if rootState.compositorWatched, ev.type == rootState.fixesEventBase + XFixesSelectionNotify {
            rootState.compositor = nil
            rootState.compositorBlurs = nil
            rootState.compositorOwner = nil
        } else if ev.type == PropertyNotify, ev.xproperty.window == root {
            let a = ev.xproperty.atom
            if a == Atom(XA_RESOURCE_MANAGER) { rootState.dpi = nil; rootState.resourcesChanged = true }
        }
    }
}
