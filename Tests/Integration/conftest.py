"""Fixtures and helpers for xhud's integration tests.

Every test gets its own Xvfb (1280x800x24, -noreset, on a display number Xvfb picks itself with
-displayfd), optionally xcompmgr, a solid root background, and a session object (`XSession`) to
start xhud and xev, find the HUD's windows, take screenshots and read pixels. Everything a test
starts is killed in teardown, whatever happens.

The binary is $XHUD_BIN, default /work/main/.build/debug/xhud (relative to this repository);
the tests that need it are skipped, with the reason, when it does not exist.

Notes on the X server:
- Xvfb must run with -noreset: without it the server resets when its last client leaves, which
  throws away the root background set by a short-lived client (xsetroot) and RandR monitors
  set by `xrandr --setmonitor`.
- With xcompmgr the root is painted from the pixmap in _XROOTPMAP_ID/_XSETROOT_ID, or in grey
  when there is none; `xsetroot -solid` sets neither, so the background is set here with a
  pixmap published in both properties (see `set_root_background`).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import select
import shutil
import signal
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

from hosts import alive, end_hosts, environ_of, hosts, proc_state  # noqa: F401 (used by the tests too)

REPO = Path(__file__).resolve().parents[2]


def _xhud_bin() -> Path:
    value = os.environ.get("XHUD_BIN", "")
    if not value:
        return REPO / ".build" / "debug" / "xhud"
    if "/" not in value and shutil.which(value):  # a command name on PATH
        return Path(shutil.which(value))
    return Path(value).resolve()


XHUD_BIN = _xhud_bin()
SCREEN_W, SCREEN_H = 1280, 800
BACKGROUND = (0x33, 0x66, 0xCC)

REQUIRED_TOOLS = ["Xvfb", "xdpyinfo", "xdotool", "xwininfo", "xprop", "import", "xev", "stdbuf"]


# ---------------------------------------------------------------------------------------------
# Small utilities


def loop_witness(x) -> None:
    """Makes the spinners of the session's next server drawn by its loop, frame by frame, so that
    a witness spinner stands still exactly when the loop does. Otherwise a spinner that holds
    still is turned by the X server alone (Present), and turns on through any stall of ours."""
    x.env = dict(x.env, XHUD_NO_PRESENT="1")


def longest_still(frames: list[tuple[float, bytes]]) -> float:
    """The longest time, in seconds, that (time, pixels) samples stayed the same."""
    still, longest = frames[0], 0.0
    for at, data in frames[1:]:
        if data != still[1]:
            still = (at, data)
        longest = max(longest, at - still[0])
    return longest


def wait_until(predicate, timeout: float, interval: float = 0.02):
    """Polls predicate until it returns something truthy (returned) or timeout passes (None)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)


def wait_steady(read, timeout: float, apart: float):
    """Reads until two reads `apart` seconds apart agree and are truthy: whatever moves for less
    than `apart` (a slide, a fade) is over. Returns that value, or None when timeout passes."""
    deadline = time.monotonic() + timeout
    last = read()
    while time.monotonic() < deadline:
        time.sleep(apart)   # the comparison's interval
        now = read()
        if now and now == last:
            return now
        last = now
    return None


