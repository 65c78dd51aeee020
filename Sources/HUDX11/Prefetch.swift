#if canImport(Glibc)
import Glibc
#endif
import CX11
import CCairo
import HUDCore

extension X11Display {
    /// The atoms xhud uses, interned with the connection's first questions (`X11Display.init`).
    static var knownAtoms: [String] {
        [
            "UTF8_STRING", "_NET_WM_NAME", "_NET_WM_WINDOW_TYPE", "_NET_WM_WINDOW_TYPE_NOTIFICATION", "_NET_WM_STATE",
            "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER", "_XROOTPMAP_ID", "_XSETROOT_ID",
            "_KDE_NET_WM_BLUR_BEHIND_REGION", "_COMPTON_SHADOW",
        ]
    }

    /// Asks now what a server's first HUD would otherwise ask, one round trip after another,
    /// once its text is measured: RENDER's formats (libXrender's first use, one round trip),
    /// MIT-SHM's first attachment, and what `RootState` keeps (the compositor, `Xft.dpi`). A cold
    /// server calls it while its fonts load on other threads, so that none of it is left on the
    /// way to the first frame. The compositor's owner is asked again (the answer of the first
    /// questions may predate the decoding of its events) and comes with RENDER's answer, as do
    /// the monitors (`watchRoot`); the owner's name was asked while the connection opened.
    /// Call it after the loop watches the root (`HUDLoop.init`), or nothing is kept.
    package func prefetchForHUDs() {
        askCompositorOwner()
        _ = XRenderFindStandardFormat(handle, Int32(PictStandardARGB32))
        // The first MIT-SHM attachment is checked (a round trip); a one-pixel image does it.
        if sharedMemoryUsable && !rootState.shmAttachWorks {
            _ = UploadedImage(display: self, width: 1, height: 1, useSHM: true)
        }
        // Not the wallpaper: no HUD blends over it any more (a bezel without a compositor blends
        // over a copy of the screen, taken on the server), and its property and pixmap were two
        // round trips on a cold server's way to its first frame.
        // The name asked while the connection opened holds if the owner is the same; otherwise
        // it is asked now and comes with the first HUD's next answer.
        if compositorRunning { askCompositorName() }
        _ = xftDPI
        // Not the refresh rates: two round trips (the screen's resources, a CRTC's), asked once
        // the first frame is on its way (`HUDLoop`); the first frames are paced at 60 Hz.
    }
}
