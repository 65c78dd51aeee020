import CX11
import CCairo
import HUDCore

extension X11Display {
    /// A compositing manager owns `_NET_WM_CM_S<screen>` while it runs.
    public var compositorRunning: Bool {
        if rootState.watched && rootState.compositorWatched, let known = rootState.compositor { return known }
        let running = XGetSelectionOwner(handle, atom("_NET_WM_CM_S\(screen)")) != 0
        rootState.compositor = running
        return running
    }

    /// Asks for an event when a compositor starts or stops; returns the XFixes event base.
    public func watchCompositor() -> Int32? {
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XFixesQueryExtension(handle, &eventBase, &errorBase) != 0 else { return nil }
        XFixesSelectSelectionInput(handle, root, atom("_NET_WM_CM_S\(screen)"),
                                   UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask))
        if !rootState.compositorWatched {
            // Selected from now on: what was read before may already be out of date.
            rootState.compositor = nil
            rootState.fixesEventBase = eventBase
            rootState.compositorWatched = true
        }
        return eventBase
    }
}