def kill_group(proc: subprocess.Popen, grace: float = 2.0) -> None:
    """Ends a process started with start_new_session=True, and its process group."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # stragglers in the group
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        pass


TAG = "XHUD_TEST_TAG"  # marks the environment of everything a test starts (see kill_tagged)


def children_of(pid: int) -> list[int]:
    try:
        return [int(p) for p in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def tagged_hosts(tag: str) -> list[int]:
    """Live xhud-host processes (whatever their argv[0]) started with TAG=tag."""
    return hosts(TAG, tag)


def kill_tagged(tag: str) -> None:
    """Ends the detached HUD processes a test started (notifications live on in a new session,
    out of reach of the session's process-group cleanup)."""
    end_hosts(TAG, tag, timeout=1.0)


# ---------------------------------------------------------------------------------------------
# A little Xlib through ctypes: what no command-line tool does.


class _Xlib:
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
            x.XSync.argtypes = [vp, c_int]
            cls._lib = x
        return cls._lib


def _open(display: str):
    x = _Xlib.lib()
    d = x.XOpenDisplay(display.encode())
    if not d:
        raise RuntimeError(f"cannot open display {display}")
    return x, d


def set_root_background(display: str, rgb: tuple[int, int, int]) -> None:
    """Solid root background through a pixmap kept with RetainPermanent and published in
    _XROOTPMAP_ID and _XSETROOT_ID, so that xcompmgr paints it too. Assumes a TrueColor
    24-bit root (Xvfb -screen 0 WxHx24)."""
    x, d = _open(display)
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
    x, d = _open(display)
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
    x, d = _open(display)
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
    x, d = _open(display)
    try:
        atom = x.XInternAtom(d, b"_NET_WM_CM_S%d" % x.XDefaultScreen(d), 0)
        return x.XGetSelectionOwner(d, atom) != 0
    finally:
        x.XCloseDisplay(d)


# ---------------------------------------------------------------------------------------------
# Screenshots


@dataclass
class Screenshot:
    width: int
    height: int
    data: bytes  # RGB, 8 bits per channel, rows top to bottom

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel {x},{y} outside {self.width}x{self.height}")
        i = (y * self.width + x) * 3
        return tuple(self.data[i : i + 3])

    def bbox_not(self, colour, tolerance: int = 10, region=None):
        """Bounding box (left, top, right, bottom; inclusive) of the pixels that differ from
        `colour` by more than `tolerance` in some channel, inside region (x, y, w, h); None
        when there are none."""
        rx, ry, rw, rh = region or (0, 0, self.width, self.height)
        rx0, ry0 = max(0, rx), max(0, ry)
        rx1, ry1 = min(self.width, rx + rw), min(self.height, ry + rh)
        bg_row = bytes(colour) * (rx1 - rx0)
        stride = self.width * 3
        cr, cg, cb = colour

        def differs(row: bytes, px: int) -> bool:
            i = px * 3
            return (abs(row[i] - cr) > tolerance or abs(row[i + 1] - cg) > tolerance
                    or abs(row[i + 2] - cb) > tolerance)

        left, top, right, bottom = None, None, None, None
        n = rx1 - rx0
        for y in range(ry0, ry1):
            row = self.data[y * stride + rx0 * 3 : y * stride + rx1 * 3]
            if row == bg_row:
                continue
            first = next((px for px in range(n) if differs(row, px)), None)
            if first is None:
                continue
            last = next(px for px in range(n - 1, first - 1, -1) if differs(row, px))
            top = y if top is None else top
            bottom = y
            left = rx0 + first if left is None else min(left, rx0 + first)
            right = rx0 + last if right is None else max(right, rx0 + last)
        if top is None:
            return None
        return (left, top, right, bottom)

    def save_ppm(self, path: Path) -> None:
        path.write_bytes(b"P6\n%d %d\n255\n" % (self.width, self.height) + self.data)


def button_row(shot: Screenshot, win) -> list[tuple[int, int, int]]:
    """A HUD's row of buttons as drawn in `win` (a WinInfo): (left, right, y) of each button's
    bottom outline, left to right, y its lowest row of light strokes 12 px or longer (text has
    no light run that long), or []. The pill's straight part: its rounded ends are left out."""
    def light(p):
        return min(p) > 140
    for y in range(win.y + win.height - 1, win.y + win.height // 2, -1):
        runs, start = [], None
        for x in range(win.x, win.x + win.width + 1):
            on = x < win.x + win.width and 0 <= x < shot.width and 0 <= y < shot.height and light(shot.pixel(x, y))
            if on and start is None:
                start = x
            elif not on and start is not None:
                if x - start >= 12:
                    runs.append((start, x - 1, y))
                start = None
        if runs:
            return runs
    return []


def region_bytes(shot: Screenshot, region) -> bytes:
    """The pixels of region (x, y, w, h; clipped to the screen), row after row."""
    x0, y0, w, h = region
    x0, x1 = max(0, x0), min(shot.width, x0 + w)
    stride = shot.width * 3
    return b"".join(shot.data[y * stride + x0 * 3 : y * stride + x1 * 3] for y in range(max(0, y0), min(shot.height, y0 + h)))


def parse_ppm(raw: bytes) -> Screenshot:
    # P6 <ws> width <ws> height <ws> maxval <one ws> data; ImageMagick writes no comments here
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", raw)
    if not m:
        raise ValueError("not a binary PPM")
    w, h, maxval = int(m.group(1)), int(m.group(2)), int(m.group(3))
    data = raw[m.end() :]
    if maxval > 255:  # 16 bits per channel, big-endian: keep the high bytes
        data = data[0::2]
    if len(data) < w * h * 3:
        raise ValueError(f"short PPM: {len(data)} bytes for {w}x{h}")
    return Screenshot(w, h, bytes(data[: w * h * 3]))


# ---------------------------------------------------------------------------------------------
# Windows


@dataclass
class WinInfo:
    id: int
    x: int
    y: int
    width: int
    height: int
    depth: int
    viewable: bool
    override_redirect: bool
    input_only: bool
    border: int = 0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.width / 2.0, self.y + self.height / 2.0)

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.width, self.height)


