"""Many clients' HUDs on one screen: one layout for them all (stacked, pinned to an edge, over a
region; never overlapping) and, without a compositor, each blended over a copy of the screen
that the other HUDs and a wallpaper freed, changed or missing must not spoil."""

from __future__ import annotations

import signal
import time

from conftest import XHUD_BIN, region_bytes, wait_steady, wait_until
from hud_pixels import intersect
from named_client import nx, servers as server_pids  # noqa: F401 (nx is a fixture)
from thin_client import hud_rects, start


def test_huds_of_many_clients_stack_without_overlap(nx):
    clients = [start(nx, "--mode", "bar", "--progress", f"0.{i}", "--label", f"Client {i}") for i in range(1, 7)]
    rects = wait_until(lambda: (r := hud_rects(nx)) and len(r) == 6 and r, 10)
    assert rects, f"{len(hud_rects(nx))} of 6 HUDs visible"
    # The stack settles (each new HUD moves the group): two reads a slide's length apart agree.
    wait_steady(lambda: sorted(hud_rects(nx)), 10, 0.3)
    rects = hud_rects(nx)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not intersect(a, b), f"HUDs overlap: {a} {b}"
    assert len(server_pids(nx)) == 1
    for c in clients:
        c.send_signal(signal.SIGTERM)
        assert c.wait(5) == 0


def test_huds_of_every_region_and_place_share_one_layout(nx):
    """HUDs pinned to an edge stack from it, and a HUD over a region never covers one over the
    screen with the same centre: one layout for the whole display."""
    named = [("p1", "--offset", "0,10000"), ("p2", "--offset", "0,10000"), ("p3", "--offset", "0,10000"),
             ("screen",), ("region", "--geometry", "600x400+340+200")]
    for name, *place in named:
        r = nx.run(str(XHUD_BIN), "--id", name, "--mode", "text", "--label", f"HUD {name}", *place, check=False)
        assert r.returncode == 0, r.stderr
    assert wait_until(lambda: len(hud_rects(nx)) == 5, 10), hud_rects(nx)
    # Settled: two reads a slide's length apart agree.
    assert wait_steady(lambda: sorted(hud_rects(nx)), 10, 0.3)
    rects = hud_rects(nx)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not intersect(a, b), f"HUDs overlap: {a} {b}"
    bottoms = sorted((y + h for (x, y, w, h) in rects if y > 500), reverse=True)
    assert len(bottoms) == 3 and bottoms[0] > 760, f"the pinned HUDs are not stacked from the bottom edge: {rects}"
    region = [r for r in rects if 340 <= r[0] and r[0] + r[2] <= 940 and 200 <= r[1] and r[1] + r[3] <= 600]
    assert region, f"the region's HUD left its region: {rects}"
    for name, *_ in named:
        nx.run(str(XHUD_BIN), "hide", "--id", name, check=False)
    assert wait_until(lambda: not hud_rects(nx), 5)


def test_a_stack_over_a_desktop_without_a_wallpaper_shows_no_hud_in_another(nx):
    """Without a compositor and without a wallpaper pixmap, each HUD blends over a copy of the
    screen. HUDs arriving next to others, and moving to make room, must not catch each other in
    that copy: four identical HUDs end up with identical pixels, and the others make room for
    the fourth without being unmapped (no flicker, no wait for the screen to repaint)."""
    for prop in ("_XROOTPMAP_ID", "_XSETROOT_ID"):
        nx.run("xprop", "-root", "-remove", prop)
    clients = []

    def at_rest():
        """The HUDs' windows and pixels the same in two reads in a row."""
        def look():
            rects = sorted(hud_rects(nx))
            shot = nx.screenshot(keep=False)
            return rects, [region_bytes(shot, r) for r in rects]
        assert wait_steady(look, 5, 0.05), "the HUDs never came to rest"

    for i in range(3):
        clients.append(start(nx, "--mode", "text", "--label", "Same", "--no-shadow", "--animation", "none", "--mask", "none"))
        assert wait_until(lambda: len(hud_rects(nx)) == i + 1, 5), f"HUD {i + 1} did not show"
        at_rest()
    watch = nx.watch_root()
    clients.append(start(nx, "--mode", "text", "--label", "Same", "--no-shadow", "--animation", "none", "--mask", "none"))
    assert wait_until(lambda: len(hud_rects(nx)) == 4, 5)
    at_rest()
    nx.sync_watcher(watch)   # it has printed all that happened
    events = watch.stop()
    assert "MapNotify" in events, "xev saw nothing"
    assert "UnmapNotify" not in events, "HUDs were unmapped to make room for another"
    shot = nx.screenshot()
    rects = sorted(hud_rects(nx), key=lambda r: r[1])
    w, h = rects[0][2], rects[0][3]
    assert all((r[2], r[3]) == (w, h) for r in rects), rects
    pictures = [[shot.pixel(r[0] + dx, r[1] + dy) for dy in range(h) for dx in range(w)] for r in rects]
    for i, p in enumerate(pictures[1:], 1):
        worst = max(max(abs(a - b) for a, b in zip(pa, pb)) for pa, pb in zip(pictures[0], p))
        assert worst <= 2, f"HUD {i + 1} differs from the first by {worst}: one holds another's pixels"
    for c in clients:
        c.send_signal(signal.SIGTERM)
        assert c.wait(5) == 0


