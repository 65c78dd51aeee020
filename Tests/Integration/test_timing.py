"""Timing: --grace, --min-show, the display link's frame rate, no work when nothing moves, and at
most one frame per refresh under a flood of progress input.

Windows are watched through Xlib directly (XQueryTree on the root + WM_CLASS + map state), which
takes well under a millisecond per look, so a HUD shown for a few frames cannot slip between two
looks the way it could between two `xdotool search` runs. The frame counts come from the line
xhud prints on exit with XHUD_STATS=1: `xhud-stats: frames=N ticks=M refresh=R`.
"""

from __future__ import annotations

import ctypes
import re
import signal
import subprocess
import threading
import time

import pytest

from conftest import XHUD_BIN, XhudProcess, _Xlib, loop_witness

STATS_RE = re.compile(r"xhud-stats: frames=(\d+) ticks=(\d+) refresh=([0-9.]+)")


# ---------------------------------------------------------------------------------------------
# A fast window watcher


class _XWindowAttributes(ctypes.Structure):
    _fields_ = [
        ("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int), ("height", ctypes.c_int),
        ("border_width", ctypes.c_int), ("depth", ctypes.c_int), ("visual", ctypes.c_void_p),
        ("root", ctypes.c_ulong), ("c_class", ctypes.c_int), ("bit_gravity", ctypes.c_int),
        ("win_gravity", ctypes.c_int), ("backing_store", ctypes.c_int),
        ("backing_planes", ctypes.c_ulong), ("backing_pixel", ctypes.c_ulong),
        ("save_under", ctypes.c_int), ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
        ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
        ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
        ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p),
    ]


class _XClassHint(ctypes.Structure):
    _fields_ = [("res_name", ctypes.c_char_p), ("res_class", ctypes.c_char_p)]


_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)(lambda d, e: 0)
IS_VIEWABLE, INPUT_OUTPUT = 2, 1


class HudWatcher:
    """One connection to the display; `look()` lists the top-level windows whose WM_CLASS
    instance is "xhud", as (id, viewable InputOutput?) pairs."""

    def __init__(self, display: str):
        x = _Xlib.lib()
        vp, ul = ctypes.c_void_p, ctypes.c_ulong
        x.XQueryTree.argtypes = [vp, ul, ctypes.POINTER(ul), ctypes.POINTER(ul),
                                 ctypes.POINTER(ctypes.POINTER(ul)), ctypes.POINTER(ctypes.c_uint)]
        x.XGetClassHint.argtypes = [vp, ul, ctypes.POINTER(_XClassHint)]
        x.XGetWindowAttributes.argtypes = [vp, ul, ctypes.POINTER(_XWindowAttributes)]
        x.XFree.argtypes = [vp]
        x.XSetErrorHandler.argtypes = [vp]
        x.XSetErrorHandler.restype = vp
        # A window can go between XQueryTree and the next request: BadWindow must not end us.
        x.XSetErrorHandler(ctypes.cast(_ERROR_HANDLER, vp))
        self.x = x
        self.d = x.XOpenDisplay(display.encode())
        if not self.d:
            raise RuntimeError(f"cannot open display {display}")
        self.root = x.XRootWindow(self.d, x.XDefaultScreen(self.d))

    def close(self) -> None:
        if self.d:
            self.x.XCloseDisplay(self.d)
            self.d = None

    def look(self) -> list[tuple[int, bool]]:
        x, d = self.x, self.d
        root_ret, parent_ret = ctypes.c_ulong(), ctypes.c_ulong()
        children, n = ctypes.POINTER(ctypes.c_ulong)(), ctypes.c_uint()
        if not x.XQueryTree(d, self.root, ctypes.byref(root_ret), ctypes.byref(parent_ret),
                            ctypes.byref(children), ctypes.byref(n)):
            return []
        ids = [children[i] for i in range(n.value)]
        if children:
            x.XFree(children)
        found = []
        for wid in ids:
            hint = _XClassHint()
            if not x.XGetClassHint(d, wid, ctypes.byref(hint)):
                continue
            name = hint.res_name
            for ptr in (_XClassHint.res_name.offset, _XClassHint.res_class.offset):
                p = ctypes.c_void_p.from_buffer(hint, ptr).value
                if p:
                    x.XFree(p)
            if name != b"xhud":
                continue
            attrs = _XWindowAttributes()
            if not x.XGetWindowAttributes(d, wid, ctypes.byref(attrs)):
                continue  # gone meanwhile
            found.append((wid, attrs.map_state == IS_VIEWABLE and attrs.c_class == INPUT_OUTPUT))
        return found


