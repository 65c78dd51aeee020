"""What reaches the screen: a translucent bezel over the background, with round corners, with
and without a compositing manager (no black box, no black corners)."""

import time

import pytest

from conftest import BACKGROUND

BEZEL = (0.1 * 255, 0.1 * 255, 0.1 * 255)  # the dark style's bezel colour ...
ALPHA = 0.82                                 # ... and its alpha
EXPECTED = tuple(round(ALPHA * b + (1 - ALPHA) * g) for b, g in zip(BEZEL, BACKGROUND))  # (30, 39, 58)
TOL = 6


def close(a, b, tol=TOL):
    return all(abs(int(p) - int(q)) <= tol for p, q in zip(a, b))


def hud_box(x, hud):
    box, shot = x.hud_bbox()
    assert box is not None, "nothing drawn on the screen: " + hud.describe()
    left, top, right, bottom = box
    w, h = right - left + 1, bottom - top + 1
    assert 40 <= w <= 400 and 40 <= h <= 300, f"implausible bezel {w}x{h} at {box}: a box over the screen?"
    return box, shot


@pytest.mark.parametrize("label", ["X", "A longer label"])
def test_translucent_bezel(x, label):
    hud = x.start_xhud("--no-shadow", "--mode", "text", "--label", label, "--animation", "none", "--blur", "0")
    (left, top, right, bottom), shot = hud_box(x, hud)
    mid_y = (top + bottom) // 2
    # Inside the bezel, within its margin (20 px) where no text is: the blend of the bezel over
    # the background. A black box (ARGB shown without blending, or a snapshot gone wrong) fails.
    for px in [(left + 6, mid_y), (right - 6, mid_y), ((left + right) // 2, top + 5), ((left + right) // 2, bottom - 5)]:
        got = shot.pixel(*px)
        assert close(got, EXPECTED), f"pixel {px} inside the bezel is {got}, expected {EXPECTED} ± {TOL}"
    # Right outside the rounded corners (radius 10): the background, not black.
    for px in [(left, top), (right, top), (left, bottom), (right, bottom),
               (left + 1, top + 1), (right - 1, bottom - 1)]:
        got = shot.pixel(*px)
        assert close(got, BACKGROUND), f"pixel {px} at the bezel's corner is {got}, expected the background {BACKGROUND}"
    # The corners of every HUD window's rectangle show the background too.
    for w in x.visible_hud_windows():
        for px in [(w.x, w.y), (w.x + w.width - 1, w.y), (w.x, w.y + w.height - 1),
                   (w.x + w.width - 1, w.y + w.height - 1)]:
            if 0 <= px[0] < shot.width and 0 <= px[1] < shot.height:
                got = shot.pixel(*px)
                assert close(got, BACKGROUND), (
                    f"corner {px} of window {w.id:#x} {w.rect} is {got}, expected the background {BACKGROUND}")
    # The label is drawn: some pixel in the middle of the bezel is light (white text, alpha 0.9).
    row = [shot.pixel(px, mid_y) for px in range(left + 20, right - 19)]
    assert max(sum(p) for p in row) > 3 * 150, f"no light text pixels on the bezel's middle row: {row[:10]}..."


def test_the_shadow_is_the_compositors_and_follows_the_bezel(x):
    """The window is shaped to the rounded bezel with or without a compositor: nothing of ours is
    drawn below the bezel (no shadow blended over the wallpaper, which would be a box over the
    windows beneath; no box for a compositor to shadow). With a compositor the HUD asks it for a
    shadow (_COMPTON_SHADOW = 1), which follows the shape; --no-shadow asks for none. A mask that
    paints the region keeps a shadow of our own (see test_shadow_with_a_painted_mask)."""
    hud = x.start_xhud("--mode", "text", "--label", "Shadow", "--animation", "none")
    box, shot = x.hud_bbox(tolerance=60)
    assert box is not None, "nothing drawn: " + hud.describe()
    left, top, right, bottom = box
    cx = (left + right) // 2
    below = shot.pixel(cx, bottom + 4)
    assert close(below, BACKGROUND, 2), f"something of ours drawn below the bezel: {below}"
    win = x.visible_hud_windows()[0]
    assert win.height <= bottom - top + 6, f"the window ({win.rect}) is taller than the bezel ({box})"
    assert "= 1" in x.xprop(win.id, "_COMPTON_SHADOW")


def test_shadow_with_a_painted_mask(x):
    """Under a compositor, a mask that paints the region leaves room for our own shadow: just
    below the bezel the dimmed background is a little darker, never black."""
    if not x.composited:
        pytest.skip("compositor case")
    hud = x.start_xhud("--mode", "text", "--label", "Shadow", "--animation", "none", "--mask", "#00000010")
    box, shot = x.hud_bbox(tolerance=60, colour=tuple(round(c * (1 - 16 / 255)) for c in BACKGROUND))
    assert box is not None, "nothing drawn: " + hud.describe()
    left, top, right, bottom = box
    cx = (left + right) // 2
    below, far = shot.pixel(cx, bottom + 4), shot.pixel(cx, bottom + 40)
    assert sum(below) < sum(far), f"no shadow under the bezel: {below} vs {far}"
    assert all(c >= b * 0.5 for c, b in zip(below, far)), f"the shadow is too dark (black?): {below}"


def test_black_mask_dims_region(x):
    """`--mask black` paints rgba(0,0,0,0.4) over the parent region: a pixel far from the bezel is
    the background at 60 %."""
    hud = x.start_xhud("--mask", "black", "--label", "Dim", "--animation", "none", "--no-shadow")
    expected = tuple(round(0.6 * c) for c in BACKGROUND)
    deadline = time.monotonic() + 3
    while True:
        shot = x.screenshot()
        got = shot.pixel(20, 20)
        if close(got, expected) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert close(got, expected), f"pixel (20, 20) with --mask black is {got}, expected {expected}; {hud.describe()}"


@pytest.mark.parametrize("args,bezel", [
    (["--style", "light"], (0.95 * 255, 0.95 * 255, 0.95 * 255, 0.9)),
    (["--bezel-color", "#ff0000"], (255, 0, 0, 1.0)),
    (["--bezel-color", "#00ff0080"], (0, 255, 0, 128 / 255)),
], ids=["light", "opaque-red", "green-alpha"])
def test_bezel_colour(x, args, bezel):
    hud = x.start_xhud("--no-shadow", "--mode", "text", "--label", "C", "--animation", "none", "--blur", "0", *args)
    (left, top, right, bottom), shot = hud_box(x, hud)
    a = bezel[3]
    expected = tuple(round(a * c + (1 - a) * g) for c, g in zip(bezel[:3], BACKGROUND))
    px = (left + 6, (top + bottom) // 2)
    got = shot.pixel(*px)
    assert close(got, expected), f"{' '.join(args)}: pixel {px} is {got}, expected {expected} ± {TOL}"
    assert close(shot.pixel(left, top), BACKGROUND), f"{' '.join(args)}: corner pixel {shot.pixel(left, top)}"
