"""libnotify's own test programs (libnotify/tests: test-basic, test-multi-actions, test-replace,
test-urgency, test-server-info, test-default-action, test-markup), rewritten for python-gi, run
as programs against `xhud server --notifications` on a private bus: what every GTK program's
notifications go through."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from conftest import button_row, wait_until
from hud_pixels import visible
from named_client import nx, named  # noqa: F401  (nx: a fixture)
from test_notifications import bus  # noqa: F401  (a fixture: a private bus and its daemon)

PYTHON = "/usr/bin/python3"
HAVE_GI = subprocess.run([PYTHON, "-c", "import gi; gi.require_version('Notify', '0.7')"],
                         capture_output=True).returncode == 0
pytestmark = pytest.mark.skipif(not HAVE_GI, reason="python3-gi and gir1.2-notify-0.7 (scripts/deps.sh installs them)")

PRELUDE = """
import sys
import gi
gi.require_version("Notify", "0.7")
from gi.repository import GLib, Notify
assert Notify.init(sys.argv[1] if len(sys.argv) > 1 else "libnotify-test")
loop = GLib.MainLoop()
def out(*a):
    print(*a, flush=True)
def quit_after(seconds):
    GLib.timeout_add(int(seconds * 1000), lambda: (loop.quit(), False)[1])
"""


def program(bus, body: str) -> subprocess.Popen:
    return subprocess.Popen([PYTHON, "-c", PRELUDE + body], env=bus.x.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def finish(p: subprocess.Popen, timeout=15) -> str:
    out, err = p.communicate(timeout=timeout)
    assert p.returncode == 0, f"exit {p.returncode}: {err[-2000:]}"
    return out


def test_basic_and_server_info(bus):
    bus.start_server()
    out = finish(program(bus, """
ok, name, vendor, version, spec = Notify.get_server_info()
out("info", name, vendor, spec)
out("caps", " ".join(sorted(Notify.get_server_caps())))
n = Notify.Notification.new("Summary", "Content that is very long " * 12, None)
out("shown", n.show())
"""))
    assert "info xhud xhud 1.2" in out, out
    caps = out.split("caps ")[1].split("\n")[0].split()
    assert {"actions", "body", "body-markup", "persistence"} <= set(caps), caps
    assert "shown True" in out
    assert wait_until(lambda: len(visible(bus.x)) == 1, 5), "test-basic's notification is not shown"


def test_multi_actions_each_reachable(bus):
    """test-multi-actions: Help, Ignore, Empty Trash; the button is the first, every one is
    reachable by name (`xhud notifications action LABEL`, a keybinding's or a menu's)."""
    bus.start_server()
    p = program(bus, """
def act(n, action, *_):
    out("invoked", action)
    loop.quit()
n = Notify.Notification.new("Low disk space", "You can free up some disk space by emptying the trash can.", None)
n.set_urgency(Notify.Urgency.CRITICAL)
n.set_category("device")
n.add_action("help", "Help", act)
n.add_action("ignore", "Ignore", act)
n.add_action("empty", "Empty Trash", act)
out("shown", n.show())
quit_after(10)
loop.run()
""")
    assert wait_until(lambda: len(visible(bus.x)) == 1, 5)
    context = named(bus.x, "notifications", "context")
    assert context.stdout.splitlines() == ["help\tHelp", "ignore\tIgnore", "empty\tEmpty Trash"], context
    res = named(bus.x, "notifications", "action", "Nothing")
    assert res.returncode == 1 and "no action 'Nothing' (it has Help, Ignore, Empty Trash)" in res.stderr, res
    res = named(bus.x, "notifications", "action", "Empty Trash")
    assert res.returncode == 0, res.stderr
    assert "invoked empty" in finish(p)


def test_every_action_is_a_button(bus):
    """test-multi-actions again, clicked: Help, Ignore and Empty Trash are three buttons in a
    row, and a click on the third invokes "empty" (dunst and GNOME draw every action too)."""
    bus.start_server()
    p = program(bus, """