@pytest.fixture
def watcher(xplain):
    w = HudWatcher(xplain.display)
    yield w
    w.close()


# ---------------------------------------------------------------------------------------------
# Helpers


def start_xhud_piped(x, *args: str, env_extra: dict | None = None) -> XhudProcess:
    """xhud with stdin a pipe the test holds (hud.proc.stdin), not waiting for a window."""
    n = len(x.procs)
    out, err = x.tmp / f"xhud{n}.out", x.tmp / f"xhud{n}.err"
    env = dict(x.env, **(env_extra or {}))
    proc = x.spawn([str(XHUD_BIN), *args], stdin=subprocess.PIPE, stdout=open(out, "wb"),
                   stderr=open(err, "wb"), env=env)
    return XhudProcess(x, list(args), proc, out, err)


def start_xhud_stats(x, *args: str) -> XhudProcess:
    """xhud with XHUD_STATS=1 and stdin /dev/null (no progress input)."""
    n = len(x.procs)
    out, err = x.tmp / f"xhud{n}.out", x.tmp / f"xhud{n}.err"
    proc = x.spawn([str(XHUD_BIN), *args], stdout=open(out, "wb"), stderr=open(err, "wb"),
                   env=dict(x.env, XHUD_STATS="1"))
    return XhudProcess(x, list(args), proc, out, err)