def parse_xwininfo(wid: int, text: str) -> WinInfo:
    def field(name, default=None):
        m = re.search(r"^\s*" + re.escape(name) + r":\s*(.+)$", text, re.M)
        return m.group(1).strip() if m else default

    return WinInfo(
        id=wid,
        x=int(field("Absolute upper-left X", "0")),
        y=int(field("Absolute upper-left Y", "0")),
        width=int(field("Width", "0")),
        height=int(field("Height", "0")),
        depth=int(field("Depth", "0")),
        viewable=field("Map State") == "IsViewable",
        override_redirect=field("Override Redirect State") == "yes",
        input_only=field("Class") == "InputOnly",
        border=int(field("Border width", "0")),
    )


# ---------------------------------------------------------------------------------------------
# Processes a session starts


class XhudProcess:
    """A running xhud; its stdout and stderr go to files (never a pipe that could fill)."""

    def __init__(self, session: "XSession", args: list[str], proc: subprocess.Popen, out: Path, err: Path):
        self.session, self.args, self.proc, self.out_path, self.err_path = session, args, proc, out, err

    @property
    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace") if self.err_path.exists() else ""

    def describe(self) -> str:
        rc = self.proc.poll()
        state = "running" if rc is None else f"exited {rc}"
        return f"xhud {' '.join(self.args)} ({state}); stderr: {self.stderr.strip()[-2000:]!r}"

    def wait(self, timeout: float):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def signal(self, sig) -> None:
        self.proc.send_signal(sig)


