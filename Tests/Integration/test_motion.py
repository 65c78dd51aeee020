"""Motion as the screen shows it, sampled with XGetImage hundreds of times a second: a bar fed
100 just before its input ends is seen full, at full alpha, before it fades."""

from __future__ import annotations

import ctypes
import subprocess
import time

import pytest

from conftest import XHUD_BIN, _open, wait_steady, wait_until
from hud_pixels import bar_fill, bright


class PixelProbe:
    """Reads single pixels of the root window (ZPixmap, 24-bit TrueColor) with XGetImage."""

    def __init__(self, display: str):
        self.x, self.d = _open(display)
        self.x.XGetImage.restype = ctypes.c_void_p
        self.x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                     ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.root = self.x.XRootWindow(self.d, self.x.XDefaultScreen(self.d))

    def pixel(self, px: int, py: int) -> tuple[int, int, int]:
        img = self.x.XGetImage(self.d, self.root, px, py, 1, 1, 0xFFFFFFFF, 2)  # ZPixmap
        data = ctypes.cast(img + 16, ctypes.POINTER(ctypes.c_void_p)).contents.value   # XImage.data
        b, g, r = ctypes.string_at(data, 3)
        self.x.XFree(ctypes.c_void_p(data))
        self.x.XFree(ctypes.c_void_p(img))
        return r, g, b

    def close(self):
        self.x.XCloseDisplay(self.d)


