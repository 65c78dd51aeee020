"""The HUD's window: its properties, and where it goes (monitor, geometry, a parent window)."""

import re
import time

import pytest

from conftest import BACKGROUND, SCREEN_H, SCREEN_W, set_active_window, wait_until

TOL = 3  # pixels: rounding of a centred bezel of odd size, antialiased edges

# No shadow (symmetric bounding box), no animation (final size at once).
STILL = ["--no-shadow", "--animation", "none"]


def assert_centred(box, centre, what):
    left, top, right, bottom = box
    cx, cy = (left + right + 1) / 2, (top + bottom + 1) / 2
    assert abs(cx - centre[0]) <= TOL and abs(cy - centre[1]) <= TOL, (
        f"{what}: bezel {box} has its centre at ({cx:.1f}, {cy:.1f}), expected {centre}")


# ---------------------------------------------------------------------------------------------
# 1. Window properties


@pytest.mark.parametrize("mode", ["indeterminate", "text"])
def test_window_properties(x, mode):
    hud = x.start_xhud("--mode", mode, "--label", "Properties")
    windows = x.visible_hud_windows()
    assert windows, hud.describe()
    for w in windows:
        assert w.override_redirect, f"window {w.id:#x} is not override-redirect"
        props = x.xprop(w.id, "WM_CLASS", "_NET_WM_NAME", "_NET_WM_WINDOW_TYPE")
        assert re.search(r'^WM_CLASS\(STRING\) = "xhud", "xhud"$', props, re.M), props
        assert re.search(r'^_NET_WM_NAME\(UTF8_STRING\) = "Properties"$', props, re.M), props
        assert re.search(r"^_NET_WM_WINDOW_TYPE\(ATOM\) = _NET_WM_WINDOW_TYPE_NOTIFICATION$", props, re.M), props
        if x.composited:
            assert w.depth == 32, f"window {w.id:#x} has depth {w.depth} under a compositor, expected 32 (ARGB)"
        else:
            # The screen's visual: without a compositor the X server would redirect an ARGB
            # window itself and composite each of its changes a second time.
            assert w.depth == 24, f"window {w.id:#x} has depth {w.depth} without a compositor, expected the screen's 24"
    # Every xhud window, the invisible ones too, must be override-redirect: a window manager
    # must never frame or move any of them.
    for w in x.hud_windows():
        if w.viewable:
            assert w.override_redirect, f"viewable xhud window {w.id:#x} is not override-redirect"
    assert hud.proc.poll() is None, hud.describe()


# ---------------------------------------------------------------------------------------------
# 2. Placement: monitors and --geometry


def setup_monitors(x):
    """Two RandR 1.5 monitors side by side: L (0..639, with the real output) and R (640..1279).
    Needs Xvfb -noreset: the monitors of a client vanish in a server reset after it leaves."""
    out = x.run("xrandr").stdout
    m = re.search(r"^(\S+) connected", out, re.M)
    if not m:
        pytest.skip("xrandr lists no connected output on Xvfb:\n" + out)
    output = m.group(1)
    x.run("xrandr", "--setmonitor", "L", f"640/169x{SCREEN_H}/254+0+0", output)
    x.run("xrandr", "--setmonitor", "R", f"640/169x{SCREEN_H}/254+640+0", "none")
    listing = x.run("xrandr", "--listmonitors").stdout
    if not (re.search(r"^\s*0: L 640/169x800/254\+0\+0", listing, re.M)
            and re.search(r"^\s*1: R 640/169x800/254\+640\+0", listing, re.M)):
        pytest.skip("xrandr --setmonitor did not give monitors 0: L and 1: R:\n" + listing)


@pytest.mark.parametrize("args,pointer,centre", [
    (["--monitor", "R"], (40, 40), (960, 400)),
    (["--monitor", "1"], (40, 40), (960, 400)),
    (["--monitor", "L"], (1000, 300), (320, 400)),
    (["--monitor", "0"], (1000, 300), (320, 400)),
    ([], (1000, 300), (960, 400)),            # default: the monitor under the pointer
    (["--monitor", "pointer"], (100, 700), (320, 400)),
], ids=["name-R", "index-1", "name-L", "index-0", "default-pointer-R", "pointer-L"])
def test_centred_on_monitor(x, args, pointer, centre):
    setup_monitors(x)
    x.run("xdotool", "mousemove", str(pointer[0]), str(pointer[1]))
    hud = x.start_xhud("--mode", "text", "--label", "Monitor", *STILL, *args)
    box, _ = x.hud_bbox()
    assert box is not None, "nothing drawn: " + hud.describe()
    assert_centred(box, centre, " ".join(args) or "default")
    # Every window of the HUD stays within the chosen monitor.
    mon_x = 0 if centre[0] < 640 else 640
    for w in x.visible_hud_windows():
        assert mon_x <= w.x and w.x + w.width <= mon_x + 640, f"window {w.rect} leaves monitor at x={mon_x}"


def test_monitors_set_while_the_server_runs_are_followed(x):
    """The display's server keeps the monitor list between HUDs (a round trip each) and forgets
    it when XRandR says the screen changed: monitors set after its first HUD count for the next."""
    first = x.start_xhud("--mode", "text", "--label", "Before", *STILL)
    assert x.hud_bbox()[0] is not None, "nothing drawn: " + first.describe()
    first.signal(15)
    assert first.wait(5) == 0
    setup_monitors(x)
    x.run("xdotool", "mousemove", "1000", "300")
    hud = x.start_xhud("--mode", "text", "--label", "After", *STILL)
    box, _ = x.hud_bbox()
    assert box is not None, "nothing drawn: " + hud.describe()
    assert_centred(box, (960, 400), "the monitor under the pointer, set after the server's first HUD")


