import CX11
import CCairo
import HUDCore

extension X11Display {
    /// A compositing manager owns `_NET_WM_CM_S<screen>` while it runs.
    package var compositorRunning: Bool {
        if rootState.watched && rootState.compositorWatched, let known = rootState.compositor { return known }
        let owner = XGetSelectionOwner(handle, atom("_NET_WM_CM_S\(screen)"))
        rootState.compositor = owner != 0
        rootState.compositorOwner = owner
        return owner != 0
    }

    /// Whether the running compositor blurs behind a window that asks (`_KDE_NET_WM_BLUR_BEHIND_REGION`
    /// and picom's rules): picom and compton (as the shipped example configures them) and
    /// KWin, known by the name of their selection's owner. xcompmgr, xfwm4, Marco and those
    /// not known do not: a bezel over them fills denser instead, so that what is behind never
    /// competes with its text.
    package var compositorBlurs: Bool {
        if rootState.watched && rootState.compositorWatched, let known = rootState.compositorBlurs { return known }
        var blurs = false
        // The owner `compositorRunning` read, while no event has said it changed.
        let owner: Window
        if rootState.watched && rootState.compositorWatched, rootState.compositor != nil, let known = rootState.compositorOwner {
            owner = known
        } else {
            owner = XGetSelectionOwner(handle, atom("_NET_WM_CM_S\(screen)"))
        }
        if owner != 0 {
            var name: UnsafeMutablePointer<CChar>? = nil
            // An owner that is gone answers with an error: the status is 0 (no XSync needed).
            let status = XFetchName(handle, owner, &name)
            if status != 0, let name {
                let n = String(cString: name).lowercased()
                blurs = ["picom", "compton", "kwin"].contains { n.hasPrefix($0) }
            }
            if let name { XFree(name) }
        }
        rootState.compositorBlurs = blurs
        return blurs
    }

    /// Asks for an event when a compositor starts or stops; returns the XFixes event base.
    package func watchCompositor() -> Int32? {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XFixesQueryExtension(handle, &eventBase, &errorBase) != 0 else { return nil }
        XFixesSelectSelectionInput(handle, root, atom("_NET_WM_CM_S\(screen)"),
                                   UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask))
        if !rootState.compositorWatched {
            // Selected from now on: what was read before may already be out of date.
            rootState.compositor = nil
            rootState.compositorBlurs = nil
            rootState.compositorOwner = nil
            rootState.fixesEventBase = eventBase
            rootState.compositorWatched = true
        }
        return eventBase
    }
}