class XevProcess:
    """xev on a window of a given geometry; collects its output lines in a thread."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self.outer: int | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace")
            with self._lock:
                self.lines.append(line)
            m = re.search(r"Outer window is (0x[0-9a-fA-F]+)", line)
            if m and self.outer is None:
                self.outer = int(m.group(1), 16)

    def text(self) -> str:
        with self._lock:
            return "".join(self.lines)

    def clear(self) -> None:
        with self._lock:
            self.lines.clear()

    def button_presses(self) -> int:
        return self.text().count("ButtonPress event")

    def stop(self, timeout: float = 5.0) -> str:
        """Ends xev; returns all it printed."""
        self.proc.terminate()
        self.proc.wait(timeout)
        self._thread.join(timeout)
        return self.text()


class XSession:
    """One X server for one test: Xvfb, maybe xcompmgr, and whatever the test starts."""

    def __init__(self, tmp: Path, composited: bool):
        self.tmp = tmp
        self.composited = composited
        self.procs: list[subprocess.Popen] = []
        self.xvfb: subprocess.Popen | None = None
        self.xcompmgr: subprocess.Popen | None = None
        self.display = ""
        self.env: dict[str, str] = {}
        self.shot_count = 0

    # -- server ----------------------------------------------------------------------------

    def start(self) -> None:
        r, w = os.pipe()
        log = open(self.tmp / "xvfb.log", "wb")
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{SCREEN_W}x{SCREEN_H}x24",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(w,), stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
        os.close(w)
        number = b""
        deadline = time.monotonic() + 10
        try:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                ready, _, _ = select.select([r], [], [], 0.1)
                if ready:
                    chunk = os.read(r, 64)
                    if not chunk:
                        break
                    number += chunk
                elif self.xvfb.poll() is not None:
                    break
        finally:
            os.close(r)
        if not number.strip():
            raise RuntimeError("Xvfb did not start: " + (self.tmp / "xvfb.log").read_text(errors="replace")[-2000:])
        self.display = ":" + number.decode().strip()
        env = dict(os.environ)
        for var in ("WAYLAND_DISPLAY", "XAUTHORITY"):
            env.pop(var, None)
        env["DISPLAY"] = self.display
        # Servers started on demand leave the test's process group (setsid): the tag finds them.
        self.tag = uuid.uuid4().hex
        env[TAG] = self.tag
        # Hermetic: no configuration file of the machine's user applies to a test.
        env["XDG_CONFIG_HOME"] = str(self.tmp / "config")
        env["XDG_CONFIG_DIRS"] = str(self.tmp / "etc-xdg")
        env.pop("XHUD_CONFIG", None)
        env["XDG_CACHE_HOME"] = str(self.tmp / "cache")   # the kept font matches (FontMatchCache) too
        self.env = env
        ok = wait_until(lambda: subprocess.run(["xdpyinfo"], env=env, capture_output=True, timeout=5).returncode == 0, 10, 0.05)
        if not ok:
            raise RuntimeError(f"Xvfb on {self.display} does not answer xdpyinfo")
        set_root_background(self.display, BACKGROUND)
        if self.composited:
            self.start_compositor()
        # The pointer somewhere neutral (top-left quarter, outside any test window) so that
        # "the monitor under the pointer" is well defined.
        self.run("xdotool", "mousemove", "40", "40")

    def start_compositor(self) -> None:
        log = open(self.tmp / "xcompmgr.log", "wb")
        self.xcompmgr = subprocess.Popen(["xcompmgr"], env=self.env, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=log, start_new_session=True)
        if not wait_until(lambda: self.xcompmgr.poll() is not None or compositor_running(self.display), 5):
            raise RuntimeError("xcompmgr did not take _NET_WM_CM_S0")
        if self.xcompmgr.poll() is not None:
            raise RuntimeError("xcompmgr died: " + (self.tmp / "xcompmgr.log").read_text(errors="replace"))
        # Nothing to wait for: the root it paints is the colour the server already shows, and a
        # window mapped while it starts is found by its query of the tree.

    def stop(self) -> None:
        for p in reversed(self.procs):
            kill_group(p, grace=1.0)
        if getattr(self, "tag", None):
            kill_tagged(self.tag)
        if self.xcompmgr:
            kill_group(self.xcompmgr, grace=1.0)
        if self.xvfb:
            kill_group(self.xvfb, grace=2.0)

    # -- commands ----------------------------------------------------------------------------

    def run(self, *cmd: str, timeout: float = 10, check: bool = True, env=None) -> subprocess.CompletedProcess:
        res = subprocess.run(list(cmd), env=env or self.env, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
        if check and res.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} failed ({res.returncode}): {res.stderr.strip()}")
        return res

    def spawn(self, cmd: list[str], **kw) -> subprocess.Popen:
        kw.setdefault("stdin", subprocess.DEVNULL)
        p = subprocess.Popen(cmd, env=kw.pop("env", self.env), start_new_session=True, **kw)
        self.procs.append(p)
        return p

    # -- xhud --------------------------------------------------------------------------------

    def start_xhud(self, *args: str, wait_mapped: bool = True, timeout: float = 5.0, foreground: bool = True) -> XhudProcess:
        if not XHUD_BIN.exists():
            pytest.skip(f"xhud binary not found at {XHUD_BIN} (build it, or set XHUD_BIN)")
        n = len(self.procs)
        out, err = self.tmp / f"xhud{n}.out", self.tmp / f"xhud{n}.err"
        if foreground and "--wait" not in args and "--hide-after" not in args and "--min-duration" not in args:
            # Notifications return at once and hide themselves; these tests hold a HUD up until
            # they signal it, as any other HUD.
            args = (*args, "--wait", "--min-duration", "600")
        proc = self.spawn([str(XHUD_BIN), *args], stdout=open(out, "wb"), stderr=open(err, "wb"))
        hud = XhudProcess(self, list(args), proc, out, err)
        if wait_mapped:
            self.wait_hud_mapped(hud, timeout)
        return hud

    def wait_hud_mapped(self, hud: XhudProcess, timeout: float = 5.0) -> list[WinInfo]:
        found = wait_until(lambda: hud.proc.poll() is not None or self.visible_hud_windows(), timeout, 0.03)
        if hud.proc.poll() is not None:
            raise AssertionError(f"xhud exited before its window was mapped: {hud.describe()}")
        if not found:
            raise AssertionError(f"no viewable xhud window within {timeout} s: {hud.describe()}")
        return found

    def hud_windows(self) -> list[WinInfo]:
        """All windows whose WM_CLASS instance is "xhud" (mapped or not)."""
        res = self.run("xdotool", "search", "--classname", "^xhud$", check=False)
        ids = [int(tok) for tok in res.stdout.split() if tok.strip().isdigit()]
        infos = []
        for wid in ids:
            info = self.window_info(wid)
            if info is not None:
                infos.append(info)
        return infos

    def visible_hud_windows(self) -> list[WinInfo]:
        """Viewable InputOutput xhud windows: what draws the HUD."""
        return [w for w in self.hud_windows() if w.viewable and not w.input_only]

    def window_info(self, wid: int) -> WinInfo | None:
        res = self.run("xwininfo", "-id", str(wid), check=False)
        if res.returncode != 0:
            return None  # gone meanwhile
        return parse_xwininfo(wid, res.stdout)

    def xprop(self, wid: int, *props: str) -> str:
        return self.run("xprop", "-id", str(wid), *props, check=False).stdout

    # -- screen --------------------------------------------------------------------------------

    def screenshot(self, keep: bool = True) -> Screenshot:
        raw = subprocess.run(["import", "-silent", "-window", "root", "-depth", "8", "ppm:-"], env=self.env,
                             capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        if raw.returncode != 0:
            raise AssertionError("import -window root failed: " + raw.stderr.decode(errors="replace"))
        shot = parse_ppm(raw.stdout)
        if keep:  # the last screenshots stay in the test's tmp dir, for a look after a failure
            self.shot_count += 1
            shot.save_ppm(self.tmp / f"screen{self.shot_count:02d}.ppm")
        return shot

    def hud_bbox(self, timeout: float = 3.0, region=None, tolerance: int = 10, colour=BACKGROUND):
        """Waits until the screen (or region x, y, w, h) shows something other than colour
        (default: the background), i.e. the HUD, drawn without shadow, and until two screenshots
        in a row agree; returns (bbox, screenshot)."""
        last = None
        deadline = time.monotonic() + timeout
        while True:
            shot = self.screenshot()
            box = shot.bbox_not(colour, tolerance, region)
            if box is not None and box == last:
                return box, shot
            last = box
            if time.monotonic() > deadline:
                return box, shot
            time.sleep(0.05)

    def wait_screen(self, predicate, timeout: float = 5.0, interval: float = 0.05) -> Screenshot:
        """Takes screenshots until predicate(shot) holds or timeout passes; returns the last one
        (kept, as screenshot() keeps them) for the caller to assert on."""
        shots = []

        def look():
            shots[:] = [self.screenshot(keep=False)]
            return predicate(shots[0])

        wait_until(look, timeout, interval)
        self.shot_count += 1
        shots[0].save_ppm(self.tmp / f"screen{self.shot_count:02d}.ppm")
        return shots[0]

    def wait_still(self, region, unlike=None, timeout: float = 5.0) -> Screenshot:
        """Screenshots until region (x, y, w, h) shows the same in two in a row and, given unlike
        (a colour, or a screenshot taken before), is not all that colour or not what that showed:
        a HUD that does not move, drawn. Returns the last screenshot."""
        last = []

        def still(shot):
            now = region_bytes(shot, region)
            same = bool(last) and now == last[0]
            last[:] = [now]
            if not same or unlike is None:
                return same
            if isinstance(unlike, Screenshot):
                return now != region_bytes(unlike, region)
            return shot.bbox_not(unlike, 0, region) is not None

        return self.wait_screen(still, timeout)

    def root_selects(self, event: str) -> bool:
        """Whether a client selects event (as xwininfo names it: SubstructureNotify, ...) on the root."""
        out = self.run("xwininfo", "-root", "-events").stdout
        return event in out.split("Someone wants these events:")[-1].split("Do not propagate")[0].split()

    # -- test windows ------------------------------------------------------------------------

    def start_xev(self, geometry: str = "400x300+100+100", events: str = "button") -> XevProcess:
        p = self.spawn(["stdbuf", "-oL", "xev", "-geometry", geometry, "-event", events],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        xev = XevProcess(p)
        if not wait_until(lambda: xev.outer is not None, 5):
            raise AssertionError("xev did not report its window")
        if not wait_until(lambda: (self.window_info(xev.outer) or WinInfo(0, 0, 0, 0, 0, 0, False, False, False)).viewable, 5):
            raise AssertionError("xev window not mapped")
        return xev

    def watch_root(self) -> XevProcess:
        """xev on the root's substructure (every map, unmap, configure of a top-level window),
        once it is listening: it has printed the CreateNotify of a window made for it to see."""
        xev = XevProcess(self.spawn(["stdbuf", "-oL", "xev", "-root", "-event", "substructure"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        self.sync_watcher(xev)
        xev.clear()
        return xev

    def sync_watcher(self, xev: XevProcess, timeout: float = 5.0) -> None:
        """Returns once a root watcher has printed every event the server sent it so far: the
        server sends events in order, so the CreateNotify of a window made now comes last."""
        before = xev.text().count("CreateNotify")

        def seen():
            create_and_destroy_a_window(self.display)
            return wait_until(lambda: xev.text().count("CreateNotify") > before, 0.5)

        if not wait_until(seen, timeout, 0):
            raise AssertionError("the root watcher printed no CreateNotify: " + xev.text()[-600:])

    def click(self, x: int, y: int, button: int = 1) -> None:
        # One xdotool: the server takes the move and the click in that order.
        self.run("xdotool", "mousemove", str(x), str(y), "click", str(button))


# ---------------------------------------------------------------------------------------------
# Fixtures


def _missing_tools() -> list[str]:
    return [t for t in REQUIRED_TOOLS if shutil.which(t) is None]


@pytest.fixture(scope="session")
def xhud_bin() -> Path:
    if not XHUD_BIN.exists():
        pytest.skip(f"xhud binary not found at {XHUD_BIN} (build it with `swift build`, or set XHUD_BIN)")
    if not os.access(XHUD_BIN, os.X_OK):
        pytest.skip(f"{XHUD_BIN} is not executable")
    return XHUD_BIN


@pytest.fixture(params=["composited", "plain"])
def compositor(request) -> bool:
    """Runs a test twice: with xcompmgr (ARGB windows are blended by it) and without."""
    if request.param == "composited" and shutil.which("xcompmgr") is None:
        pytest.skip("xcompmgr not installed")
    return request.param == "composited"


def _session(tmp_path: Path, composited: bool):
    missing = _missing_tools()
    if missing:
        pytest.skip("missing tools: " + ", ".join(missing))
    s = XSession(tmp_path, composited)
    try:
        s.start()
        yield s
    finally:
        s.stop()


@pytest.fixture
def x(xhud_bin, compositor, tmp_path):
    """An X server with (composited) and without (plain) a compositing manager."""
    yield from _session(tmp_path, compositor)


@pytest.fixture
def xplain(xhud_bin, tmp_path):
    """An X server without a compositing manager, for tests where it does not matter."""
    yield from _session(tmp_path, False)


@pytest.fixture
def free_display() -> str:
    """A display name with no server behind it."""
    for n in range(150, 400):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return f":{n}"
    pytest.skip("no free display number")