def test_primary_monitor(x):
    setup_monitors(x)
    # Make R the primary monitor (xrandr's '*' prefix); the pointer stays on L.
    x.run("xrandr", "--delmonitor", "R")
    x.run("xrandr", "--setmonitor", "*R", f"640/169x{SCREEN_H}/254+640+0", "none")
    assert re.search(r"^\s*\d+: \*R ", x.run("xrandr", "--listmonitors").stdout, re.M)
    x.run("xdotool", "mousemove", "100", "100")
    hud = x.start_xhud("--mode", "text", "--label", "Primary", *STILL, "--monitor", "primary")
    box, _ = x.hud_bbox()
    assert box is not None, "nothing drawn: " + hud.describe()
    assert_centred(box, (960, 400), "--monitor primary (R)")


def test_geometry_region(x):
    hud = x.start_xhud("--mode", "text", "--label", "Geometry", *STILL, "--geometry", "400x300+100+100")
    box, _ = x.hud_bbox()
    assert box is not None, "nothing drawn: " + hud.describe()
    assert_centred(box, (300, 250), "--geometry 400x300+100+100")


def test_default_centred_on_screen(x):
    hud = x.start_xhud("--mode", "text", "--label", "Centre", *STILL)
    box, _ = x.hud_bbox()
    assert box is not None, "nothing drawn: " + hud.describe()
    assert_centred(box, (SCREEN_W / 2, SCREEN_H / 2), "single monitor")


# ---------------------------------------------------------------------------------------------
# 3. Following a parent window


def parent_centre(x, wid):
    info = x.window_info(wid)
    assert info is not None, f"test window {wid:#x} is gone"
    return info.centre


WHITE = (255, 255, 255)


def inner_region(x, wid):
    """The middle of xev's 400x300 window, away from its border and its inner 50x50 subwindow
    at (10, 10): white where the HUD does not cover it."""
    info = x.window_info(wid)
    return (info.x + 80, info.y + 60, info.width - 160, info.height - 120)


def hud_centres(x):
    return [(w.id, w.centre) for w in x.hud_windows() if w.viewable]


def centred_on(x, centre):
    cs = hud_centres(x)
    return bool(cs) and all(abs(c[0] - centre[0]) <= TOL and abs(c[1] - centre[1]) <= TOL for _, c in cs)


@pytest.mark.parametrize("mode", ["text", "indeterminate"])
def test_follows_parent_window(x, mode):
    xev = x.start_xev("400x300+100+100")
    hud = x.start_xhud("--window", hex(xev.outer), "--mode", mode, "--label", "Follow", *STILL)
    before = parent_centre(x, xev.outer)
    assert wait_until(lambda: centred_on(x, before), 2), (
        f"HUD windows {hud_centres(x)} not centred on the parent at {before}; {hud.describe()}")
    box, _ = x.hud_bbox(region=inner_region(x, xev.outer), colour=WHITE)
    assert box is not None, "no bezel drawn over the parent window: " + hud.describe()
    assert_centred(box, before, "on the parent window")

    x.run("xdotool", "windowmove", str(xev.outer), "700", "350")
    after = wait_until(lambda: (c := parent_centre(x, xev.outer)) != before and c, 2)
    assert after, "xdotool windowmove did not move the test window"
    t0 = time.monotonic()
    assert wait_until(lambda: centred_on(x, after), 1.0, 0.02), (
        f"HUD windows {hud_centres(x)} did not follow the parent to {after} within 1 s; {hud.describe()}")
    follow_s = time.monotonic() - t0
    box, _ = x.hud_bbox(region=inner_region(x, xev.outer), colour=WHITE)
    assert box is not None, "no bezel drawn over the moved parent window: " + hud.describe()
    assert_centred(box, after, f"after the move (followed in {follow_s:.2f} s)")
    assert hud.proc.poll() is None, hud.describe()


def test_active_window_parent(x):
    """--window active: the window in _NET_ACTIVE_WINDOW (set here as a window manager would)."""
    xev = x.start_xev("300x200+800+500")
    set_active_window(x.display, xev.outer)
    hud = x.start_xhud("--window", "active", "--mode", "text", "--label", "Active", *STILL)
    centre = parent_centre(x, xev.outer)
    assert wait_until(lambda: centred_on(x, centre), 2), (
        f"--window active: HUD windows {hud_centres(x)} not centred on {centre}; {hud.describe()}")


def test_scale_doubles_bezel(x):
    sizes = {}
    for scale in ("1", "2"):
        hud = x.start_xhud("--mode", "text", "--label", "Scale", *STILL, "--scale", scale)
        box, _ = x.hud_bbox()
        assert box is not None, "nothing drawn: " + hud.describe()
        assert_centred(box, (SCREEN_W / 2, SCREEN_H / 2), f"--scale {scale}")
        sizes[scale] = (box[2] - box[0] + 1, box[3] - box[1] + 1)
        hud.signal(15)
        assert hud.wait(3) == 0, hud.describe()
        assert wait_until(lambda: not x.visible_hud_windows(), 2)
        assert wait_until(lambda: x.screenshot(keep=False).bbox_not(BACKGROUND) is None, 2), "the HUD left pixels behind"
    (w1, h1), (w2, h2) = sizes["1"], sizes["2"]
    assert abs(w2 / w1 - 2) < 0.1 and abs(h2 / h1 - 2) < 0.1, f"--scale 2 gives {w2}x{h2}, --scale 1 {w1}x{h1}"
