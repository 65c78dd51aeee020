"""The notification daemon loses nothing: a burst waits its turn (at most five on screen, a "+N"
HUD for the rest), what cannot wait is closed with reason 4 and kept in the history, timeouts
end exactly, notifications from other programs stack in a corner, and `xhud notifications`
controls the queue as dunstctl controls dunst's."""

from __future__ import annotations

import re
import time

import pytest

from conftest import SCREEN_W, wait_until
from hud_pixels import visible
from named_client import nx, named  # noqa: F401  (nx: a fixture)
from test_notifications import bus  # noqa: F401  (a fixture: a private bus and its daemon)

dbus = pytest.importorskip("dbus", reason="python3-dbus (scripts/deps.sh installs it)")


def proxy(bus):
    """The daemon through dbus-python: a burst of calls without a process each."""
    conn = dbus.bus.BusConnection(bus.address)
    return dbus.Interface(conn.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                          "org.freedesktop.Notifications")


def notify(iface, summary, timeout=-1, urgency=1, actions=()):
    hints = {"urgency": dbus.Byte(urgency)}
    return int(iface.Notify("burst", 0, "", summary, "", dbus.Array(actions, signature="s"), hints, timeout))


def reasons(mon) -> dict[int, int]:
    return {int(i): int(r) for i, r in re.findall(r"NotificationClosed \(uint32 (\d+), uint32 (\d+)\)", mon.text())}


def control(bus, word) -> str:
    res = named(bus.x, "notifications", word)
    assert res.returncode == 0, (word, res.stderr)
    return res.stdout


def counts(bus) -> dict[str, int]:
    return {k: int(v) for k, v in (line.split() for line in control(bus, "count").splitlines())}


def test_a_burst_waits_its_turn_and_every_reason_is_true(bus):
    bus.start_server()
    mon = bus.monitor()
    iface = proxy(bus)
    ids = [notify(iface, f"Burst {i}", timeout=300) for i in range(40)]
    most = 0
    waiting_seen = False
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and len(reasons(mon)) < len(ids):
        most = max(most, len(visible(bus.x)))
        waiting_seen = waiting_seen or counts(bus)["waiting"] > 0
        time.sleep(0.05)
    got = reasons(mon)
    assert sorted(got) == sorted(ids), f"{len(got)} of {len(ids)} closed"
    assert set(got.values()) == {1}, f"every one shown, then expired: {got}"
    assert most <= 6, f"at most five notifications and the '+N' HUD on screen, saw {most}"
    assert waiting_seen
    assert counts(bus)["history"] == 40


