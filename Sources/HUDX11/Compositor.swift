import CX11
import CCairo
import CXPrefetch
import CXFixes
import HUDCore

extension X11Display {
    /// A compositing manager owns `_NET_WM_CM_S<screen>` while it runs.
    package var compositorRunning: Bool {
        if rootState.watched && rootState.compositorWatched, let known = rootState.compositor { return known }
        let owner = takeCompositorOwner()
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
            owner = takeCompositorOwner()
        }
        if owner != 0 { askCompositorName(owner) }
        if let asked = rootState.nameAsked {
            rootState.nameAsked = nil
            // An owner that is gone answers with an error: no name.
            var name = [CChar](repeating: 0, count: 64)
            if asked.owner != owner {
                xhud_reply_discard(handle, asked.sequence)
            } else if case let length = xhud_window_name_take(handle, asked.sequence, &name, Int32(name.count)), length >= 0 {
                let n = String(decoding: name.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
                blurs = ["picom", "compton", "kwin"].contains { n.hasPrefix($0) }
            }
        }
        rootState.compositorBlurs = blurs
        return blurs
    }

    /// Sends the question of `_NET_WM_CM_S<screen>`'s owner, unless it is on its way: its answer
    /// is read by `compositorRunning`, with the next reply anything waits for.
    func askCompositorOwner() {
        if rootState.ownerAsked == nil { rootState.ownerAsked = xhud_selection_owner_send(handle, atom("_NET_WM_CM_S\(screen)")) }
    }

    /// The answer to the owner's question (asked now if it is not on its way).
    private func takeCompositorOwner() -> Window {
        askCompositorOwner()
        let asked = rootState.ownerAsked!
        rootState.ownerAsked = nil
        return xhud_selection_owner_take(handle, asked)
    }

    /// Sends the question of the compositor's name (that of `owner`, else the owner
    /// `compositorRunning` read), read by `compositorBlurs`, unless that window's is on its way.
    func askCompositorName(_ owner: Window? = nil) {
        guard let w = owner ?? rootState.compositorOwner, w != 0 else { return }
        if let asked = rootState.nameAsked {
            if asked.owner == w { return }
            xhud_reply_discard(handle, asked.sequence)
        }
        rootState.nameAsked = (xhud_window_name_send(handle, w), w)
    }

    /// XFixes' event base when the compositor's selection is watched (selected with the
    /// connection's first questions, decoded since it opened), nil without XFixes.
    package func watchCompositor() -> Int32? {
        rootState.compositorWatched ? rootState.fixesEventBase : nil
    }
}
