"""xhud under real window managers (issue #32): i3 (no compositor), Openbox with picom, xfwm4
with its own compositor, and XWayland under weston's headless backend.

Under each: a HUD shows above a fullscreen window (pixels at the screen's centre), never takes
the focus (input focus and _NET_ACTIVE_WINDOW unchanged before, during and after), follows a
managed parent window the window manager moves, and a key bound in the window manager's own
configuration runs `xhud --id volume ...`: two presses update one HUD in place. And the HUD
window's _NET_WM_NAME is its label.

Each window manager's test is skipped, with the reason, only where its package is missing (or,
for weston, where a part cannot be done there: see the skips). docs/window-managers.md says what
each one changes, from what these tests saw.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from conftest import (SCREEN_H, SCREEN_W, TAG, XHUD_BIN, XSession, _missing_tools, _open, compositor_running, parse_ppm,
                      wait_until)
from hud_pixels import bar_fill

TOL = 3
YELLOW = (255, 255, 0)   # the test windows' background: nothing of the HUD is yellow
STILL = ["--no-shadow", "--animation", "none"]
CENTRE = (SCREEN_W // 2, SCREEN_H // 2)
CENTRE_REGION = (CENTRE[0] - 300, CENTRE[1] - 200, 600, 400)   # around the screen's centre

# What each window manager needs: (commands, the Debian packages that hold them).
NEEDS = {
    "i3": (["i3", "i3-msg", "xterm"], "i3-wm xterm"),
    "openbox-picom": (["openbox", "picom", "xterm", "wmctrl"], "openbox picom xterm wmctrl"),
    "xfwm4": (["xfwm4", "xfconf-query", "xfsettingsd", "dbus-daemon", "xterm", "wmctrl"],
              "xfwm4 xfconf xfce4-settings dbus xterm wmctrl"),
    "weston-xwayland": (["weston", "Xwayland", "weston-screenshooter", "xterm", "wmctrl", "convert"],
                        "weston xwayland xterm wmctrl imagemagick"),
}

# The keybinding: two keys, two volumes. XF86Audio* are in Xvfb's default keymap.
KEYS = [("XF86AudioLowerVolume", "0.3"), ("XF86AudioRaiseVolume", "0.8")]


def volume_command(progress: str) -> str:
    # --hide-after: the second press comes well within it even on a slow machine; --linger: the
    # server does not outlive the test by long (teardown kills it anyway, by its tag).
    return (f"{XHUD_BIN} --id volume --mode bar --progress {progress} --label Volume "
            f"--no-shadow --hide-after 20 --linger 2")


# ---------------------------------------------------------------------------------------------
# X helpers: input focus (XGetInputFocus: xdotool getwindowfocus fails on PointerRoot), the
# root's _NET_ACTIVE_WINDOW, the stacking order.


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


# ---------------------------------------------------------------------------------------------
# Window managers


class WM:
    """A window manager running on a session's display."""

    def __init__(self, name: str, s: XSession):
        self.name, self.s = name, s
        self.keys = True         # a keybinding can run a command
        self.moves = True        # it honours a client's move request (xdotool windowmove)
        self.pointer = True      # XTEST can move the pointer
        self.why_no_keys = ""

    def move(self, wid: int, x: int, y: int) -> None:
        self.s.run("xdotool", "windowmove", str(wid), str(x), str(y))

    def fullscreen(self, wid: int) -> None:
        self.s.run("wmctrl", "-i", "-r", hex(wid), "-b", "add,fullscreen")

    def activate(self, wid: int) -> None:
        self.s.run("wmctrl", "-i", "-a", hex(wid), check=False)


class I3(WM):
    def fullscreen(self, wid: int) -> None:
        self.s.run("i3-msg", f"[id={wid}] fullscreen enable")

    def move(self, wid: int, x: int, y: int) -> None:
        self.s.run("i3-msg", f"[id={wid}] move position {x} px {y} px")

    def activate(self, wid: int) -> None:
        self.s.run("i3-msg", f"[id={wid}] focus", check=False)


def wm_ready(s: XSession) -> bool:
    out = s.run("xprop", "-root", "_NET_SUPPORTING_WM_CHECK", check=False).stdout
    return bool(re.search(r"window id # 0x[0-9a-fA-F]*[1-9a-fA-F]", out))


