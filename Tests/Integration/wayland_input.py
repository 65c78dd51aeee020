"""Input given to a Wayland session's HUDs: a click through sway's virtual pointer
(wayland_pointer.py, run as the session's user), Escape through its virtual keyboard (wtype), and
a window beneath the HUD (weston-eventdemo) that logs the buttons it gets."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from wayland_session import BACKGROUND, HEIGHT, WIDTH, Sway, wait_until


def click(s: Sway, x: int, y: int) -> subprocess.CompletedProcess:
    """Moves sway's virtual pointer to (x, y), from off the HUD, and clicks there."""
    helper = Path(__file__).with_name("wayland_pointer.py")
    return subprocess.run(s.command(["/usr/bin/python3", str(helper), "10", "10", str(x), str(y), str(WIDTH), str(HEIGHT)]),
                          capture_output=True, text=True, timeout=20)


def window_beneath(s: Sway) -> tuple[subprocess.Popen, Path]:
    """weston-eventdemo as sway's only window (tiled over the whole output), logging the pointer
    buttons it gets."""
    if not shutil.which("weston-eventdemo") or not shutil.which("stdbuf"):
        pytest.skip("weston-eventdemo (weston) or stdbuf is not installed")
    log = s.directory / "eventdemo.log"
    out = open(log, "wb")
    p = subprocess.Popen(s.command(["stdbuf", "-oL", "weston-eventdemo", "--log-button"]), stdout=out,
                         stderr=subprocess.STDOUT, start_new_session=True)
    s.clients.append(p)
    # Up once it has drawn over the background.
    assert wait_until(lambda: s.shot().pixel(20, HEIGHT - 20) != BACKGROUND, 5), "weston-eventdemo did not show"
    return p, log


def press_escape(s: Sway) -> subprocess.CompletedProcess:
    """Escape through sway's virtual keyboard (wtype), to whatever surface has the keyboard."""
    if shutil.which("wtype") is None:
        pytest.skip("wtype is not installed (scripts/deps.sh installs it)")
    return subprocess.run(s.command(["wtype", "-k", "Escape"]), capture_output=True, text=True, timeout=10)
