"""Colour emoji in every label, in any position: drawn in their colours (not as silhouettes in
the text's colour), a run of them whole, by the display's server (whose text is laid out on a
thread of its own) as by the library."""

from __future__ import annotations

import subprocess

import pytest

from conftest import wait_until
from test_config import drawn

HAS_EMOJI = "Noto Color Emoji" in subprocess.run(["fc-list"], capture_output=True, text=True).stdout
pytestmark = pytest.mark.skipif(not HAS_EMOJI, reason="fonts-noto-color-emoji (scripts/deps.sh installs it)")


def yellow_columns(shot, rect) -> list[int]:
    """The columns of `rect` with a yellow pixel (an emoji face's, never white text's)."""
    x0, y0, w, h = rect
    return [x for x in range(x0, x0 + w)
            if any((p := shot.pixel(x, y))[0] > 180 and p[1] > 140 and p[2] < 90 for y in range(y0, y0 + h))]


@pytest.mark.parametrize("label", ["😀😀😀 x", "x 😀😀😀", "a😀b😀c😀d"])
def test_a_run_of_emoji_is_drawn_in_colour(xplain, label):
    hud = xplain.start_xhud("--label", label, "--mode", "text", "--animation", "none", "--mask", "none")
    win = wait_until(lambda: next(iter(xplain.visible_hud_windows()), None), 5)
    shot = drawn(xplain, win)
    cols = yellow_columns(shot, win.rect)
    # Three faces of about 14 px each: yellow over at least 30 columns, spread over 40 or more.
    assert len(cols) >= 30, f"{label!r}: {len(cols)} yellow columns (silhouettes or missing faces)"
    assert cols[-1] - cols[0] >= 36, f"{label!r}: the faces span {cols[-1] - cols[0]} px: some are missing"
    hud.signal(15)
    hud.wait(5)