@pytest.mark.parametrize("easing", [[], ["--smooth"]], ids=["exact", "smooth"])
def test_a_bar_is_seen_full_before_it_fades(xplain, easing):
    """With --smooth the bar eases to 100 % over 0.2 s: the hide waits for it (and two frames)."""
    p = subprocess.Popen([str(XHUD_BIN), "--mode", "bar", "--label", "Copying", "--geometry", "400x300+0+0",
                          "--no-shadow", *easing], env=xplain.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        p.stdin.write(b"progress=0.5\n")
        p.stdin.flush()
        win = wait_until(lambda: xplain.visible_hud_windows(), 5)
        assert win, "no HUD"
        win = win[0]
        shots = []

        def look():                                      # the bar and the bezel's alpha
            shots[:] = [xplain.screenshot(keep=False)]
            return bar_fill(shots[0], win.rect)[:2], shots[0].pixel(win.x + 3, win.y + win.height // 2)

        # Shown, fade-in over: two reads a fade's length (0.3 s) apart agree.
        assert wait_steady(look, 5, 0.3), "the HUD never came to rest"
        shot = shots[0]
        fill, track, y = bar_fill(shot, win.rect)
        assert y is not None and track > 60, "no bar"
        left = next(xx for xx in range(win.x, win.x + win.width) if bright(shot.pixel(xx, y)))
        end = left + track - 7                           # inside the fill only when nearly full
        rest = shot.pixel(win.x + 3, win.y + win.height // 2)   # the bezel at full alpha
        assert not bright(shot.pixel(end, y)), "premise: at 50 % the end of the bar is empty"
        probe = PixelProbe(xplain.display)
        p.stdin.write(b"progress=1\n")
        p.stdin.close()                                  # input ends: the HUD hides
        seen_full_at_rest = False
        samples = 0
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            full = bright(probe.pixel(end, y))
            bezel = probe.pixel(win.x + 3, win.y + win.height // 2)
            samples += 1
            if full and max(abs(a - b) for a, b in zip(bezel, rest)) <= 1:
                seen_full_at_rest = True
                break
        probe.close()
        assert seen_full_at_rest, (f"in {samples} samples the bar never showed 100 % at full alpha: "
                                   "it faded as the last value arrived")
        assert p.wait(5) == 0
    finally:
        if p.poll() is None:
            p.kill()


def column_spans(raw: bytes, background, tolerance: int = 12) -> list[tuple[int, int]]:
    """Runs of rows (top, bottom) of a one-pixel column that are not the background: bezels."""
    spans, start = [], None
    rows = len(raw) // 4
    for y in range(rows + 1):
        differs = y < rows and max(abs(raw[4 * y + 2] - background[0]), abs(raw[4 * y + 1] - background[1]),
                                   abs(raw[4 * y] - background[2])) > tolerance
        if differs and start is None:
            start = y
        elif not differs and start is not None:
            if y - start >= 6:
                spans.append((start, y))
            start = None
    return spans


def test_a_stack_slides_into_the_room_of_a_leaving_hud_as_it_fades(x):
    """The second of two stacked HUDs goes to the centre when the first leaves: in many small
    steps (no jump), ending centred. Over a compositor it starts while the first is still
    fading; without one, once the first is gone: the fading window, above the second sliding
    under it, showed the page through the second's lower half for 150 ms."""
    from test_truth import Frames
    from conftest import BACKGROUND
    first = x.start_xhud("--label", "First", "--mask", "none")
    second = x.start_xhud("--mode", "annular", "--progress", "0.5", "--label", "Second", "--mask", "none")
    from test_liveness import Grabber
    assert wait_until(lambda: len(x.visible_hud_windows()) == 2, 5)
    column = (640, 0, 1, 800)
    grabber = Grabber(x.display)
    try:
        # Both at rest (the first's spinner turns): two reads of where they are a fade's length
        # (0.3 s) apart agree.
        assert wait_steady(lambda: sorted(w.rect for w in x.visible_hud_windows()), 5, 0.3), "the HUDs never came to rest"
        with Frames(x.display, column) as frames:
            assert wait_until(frames.latest, 2), "no frame was read"
            first.signal(15)
            assert first.wait(5) == 0
            assert wait_steady(lambda: grabber.raw(column), 5, 0.3), "the stack never came to rest"
            assert wait_until(lambda: frames.latest() == grabber.raw(column), 3), "the last frame was not read"
    finally:
        grabber.close()
    spans = [column_spans(f, BACKGROUND) for f in frames.frames]
    spans = [s for s in spans if s]
    bottoms = [s[-1][1] for s in spans]   # the second HUD's lower edge: the lowest bezel's
    start, end = bottoms[0], bottoms[-1]
    travel = start - end
    assert travel > 40, f"the second HUD did not move up: {bottoms}"
    second_win = x.visible_hud_windows()[0]
    assert abs((second_win.y + second_win.height / 2) - 400) <= 12, f"not centred at the end: {second_win}"
    steps = [a - b for a, b in zip(bottoms, bottoms[1:]) if a != b]
    assert len(steps) >= 4 and max(steps) <= travel * 0.6, f"a jump: steps {steps} over {travel} px"
    # The slide began while the first was still on screen: two bezels (or one merged, taller
    # than the second alone) in a frame where the second had already moved.
    moving_with_first = [s for s, b in zip(spans, bottoms) if end < b < start and (len(s) > 1 or s[-1][1] - s[0][0] > 130)]
    if x.composited:
        assert moving_with_first, "the stack waited for the first HUD to be gone before it moved"
    else:
        assert not moving_with_first, f"the second slid under the fading first: {moving_with_first[:3]}"
    second.signal(15)
    assert second.wait(5) == 0


def test_a_growing_bezel_eases_to_its_size(x):
    """Details and a button added on stdin: the bezel grows through several heights, never taller
    than where it ends, as shrinking does."""
    from test_truth import Frames
    from conftest import BACKGROUND
    p = subprocess.Popen([str(XHUD_BIN), "--mode", "bar", "--label", "Converting", "--mask", "none"], env=x.env,
                         stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    from test_liveness import Grabber
    assert wait_until(lambda: x.visible_hud_windows(), 5)
    column = (640, 0, 1, 800)
    grabber = Grabber(x.display)
    try:
        # Shown: two reads of the column a fade's length (0.3 s) apart agree.
        assert wait_steady(lambda: grabber.raw(column), 5, 0.3), "the HUD never came to rest"
        with Frames(x.display, column) as frames:
            assert wait_until(frames.latest, 2), "no frame was read"
            p.stdin.write(b"details=track-02.flac\nand a second line of details\nbutton=Cancel\n")
            p.stdin.flush()
            assert wait_until(lambda: grabber.raw(column) != frames.frames[0], 3), "the HUD did not change"
            assert wait_steady(lambda: grabber.raw(column), 5, 0.3), "the HUD never came to rest"
            assert wait_until(lambda: frames.latest() == grabber.raw(column), 3), "the last frame was not read"
    finally:
        grabber.close()
    heights = []
    for f in frames.frames:
        s = column_spans(f, BACKGROUND)
        if s:
            heights.append(s[-1][1] - s[0][0])
    small, large = heights[0], heights[-1]
    assert large > small + 30, heights
    between = sorted({h for h in heights if small + 4 < h < large - 4})
    assert len(between) >= 3, f"grew in a jump: {heights}"
    assert max(heights) <= large + 2, f"taller than where it ends: {heights}"
    # What it held stays at full strength as it grows (the bar's outline is the brightest
    # pixel in the column): everything dimmed to 30 % for 90 ms before.
    def brightest(f):
        return max(f[i] + f[i + 1] + f[i + 2] for i in range(0, len(f) - 3, 4))
    shown = brightest(frames.frames[-1])
    dim = [brightest(f) for f in frames.frames if brightest(f) < shown * 0.85]
    assert not dim, f"the content dimmed while the bezel grew: {dim[:6]} against {shown}"
    p.stdin.close()
    assert p.wait(5) == 0


def test_a_sliding_spinner_blends_over_where_it_is_in_every_frame(xplain, tmp_path):
    """Over horizontal stripes without a compositor (blur off, so each row shows its own), a
    spinner HUD that a second one pushes up is sampled every few ms: in every frame, each row of
    its bezel blends over the stripe beside it. A frame that composed only the spinner's square
    after a move left the rest of the bezel showing the stripes of where it had been."""
    from test_liveness import Grabber
    stripes = tmp_path / "stripes.png"
    subprocess.run(["convert", "-size", "1280x32", "xc:white", "-fill", "#d03030", "-draw", "rectangle 0,0 1280,15",
                    "-write", "mpr:t", "+delete", "-size", "1280x800", "tile:mpr:t", str(stripes)], check=True)
    subprocess.run(["hsetroot", "-full", str(stripes)], env=xplain.env, check=True, capture_output=True)
    common = ["--blur", "0", "--no-shadow", "--mask", "none", "--hide-after", "4"]
    first = subprocess.Popen([str(XHUD_BIN), "--label", "First", *common], env=xplain.env, stderr=subprocess.DEVNULL)
    second = None
    grabber = Grabber(xplain.display)
    try:
        wins = wait_until(lambda: xplain.visible_hud_windows(), 5)
        assert wins, "no HUD"
        win = wins[0]
        assert wait_steady(lambda: [w.rect for w in xplain.visible_hud_windows()], 5, 0.3)
        # A column through the bezel's left margin (inside the rounded corners' reach below the
        # top) and one just outside it, over the whole height the bezel slides through.
        area = (win.x - 2, 0, 10, 800)
        frames = []
        second = subprocess.Popen([str(XHUD_BIN), "--label", "Second", *common], env=xplain.env,
                                  stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            frames.append(grabber.raw(area))
            time.sleep(0.003)
    finally:
        grabber.close()
        for p in (first, second):
            if p and p.poll() is None:
                p.terminate()
                p.wait(5)

    def pixel(raw, x, y):
        i = (y * 10 + x) * 4
        return raw[i + 2], raw[i + 1], raw[i]

    checked = moved = 0
    tops = set()
    for raw in frames:
        outside = [pixel(raw, 0, y) for y in range(800)]
        inside = [pixel(raw, 8, y) for y in range(800)]
        rows = [y for y in range(800) if inside[y] != outside[y]]   # the bezels' rows in this column
        if not rows:
            continue
        # The first HUD's rows only (the top run): the second, wider, comes in right below it
        # and covers both columns, fading in.
        run = [rows[0]]
        for y in rows[1:]:
            if y - run[-1] > 2:
                break
            run.append(y)
        rows = run
        tops.add(rows[0])
        for y in rows:
            if y - rows[0] < 12 or rows[-1] - y < 12:
                continue   # near the bezels' rounded ends
            red_outside = outside[y][0] - outside[y][1] > 80
            red_inside = inside[y][0] - inside[y][1] > 12
            checked += 1
            assert red_inside == red_outside, \
                f"row {y}: the bezel shows {inside[y]} beside {outside[y]} (frame {frames.index(raw)} of {len(frames)})"
    moved = len(tops)
    assert checked > 1000 and moved > 4, f"{checked} rows checked, the bezel at {moved} heights"
