"""A little Xlib through ctypes: what no command-line tool does (a root background that a
compositing manager paints too, the owner of a selection, events read as they come)."""

from __future__ import annotations

import ctypes
import ctypes.util


class Xlib:
    """libX11, loaded once, with the argument and result types of the calls used here."""

    _lib = None

    @classmethod
    def lib(cls):
        if cls._lib is None:
            name = ctypes.util.find_library("X11")
            if not name:
                raise RuntimeError("libX11 not found")
            x = ctypes.CDLL(name)
            vp, ul, c_int = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int
            x.XOpenDisplay.restype = vp
            x.XOpenDisplay.argtypes = [ctypes.c_char_p]
            x.XCloseDisplay.argtypes = [vp]
            x.XDefaultScreen.argtypes = [vp]
            x.XRootWindow.restype = ul
            x.XRootWindow.argtypes = [vp, c_int]
            x.XDefaultRootWindow.restype = ul
            x.XDefaultRootWindow.argtypes = [vp]
            x.XDefaultDepth.argtypes = [vp, c_int]
            x.XInternAtom.restype = ul
            x.XInternAtom.argtypes = [vp, ctypes.c_char_p, c_int]
            x.XGetSelectionOwner.restype = ul
            x.XGetSelectionOwner.argtypes = [vp, ul]
            x.XCreatePixmap.restype = ul
            x.XCreatePixmap.argtypes = [vp, ul, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
            x.XCreateGC.restype = vp
            x.XCreateGC.argtypes = [vp, ul, ul, vp]
            x.XSetForeground.argtypes = [vp, vp, ul]
            x.XFillRectangle.argtypes = [vp, ul, vp, c_int, c_int, ctypes.c_uint, ctypes.c_uint]
            x.XFreeGC.argtypes = [vp, vp]
            x.XSetWindowBackgroundPixmap.argtypes = [vp, ul, ul]
            x.XClearWindow.argtypes = [vp, ul]
            x.XChangeProperty.argtypes = [vp, ul, ul, ul, c_int, c_int, ctypes.c_void_p, c_int]
            x.XSetCloseDownMode.argtypes = [vp, c_int]
            x.XSelectInput.argtypes = [vp, ul, ctypes.c_long]
            x.XNextEvent.argtypes = [vp, vp]
            x.XSync.argtypes = [vp, c_int]
            cls._lib = x
        return cls._lib


def open_display(display: str | None):
    """(libX11, a connection to display; None: $DISPLAY's)."""
    x = Xlib.lib()
    d = x.XOpenDisplay(display.encode() if display is not None else None)
    if not d:
        raise RuntimeError(f"cannot open display {display}")
    return x, d


def set_root_background(display: str, rgb: tuple[int, int, int]) -> None:
    """Solid root background through a pixmap kept with RetainPermanent and published in
    _XROOTPMAP_ID and _XSETROOT_ID, so that xcompmgr paints it too (`xsetroot -solid` sets
    neither, and xcompmgr paints grey). Assumes a TrueColor 24-bit root (Xvfb -screen 0 WxHx24)."""
    x, d = open_display(display)
    try:
        scr = x.XDefaultScreen(d)
        root = x.XRootWindow(d, scr)
        pm = x.XCreatePixmap(d, root, 64, 64, x.XDefaultDepth(d, scr))
        gc = x.XCreateGC(d, pm, 0, None)
        x.XSetForeground(d, gc, (rgb[0] << 16) | (rgb[1] << 8) | rgb[2])
        x.XFillRectangle(d, pm, gc, 0, 0, 64, 64)
        x.XFreeGC(d, gc)
        x.XSetWindowBackgroundPixmap(d, root, pm)
        x.XClearWindow(d, root)
        value = ctypes.c_ulong(pm)
        for prop in (b"_XROOTPMAP_ID", b"_XSETROOT_ID"):
            atom = x.XInternAtom(d, prop, 0)
            x.XChangeProperty(d, root, atom, 20, 32, 0, ctypes.byref(value), 1)  # XA_PIXMAP, Replace
        x.XSetCloseDownMode(d, 1)  # RetainPermanent: the pixmap outlives this connection
        x.XSync(d, 0)
    finally:
        x.XCloseDisplay(d)


def set_active_window(display: str, wid: int) -> None:
    """What a window manager would say: _NET_ACTIVE_WINDOW(WINDOW) on the root."""
    x, d = open_display(display)
    try:
        root = x.XRootWindow(d, x.XDefaultScreen(d))
        value = ctypes.c_ulong(wid)
        atom = x.XInternAtom(d, b"_NET_ACTIVE_WINDOW", 0)
        x.XChangeProperty(d, root, atom, 33, 32, 0, ctypes.byref(value), 1)  # XA_WINDOW, Replace
        x.XSync(d, 0)
    finally:
        x.XCloseDisplay(d)


def create_and_destroy_a_window(display: str) -> None:
    """A CreateNotify and a DestroyNotify on the root, and nothing on screen: an unmapped 1x1
    window made and destroyed."""
    x, d = open_display(display)
    try:
        x.XCreateSimpleWindow.restype = ctypes.c_ulong
        x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                          ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
        x.XDestroyWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        w = x.XCreateSimpleWindow(d, x.XRootWindow(d, x.XDefaultScreen(d)), 0, 0, 1, 1, 0, 0, 0)
        x.XDestroyWindow(d, w)
        x.XSync(d, 0)
    finally:
        x.XCloseDisplay(d)


def compositor_running(display: str) -> bool:
    """Whether a compositing manager owns _NET_WM_CM_S<screen>."""
    x, d = open_display(display)
    try:
        atom = x.XInternAtom(d, b"_NET_WM_CM_S%d" % x.XDefaultScreen(d), 0)
        return x.XGetSelectionOwner(d, atom) != 0
    finally:
        x.XCloseDisplay(d)