def test_a_wallpaper_freed_under_the_server_is_noticed(nx):
    """A HUD blends over a copy of the screen, never over the root's wallpaper pixmap: when the
    pixmap's owner frees it without changing the root's property, the next HUD's bezel looks as
    the first one did, not like a bezel over nothing (black)."""
    from test_pixels import EXPECTED, close
    args = ("--mode", "text", "--label", "Wallpaper", "--animation", "none", "--no-shadow", "--wait", "--blur", "0")

    def bezel_pixel():
        """A pixel of the bezel inside its margin, left of the label, once the screen is still."""
        box, shot = nx.hud_bbox()
        assert box is not None, "nothing drawn"
        left, top, _, bottom = box
        return shot.pixel(left + 6, (top + bottom) // 2)

    first = start(nx, *args)
    before = bezel_pixel()
    assert close(before, EXPECTED), f"the first bezel is {before}, expected {EXPECTED}"
    first.send_signal(signal.SIGTERM)
    assert first.wait(5) == 0
    assert wait_until(lambda: not hud_rects(nx), 3), "SIGTERM left the HUD up"
    prop = nx.run("xprop", "-root", "_XROOTPMAP_ID").stdout
    pixmap = prop.split("#")[-1].strip()
    assert pixmap.startswith("0x"), prop
    nx.run("xkill", "-id", pixmap)   # frees the setter's pixmap; the property still names it
    assert len(server_pids(nx)) == 1, "the server did not linger between the two HUDs"
    second = start(nx, *args)
    assert wait_until(lambda: hud_rects(nx), 5), "no second HUD"
    # The error comes back, and the frame is drawn again over a copy of the screen.
    wait_until(lambda: close(bezel_pixel(), before), 5)
    after = bezel_pixel()
    assert close(after, before), f"the bezel over a freed wallpaper is {after}, the first was {before}"
    second.send_signal(signal.SIGTERM)
    assert second.wait(5) == 0


def test_a_new_wallpaper_never_takes_a_hud_off_the_screen(nx):
    """Without a compositor a HUD blends over a copy of the screen beneath it, which a new
    wallpaper puts out of date: the bezel rises to opaque, as when a window beneath draws. It
    must not unmap its window to take a new copy: every frame read at the HUD's centre while the
    wallpaper changes shows the HUD, never the new wallpaper."""
    import threading
    from test_liveness import Grabber
    nx.run("hsetroot", "-solid", "#2040a0")
    hud = start(nx, "--mode", "text", "--label", "Pinned", "--animation", "none", "--blur", "0")
    assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
    x, y, w, h = hud_rects(nx)[0]
    grabber = Grabber(nx.env["DISPLAY"])
    centre = (x + w // 2, y + h // 2, 1, 1)
    seen, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            seen.append(bytes(grabber.raw(centre)[:3]))
            time.sleep(0.002)   # several looks a refresh
    t = threading.Thread(target=watch)
    try:
        time.sleep(0.3)   # past its first frames
        t.start()
        time.sleep(0.05)
        nx.run("hsetroot", "-solid", "#a02020")
        time.sleep(0.5)
    finally:
        stop.set()
        t.join()
        grabber.close()
    new_wallpaper = bytes([0x20, 0x20, 0xa0])   # BGR
    assert len(seen) > 50
    assert new_wallpaper not in seen, (
        f"{seen.count(new_wallpaper)} of {len(seen)} looks showed the new wallpaper where the HUD is")
    assert len(set(seen)) > 1, "the bezel did not change over the new wallpaper"
    hud.send_signal(signal.SIGTERM)
    assert hud.wait(5) == 0
