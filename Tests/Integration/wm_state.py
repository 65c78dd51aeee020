"""What a window manager leaves an X display with, read as a test checks it: the input focus
(XGetInputFocus: xdotool getwindowfocus fails on PointerRoot), the root's _NET_ACTIVE_WINDOW, who
holds a key's passive grab, the root's children in stacking order and the frame of a window."""

from __future__ import annotations

import ctypes
import re

from conftest import XSession, _open


def input_focus(display: str) -> int:
    x, d = _open(display)
    try:
        x.XGetInputFocus.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_ulong), ctypes.POINTER(ctypes.c_int)]
        win, revert = ctypes.c_ulong(0), ctypes.c_int(0)
        x.XGetInputFocus(d, ctypes.byref(win), ctypes.byref(revert))
        return win.value
    finally:
        x.XCloseDisplay(d)


class _XErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p), ("resourceid", ctypes.c_ulong),
                ("serial", ctypes.c_ulong), ("error_code", ctypes.c_ubyte), ("request_code", ctypes.c_ubyte),
                ("minor_code", ctypes.c_ubyte)]


_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_XErrorEvent))
_errors: list[int] = []
_record_error = _ERROR_HANDLER(lambda d, ev: _errors.append(ev.contents.error_code) or 0)


def key_grabbed(display: str, keysym: str) -> bool:
    """Whether some client holds a passive grab of keysym (no modifiers) on the root: a grab of
    our own fails with BadAccess then. A window manager's keybinding works once it holds it."""
    x, d = _open(display)
    try:
        x.XStringToKeysym.restype = ctypes.c_ulong
        x.XStringToKeysym.argtypes = [ctypes.c_char_p]
        x.XKeysymToKeycode.restype = ctypes.c_ubyte
        x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        x.XGrabKey.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int,
                               ctypes.c_int, ctypes.c_int]
        x.XUngrabKey.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_ulong]
        x.XSetErrorHandler.restype = ctypes.c_void_p
        x.XSetErrorHandler.argtypes = [ctypes.c_void_p]
        code = x.XKeysymToKeycode(d, x.XStringToKeysym(keysym.encode()))
        assert code, f"{keysym} is not in the keymap"
        root = x.XRootWindow(d, x.XDefaultScreen(d))
        previous = x.XSetErrorHandler(ctypes.cast(_record_error, ctypes.c_void_p))
        _errors.clear()
        try:
            x.XGrabKey(d, code, 0, root, 0, 1, 1)   # GrabModeAsync
            x.XSync(d, 0)
            taken = 10 in _errors   # BadAccess
            if not taken:
                x.XUngrabKey(d, code, 0, root)
                x.XSync(d, 0)
        finally:
            x.XSetErrorHandler(previous)
        return taken
    finally:
        x.XCloseDisplay(d)


def active_window(s: XSession) -> int | None:
    out = s.run("xprop", "-root", "_NET_ACTIVE_WINDOW", check=False).stdout
    m = re.search(r"window id # (0x[0-9a-fA-F]+)", out)
    return int(m.group(1), 16) if m else None


def focus_state(s: XSession) -> tuple[int, int | None]:
    return input_focus(s.display), active_window(s)


def stacking(s: XSession) -> str:
    """The root's children bottom to top (xwininfo lists them top first), for failure messages."""
    out = s.run("xwininfo", "-root", "-children", check=False).stdout
    return out[out.find("child"):][:3000]


def hud_ids(s: XSession) -> set[int]:
    return {w.id for w in s.hud_windows()}


def top_level_child_of_root(s: XSession, wid: int) -> int:
    """The root's child that holds wid (its window manager's frame, or wid itself)."""
    while True:
        out = s.run("xwininfo", "-tree", "-id", str(wid), check=False).stdout
        m = re.search(r"Parent window id: (0x[0-9a-fA-F]+)( \(the root window\))?", out)
        if not m or m.group(2):
            return wid
        wid = int(m.group(1), 16)


def root_order(s: XSession) -> list[int]:
    """The root's children, bottom to top."""
    out = s.run("xwininfo", "-root", "-children", check=False).stdout
    ids = [int(m.group(1), 16) for m in re.finditer(r"^\s+(0x[0-9a-fA-F]+) ", out, re.M)]
    return list(reversed(ids))