def private_runtime_dir(s: XSession) -> Path:
    """XDG_RUNTIME_DIR for the named HUDs' socket: 0700, short (a socket path has 108 bytes)."""
    rt = Path(tempfile.mkdtemp(prefix="xhud-wm-", dir="/tmp"))
    os.chmod(rt, 0o700)
    s.env["XDG_RUNTIME_DIR"] = str(rt)
    s.cleanup.append(lambda: shutil.rmtree(rt, ignore_errors=True))
    return rt


def log_of(s: XSession, name: str) -> str:
    p = s.tmp / f"{name}.log"
    return p.read_text(errors="replace")[-3000:] if p.exists() else ""


def spawn_logged(s: XSession, name: str, cmd: list[str], **kw) -> subprocess.Popen:
    log = open(s.tmp / f"{name}.log", "wb")
    return s.spawn(cmd, stdout=log, stderr=subprocess.STDOUT, **kw)


def start_i3(s: XSession) -> WM:
    conf = s.tmp / "i3.config"
    binds = "\n".join(f"bindsym {key} exec --no-startup-id {volume_command(p)}" for key, p in KEYS)
    conf.write_text(f"""# i3 config file (v4)
# written by test_window_managers.py (without the line above i3 takes it for a v3 file)
font pango:DejaVu Sans 8
for_window [instance="xhudparent"] floating enable
{binds}
""")
    p = spawn_logged(s, "i3", ["i3", "-c", str(conf)])
    if not wait_until(lambda: p.poll() is not None or wm_ready(s), 10) or p.poll() is not None:
        raise AssertionError("i3 did not start: " + log_of(s, "i3"))
    return I3("i3", s)


OPENBOX_RC = """<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <focus><focusNew>yes</focusNew><followMouse>yes</followMouse></focus>
  <keyboard>
{binds}
  </keyboard>
</openbox_config>
"""


def start_openbox_picom(s: XSession) -> WM:
    binds = "\n".join(
        f'    <keybind key="{key}"><action name="Execute"><command>{volume_command(p)}</command></action></keybind>'
        for key, p in KEYS)
    rc = s.tmp / "rc.xml"
    rc.write_text(OPENBOX_RC.format(binds=binds))
    picom = spawn_logged(s, "picom", ["picom", "--config", "/dev/null", "--backend", "xrender", "--shadow"])
    if not wait_until(lambda: picom.poll() is not None or compositor_running(s.display), 10) or picom.poll() is not None:
        raise AssertionError("picom did not start: " + log_of(s, "picom"))
    p = spawn_logged(s, "openbox", ["openbox", "--sm-disable", "--config-file", str(rc)])
    if not wait_until(lambda: p.poll() is not None or wm_ready(s), 10) or p.poll() is not None:
        raise AssertionError("openbox did not start: " + log_of(s, "openbox"))
    return WM("openbox-picom", s)


def start_dbus(s: XSession) -> None:
    d = s.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL)
    address = d.stdout.readline().decode().strip()
    if not address:
        raise AssertionError("dbus-daemon --session printed no address")
    s.env["DBUS_SESSION_BUS_ADDRESS"] = address


def start_xfwm4(s: XSession) -> WM:
    start_dbus(s)
    # The shortcuts xfsettingsd runs (xfwm4 has none that run a command).
    for key, p in KEYS:
        s.run("xfconf-query", "-c", "xfce4-keyboard-shortcuts", "-p", f"/commands/custom/{key}", "-n", "-t",
              "string", "-s", volume_command(p))
    s.run("xfconf-query", "-c", "xfce4-keyboard-shortcuts", "-p", "/commands/custom/override", "-n", "-t",
          "bool", "-s", "true")
    s.run("xfconf-query", "-c", "xfwm4", "-p", "/general/use_compositing", "-n", "-t", "bool", "-s", "true")
    # Focus follows the mouse, as under i3 (its default) and Openbox (rc.xml above).
    s.run("xfconf-query", "-c", "xfwm4", "-p", "/general/click_to_focus", "-n", "-t", "bool", "-s", "false")
    p = spawn_logged(s, "xfwm4", ["xfwm4", "--compositor=on", "--sm-client-disable"])
    if not wait_until(lambda: p.poll() is not None or (wm_ready(s) and compositor_running(s.display)), 10) \
            or p.poll() is not None:
        raise AssertionError(f"xfwm4 did not start with its compositor (running: {p.poll() is None}): "
                             + log_of(s, "xfwm4"))
    spawn_logged(s, "xfsettingsd", ["xfsettingsd", "--no-daemon", "--replace"])
    return WM("xfwm4", s)


