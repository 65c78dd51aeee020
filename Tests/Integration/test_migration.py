"""The library's MBProgressHUD and SVProgressHUD spellings: Examples/Migration, a program written
as a port from iOS would be, run as built (`example-migration` beside the xhud binary; this test
builds nothing). Its main thread sleeps and never runs the main queue, yet its completion runs."""

import subprocess

import pytest

from conftest import BACKGROUND, SCREEN_H, SCREEN_W, XHUD_BIN, wait_until

EXAMPLE = XHUD_BIN.parent / "example-migration"


def differs(rgb, colour, tolerance=12):
    return any(abs(a - b) > tolerance for a, b in zip(rgb, colour))


def test_migration_example_shows_its_huds_and_prints_true_then_dismissed(xplain):
    x = xplain
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} not built (swift build --product example-migration)")
    out, err = x.tmp / "migration.out", x.tmp / "migration.err"
    proc = x.spawn([str(EXAMPLE)], stdout=open(out, "wb"), stderr=open(err, "wb"))

    def describe():
        return f"stdout={out.read_bytes()!r} stderr={err.read_text(errors='replace')[-2000:]!r}"

    # MBProgressHUD: a square-ish bezel at least 150 x 100, 120 px below the centre of the
    # (primary) monitor, drawn over the background while the rest of the screen is untouched.
    # Measured once it has finished showing (the same box twice): a frame of the fade-in has
    # faint edges that read as a smaller bezel.
    last = [None]

    def mb_hud():
        box = x.screenshot().bbox_not(BACKGROUND, 12)
        box = box if box and box[3] - box[1] < SCREEN_H // 2 else None
        settled = box if box is not None and box == last[0] else None
        last[0] = box
        return settled

    box = wait_until(mb_hud, 1.8, 0.05)
    assert box is not None, "no MBProgressHUD on screen: " + describe()
    left, top, right, bottom = box
    width, height = right - left + 1, bottom - top + 1
    centre_x, centre_y = (left + right) / 2, (top + bottom) / 2
    assert abs(centre_x - SCREEN_W / 2) <= 4, f"bezel {box} is not centred horizontally"
    assert abs(centre_y - (SCREEN_H / 2 + 120)) <= 4, f"bezel {box} is not 120 px below the centre"
    assert width >= 150 and height >= 100, f"bezel {box} is smaller than minSize 150 x 100"
    assert abs(width - height) <= 2, f"bezel {box} is not square (isSquare)"

    # SVProgressHUD with the black mask: the whole monitor dimmed, the HUD in the middle.
    def dimmed():
        shot = x.screenshot()
        corner = shot.pixel(20, 20)
        if not differs(corner, BACKGROUND):
            return None
        return shot if all(c < b for c, b in zip(corner, BACKGROUND)) else None

    shot = wait_until(dimmed, 4.0, 0.1)
    assert shot is not None, "the SVProgressHUD's black mask never dimmed the screen: " + describe()
    inner = shot.bbox_not(shot.pixel(20, 20), 12, (SCREEN_W // 4, SCREEN_H // 4, SCREEN_W // 2, SCREEN_H // 2))
    assert inner is not None, "no SVProgressHUD bezel over the mask"
    assert inner[2] - inner[0] + 1 >= 120 and inner[3] - inner[1] + 1 >= 120, f"bezel {inner} under minimum size 120 x 120"

    try:
        rc = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        pytest.fail("example-migration did not end: " + describe())
    assert rc == 0, describe()
    assert out.read_bytes() == b"true\ndismissed\n", describe()
    # Everything it showed is gone (the X server destroys its windows once it sees it closed).
    shot = x.wait_screen(lambda s: s.bbox_not(BACKGROUND, 12) is None, 3)
    assert shot.bbox_not(BACKGROUND, 12) is None, "a HUD stayed on screen after the program ended"
