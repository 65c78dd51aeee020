"""A spinner that holds still is turned by the X server alone (Present): a frame every refresh on
screen, at a steady pace, while the server sleeps; anything else that changes (details that move
it, a hide) takes it back, leaving nothing stale on screen. Without Present (XHUD_NO_PRESENT=1)
the loop draws the same frames."""

from __future__ import annotations

import glob
import time

import pytest

from conftest import BACKGROUND, loop_witness, wait_steady, wait_until
from named_client import LINGER, named, nx, ok, one_window, private_runtime, servers  # noqa: F401 (nx is a fixture)
from test_liveness import Grabber


@pytest.fixture
def nxc(x):
    """nx without and with a compositor (xcompmgr, which does not blur)."""
    yield from private_runtime(x)


def switches(pid: int) -> int:
    """Context switches of every thread of a process: how often it woke."""
    n = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        with open(status) as f:
            for line in f:
                if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                    n += int(line.split()[1])
    return n


def sample(grabber: Grabber, rect, seconds: float) -> list[tuple[float, bytes]]:
    frames = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        frames.append((time.monotonic(), grabber.digest(rect)))
        time.sleep(0.002)   # the sampling interval: several looks a refresh
    return frames


def wait_left_to_the_x_server(nx) -> None:
    """Until the X server turns the session's spinner: its server sleeps through half a second."""
    [server] = servers(nx)

    def sleeping():
        woke = switches(server)
        time.sleep(0.5)   # the measurement's window
        return switches(server) - woke <= 8
    assert wait_until(sleeping, 5), "the spinner was never left to the X server"


def changes(frames) -> list[float]:
    return [t for (t, d), (_, before) in zip(frames[1:], frames) if d != before]


@pytest.mark.parametrize("style,rate", [("ring", 60), ("spokes", 12)])
@pytest.mark.parametrize("present", [True, False], ids=["present", "loop"])
def test_a_still_spinner_turns_at_its_pace_and_the_server_sleeps(nxc, style, rate, present):
    nx = nxc
    if not present:
        loop_witness(nx)
    ok(nx, "--id", "s", "--mode", "indeterminate", "--spinner", style, "--label", "Loading", "--hide-after", "30",
       "--animation", "none", *LINGER)
    win = one_window(nx)
    [server] = servers(nx)
    grabber = Grabber(nx.env["DISPLAY"])
    rect = (win.x, win.y, win.width, win.height)
    try:
        time.sleep(1.5)   # a turn drawn by the loop, then the X server's (what is measured)
        woke = switches(server)
        frames = sample(grabber, rect, 1.0)
        woke = switches(server) - woke
    finally:
        grabber.close()
    seen = changes(frames)
    span = frames[-1][0] - frames[0][0]
    assert 0.8 * rate * span <= len(seen) <= 1.1 * rate * span + 1, (
        f"{style}: {len(seen)} new frames on screen in {span:.2f} s, expected {rate} a second")
    gaps = [b - a for a, b in zip(seen, seen[1:])]
    assert max(gaps) < 3.5 / rate, f"{style}: the spinner stood still for {max(gaps) * 1000:.0f} ms"
    if present:
        assert woke <= 12, f"the server woke {woke} times in a second while the X server turned its spinner"
    else:
        assert woke >= 40, f"the loop drew the spinner, yet woke only {woke} times in a second"


