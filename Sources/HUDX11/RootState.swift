import CX11
import CXPrefetch
import CXFixes
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
    /// Questions sent and not yet read (their sequence numbers): the compositor's selection
    /// owner, the name of a window that owned it.
    var ownerAsked: UInt32?
    var nameAsked: (sequence: UInt32, owner: Window)?
    /// The monitors' question, sent and not yet read (0: the display has no XRandR).
    var monitorsAsked: UInt32?
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
    /// The loop reads the root's events (`rootEventMask` and XRandR's, selected with the
    /// connection's first questions) and calls `noteEvent` for every event.
    func watchRoot() {
        rootState.watched = true
        // Watched from here on: the first HUD's monitors come with the next round trip's answer.
        askMonitors()
    }

    /// What the root's events are selected for, with the connection's first questions.
    static let rootEventMask = Int(SubstructureNotifyMask | StructureNotifyMask | PropertyChangeMask)

    /// XRandR's and XFixes' events (selected with the first questions) decoded from now on:
    /// Xlib drops an extension's events that come before their decoder. In xhud-host neither asks
    /// the server anything (libXext is told GE is absent, see CXQueryExtension).
    func registerEventDecoders() {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        if XRRQueryExtension(handle, &eventBase, &errorBase) != 0 { rootState.randrEventBase = eventBase }
        let fixes = xhud_fixes_event_base(handle)
        if fixes >= 0 {
            rootState.fixesEventBase = fixes
            rootState.compositorWatched = true
        }
    }

    /// Forgets what an event says has changed; call it before the HUDs see the event.
    func noteEvent(_ ev: inout XEvent) {
        if let base = rootState.randrEventBase, ev.type == base + RRScreenChangeNotify || ev.type == base + RRNotify {
            if ev.type == base + RRScreenChangeNotify { XRRUpdateConfiguration(&ev) }  // Xlib's screen size
            rootState.crtcRates = nil
            forgetMonitors()
        } else if ev.type == ConfigureNotify, ev.xconfigure.window == root {
            forgetMonitors()
        } else if rootState.compositorWatched, ev.type == rootState.fixesEventBase + XFixesSelectionNotify {
            rootState.compositor = nil
            rootState.compositorBlurs = nil
            rootState.compositorOwner = nil
            forgetCompositorQuestions()
        } else if ev.type == PropertyNotify, ev.xproperty.window == root {
            let a = ev.xproperty.atom
            if a == Atom(XA_RESOURCE_MANAGER) { rootState.dpi = nil; rootState.resourcesChanged = true }
        }
    }
}

extension X11Display {
    /// Forgets the monitors, and drops an answer about them that may be out of date.
    func forgetMonitors() {
        rootState.monitors = nil
        if let s = rootState.monitorsAsked, s != 0 { xhud_reply_discard(handle, s) }
        rootState.monitorsAsked = nil
    }

    /// Drops the answers to questions about a compositor that has changed since.
    func forgetCompositorQuestions() {
        if let s = rootState.ownerAsked { xhud_reply_discard(handle, s) }
        if let s = rootState.nameAsked { xhud_reply_discard(handle, s.sequence) }
        rootState.ownerAsked = nil
        rootState.nameAsked = nil
    }
}
