"""Drawing on the X server: frames composed from what the server already holds, with only changed
pixels sent, must look exactly like a full redraw: no seams around an update, no square behind the
spinner, no ghost of another HUD, the same pixels through MIT-SHM, plain requests and a TCP
display."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from conftest import BACKGROUND, SCREEN_H, SCREEN_W, XHUD_BIN, wait_steady, wait_until
from hud_pixels import bar_fill

BAR = ["--mode", "bar", "--label", "Copying", "--animation", "none", "--mask", "none"]


def region(shot, rect):
    x0, y0, w, h = rect
    return [shot.pixel(x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w)]


def max_diff(a, b) -> int:
    return max(max(abs(p - q) for p, q in zip(u, v)) for u, v in zip(a, b))


def fed(x, *args, env=None):
    """xhud reading stdin from a pipe the test writes to."""
    p = subprocess.Popen([str(XHUD_BIN), *args], env=env or x.env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    x.procs.append(p)
    return p


def hud_rect(x, timeout=5.0):
    wins = wait_until(lambda: x.visible_hud_windows(), timeout)
    assert wins, "no HUD window"
    w = max(wins, key=lambda w: w.rect[2] * w.rect[3] if w.rect[2] < SCREEN_W else 0)
    return w.rect


def settle(x, rect, timeout=3.0):
    """A screenshot once two in a row agree on `rect`."""
    last = None
    deadline = time.monotonic() + timeout
    while True:
        shot = x.screenshot()
        pixels = region(shot, rect)
        if pixels == last or time.monotonic() > deadline:
            return shot, pixels
        last = pixels
        time.sleep(0.1)   # polling interval


def stop(p):
    p.terminate()
    p.wait(timeout=5)


def test_a_progress_update_equals_a_full_redraw(x):
    """A bar at 30 % fed `70`: only the changed pixels are sent, and the frame equals one drawn
    whole at 70 % (every channel within 2)."""
    a = fed(x, *BAR, "--progress", "0.3")
    rect = hud_rect(x)
    a.stdin.write(b"70\n")
    a.stdin.flush()
    x.wait_screen(lambda s: (f := bar_fill(s, rect))[1] > 60 and f[0] > 0.6 * f[1])   # 70 % taken
    _, updated = settle(x, rect)
    stop(a)
    assert wait_until(lambda: not x.visible_hud_windows(), 3)
    b = fed(x, *BAR, "--progress", "0.7")
    assert hud_rect(x) == rect
    _, whole = settle(x, rect)
    stop(b)
    assert max_diff(updated, whole) <= 2


def test_no_square_behind_the_spinner(x):
    """The spinner turns on the server over the bezel as drawn: just outside its ring the bezel has
    the colour it has anywhere else."""
    hud = x.start_xhud("--label", "Working on it", "--animation", "none", "--mask", "none")
    box, _ = x.hud_bbox(tolerance=60)
    assert box, hud.describe()
    left, top, right, bottom = box
    cx = (left + right) // 2
    y = top + 20 + 18   # the indicator's centre row: margin 20, 37 px indicator
    for _ in range(5):
        shot = x.screenshot()
        near = shot.pixel(cx + 21, y)      # inside the old damage square, outside the ring
        far = shot.pixel(left + 12, y)     # the bezel away from the indicator
        assert max(abs(p - q) for p, q in zip(near, far)) <= 2, f"near the spinner {near}, elsewhere {far}"
        time.sleep(0.07)   # sampling: the spinner at other angles


def test_no_ghost_of_a_previous_hud(xplain):
    """Without a compositor, a HUD that shows next to another one (two wrapped commands in a row,
    a result icon still up) and then takes its place shows its own pixels, never the other's.
    The display's server stacks the two: they never cover each other."""
    x = xplain
    ref = x.start_xhud("--label", "Step B", "--mode", "success", "--animation", "none")
    wx, wy, ww, wh = hud_rect(x)
    # The bezel's inside (the window also holds the shadow's reach, where the other HUD may
    # rightly show around this one).
    rect = (wx + 28, wy + 28, ww - 56, wh - 60)
    _, alone = settle(x, rect)
    ref.signal(15)
    ref.wait(3)
    assert wait_until(lambda: not x.visible_hud_windows(), 3)
    first = x.start_xhud("--label", "Step A", "--details", "Exit status 3", "--mode", "error", "--animation", "none")
    second = x.start_xhud("--label", "Step B", "--mode", "success", "--animation", "none", wait_mapped=False)
    wait_until(lambda: len(x.visible_hud_windows()) == 2, 5)
    # Stacked: two reads a slide's length (0.25 s) apart agree.
    wait_steady(lambda: sorted(w.rect for w in x.visible_hud_windows()), 5, 0.3)
    both = [w.rect for w in x.visible_hud_windows()]
    assert len(both) == 2
    (ax, ay, aw, ah), (bx, by, bw, bh) = both
    assert ax + aw <= bx or bx + bw <= ax or ay + ah <= by or by + bh <= ay, f"the two HUDs overlap: {both}"
    first.signal(15)
    first.wait(3)
    # The stack closes up: the second HUD moves to where a HUD alone is.
    wait_until(lambda: [w.rect for w in x.visible_hud_windows()] == [(wx, wy, ww, wh)], 5)
    _, after = settle(x, rect)
    second.signal(15)
    assert max_diff(after, alone) <= 2, "the second HUD shows the first one's pixels"