def changed_box(frames: list[bytes], width: int):
    """The bounding box (x0, y0, x1, y1) of the pixels that differ between any of `frames` (BGRX
    rows of `width` pixels), or None."""
    first = frames[0]
    rows = len(first) // (4 * width)
    box = None
    for f in frames[1:]:
        if f == first:
            continue
        for y in range(rows):
            a, b = first[y * width * 4:(y + 1) * width * 4], f[y * width * 4:(y + 1) * width * 4]
            if a == b:
                continue
            xs = [i // 4 for i in range(0, len(a), 4) if a[i:i + 4] != b[i:i + 4]]
            x0, x1 = min(xs), max(xs)
            box = (x0, y, x1, y) if box is None else (min(box[0], x0), min(box[1], y), max(box[2], x1), max(box[3], y))
    return box


def test_a_change_takes_the_spinner_back_and_leaves_nothing_stale(nx):
    """Details added to a HUD whose spinner the X server turns: the bezel grows and the spinner
    moves up; afterwards only the spinner's new square moves (a frame still queued at the old
    place would show there), and once hidden the screen is the desktop again."""
    ok(nx, "--id", "s", "--mode", "indeterminate", "--label", "Loading", "--hide-after", "30", "--animation", "none",
       *LINGER)
    one_window(nx)
    wait_left_to_the_x_server(nx)
    ok(nx, "--id", "s", "--mode", "indeterminate", "--label", "Loading", "--details", "one\ntwo\nthree\nfour",
       "--hide-after", "30", "--animation", "none", *LINGER)
    grabber = Grabber(nx.env["DISPLAY"])
    try:
        def grown():
            wins = [w for w in nx.visible_hud_windows()]
            return wins[0] if len(wins) == 1 and wins[0].height > 150 else None
        win = wait_until(grown, 5)
        assert win, "the HUD did not grow for its details"
        time.sleep(0.5)   # the growth is over and the spinner has been still long enough to go back
        rect = (win.x - 20, win.y - 20, win.width + 40, win.height + 40)
        frames = [grabber.raw(rect) for _ in range(60) if time.sleep(0.01) is None]   # 0.6 s of frames
        box = changed_box(frames, rect[2])
        assert box, "the spinner stopped turning"
        w, h = box[2] - box[0] + 1, box[3] - box[1] + 1
        assert w <= 60 and h <= 60, f"pixels changed over {w}x{h} px at {box} of {rect}: more than the spinner's square"
        assert box[1] < 20 + win.height / 2, f"what turns is not at the top of the grown bezel: {box}"
        res = named(nx, "hide", "--id", "s", *LINGER)
        assert res.returncode == 0, res.stderr
        assert wait_until(lambda: not nx.visible_hud_windows(), 5), "the HUD did not hide"
        shot = wait_steady(lambda: grabber.raw(rect), 3, 0.2)
        assert shot, "the screen did not come to rest after the hide"
        background = bytes([BACKGROUND[2], BACKGROUND[1], BACKGROUND[0]])
        stale = sum(1 for i in range(0, len(shot), 4) if shot[i:i + 3] != background)
        assert stale == 0, f"{stale} pixels of the hidden HUD are left on screen"
    finally:
        grabber.close()


def test_a_new_colour_reaches_a_spinner_the_x_server_turns(nxc):
    """The spinner's colour changed while the X server turns it (same layout, same place): every
    frame after shows the new colour; a frame queued before the change would show the old."""
    nx = nxc
    args = ["--id", "s", "--mode", "indeterminate", "--label", "Loading", "--hide-after", "30", "--animation", "none",
            "--mask", "none", *LINGER]
    ok(nx, *args, "--content-color", "#ffffff")
    win = one_window(nx)
    wait_left_to_the_x_server(nx)
    ok(nx, *args, "--content-color", "#ff2020")
    grabber = Grabber(nx.env["DISPLAY"])
    rect = (win.x, win.y, win.width, win.height)
    try:
        time.sleep(0.2)   # the new frame is on screen
        for _ in range(30):   # 0.3 s of frames
            shot = grabber.raw(rect)
            white = sum(1 for i in range(0, len(shot), 4) if min(shot[i:i + 3]) > 200)
            assert white == 0, f"{white} pixels of the old white spinner show after it turned red"
            time.sleep(0.01)   # the sampling interval
        red = sum(1 for i in range(0, len(shot), 4) if shot[i + 2] > 200 and shot[i + 1] < 80)
        assert red > 50, "the new colour is not on screen"
    finally:
        grabber.close()
