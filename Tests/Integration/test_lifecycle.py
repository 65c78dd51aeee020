"""How xhud ends: --hide-after, SIGINT/SIGTERM, and the end of its parent window."""

import signal
import time

import pytest

from conftest import wait_until


def no_visible_hud(x):
    return not [w for w in x.hud_windows() if w.viewable]


@pytest.mark.parametrize("animation", ["fade", "none", "zoom"])
def test_hide_after_exits_by_itself(x, animation):
    t0 = time.monotonic()
    hud = x.start_xhud("--hide-after", "0.5", "--label", "Bye", "--animation", animation)
    rc = hud.wait(3)
    assert rc == 0, f"--hide-after 0.5: {hud.describe()}"
    assert time.monotonic() - t0 < 3.5
    assert no_visible_hud(x), "a HUD window is still on screen after xhud exited"


def test_hide_after_stays_until_then(x):
    hud = x.start_xhud("--hide-after", "1.5", "--mode", "text", "--label", "Wait", "--wait")
    time.sleep(0.7)
    assert hud.proc.poll() is None, "xhud ended long before --hide-after 1.5: " + hud.describe()
    assert x.visible_hud_windows(), "the HUD disappeared before --hide-after passed"
    assert hud.wait(3) == 0, hud.describe()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_hides_and_exits_0(x, sig):
    hud = x.start_xhud("--label", "Until signal")
    hud.signal(sig)
    rc = hud.wait(3)
    assert rc == 0, f"after {sig.name}: {hud.describe()}"
    assert no_visible_hud(x), f"a HUD window is still on screen after {sig.name}"


def test_exits_when_parent_destroyed(x):
    xev = x.start_xev("400x300+100+100")
    hud = x.start_xhud("--window", hex(xev.outer), "--label", "Parent", "--animation", "none")
    xev.proc.terminate()  # xev exits: its window is destroyed
    xev.proc.wait(3)
    rc = hud.wait(2)
    assert rc == 0, f"parent window destroyed, expected exit 0 within 2 s: {hud.describe()}"
    assert no_visible_hud(x)


def test_exits_when_parent_unmapped(x):
    xev = x.start_xev("400x300+100+100")
    hud = x.start_xhud("--window", hex(xev.outer), "--label", "Parent", "--animation", "none")
    x.run("xdotool", "windowunmap", str(xev.outer))
    rc = hud.wait(2)
    assert rc == 0, f"parent window unmapped, expected exit 0 within 2 s: {hud.describe()}"
    assert no_visible_hud(x)


def test_window_root_and_pointer(x):
    """--window root: the whole screen is the parent; --window pointer: the window under it."""
    hud = x.start_xhud("--window", "root", "--mode", "text", "--label", "Root", "--no-shadow", "--animation", "none")
    box, _ = x.hud_bbox()
    assert box is not None, hud.describe()
    cx, cy = (box[0] + box[2] + 1) / 2, (box[1] + box[3] + 1) / 2
    assert abs(cx - 640) <= 3 and abs(cy - 400) <= 3, f"--window root: bezel {box}"
    hud.signal(signal.SIGTERM)
    assert hud.wait(3) == 0, hud.describe()
    assert wait_until(lambda: no_visible_hud(x), 2)

    xev = x.start_xev("400x300+100+100")
    x.run("xdotool", "mousemove", "450", "350")
    hud = x.start_xhud("--window", "pointer", "--mode", "text", "--label", "Ptr", "--no-shadow", "--animation", "none")
    parent = x.window_info(xev.outer)
    assert wait_until(lambda: all(abs(w.centre[0] - parent.centre[0]) <= 3 and abs(w.centre[1] - parent.centre[1]) <= 3
                                  for w in x.visible_hud_windows()), 2), (
        f"--window pointer: HUD windows {[w.rect for w in x.visible_hud_windows()]} not centred on {parent.rect}")


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@pytest.mark.parametrize("args", [["--mode", "indeterminate"], ["--mode", "indeterminate", "--spinner", "spokes"],
                                  ["--mode", "annular", "--progress", "0.6"]], ids=["ring", "spokes", "annular"])
def test_memory_steady_while_shown(x, args):
    """A HUD that animates for seconds does not grow: no per-frame leak (surfaces, images, layouts)."""
    hud = x.start_xhud(*args, "--label", "Steady", "--details", "Memory")
    time.sleep(1.0)   # the first frames' one-time allocations are not what is measured
    first = rss_kb(hud.proc.pid)
    time.sleep(2.5)   # time passing is what is tested
    last = rss_kb(hud.proc.pid)
    assert hud.proc.poll() is None, hud.describe()
    assert last - first < 20 * 1024, f"RSS grew from {first} kB to {last} kB in 2.5 s while shown"