def test_a_window_mapped_under_the_hud_leaves_no_stale_pixels(xplain):
    """Without a compositor the bezel blends over a copy of the screen taken as it appears. A
    window mapped beneath it afterwards cannot be seen through it: the copy is out of date, so
    the bezel rises to (nearly) opaque instead of showing the background that is no longer
    there, and the window shows around it."""
    hud = xplain.start_xhud("--mode", "text", "--label", "Over a window", "--animation", "none", "--blur", "0")
    box, shot = xplain.hud_bbox(tolerance=60)
    assert box, hud.describe()
    left, top, right, bottom = box
    inside = (left + 12, (top + bottom) // 2)
    before = shot.pixel(*inside)
    # The bezel (0.1, 0.1, 0.1) at 0.82 over the background.
    expected = tuple(round(0.82 * 25.5 + 0.18 * c) for c in BACKGROUND)
    assert max(abs(p - q) for p, q in zip(before, expected)) <= 3, (before, expected)
    xplain.start_xev(geometry=f"{right - left + 200}x{bottom - top + 200}+{left - 100}+{top - 100}")
    opaque = tuple(round(0.96 * 25.5 + 0.04 * c) for c in BACKGROUND)
    assert wait_until(lambda: max(abs(p - q) for p, q in zip(xplain.screenshot().pixel(*inside), opaque)) <= 3, 3), \
        f"the bezel still blends over what the window covers now: {xplain.screenshot().pixel(*inside)}, opaque {opaque}"
    shot = xplain.screenshot()
    assert shot.pixel(left - 50, top - 50) != BACKGROUND, "the window beneath is not shown around the bezel"


def test_plain_requests_and_shared_memory_draw_the_same(xplain):
    """The same HUD through MIT-SHM (a local display) and through plain requests (as a remote one
    gets them) is pixel for pixel the same, updates included."""
    shots = []
    for env in (xplain.env, dict(xplain.env, XHUD_NO_SHM="1")):
        p = fed(xplain, *BAR, "--progress", "0.2", env=env)
        rect = hud_rect(xplain)
        p.stdin.write(b"55\nlabel=Half way\n")
        p.stdin.flush()
        xplain.wait_screen(lambda s: (f := bar_fill(s, rect))[1] > 60 and f[0] > 0.45 * f[1])   # 55 % taken
        shots.append(settle(xplain, rect)[1])
        stop(p)
        assert wait_until(lambda: not xplain.visible_hud_windows(), 3)
    assert max_diff(shots[0], shots[1]) == 0


def test_a_tcp_display_works_fully(tmp_path):
    """DISPLAY=127.0.0.1:N (what ssh -X gives): no shared memory, every frame by plain requests.
    The HUD shows, updates from stdin and spins."""
    number = 150 + os.getpid() % 50
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "800x600x24", "-listen", "tcp", "-ac", "-noreset"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        local = dict(os.environ, DISPLAY=f":{number}")
        assert wait_until(lambda: subprocess.run(["xdpyinfo"], env=local, capture_output=True).returncode == 0, 10)
        remote = dict(os.environ, DISPLAY=f"127.0.0.1:{number}", XDG_RUNTIME_DIR=str(tmp_path))
        os.chmod(tmp_path, 0o700)

        def grab():
            raw = subprocess.run(["import", "-silent", "-window", "root", "-depth", "8", "ppm:-"], env=local,
                                 capture_output=True, timeout=20).stdout
            from conftest import parse_ppm
            return parse_ppm(raw)

        empty = grab()
        centre = [(x, y) for y in range(240, 360, 2) for x in range(300, 500, 2)]

        def differ(a, b, points):
            return any(a.pixel(*c) != b.pixel(*c) for c in points)

        p = subprocess.Popen([str(XHUD_BIN), *BAR, "--progress", "0.1"], env=remote, stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        before = wait_until(lambda: (g := grab()) and differ(g, empty, centre) and g, 10)
        assert before, "no HUD on the TCP display"
        p.stdin.write(b"90\n")
        p.stdin.flush()
        wait_until(lambda: differ(before, grab(), centre), 5)
        after = grab()
        assert any(before.pixel(*c) != after.pixel(*c) for c in centre), "the update did not reach the screen"
        p.stdin.close()
        assert p.wait(timeout=5) == 0, p.stderr.read()
        s = subprocess.Popen([str(XHUD_BIN), "--label", "Spinning", "--mask", "none"], env=remote,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

        def left_edge():
            """The bezel's left edge on the middle row and a pixel just inside it (away from the
            spinner): the same in two reads once the HUD has faded in."""
            g = grab()
            edge = next((x for x in range(400) if g.pixel(x, 300) != empty.pixel(x, 300)), None)
            return edge is not None and (edge, g.pixel(edge + 6, 300))

        assert wait_steady(left_edge, 10, 0.3), "no spinning HUD at rest on the TCP display"
        a = grab()
        time.sleep(0.25)   # time passing is what is tested: it turns meanwhile
        b = grab()
        box = [(x, y) for y in range(250, 320) for x in range(360, 440)]
        assert any(a.pixel(*c) != b.pixel(*c) for c in box), "the spinner does not turn over TCP"
        s.terminate()
        assert s.wait(timeout=5) == 0
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=5)


# ---------------------------------------------------------------------------------------------
# What the screen shows is what the renderer draws


RENDER_CASES = [
    ["--mode", "annular", "--progress", "0.5", "--label", "Loading"],
    ["--mode", "bar", "--progress", "0.7", "--label", "Volume", "--show-value"],
    ["--mode", "success", "--label", "Saved", "--details", "report.pdf\nin Documents"],
    ["--mode", "text", "--label", "A label long enough to be ellipsized at the readable width of the HUD"],
    ["--mode", "determinate", "--progress", "0.3", "--label", "Light", "--style", "light", "--scale", "2"],
]


@pytest.mark.parametrize("case", RENDER_CASES, ids=lambda c: c[1] + ("-x2" if "--scale" in c else ""))
def test_the_screen_shows_what_the_renderer_draws(xplain, tmp_path, case):
    """Without a compositor, the HUD on screen (composed on the X server from the uploaded
    content) matches the renderer's own picture of it, flattened over the same background, in
    all but a sliver of its pixels: what only happens on screen (composition, shape, upload,
    snapping) can fail this test."""
    from conftest import BACKGROUND, XHUD_BIN
    # A flat bezel: the renderer alone blurs nothing (the X server blurs what is beneath).
    geometry = ["--geometry", "400x300+100+100", "--mask", "none", "--animation", "none", "--blur", "0"]
    png = tmp_path / "render.png"
    r = subprocess.run([str(XHUD_BIN), "--render-png", str(png), *geometry, *case], env=xplain.env,
                       capture_output=True, text=True, timeout=20)
    assert r.returncode == 0, r.stderr
    bg = "#%02x%02x%02x" % BACKGROUND
    flat = subprocess.run(["convert", str(png), "-background", bg, "-flatten", "-depth", "8", "ppm:-"],
                          capture_output=True, timeout=20).stdout
    from conftest import parse_ppm
    want = parse_ppm(flat)
    hud = xplain.start_xhud(*geometry, *case)
    shot = xplain.wait_still((100, 100, 400, 300), unlike=BACKGROUND)
    differ = 0
    worst = 0
    for y in range(want.height):
        for x in range(want.width):
            a, b = want.pixel(x, y), shot.pixel(100 + x, 100 + y)
            d = max(abs(p - q) for p, q in zip(a, b))
            worst = max(worst, d)
            if d > 12:
                differ += 1
    assert differ <= want.width * want.height * 0.002, (
        f"{differ} of {want.width * want.height} pixels differ from the renderer's picture (worst {worst})")
    hud.signal(15)
