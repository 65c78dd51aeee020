"""Input on the Wayland backend (a headless sway, wayland_session.py): clicks through sway's
virtual pointer on a button, an icon notification, a click-through HUD, a blocking one and a
clickable bezel, with weston-eventdemo beneath to tell where they went; Escape through its
virtual keyboard."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from wayland_input import click, press_escape, window_beneath
from wayland_session import HEIGHT, WIDTH, gone, shown, sway, wait_until  # noqa: F401 (sway is a fixture)


def test_button_takes_a_click(sway):
    p = sway.spawn("--label", "Working", "--button", "Cancel")
    box = shown(sway)
    assert box, "no bezel"
    x, y, w, h = box
    shot = sway.shot()
    # The button's outline, the lowest light pixels of the bezel's middle column; its middle
    # is half its height (about 24 px) above.
    cx = x + w // 2
    outline = next((j for j in range(y + h - 1, y, -1) if sum(shot.pixel(cx, j)) > 500), None)
    assert outline, "no button in the bezel"
    r = click(sway, cx, outline - 11)
    if r.returncode == 3:
        pytest.skip("the compositor has no virtual pointer: nothing can click")
    assert r.returncode == 0, r.stderr
    try:
        assert p.wait(timeout=5) == 1, "Cancel did not end the HUD with exit 1"
    except subprocess.TimeoutExpired:
        pytest.fail("the click on Cancel did nothing")
    assert gone(sway)


def test_click_dismisses_an_icon_notification(sway):
    """An icon notification takes clicks (its click handler): a click ends it long before its
    five seconds."""
    r = sway.xhud("success", "Saved", "--min-duration", "8")
    assert r.returncode == 0, r.stderr
    shown_at = time.monotonic()
    assert shown(sway), "no bezel"
    r = click(sway, WIDTH // 2, HEIGHT // 2)
    if r.returncode == 3:
        pytest.skip("the compositor has no virtual pointer: nothing can click")
    assert r.returncode == 0, r.stderr
    assert gone(sway, 2), "the click did not dismiss the notification"
    assert time.monotonic() - shown_at < 6


def test_click_through_hud_lets_the_click_reach_the_window_beneath(sway):
    """A HUD that takes no input (no mask, button or click handler) has an empty input region:
    a click on its bezel is the window's beneath."""
    _, log = window_beneath(sway)
    hud = sway.spawn("--label", "Busy", "--mask", "none")
    time.sleep(1.5)   # shown, its fade-in over
    r = click(sway, WIDTH // 2, HEIGHT // 2)
    if r.returncode == 3:
        pytest.skip("the compositor has no virtual pointer: nothing can click")
    assert r.returncode == 0, r.stderr
    assert wait_until(lambda: "button" in log.read_text(errors="replace"), 3), \
        "the window beneath the click-through HUD did not get the click"
    assert hud.poll() is None


def test_blocking_hud_takes_every_click_on_its_output(sway):
    """A spinner blocks input by default (MBProgressHUD's clear mask): an invisible surface over
    its output takes the clicks beside it, as X11's input-only window does; once it is gone, the
    window beneath gets them again."""
    _, log = window_beneath(sway)
    hud = sway.spawn("--label", "Modal")
    time.sleep(1.5)
    r = click(sway, 100, 100)
    if r.returncode == 3:
        pytest.skip("the compositor has no virtual pointer: nothing can click")
    assert r.returncode == 0, r.stderr
    time.sleep(0.5)
    assert "button" not in log.read_text(errors="replace"), "a click beside a blocking HUD reached the window"
    os.killpg(hud.pid, signal.SIGTERM)
    hud.wait(timeout=5)
    time.sleep(1)
    assert click(sway, 100, 100).returncode == 0
    assert wait_until(lambda: "button" in log.read_text(errors="replace"), 3), "the blocker stayed after the HUD"


def test_escape_cancels_a_blocking_hud_and_nothing_else(sway):
    """A HUD that blocks input takes the keyboard while it shows, as X11's grab of Escape:
    Escape cancels it (exit 1). A click-through HUD takes no key: Escape leaves it be."""
    passive = sway.spawn("--label", "Passive", "--mask", "none")
    assert shown(sway), "no bezel"
    r = press_escape(sway)
    assert r.returncode == 0, r.stderr
    with pytest.raises(subprocess.TimeoutExpired):
        passive.wait(timeout=0.5)   # time passing is what is tested: it stays
    passive.terminate()   # runuser's own status: not the HUD's
    passive.wait(timeout=5)
    assert gone(sway)
    blocking = sway.spawn("--label", "Blocking", "--mask", "clear")
    assert shown(sway), "no bezel"
    # The keyboard is asked for with the map; Escape again until it arrives (a key pressed before
    # the compositor gives the surface its focus goes to whatever had it).
    assert wait_until(lambda: press_escape(sway).returncode == 0 and blocking.poll() is not None, 5), \
        "Escape did not end the HUD that blocks input"
    assert blocking.wait(timeout=5) == 1
    assert gone(sway)


def test_clickable_hud_keeps_clicks_on_its_bezel(sway):
    """A HUD with a button takes the clicks on its bezel (its input region), off the button too:
    the window beneath gets none."""
    _, log = window_beneath(sway)
    hud = sway.spawn("--label", "Working", "--button", "Cancel")
    time.sleep(1.5)
    r = click(sway, WIDTH // 2 - 30, HEIGHT // 2 - 20)   # the bezel's fill, beside the spinner
    if r.returncode == 3:
        pytest.skip("the compositor has no virtual pointer: nothing can click")
    assert r.returncode == 0, r.stderr
    time.sleep(0.5)
    assert "button" not in log.read_text(errors="replace"), "a click on the HUD's bezel went through it"
    assert hud.poll() is None, "a click off the button ended the HUD"