def act(n, action, *_):
    out("invoked", action)
    loop.quit()
n = Notify.Notification.new("Low disk space", "You can free up some disk space by emptying the trash can.", None)
n.add_action("help", "Help", act)
n.add_action("ignore", "Ignore", act)
n.add_action("empty", "Empty Trash", act)
n.set_timeout(Notify.EXPIRES_NEVER)
out("shown", n.show())
quit_after(10)
loop.run()
""")
    wins = wait_until(lambda: visible(bus.x), 5)
    assert wins
    w = wins[0]
    row = []
    assert wait_until(lambda: len(row := button_row(bus.x.screenshot(keep=False), w)) == 3 and row, 3), \
        f"three buttons expected: {button_row(bus.x.screenshot(), w)}"
    row = button_row(bus.x.screenshot(keep=False), w)
    widths = [r - l for l, r, _ in row]
    assert widths[2] > widths[1] > widths[0], f"Help < Ignore < Empty Trash: {row}"
    left, right, y = row[2]
    bus.x.click((left + right) // 2, y - 12)
    assert "invoked empty" in finish(p)


def test_default_action_on_a_click(bus):
    bus.start_server()
    p = program(bus, """
def act(n, action, *_):
    out("invoked", action)
    loop.quit()
n = Notify.Notification.new("Matt is online", None, None)
n.add_action("default", "Do Default Action", act)
n.set_timeout(Notify.EXPIRES_NEVER)
out("shown", n.show())
quit_after(10)
loop.run()
""")
    wins = wait_until(lambda: visible(bus.x), 5)
    assert wins
    w = wins[0]
    time.sleep(0.4)   # past the fade-in: a click lands on the shown HUD
    bus.x.click(w.x + w.width // 2, w.y + 10)
    assert "invoked default" in finish(p)


def test_replace_updates_one_notification(bus):
    bus.start_server()
    out = finish(program(bus, """
import time
n = Notify.Notification.new("Summary", "First message", None)
n.set_timeout(0)
n.show()
first = n.get_property("id")
time.sleep(0.5)
n.update("Second Summary", "First message was replaced", None)
n.show()
out("ids", first, n.get_property("id"))
"""))
    first, second = out.split("ids ")[1].split()
    assert first == second, out
    time.sleep(0.3)
    assert len(visible(bus.x)) == 1, "the replaced notification must not stay beside its replacement"


def test_urgency_levels(bus):
    """Low and normal ones expire at their timeout; a critical one stays until closed."""
    bus.start_server()
    mon = bus.monitor()
    out = finish(program(bus, """
for level, name in ((Notify.Urgency.LOW, "Low"), (Notify.Urgency.NORMAL, "Normal"), (Notify.Urgency.CRITICAL, "Critical")):
    n = Notify.Notification.new("Urgency", name + " urgency", None)
    n.set_urgency(level)
    if level != Notify.Urgency.CRITICAL:
        n.set_timeout(800)
    n.show()
    out("id", name, n.get_property("id"))
"""))
    ids = dict(line.split()[1:] for line in out.splitlines() if line.startswith("id "))
    assert mon.closed(int(ids["Low"]), 5) == 1 and mon.closed(int(ids["Normal"]), 5) == 1
    time.sleep(0.5)
    assert len(visible(bus.x)) == 1, "the critical one stays"
    assert f"uint32 {ids['Critical']}," not in mon.text()


def test_markup(bus):
    bus.start_server()
    finish(program(bus, """
n = Notify.Notification.new("Summary", "Some <b>bold</b>, <u>underlined</u>, <i>italic</i>, "
    "<a href='http://www.google.com'>linked</a> text", None)
out("shown", n.show())
"""))
    assert wait_until(lambda: len(visible(bus.x)) == 1, 5), "test-markup's notification is not shown"