def wait_viewable(watcher: HudWatcher, hud: XhudProcess, timeout: float = 5.0) -> float:
    """Monotonic time at which a viewable xhud window was first seen."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(v for _, v in watcher.look()):
            return time.monotonic()
        if hud.proc.poll() is not None:
            raise AssertionError(f"xhud exited before its window was mapped: {hud.describe()}")
        time.sleep(0.005)
    raise AssertionError(f"no viewable xhud window within {timeout} s: {hud.describe()}")


def stats_of(hud: XhudProcess) -> tuple[int, int, float]:
    m = STATS_RE.search(hud.stderr)
    assert m, f"no xhud-stats line on stderr with XHUD_STATS=1: {hud.describe()}"
    return int(m.group(1)), int(m.group(2)), float(m.group(3))


def terminate(hud: XhudProcess) -> float:
    """SIGTERM; returns the monotonic time it was sent, after xhud has exited 0."""
    t = time.monotonic()
    hud.signal(signal.SIGTERM)
    rc = hud.wait(5)
    assert rc == 0, f"after SIGTERM: {hud.describe()}"
    return t


# ---------------------------------------------------------------------------------------------
# Tests


def test_grace_never_shows_when_input_ends_first(xplain, watcher):
    """--grace 1 with input that ends at 0.5 s: no window is ever created, exit 0."""
    hud = start_xhud_piped(xplain, "--grace", "1", "--mode", "annular")
    t0 = time.monotonic()
    threading.Timer(0.5, hud.proc.stdin.close).start()
    seen, looks, exit_at = [], 0, None
    while time.monotonic() - t0 < 2.0:
        wins = watcher.look()
        looks += 1
        if wins:
            seen.append((round(time.monotonic() - t0, 3), wins))
        if exit_at is None and hud.proc.poll() is not None:
            exit_at = time.monotonic() - t0
        time.sleep(0.005)
    rc = hud.wait(3)
    assert looks > 100, f"only {looks} looks at the window tree in 2 s"
    assert not seen, (f"--grace 1, input ended at 0.5 s, yet xhud windows appeared "
                      f"(s after start, [(id, viewable)]): {seen[:5]}; {hud.describe()}")
    assert rc == 0, f"expected exit 0 after the end of input: {hud.describe()}"
    assert exit_at is not None and exit_at < 1.5, f"xhud exited at {exit_at} s, expected soon after 0.5 s"


def test_min_show_keeps_hud_up(xplain, watcher):
    """--min-show 1 with input that ends at once: shown for >= 1 s, gone by ~1.6 s, exit 0.

    Looks every ~10 ms, so the time on screen is only known to lie between first-to-last
    sighting (an underestimate by up to two looks) and the looks just outside them (an
    overestimate); xhud itself keeps the window up 1.000-1.002 s (seen with 1 ms looks)."""
    hud = start_xhud_piped(xplain, "--min-show", "1", "--animation", "none")
    hud.proc.stdin.close()  # `true | xhud ...`
    t0 = time.monotonic()
    prev = first = before = last = after = None
    gaps = []  # unmapped and mapped again
    while time.monotonic() - t0 < 3.0:
        now = time.monotonic()
        visible = any(v for _, v in watcher.look())
        if visible:
            if first is None:
                first, before = now, prev
            elif after is not None:
                gaps.append((round(after - t0, 3), round(now - t0, 3)))
                after = None
            last = now
        elif first is not None and after is None:
            after = now
        prev = now
        if after is not None and hud.proc.poll() is not None:
            break
        time.sleep(0.01)
    rc = hud.wait(3)
    assert first is not None, f"the HUD never appeared: {hud.describe()}"
    assert not gaps, f"the HUD was unmapped and mapped again during --min-show (s after start): {gaps}"
    assert after is not None, f"--min-show 1: the HUD was still up {time.monotonic() - t0:.2f} s after start"
    seen, bracket = last - first, after - (before if before is not None else t0)
    where = (f"viewable first seen {first - t0:.3f} s, last seen {last - t0:.3f} s, gone at "
             f"{after - t0:.3f} s after start")
    assert bracket >= 1.0 and seen >= 0.97, f"--min-show 1: on screen less than 1 s: {where}"
    assert after - first <= 1.6, f"--min-show 1 --animation none: on screen far longer than 1 s: {where}"
    assert rc == 0, f"expected exit 0: {hud.describe()}"


def test_spinner_runs_at_refresh_rate(xplain, watcher):
    """The indeterminate spinner, drawn by the loop, draws one frame per refresh: ~60 frames/s on
    Xvfb (with Present, the X server turns a still spinner: test_presented_spinner.py)."""
    loop_witness(xplain)
    hud = start_xhud_stats(xplain, "--mode", "indeterminate", "--animation", "none")
    mapped = wait_viewable(watcher, hud)
    time.sleep(2.0)
    sent = terminate(hud)
    exited = time.monotonic()
    frames, ticks, refresh = stats_of(hud)
    assert refresh == 60.0, f"refresh={refresh}, expected 60 on Xvfb"
    # Generous on both sides: the window is first seen a little after the first frame, and a
    # frame or two may come before it is mapped or after SIGTERM.
    low = frames / (exited - mapped + 0.2)
    high = max(frames - 2, 0) / (sent - mapped)
    assert low >= 45, (f"spinner: {frames} frames ({ticks} ticks) in {exited - mapped:.2f} s on screen "
                       f"= {low:.1f}/s, expected about 60/s")
    assert high <= 66, (f"spinner: {frames} frames ({ticks} ticks) in {sent - mapped:.2f} s on screen "
                        f"= {high:.1f}/s, more than one per refresh at 60 Hz")


def test_static_bar_does_no_work(xplain, watcher):
    """A bar whose progress never changes draws (almost) nothing once it is up."""
    hud = start_xhud_stats(xplain, "--mode", "bar", "--progress", "0.4", "--animation", "none")
    wait_viewable(watcher, hud)
    time.sleep(2.0)
    terminate(hud)
    frames, ticks, _ = stats_of(hud)
    assert frames <= 5 and ticks <= 5, (f"static bar over ~2 s: frames={frames} ticks={ticks}, "
                                        f"expected <= 5 each (no display link while nothing moves)")


def test_progress_flood_at_most_one_frame_per_refresh(xplain):
    """20000 progress lines as fast as they go, then 1 s of quiet: never more than one frame per
    refresh, and some frames."""
    t0 = time.monotonic()
    hud = start_xhud_piped(xplain, "--mode", "bar", "--animation", "none", env_extra={"XHUD_STATS": "1"})
    data = "".join(f"{i * 100 / 20000:.3f}\n" for i in range(1, 20001)).encode()
    errors = []

    def writer():
        try:
            hud.proc.stdin.write(data)
            hud.proc.stdin.flush()
            time.sleep(1.0)
            hud.proc.stdin.close()
        except (BrokenPipeError, OSError) as e:
            errors.append(e)

    th = threading.Thread(target=writer, daemon=True)
    th.start()
    th.join(30)
    rc = hud.wait(10)
    run = time.monotonic() - t0
    assert not errors, f"xhud stopped reading its input: {errors[0]!r}; {hud.describe()}"
    assert rc == 0, f"expected exit 0 after the end of input: {hud.describe()}"
    frames, ticks, _ = stats_of(hud)
    assert frames > 0, f"no frame drawn for 20000 progress lines: {hud.describe()}"
    assert frames <= 66 * run, (f"{frames} frames ({ticks} ticks) in {run:.2f} s = {frames / run:.1f}/s: "
                                f"more than one frame per refresh")
