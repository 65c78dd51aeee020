"""Fixtures and helpers for xhud's integration tests.

Every test gets its own X server and a session object (`XSession`, xsession.py) to start xhud and
xev, find the HUD's windows, take screenshots and read pixels; the pieces it is built of (the X
server, screenshots, /proc) are the repository's harness/, which the benchmarks use too. The
names tests import from here are gathered here, whichever module holds them.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository root: harness/

from harness.polling import wait_until  # noqa: E402,F401 (the names below are the tests' too)
from harness.procs import alive, children_of, end_hosts, environ_of, hosts, kill_group, proc_state  # noqa: E402,F401
from harness.screens import Screenshot, parse_ppm, region_bytes  # noqa: E402,F401
from harness.windows import WinInfo, parse_xwininfo  # noqa: E402,F401
from harness.xlib import Xlib as _Xlib, compositor_running, create_and_destroy_a_window  # noqa: E402,F401
from harness.xlib import open_display as _open, set_active_window, set_root_background  # noqa: E402,F401
from harness.xserver import free_display as free_display_number  # noqa: E402
from xsession import (BACKGROUND, REPO, SCREEN_H, SCREEN_W, TAG, XHUD_BIN, XevProcess, XhudProcess,  # noqa: E402,F401
                      XSession, kill_tagged, tagged_hosts)

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
    n = free_display_number()
    if n is None:
        pytest.skip("no free display number")
    return f":{n}"
