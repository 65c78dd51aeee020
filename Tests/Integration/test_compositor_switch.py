"""A compositor that starts or stops while a HUD is up: the HUD switches between true
translucency and pseudo-transparency and keeps looking the same (no black box either way)."""

import signal
import threading
import time

from conftest import BACKGROUND, compositor_running, kill_group, wait_until
from test_liveness import Grabber
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
    [before] = x.visible_hud_windows()
    assert before.depth == 24, "without a compositor the window has the screen's visual"

    # Sampled every 2 ms while the compositor starts and the window is replaced: the bezel's
    # pixel never shows the background for a refresh (8 samples, over 16 ms). xcompmgr itself,
    # when it starts, paints a window only after that window's next damage: a sample or two
    # (one in four runs with an ARGB window from the start, as with a replaced one) can fall in
    # that gap.
    grabber, seen, stop = Grabber(x.display), [], threading.Event()

    def sample():
        while not stop.is_set():
            raw = grabber.raw((px[0], px[1], 1, 1))
            if raw:
                seen.append((raw[2], raw[1], raw[0]))
            time.sleep(0.002)
    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        x.start_compositor()
        assert compositor_running(x.display)
        assert wait_until(lambda: [w.depth for w in x.visible_hud_windows()] == [32], timeout=3), x.visible_hud_windows()
        time.sleep(0.1)
    finally:
        stop.set()
        sampler.join()
        grabber.close()
    assert len(seen) > 20, len(seen)
    gaps = "".join("b" if close(p, BACKGROUND) else "h" for p in seen)
    assert "b" * 8 not in gaps, f"the HUD blinked out: {gaps}"
    windows = x.visible_hud_windows()
    assert windows, "the HUD went away when the compositor started"
    ok = wait_until(lambda: close(x.screenshot(keep=False).pixel(*px), EXPECTED), timeout=3)
    assert ok, f"with the compositor: {x.screenshot().pixel(*px)}, expected {EXPECTED}"
    # A window the compositor can blend took the first one's place (which is gone).
    assert [w.depth for w in x.visible_hud_windows()] == [32]

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