def adopt_display(s: XSession, display: str) -> None:
    """What XSession.start does after its Xvfb answers, for a display someone else runs."""
    s.display = display
    env = dict(os.environ)
    for var in ("WAYLAND_DISPLAY", "XAUTHORITY"):
        env.pop(var, None)
    env["DISPLAY"] = display
    s.tag = uuid.uuid4().hex
    env[TAG] = s.tag
    env["XDG_CONFIG_HOME"] = str(s.tmp / "config")
    env["XDG_CONFIG_DIRS"] = str(s.tmp / "etc-xdg")
    env.pop("XHUD_CONFIG", None)
    env["XDG_CACHE_HOME"] = str(s.tmp / "cache")
    s.env = env


def start_weston(s: XSession) -> WM:
    # weston's xwayland module binds /tmp/.X11-unix/X<n> and fails when the directory is missing
    # (Xvfb -nolisten tcp uses abstract sockets and does not create it).
    if not os.path.isdir("/tmp/.X11-unix"):
        os.makedirs("/tmp/.X11-unix", exist_ok=True)
        os.chmod("/tmp/.X11-unix", 0o1777)
    wrt = Path(tempfile.mkdtemp(prefix="xhud-weston-", dir="/tmp"))
    os.chmod(wrt, 0o700)
    s.cleanup.append(lambda: shutil.rmtree(wrt, ignore_errors=True))
    socket_name = "wl-" + uuid.uuid4().hex[:8]
    env = dict(os.environ, XDG_RUNTIME_DIR=str(wrt))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    log = s.tmp / "weston.log"
    # --use-pixman: the headless backend's default renderer (noop) draws nothing, and the
    # screenshooter (allowed by --debug) waits for ever for a frame.
    p = s.spawn(["weston", "--backend=headless-backend.so", "--use-pixman", "--xwayland", "--debug",
                 f"--socket={socket_name}", f"--width={SCREEN_W}", f"--height={SCREEN_H}", f"--log={log}"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def display():
        m = re.search(r"xserver listening on display (:\d+)", log.read_text(errors="replace")) if log.exists() else None
        return m.group(1) if m else None

    found = wait_until(lambda: p.poll() is not None or display(), 10)
    if p.poll() is not None or not found:
        text = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
        pytest.skip(f"weston --backend=headless-backend.so --xwayland did not start Xwayland here: {text}")
    adopt_display(s, display())
    s.env["WAYLAND_DISPLAY"] = socket_name
    s.weston_runtime = wrt
    # Xwayland starts on the first connection.
    if not wait_until(lambda: s.run("xdpyinfo", check=False, timeout=10).returncode == 0, 15, 0.1):
        raise AssertionError("Xwayland under weston does not answer xdpyinfo: " + log.read_text(errors="replace")[-2000:])
    if not wait_until(lambda: wm_ready(s), 10):
        raise AssertionError("weston's X window manager did not set _NET_SUPPORTING_WM_CHECK")
    wm = WM("weston-xwayland", s)
    wm.keys = False
    wm.why_no_keys = ("weston binds keys only to its own actions (weston.ini has no key that runs a command), "
                      "and its headless backend has no keyboard")
    wm.moves = False   # weston's X window manager ignores a client's move request: see the test
    # Xwayland under the headless backend (no pointer in the seat) dies of XTEST motion
    # (`xdotool mousemove`: "xserver exited, code 6" in weston's log), with or without a HUD.
    wm.pointer = False

    def screenshot(keep: bool = True):
        shots = s.tmp / "wl-shots"
        shots.mkdir(exist_ok=True)
        for old in shots.glob("*.png"):
            old.unlink()
        res = subprocess.run(["weston-screenshooter"], cwd=shots, env=dict(s.env, XDG_RUNTIME_DIR=str(wrt)),
                             capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
        pngs = sorted(shots.glob("*.png"))
        if res.returncode != 0 or not pngs:
            raise AssertionError(f"weston-screenshooter failed ({res.returncode}): {res.stderr.decode(errors='replace')}")
        raw = subprocess.run(["convert", str(pngs[-1]), "-depth", "8", "ppm:-"], capture_output=True, timeout=20)
        shot = parse_ppm(raw.stdout)
        if keep:
            s.shot_count += 1
            shot.save_ppm(s.tmp / f"screen{s.shot_count:02d}.ppm")
        return shot

    s.screenshot = screenshot
    return wm


STARTERS = {"i3": start_i3, "openbox-picom": start_openbox_picom, "xfwm4": start_xfwm4,
            "weston-xwayland": start_weston}


@pytest.fixture(params=list(STARTERS))
def wm(request, xhud_bin, tmp_path):
    name = request.param
    commands, packages = NEEDS[name]
    missing = [c for c in commands if shutil.which(c) is None]
    if missing:
        pytest.skip(f"{name}: {', '.join(missing)} not installed (Debian: apt-get install {packages})")
    if _missing_tools():
        pytest.skip("missing tools: " + ", ".join(_missing_tools()))
    s = XSession(tmp_path, composited=False)
    s.cleanup = []
    try:
        if name != "weston-xwayland":
            s.start()
        private_runtime_dir(s)
        w = STARTERS[name](s)
        yield w
    finally:
        s.stop()
        for f in s.cleanup:
            f()


# ---------------------------------------------------------------------------------------------
# Test windows


def start_window(wm: WM, name: str, geometry: str = "40x12+100+100") -> int:
    """An xterm (yellow, no text: its command is sleep) with WM_CLASS instance name; returns its
    client window once the window manager has mapped it."""
    s = wm.s
    spawn_logged(s, name, ["xterm", "-bw", "0", "-name", name, "-bg", "yellow", "-fg", "yellow", "-cr", "yellow",
                           "-geometry", geometry, "-e", "sleep", "600"])

    def mapped():
        out = s.run("xdotool", "search", "--classname", f"^{name}$", check=False).stdout.split()
        for tok in out:
            info = s.window_info(int(tok))
            if info and info.viewable:
                return int(tok)
        return None

    wid = wait_until(mapped, 10)
    assert wid, f"xterm {name} was not mapped: " + log_of(s, name)
    return wid


def make_fullscreen(wm: WM, wid: int) -> None:
    wm.fullscreen(wid)
    s = wm.s
    full = lambda: (i := s.window_info(wid)) and (i.x, i.y, i.width, i.height) == (0, 0, SCREEN_W, SCREEN_H)
    assert wait_until(full, 5), f"{wm.name}: window {wid:#x} is not fullscreen: {s.window_info(wid)}"
    # Painted: the centre of the screen is the window's yellow.
    assert wait_until(lambda: s.screenshot(keep=False).bbox_not(YELLOW, 10, CENTRE_REGION) is None, 5), (
        f"{wm.name}: the fullscreen window does not cover the screen's centre")


def bezel_at_centre(s: XSession, timeout: float = 3.0):
    """The bounding box of what is not yellow around the centre, once two screenshots agree."""
    box, _ = s.hud_bbox(timeout=timeout, region=CENTRE_REGION, colour=YELLOW)
    return box


def assert_centred(box, centre, what):
    assert box is not None, f"{what}: no bezel drawn"
    left, top, right, bottom = box
    cx, cy = (left + right + 1) / 2, (top + bottom + 1) / 2
    assert abs(cx - centre[0]) <= TOL and abs(cy - centre[1]) <= TOL, (
        f"{what}: bezel {box} has its centre at ({cx:.1f}, {cy:.1f}), expected {centre}")
    assert right - left > 40 and bottom - top > 30, f"{what}: {box} is too small for a bezel"


# ---------------------------------------------------------------------------------------------
# 1. Above a fullscreen window


def test_hud_above_fullscreen_window(wm):
    s = wm.s
    wid = start_window(wm, "xhudfull")
    make_fullscreen(wm, wid)
    hud = s.start_xhud("--mode", "text", "--label", "Above fullscreen", *STILL)
    box = bezel_at_centre(s)
    if box is None and wm.name == "weston-xwayland":
        on_top = root_order(s)[-1] in hud_ids(s)
        if on_top:
            pytest.skip("weston-xwayland: the HUD is the top of the X stack but not drawn over the fullscreen X "
                        "window: weston's desktop-shell puts a fullscreen surface in its fullscreen layer, above "
                        "the layer its X window manager puts override-redirect windows in, whatever the X "
                        "stacking (test_hud_follows_parent_moved_by_window_manager sees the HUD drawn over a "
                        "window that is not fullscreen)")
    assert box is not None, (f"{wm.name}: no bezel at the centre over the fullscreen window; HUD windows "
                             f"{[w.rect for w in s.visible_hud_windows()]}; stacking: {stacking(s)}; {hud.describe()}")
    assert_centred(box, CENTRE, f"{wm.name}, over a fullscreen window")
    # The window manager restacks the fullscreen window when it is activated again: the HUD
    # stays above it.
    wm.activate(wid)
    time.sleep(0.3)   # no event says "the window manager has finished restacking"
    box = bezel_at_centre(s)
    assert box is not None, (f"{wm.name}: the HUD went below the fullscreen window {wid:#x} when it was activated; "
                             f"stacking: {stacking(s)}")
    assert_centred(box, CENTRE, f"{wm.name}, after activating the fullscreen window")
    if wm.name != "weston-xwayland":   # Xwayland's X stacking is not weston's (its own scene graph)
        order = root_order(s)
        frame = top_level_child_of_root(s, wid)
        huds = [top_level_child_of_root(s, w.id) for w in s.visible_hud_windows()]
        assert all(order.index(h) > order.index(frame) for h in huds if h in order), (
            f"{wm.name}: HUD windows {[hex(h) for h in huds]} below the fullscreen frame {frame:#x}: {stacking(s)}")
    assert hud.proc.poll() is None, hud.describe()


# ---------------------------------------------------------------------------------------------
# 2. The focus stays where it is


def test_hud_never_takes_focus(wm):
    s = wm.s
    # Under the screen's centre, where the HUD shows: the pointer is over it before the HUD maps
    # (focus follows the mouse under i3, Openbox and xfwm4 here), over the HUD's input-blocking
    # window while it shows, and over it again when the HUD goes.
    wid = start_window(wm, "xhudfocus", "40x12+500+300")
    if wm.pointer:
        s.run("xdotool", "mousemove", str(CENTRE[0]), str(CENTRE[1]))
    if wm.name != "weston-xwayland":
        # A new window gets the focus from these window managers (weston's headless backend
        # has no keyboard: the focus stays PointerRoot, which must not change either).
        assert wait_until(lambda: active_window(s) == wid, 5), (
            f"{wm.name}: the test window {wid:#x} did not become active: {focus_state(s)}")
    before = focus_state(s)
    # The spinner blocks input (mask clear, a window over the whole monitor): the riskiest HUD.
    hud = s.start_xhud("--mode", "indeterminate", "--label", "Focus", *STILL)
    huds = hud_ids(s)
    during = []
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        during.append(focus_state(s))
        time.sleep(0.1)
    hud.signal(signal.SIGTERM)
    assert hud.wait(5) is not None, hud.describe()
    assert wait_until(lambda: not s.visible_hud_windows(), 3), "the HUD did not hide"
    time.sleep(0.2)   # a focus change after an unmap would come now
    after = focus_state(s)
    changed = [st for st in during if st != before]
    assert not changed, (f"{wm.name}: focus/active window changed while the HUD showed: before {before}, "
                         f"during {changed[:3]} (HUD windows {[hex(h) for h in huds]})")
    assert after == before, f"{wm.name}: focus after the HUD {after}, before {before}"
    assert not (set(h for st in during for h in st if h) & huds), "a HUD window had the focus"


# ---------------------------------------------------------------------------------------------
# 3. Following a managed parent window the window manager moves


def hud_centres(s: XSession):
    return [(w.id, w.centre) for w in s.hud_windows() if w.viewable]


def centred_on(s: XSession, centre) -> bool:
    cs = hud_centres(s)
    return bool(cs) and all(abs(c[0] - centre[0]) <= TOL and abs(c[1] - centre[1]) <= TOL for _, c in cs)


def test_hud_follows_parent_moved_by_window_manager(wm):
    s = wm.s
    wid = start_window(wm, "xhudparent", "50x16+100+100")
    hud = s.start_xhud("--window", hex(wid), "--mode", "text", "--label", "Follow", *STILL)
    before = s.window_info(wid).centre
    assert wait_until(lambda: centred_on(s, before), 3), (
        f"{wm.name}: HUD windows {hud_centres(s)} not centred on the parent {wid:#x} at {before}; {hud.describe()}")
    # Drawn there, over the parent (the pixels, not only the window).
    box, _ = s.hud_bbox(region=s.window_info(wid).rect, colour=YELLOW)
    assert_centred(box, before, f"{wm.name}, over the parent window")
    wm.move(wid, 600, 350)
    after = wait_until(lambda: (c := s.window_info(wid).centre) != before and c, 3)
    if not after and not wm.moves:
        pytest.skip(f"{wm.name}: the window manager does not move an X window on request (xdotool windowmove "
                    f"is ignored, and it has no command to move one): nothing to follow")
    assert after, f"{wm.name}: the parent window {wid:#x} did not move"
    assert wait_until(lambda: centred_on(s, s.window_info(wid).centre), 2), (
        f"{wm.name}: HUD windows {hud_centres(s)} did not follow the parent to {s.window_info(wid).centre}; "
        f"{hud.describe()}")
    assert hud.proc.poll() is None, hud.describe()


# ---------------------------------------------------------------------------------------------
# 4. A keybinding of the window manager: two presses, one HUD updated in place


def settled_fill(s: XSession, rect, timeout=3.0):
    """bar_fill of rect once two screenshots in a row agree."""
    last = None
    deadline = time.monotonic() + timeout
    while True:
        fill = bar_fill(s.screenshot(), rect)
        if fill == last and fill[1] > 0:
            return fill
        last = fill
        if time.monotonic() > deadline:
            return fill
        time.sleep(0.05)


def test_keybinding_updates_one_hud_in_place(wm):
    if not wm.keys:
        pytest.skip(f"{wm.name}: {wm.why_no_keys}")
    s = wm.s
    (key1, p1), (key2, p2) = KEYS
    assert wait_until(lambda: all(key_grabbed(s.display, k) for k, _ in KEYS), 10), (
        f"{wm.name}: nobody grabbed {[k for k, _ in KEYS]} within 10 s")
    s.run("xdotool", "key", key1)
    wins = wait_until(lambda: s.visible_hud_windows(), 5)
    assert wins, f"{wm.name}: {key1} showed no HUD; log: {log_of(s, wm.name.split('-')[0])}"
    assert len(wins) == 1, f"{wm.name}: want one HUD window, got {[w.rect for w in wins]}"
    first = wins[0]
    fill1, track1, _ = settled_fill(s, first.rect)
    assert track1 > 60, f"{wm.name}: no bar found in {first.rect}"
    assert 0.15 * track1 < fill1 < 0.45 * track1, f"{wm.name}: --progress {p1}: {fill1} of {track1} px"

    s.run("xdotool", "key", key2)
    grown = wait_until(lambda: (f := bar_fill(s.screenshot(keep=False), first.rect))[0] > 0.65 * track1 and f, 5)
    assert grown, f"{wm.name}: the second press ({key2}, --progress {p2}) did not change the bar"
    wins = s.visible_hud_windows()
    assert [w.id for w in wins] == [first.id], (
        f"{wm.name}: two presses should update one HUD in place: windows {[(hex(w.id), w.rect) for w in wins]}, "
        f"first {first.id:#x}")
    fill2, track2, _ = settled_fill(s, first.rect)
    assert abs(track2 - track1) <= 2 and 0.65 * track2 < fill2 < 0.95 * track2, (
        f"{wm.name}: --progress {p2}: {fill2} of {track2} px (first press {fill1} of {track1})")


# ---------------------------------------------------------------------------------------------
# 5. The HUD window's name is its label (pagers, xdotool search --name, window rules)


def test_net_wm_name_is_the_label(wm):
    s = wm.s
    s.start_xhud("--mode", "text", "--label", "Volume 42 %", *STILL)
    wins = s.visible_hud_windows()
    assert wins
    for w in wins:
        props = s.xprop(w.id, "_NET_WM_NAME")
        assert re.search(r'^_NET_WM_NAME\(UTF8_STRING\) = "Volume 42 %"$', props, re.M), (
            f"{wm.name}: window {w.id:#x}: {props.strip()}")
