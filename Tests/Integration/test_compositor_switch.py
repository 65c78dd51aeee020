"""A compositor that starts or stops while a HUD is up: the HUD switches between true
translucency and pseudo-transparency and keeps looking the same (no black box either way)."""

import signal

from conftest import BACKGROUND, compositor_running, kill_group, wait_until
from test_pixels import EXPECTED, close


def bezel_left_middle(x):
    box, shot = x.hud_bbox()
    assert box is not None, "nothing drawn"
    left, top, right, bottom = box
    return (left + 6, (top + bottom) // 2), shot


def test_compositor_starts_and_stops_under_a_hud(xplain):
    x = xplain
    hud = x.start_xhud("--no-shadow", "--mode", "text", "--label", "Switch", "--animation", "none", "--blur", "0")
    px, shot = bezel_left_middle(x)
    assert close(shot.pixel(*px), EXPECTED), f"before: {shot.pixel(*px)}"

    x.start_compositor()
    assert compositor_running(x.display)
    windows = x.visible_hud_windows()
    assert windows, "the HUD went away when the compositor started"
    ok = wait_until(lambda: close(x.screenshot(keep=False).pixel(*px), EXPECTED), timeout=3)
    assert ok, f"with the compositor: {x.screenshot().pixel(*px)}, expected {EXPECTED}"

    kill_group(x.xcompmgr)
    x.xcompmgr = None
    assert wait_until(lambda: not compositor_running(x.display), timeout=3)
    ok = wait_until(lambda: close(x.screenshot(keep=False).pixel(*px), EXPECTED), timeout=3)
    assert ok, f"after the compositor stopped: {x.screenshot().pixel(*px)}, expected {EXPECTED}"
    # Outside the bezel: the background, not a stale or black box.
    left_of = (px[0] - 12, px[1])
    assert close(x.screenshot(keep=False).pixel(*left_of), BACKGROUND)

    hud.signal(signal.SIGTERM)
    assert hud.wait(5) == 0
