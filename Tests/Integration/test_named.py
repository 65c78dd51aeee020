"""Named HUDs (keybindings): `xhud --id NAME` updates one HUD in place through a per-display
server on a private Unix socket; list/hide/push/pop; stacking; labels and bars of named HUDs;
a killed server's HUDs shown again. The server's defences: test_named_defences.py."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time

import pytest

from conftest import XHUD_BIN, alive, wait_steady, wait_until
from hud_pixels import bar_fill, bright, bright_bands, intersect, visible
from named_client import LINGER, hidden, named, nx, ok, one_window, servers, sock_path  # noqa: F401 (nx is a fixture)
from named_wire import request, talk


# ---------------------------------------------------------------------------------------------
# 1. Many updates, one HUD


def test_fifty_updates_one_window_full_bar(nx):
    x = nx
    times = []
    for i in range(1, 51):
        p = i / 50
        _, took = ok(x, "--id", "vol", "--mode", "bar", "--progress", f"{p:.2f}", "--label", "Volume",
                     "--no-shadow", "--hide-after", "5", *LINGER)
        times.append(took)
    assert times[0] < 2.0, f"the first invocation (starting the server) took {times[0]:.2f} s"
    slow = sorted(times[1:])[-3:]
    assert max(times[1:]) < 0.5, f"updates should return at once; slowest {slow}"
    win = one_window(x)
    assert len(servers(x)) == 1, f"servers: {servers(x)}"
    shot = x.wait_screen(lambda s: (f := bar_fill(s, win.rect))[1] > 60 and f[0] > 0.9 * f[1])
    fill, track, _ = bar_fill(shot, win.rect)
    assert track > 60, f"no bar found in {win.rect}"
    assert fill > 0.9 * track, f"after --progress 1.00 the bar shows {fill} of {track} px"

    ok(x, "--id", "vol", "--progress", "0.5", *LINGER)   # only the options given change
    shot = x.wait_screen(lambda s: 0.35 * track < bar_fill(s, win.rect)[0] < 0.65 * track)
    win2 = one_window(x)
    assert win2.id == win.id, "an update replaced the window instead of updating it"
    half, track2, _ = bar_fill(shot, win2.rect)
    assert abs(track2 - track) <= 2 and 0.35 * track < half < 0.65 * track, (
        f"--progress 0.5: {half} of {track2} px (1.0: {fill})")
    ok(x, "hide", "--id", "vol", *LINGER)
    assert hidden(x, 1.0)
    assert wait_until(lambda: not servers(x), 3), "the server did not exit after its linger time"


# ---------------------------------------------------------------------------------------------
# 2. Racing first invocations


def test_racing_first_invocations_one_server(nx):
    x = nx
    procs = [subprocess.Popen([str(XHUD_BIN), "--id", "race", "--label", f"Racer {i}", "--hide-after", "5",
                               *LINGER], env=x.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, start_new_session=True)
             for i in range(8)]
    results = []
    for p in procs:
        try:
            out, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            pytest.fail("a racing invocation did not return within 10 s")
        results.append((p.returncode, err.decode(errors="replace").strip()))
    assert all(rc == 0 for rc, _ in results), f"racing invocations: {results}"
    wait_until(lambda: len(servers(x)) == 1, 3)
    assert len(servers(x)) == 1, f"want one server for the display, got pids {servers(x)}"
    one_window(x)
    res, _ = ok(x, "list")
    assert res.stdout == "race\n", f"list: {res.stdout!r}"


# ---------------------------------------------------------------------------------------------
# 3. A killed server's socket


def test_stale_socket_replaced(nx):
    x = nx
    ok(x, "--id", "vol", "--label", "Before", "--hide-after", "5", *LINGER)
    one_window(x)
    pids = servers(x)
    assert len(pids) == 1, pids
    path = sock_path(x)
    assert path.is_socket(), f"no socket at {path}: {list((x.rt / 'xhud').iterdir())}"
    os.kill(pids[0], signal.SIGKILL)
    assert wait_until(lambda: not alive(pids[0]), 2)
    assert hidden(x, 2), "the killed server's window is still there"
    assert path.is_socket(), "premise: a SIGKILLed server leaves its socket behind"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with pytest.raises(ConnectionRefusedError):
        s.connect(str(path))
    s.close()

    t0 = time.monotonic()
    ok(x, "--id", "vol", "--label", "After", "--hide-after", "5", *LINGER)
    assert time.monotonic() - t0 < 2.0
    one_window(x)
    assert path.is_socket(), "no socket after the new server started"
    assert len(servers(x)) == 1
    reply = talk(path, request(["list"]))   # the socket answers again (the stale one refused)
    assert reply == (0, "vol\n", ""), reply


# ---------------------------------------------------------------------------------------------
# 4. list, hide, push, pop


def test_list_hide_push_pop(nx):
    x = nx
    res, _ = ok(x, "list")
    assert res.stdout == "", f"list with no server: {res.stdout!r}"
    ok(x, "--id", "vol", "--label", "Volume", "--hide-after", "10", *LINGER)
    one_window(x)
    res, _ = ok(x, "list")
    assert res.stdout == "vol\n", f"list: {res.stdout!r}"
    t0 = time.monotonic()
    ok(x, "hide", "--id", "vol", *LINGER)
    assert hidden(x, 0.7), "`xhud hide --id vol` did not unmap the window within 0.7 s"
    assert time.monotonic() - t0 < 0.8
    res, _ = ok(x, "list")
    assert res.stdout == "", f"list after hide: {res.stdout!r}"

    ok(x, "push", "--id", "job", "--label", "Working", *LINGER)
    ok(x, "push", "--id", "job", "--label", "Working", *LINGER)
    win = one_window(x)
    ok(x, "pop", "--id", "job", *LINGER)
    time.sleep(2.0)   # beyond the default hide-after (1.5 s)
    assert [w.id for w in visible(x)] == [win.id], "one pop of two pushes hid the HUD"
    res, _ = ok(x, "list")
    assert res.stdout == "job\n", f"list: {res.stdout!r}"
    t0 = time.monotonic()
    ok(x, "pop", "--id", "job", *LINGER)
    assert hidden(x, 0.7), "the second pop did not hide the HUD"
    assert wait_until(lambda: not servers(x), 3), "the server stayed after --linger 0.5"
    assert wait_until(lambda: not sock_path(x).exists(), 1), "the exiting server left its socket"
    res, _ = ok(x, "pop", "--id", "job")   # nothing showing, no server: still fine
    assert not servers(x), "a pop with nothing showing started a server"


# ---------------------------------------------------------------------------------------------
# 5. Stacking


def shape_rect(x, win):
    """The drawn part of a window (its bounding shape's extents), in screen coordinates."""
    out = x.run("xwininfo", "-id", str(win.id), "-shape").stdout
    import re
    m = re.search(r"Window shape extents:\s+(\d+)x(\d+)([+-]\d+)([+-]\d+)", out)
    assert m, f"no shape extents: {out}"
    w, h, dx, dy = (int(v) for v in m.groups())
    return (win.x + dx, win.y + dy, w, h)


def two_stacked(x):
    ok(x, "--id", "first", "--label", "First", "--no-shadow", "--hide-after", "10", *LINGER)
    first = one_window(x)
    ok(x, "--id", "second", "--mode", "bar", "--progress", "0.5", "--label", "Second", "--no-shadow",
       "--hide-after", "10", *LINGER)
    assert wait_until(lambda: len(visible(x)) == 2, 2), f"want two windows, got {[w.rect for w in visible(x)]}"
    # The stack has settled: two reads a slide's length (0.25 s) apart agree.
    assert wait_steady(lambda: sorted(w.rect for w in visible(x)), 5, 0.3), "the stack never came to rest"
    wins = {w.id: w for w in visible(x)}
    assert len(wins) == 2 and first.id in wins
    a = wins.pop(first.id)
    b = wins.popitem()[1]
    return a, b


def test_two_names_stack_without_overlap(nx):
    x = nx
    a, b = two_stacked(x)
    ra, rb = shape_rect(x, a), shape_rect(x, b)
    assert not intersect(ra, rb), f"the bezels overlap: first {ra}, second {rb}"
    assert ra[1] + ra[3] <= rb[1], f"the first is not above the second: {ra}, {rb}"
    # On screen: two separate dark bezels, the gap between them shows the background.
    shot = x.screenshot()
    gap_y = (ra[1] + ra[3] + rb[1]) // 2
    cx = ra[0] + ra[2] // 2
    assert shot.pixel(cx, gap_y) == (0x33, 0x66, 0xCC), f"no gap between the bezels at y={gap_y}"
    for r in (ra, rb):
        px = shot.pixel(r[0] + 4, r[1] + r[3] // 2)
        # The dark bezel over the blue background (its frost keeps the blue's colour): far darker.
        assert sum(px) < 0.6 * sum((0x33, 0x66, 0xCC)), f"bezel {r} not drawn (pixel {px})"
    res, _ = ok(x, "list")
    assert res.stdout == "first\nsecond\n", res.stdout


def test_two_names_windows_do_not_intersect(nx):
    x = nx
    a, b = two_stacked(x)
    assert not intersect(a.rect, b.rect), f"windows intersect: first {a.rect}, second {b.rect}"


# ---------------------------------------------------------------------------------------------
# 6. --alternate


def test_alternate_bar_colour(nx):
    x = nx
    ok(x, "--id", "vol", "--mode", "bar", "--progress", "0.6", "--label", "Volume", "--no-shadow",
       "--animation", "none", "--hide-after", "10", *LINGER)
    win = one_window(x)
    shot = x.wait_screen(lambda s: bar_fill(s, win.rect)[1] > 60)
    fill, track, y = bar_fill(shot, win.rect)
    assert track > 60 and y is not None, f"no bar in {win.rect}"
    left = next(xx for xx in range(win.x, win.x + win.width) if bright(shot.pixel(xx, y)))
    sample = (left + track // 4, y)      # inside the fill (60%)
    normal = shot.pixel(*sample)
    assert bright(normal), f"premise: the fill is light, got {normal}"

    ok(x, "--id", "vol", "--alternate", *LINGER)

    def alternate(px):
        return max(abs(p - q) for p, q in zip(px, normal)) > 60 and px[0] > px[2] + 40

    alt = x.wait_screen(lambda s: alternate(s.pixel(*sample))).pixel(*sample)
    assert one_window(x).id == win.id
    assert max(abs(p - q) for p, q in zip(alt, normal)) > 60, f"--alternate fill {alt} vs normal {normal}"
    assert alt[0] > alt[2] + 40, f"the default alternate colour is a muted red, got {alt}"

    ok(x, "--id", "vol", "--no-alternate", *LINGER)
    back = x.wait_screen(lambda s: max(abs(p - q) for p, q in zip(s.pixel(*sample), normal)) <= 10).pixel(*sample)
    assert max(abs(p - q) for p, q in zip(back, normal)) <= 10, f"--no-alternate: {back} vs {normal}"


# ---------------------------------------------------------------------------------------------
# 7. No markup unless asked


def label_width(x, win) -> int:
    def columns(shot):
        return [xx for xx in range(win.x, win.x + win.width)
                if any(bright(shot.pixel(xx, y)) for y in range(win.y, win.y + win.height))]
    cols = columns(x.wait_screen(columns))   # drawn: a frame shows whole
    assert cols, f"no label drawn in {win.rect}"
    return cols[-1] - cols[0] + 1


def test_label_is_literal_without_markup(nx):
    x = nx
    ok(x, "--id", "lit", "--mode", "text", "--label", "<b>x</b>", "--no-shadow", "--animation", "none",
       "--hide-after", "10", *LINGER)
    win = one_window(x)
    literal = label_width(x, win)
    ok(x, "hide", "--id", "lit", *LINGER)
    assert hidden(x, 1.0)

    ok(x, "--id", "mark", "--mode", "text", "--label", "<b>x</b>", "--markup", "--no-shadow", "--animation",
       "none", "--hide-after", "10", *LINGER)
    win2 = one_window(x)
    marked = label_width(x, win2)
    assert literal > 3 * marked, (f"'<b>x</b>' without --markup is {literal} px wide, with --markup {marked} px: "
                                  "the tags were not shown as text")
    assert win.width > win2.width


def test_a_named_hud_keeps_its_configuration_after_it_hides(nx):
    """While the server lingers, `xhud --id vol --progress 0.9` after a hide brings back the
    volume bar with its label, not a bare spinner."""
    ok(nx, "--id", "vol", "--mode", "bar", "--progress", "0.3", "--label", "Volume", "--hide-after", "0.2",
       "--animation", "none", "--linger", "30")
    assert hidden(nx, 3), "the HUD did not hide"
    ok(nx, "--id", "vol", "--progress", "0.9", "--hide-after", "30")
    win = one_window(nx)
    shot = nx.screenshot()
    fill, track, _ = bar_fill(shot, win.rect)
    assert track > 50 and fill > 0.8 * track, f"no 90 % bar: fill {fill} of {track}"
    bands = bright_bands(shot, win.rect)
    assert len(bands) >= 2, f"no label under the bar: {bands}"


def test_notifications_are_not_named_huds(nx):
    """A notification shown by the server has no name of its own: `xhud list` lists named HUDs
    only, and no --id can reach a notification."""
    ok(nx, "--id", "vol", "--mode", "bar", "--progress", "0.5", "--hide-after", "30", *LINGER)
    ok(nx, "success", "Saved", "--hide-after", "30", *LINGER)
    assert wait_until(lambda: len(visible(nx)) == 2, 3), "the notification did not show beside the named HUD"
    assert named(nx, "list").stdout.split() == ["vol"]


def test_huds_past_what_the_monitor_holds_are_refused_not_put_off_screen(nx):
    """Named HUDs until the monitor is full: every one shown is wholly on screen and none over
    another; those past it are refused (exit 3, saying why), and hiding one makes room."""
    statuses = []
    for i in range(90):
        res = named(nx, "--id", f"n{i}", "--label", f"HUD number {i}", "--details", "two\nlines", "--hide-after", "60",
                    "--animation", "none", *LINGER)
        statuses.append(res.returncode)
        if res.returncode == 3:
            assert "no room" in res.stderr, res.stderr
    assert 3 in statuses, "90 HUDs fit?"
    assert set(statuses) <= {0, 3}, statuses
    shown = statuses.count(0)
    assert wait_until(lambda: len(nx.visible_hud_windows()) == shown, 5)
    wins = nx.visible_hud_windows()
    sw, sh = nx.screenshot(keep=False).width, nx.screenshot(keep=False).height
    for w in wins:
        assert w.x >= 0 and w.y >= 0 and w.x + w.width <= sw and w.y + w.height <= sh, f"off screen: {w}"
    for i, a in enumerate(wins):
        for b in wins[i + 1:]:
            assert not intersect(a.rect, b.rect), (a, b)
    first_ok = statuses.index(0)
    assert named(nx, "hide", "--id", f"n{first_ok}").returncode == 0
    assert wait_until(lambda: len(nx.visible_hud_windows()) == shown - 1, 5)
    assert named(nx, "--id", "again", "--label", "Room again", "--details", "two\nlines", "--hide-after", "60",
                 "--animation", "none", *LINGER).returncode == 0


def test_named_huds_and_notifications_come_back_after_the_server_is_killed(nx):
    """A server killed under a volume OSD and a notification: the next server (started by the
    next key press) shows both again, with what the volume's updates said, for the time they
    had left; a server that ends as it should leaves nothing to come back."""
    ok(nx, "--id", "vol", "--mode", "bar", "--progress", "0.3", "--label", "Volume", "--hide-after", "30", *LINGER)
    ok(nx, "--id", "vol", "--progress", "0.7", "--hide-after", "30", *LINGER)
    res = subprocess.run([str(XHUD_BIN), "info", "Backup finished", "--hide-after", "30", *LINGER], env=nx.env,
                         capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    assert wait_until(lambda: len(nx.visible_hud_windows()) == 2, 5)
    pids = servers(nx)
    assert len(pids) == 1
    os.kill(pids[0], signal.SIGKILL)
    assert wait_until(lambda: not nx.visible_hud_windows(), 3)
    ok(nx, "--id", "brightness", "--mode", "bar", "--progress", "0.5", "--hide-after", "30", *LINGER)
    assert wait_until(lambda: len(nx.visible_hud_windows()) == 3, 5), "the volume OSD and the notification came back"
    assert set(named(nx, "list").stdout.split()) >= {"vol", "brightness"}
    # Ended as it should (SIGTERM): nothing comes back.
    for pid in servers(nx):
        os.kill(pid, signal.SIGTERM)
    assert wait_until(lambda: not servers(nx), 5)
    ok(nx, "--id", "other", "--label", "Alone", "--hide-after", "30", *LINGER)
    assert wait_until(lambda: nx.visible_hud_windows(), 5), "no HUD for the new invocation"
    time.sleep(0.3)   # what would come back shows meanwhile: time passing is what is tested
    assert len(nx.visible_hud_windows()) == 1
