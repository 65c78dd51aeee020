#if canImport(Glibc)
import Glibc
#endif
import CX11
import CCairo
import HUDCore

extension X11Display {
    /// The atoms xhud uses, interned together by `prefetchForHUDs`.
    static var knownAtoms: [String] {
        ["UTF8_STRING", "_NET_WM_NAME", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WM_STATE",
         "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER", "_XROOTPMAP_ID", "_XSETROOT_ID",
         "_KDE_NET_WM_BLUR_BEHIND_REGION", "_COMPTON_SHADOW"]
    }

    /// Interns every atom xhud uses at once (one XInternAtoms, one round trip).
    func internKnownAtoms() {
        let names = X11Display.knownAtoms + ["_NET_WM_CM_S\(screen)"]
        var strings: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var found = [Atom](repeating: 0, count: names.count)
        if XInternAtoms(handle, &strings, Int32(names.count), 0, &found) != 0 {
            for (n, a) in zip(names, found) where a != 0 { rememberAtom(n, a) }
        }
    }

    /// Asks now what a server's first HUD would otherwise ask, one round trip after another,
    /// once its text is measured: the first query of each extension (XFixes, RENDER's formats, MIT-SHM and its
    /// first attachment; XRandR is asked when the loop watches the root), and what `RootState`
    /// keeps (the compositor, `Xft.dpi`). A cold server calls it while its fonts load on other
    /// threads, so that none of it is left on the way to the first frame. The compositor's
    /// owner and name are sent without waiting and read with the next round trip's answer.
    /// Call it after the loop watches the root (`HUDLoop.init`), or nothing is kept.
    package func prefetchForHUDs() {
        _ = watchCompositor()
        askCompositorOwner()
        _ = XRenderFindStandardFormat(handle, Int32(PictStandardARGB32))
        // The first MIT-SHM attachment is checked (a round trip); a one-pixel image does it.
        if sharedMemoryUsable && !rootState.shmAttachWorks {
            _ = UploadedImage(display: self, width: 1, height: 1, useSHM: true)
        }
        // Not the wallpaper: no HUD blends over it any more (a bezel without a compositor blends
        // over a copy of the screen, taken on the server), and its property and pixmap were two
        // round trips on a cold server's way to its first frame.
        // The owner came with RENDER's answer; its name comes with the first HUD's monitors.
        if compositorRunning { askCompositorName() }
        _ = xftDPI
        // Not the refresh rates: two round trips (the screen's resources, a CRTC's), asked once
        // the first frame is on its way (`HUDLoop`); the first frames are paced at 60 Hz.
    }
}
