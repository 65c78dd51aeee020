"""The XHUD library on Wayland: a Swift program using it (the README's example, built beside
the tests) draws its HUDs on sway as layer surfaces, with no X display at all, and its
callbacks, notifications and async hide arrive as on X11."""

from __future__ import annotations

import subprocess
import time

import pytest

from conftest import XHUD_BIN
from wayland_session import shown, sway  # noqa: F401 (fixture)

EXAMPLE = XHUD_BIN.parent / "example-readme"


def test_the_readme_example_runs_on_sway(sway):
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} is not built (swift build --build-tests builds it)")
    p = subprocess.Popen(sway.command([str(EXAMPLE)]), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    sway.clients.append(p)
    seen = shown(sway, timeout=8)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, (p.returncode, out, err)
    assert seen, "no HUD of the library's on sway"
    lines = out.split()
    for word in ("hidden", "gone", "dismissed"):
        assert word in lines, (word, out, err)
    time.sleep(0.5)
    assert sway.shot().bezel() is None, "a HUD stayed after the program ended"