def test_the_waiting_count_stays_under_what_comes_out_of_the_queue(bus):
    """Seven notifications, the first brief: when it goes, the sixth comes out of the queue and
    the `+1 more` HUD (the narrowest) is still the lowest of the corner's column."""
    bus.start_server()
    mon = bus.monitor()
    iface = proxy(bus)
    first = notify(iface, "Brief", timeout=600)
    for i in range(6):
        notify(iface, f"Waiting for its turn {i}", timeout=60000)
    assert wait_until(lambda: first in reasons(mon), 5)
    assert wait_until(lambda: counts(bus) == {"displayed": 5, "waiting": 1, "history": 1}, 5), counts(bus)

    def settled():
        wins = [w for w in visible(bus.x) if w.x > SCREEN_W // 2]
        return len(wins) == 6 and wins

    wins = wait_until(settled, 5)
    assert wins, [w.rect for w in visible(bus.x)]
    time.sleep(0.5)   # the column's slide ends: time passing is what is tested
    wins = sorted(settled() or wins, key=lambda w: w.y)
    assert wins[-1].width == min(w.width for w in wins), f"the '+1 more' HUD is not the lowest: {[w.rect for w in wins]}"


def test_what_cannot_wait_goes_to_the_history_with_reason_4(bus):
    bus.start_server()
    mon = bus.monitor()
    iface = proxy(bus)
    ids = [notify(iface, f"Flood {i}", timeout=60000) for i in range(300)]
    assert wait_until(lambda: len(reasons(mon)) >= 195, 20), len(reasons(mon))
    got = reasons(mon)
    assert set(got.values()) == {4}, "dropped unseen: reason 4, never a false 'expired'"
    assert set(got) == set(ids[5:200]), "the oldest waiting give way; the five on screen and the newest 100 stay"
    assert counts(bus) == {"displayed": 5, "waiting": 100, "history": 100}, "the history keeps the newest 100"
    # A critical one jumps the queue and the oldest shown gives way to it.
    crit = notify(iface, "Critical", urgency=2)
    assert wait_until(lambda: reasons(mon).get(ids[0]) == 4, 5), "the oldest shown did not give way"
    assert wait_until(lambda: counts(bus)["displayed"] == 5, 5)
    assert crit not in reasons(mon)
    control(bus, "close-all")
    assert wait_until(lambda: reasons(mon).get(ids[1]) == 2 and reasons(mon).get(crit) == 2, 5), "close-all: dismissed (2)"


def test_an_explicit_timeout_is_when_it_is_gone(bus):
    bus.start_server()
    mon = bus.monitor()
    iface = proxy(bus)
    t0 = time.monotonic()
    nid = notify(iface, "One second", timeout=1000)
    assert wait_until(lambda: nid in reasons(mon), 5, 0.005)
    took = time.monotonic() - t0
    print(f"expire_timeout 1000 ms: NotificationClosed after {took * 1000:.0f} ms")
    assert reasons(mon)[nid] == 1
    assert 0.95 <= took <= 1.25, f"gone at {took:.3f} s, not at 1 s (the fade must end at the timeout)"


def test_other_programs_notifications_stack_in_the_top_right_corner(bus):
    bus.start_server()
    bus.run("notify-send", "First")
    bus.run("notify-send", "Second")
    wins = wait_until(lambda: (w := visible(bus.x)) and len(w) == 2 and w, 5)
    assert wins, "two notifications expected"
    for w in wins:
        assert w.x + w.width >= SCREEN_W - 60 and w.y < 300, f"not in the top-right corner: {w.rect}"
    first, second = sorted(wins, key=lambda w: w.y)
    assert second.y >= first.y + first.height, "stacked, not overlapping"
    # xhud's own notifications keep the centre.
    res = named(bus.x, "success", "Saved", "--hide-after", "2")
    assert res.returncode == 0
    assert wait_until(lambda: any(abs(w.x + w.width / 2 - SCREEN_W / 2) < 5 for w in visible(bus.x)), 5)


def test_pause_history_and_actions(bus):
    bus.start_server()
    mon = bus.monitor()
    iface = proxy(bus)
    assert control(bus, "is-paused").strip() == "false"
    control(bus, "pause")
    quiet = notify(iface, "While paused")
    assert wait_until(lambda: counts(bus)["waiting"] == 1, 3)
    time.sleep(0.3)   # nothing may show meanwhile: time passing is what is tested
    assert visible(bus.x) == [], "a paused daemon showed a normal notification"
    urgent = notify(iface, "Critical while paused", urgency=2)
    assert wait_until(lambda: len(visible(bus.x)) == 1, 3), "critical ones show while paused"
    control(bus, "resume")
    assert wait_until(lambda: len(visible(bus.x)) == 2, 3), "resume shows what waited"
    # The newest's action: its default one, then it is dismissed (2).
    act = notify(iface, "Act", actions=["default", "Open"])
    assert wait_until(lambda: len(visible(bus.x)) == 3, 3)
    control(bus, "action")
    assert wait_until(lambda: f"ActionInvoked (uint32 {act}, 'default')" in mon.text(), 3), mon.text()
    assert wait_until(lambda: reasons(mon).get(act) == 2, 3)
    control(bus, "close")
    control(bus, "close")
    assert wait_until(lambda: quiet in reasons(mon) and urgent in reasons(mon), 3)
    history = control(bus, "history").splitlines()
    # Newest first: the action's ended before the two closed (whose order is their fades').
    summaries = [line.split("\t")[2] for line in history]
    assert summaries[2] == "Act" and set(summaries[:2]) == {"Critical while paused", "While paused"}, history
    assert history[2].split("\t")[:2] == [str(act), "burst"], history
    control(bus, "history-pop")
    assert wait_until(lambda: len(visible(bus.x)) == 1, 3), "history-pop shows the last one again"
    res = named(bus.x, "notifications", "paws")
    assert res.returncode == 2 and "did you mean 'pause'?" in res.stderr, res.stderr


def test_a_flood_never_holds_another_hud(bus):
    """10 000 Notify calls at once: a spinner drawn by the server's loop (the witness) keeps
    turning, since the loop takes a bounded share of the bus's calls a turn."""
    from conftest import longest_still, loop_witness
    loop_witness(bus.x)
    bus.start_server()
    res = named(bus.x, "--id", "witness", "--label", "Witness", "--hide-after", "60", "--animation", "none",
                "--position", "bottom")
    assert res.returncode == 0, res.stderr
    win = wait_until(lambda: next(iter(visible(bus.x)), None), 5)
    import threading

    def flood():
        conn = dbus.bus.BusConnection(bus.address)
        iface = dbus.Interface(conn.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                               "org.freedesktop.Notifications")
        for i in range(10000):
            iface.Notify("flood", dbus.UInt32(0), "", f"Flood {i}", "", dbus.Array([], signature="s"),
                         dbus.Dictionary({}, signature="sv"), dbus.Int32(60000), ignore_reply=True)
        iface.GetServerInformation()   # a call that waits for its answer: every one before it is sent
    sender = threading.Thread(target=flood)
    frames = []
    sender.start()
    t0 = time.monotonic()
    while sender.is_alive() or time.monotonic() - t0 < 1:
        shot = bus.x.screenshot(keep=False)
        frames.append((time.monotonic(), bytes(shot.data[win.y * shot.width * 3:(win.y + win.height) * shot.width * 3])))
        time.sleep(0.02)
    sender.join()
    longest = longest_still(frames)
    print(f"the witness's longest stand-still during the flood: {longest * 1000:.0f} ms ({len(frames)} samples)")
    assert wait_until(lambda: counts(bus) == {"displayed": 5, "waiting": 100, "history": 100}, 20), counts(bus)
    assert longest < 0.25, f"the witness stood still for {longest:.2f} s"


def test_rules_match_and_apply(bus):
    """dunst's [rules] as [rule.NAME]: matched by application, summary, body, category and
    urgency (shell patterns), applied through the option table, `skip` and `urgency` too."""
    from pathlib import Path
    config = Path(bus.x.env["XDG_CONFIG_HOME"]) / "xhud" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('''
[rule.quiet]
match-app-name = "spam*"
skip = true

[rule.music]
match-app-name = "Spotify"
match-summary = "Now playing*"
position = "bottom-left"

[rule.battery]
match-body = "*below 5 %*"
urgency = "critical"

[rule.typo]
match-colour = "red"
''')
    _, err = bus.start_server()
    mon = bus.monitor()
    iface = proxy(bus)

    def send(app, summary, body="", urgency=1):
        return int(iface.Notify(app, 0, "", summary, body, dbus.Array([], signature="s"), {"urgency": dbus.Byte(urgency)}, 2000))

    skipped = send("spammer", "Buy now")
    assert wait_until(lambda: reasons(mon).get(skipped) == 4, 5), "skipped: to the history unseen, reason 4"
    assert visible(bus.x) == []
    assert "Buy now" in control(bus, "history")
    song = send("Spotify", "Now playing: a song")
    w = wait_until(lambda: next(iter(visible(bus.x)), None), 5)
    assert w and w.x < 60 and w.y + w.height > 700, f"not bottom-left: {w and w.rect}"
    other = send("Spotify", "Paused")
    assert wait_until(lambda: any(v.x + v.width > 1200 and v.y < 300 for v in visible(bus.x)), 5), "the rule matched a summary it does not match"
    low = send("upower", "Battery", "The battery is below 5 % now")
    time.sleep(2.6)   # past the 2 s every other one asked for: time passing is what is tested
    assert reasons(mon).get(song) == 1 and reasons(mon).get(other) == 1
    assert low not in reasons(mon), "a rule's critical urgency: it stays until closed"
    assert "'match-colour' must be one of" in err.read_text(), err.read_text()
