"""Desktop notifications: `xhud server --notifications` owns org.freedesktop.Notifications on a
private session bus (a real dbus-daemon started per test) and shows each notification as the
HUD the equivalent `xhud` invocation shows. Clients are the real ones: notify-send, gdbus,
dbus-send, `gdbus monitor` for the signals, dunst as the other daemon."""

from __future__ import annotations

import re
import shutil
import sys
import subprocess
import time
from pathlib import Path

import pytest

from conftest import XHUD_BIN, XSession, kill_group, region_bytes, wait_until
from hud_pixels import bar_fill, bright_bands, visible
from named_client import nx, named, one_window, hidden  # noqa: F401  (nx: a fixture)

NAME = "org.freedesktop.Notifications"
OBJ = "/org/freedesktop/Notifications"

for tool in ("dbus-daemon", "notify-send", "gdbus", "dbus-send"):
    if shutil.which(tool) is None:
        pytestmark = pytest.mark.skip(reason=f"{tool} not installed (scripts/deps.sh installs it)")


class Bus:
    """A private session bus and the notification server on it."""

    def __init__(self, x, tmp: Path):
        self.x = x
        self.daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                       stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
        self.address = self.daemon.stdout.readline().decode().strip()
        assert self.address.startswith("unix:"), f"dbus-daemon printed {self.address!r}"
        x.env = dict(x.env, DBUS_SESSION_BUS_ADDRESS=self.address)
        self.tmp = tmp
        self.servers: list[tuple[subprocess.Popen, Path]] = []

    def start_server(self, *args: str, expect="serving", x=None, flag=True) -> tuple[subprocess.Popen, Path]:
        x = x or self.x
        err = self.tmp / f"server{len(self.servers)}.err"
        env = dict(x.env, DBUS_SESSION_BUS_ADDRESS=self.address)
        proc = subprocess.Popen([str(XHUD_BIN), "server", *(["--notifications"] if flag else []), *args], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=open(err, "wb"), start_new_session=True)
        self.servers.append((proc, err))
        if expect and not wait_until(lambda: expect in err.read_text() or proc.poll() is not None, 10):
            pytest.fail(f"the server did not say {expect!r}: {err.read_text()!r}")
        assert proc.poll() is None, f"the server exited: {err.read_text()!r}"
        return proc, err

    def run(self, *cmd, check=True, timeout=10) -> subprocess.CompletedProcess:
        res = subprocess.run(list(cmd), env=self.x.env, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
        if check:
            assert res.returncode == 0, f"{' '.join(cmd)}: exit {res.returncode}: {res.stderr.strip()}"
        return res

    def call(self, method: str, *args: str, check=True) -> subprocess.CompletedProcess:
        return self.run("gdbus", "call", "--session", "-d", NAME, "-o", OBJ, "-m", f"{NAME}.{method}", "--", *args, check=check)

    def notify(self, summary: str, body: str = "", timeout: int = -1, actions="[]", hints="{}", replaces=0) -> int:
        out = self.call("Notify", "test", str(replaces), "", summary, body, actions, hints, str(timeout)).stdout
        m = re.search(r"uint32 (\d+)", out)
        assert m, out
        return int(m.group(1))

    def monitor(self) -> "Monitor":
        return Monitor(self)

    def stop(self):
        for proc, _ in self.servers:
            kill_group(proc, grace=1.0)
        kill_group(self.daemon, grace=1.0)


class Monitor:
    """`gdbus monitor` on the notification name: the signals it saw, as text."""

    def __init__(self, bus: Bus):
        self.path = bus.tmp / f"monitor{time.monotonic_ns()}.out"
        self.proc = subprocess.Popen(["stdbuf", "-oL", "gdbus", "monitor", "--session", "-d", NAME], env=bus.x.env,
                                     stdout=open(self.path, "wb"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                     start_new_session=True)
        bus.x.procs.append(self.proc)
        assert wait_until(lambda: "owned by" in self.text(), 5), f"gdbus monitor did not start: {self.text()!r}"

    def text(self) -> str:
        return self.path.read_text(errors="replace") if self.path.exists() else ""

    def closed(self, nid: int, timeout=5.0):
        """The reason of NotificationClosed for nid, once seen."""
        def seen():
            m = re.search(rf"NotificationClosed \(uint32 {nid}, uint32 (\d+)\)", self.text())
            return int(m.group(1)) if m else None
        return wait_until(seen, timeout)


@pytest.fixture
def bus(nx, tmp_path):
    b = Bus(nx, tmp_path)
    try:
        yield b
    finally:
        b.stop()


def server_up(bus, proc) -> bool:
    return proc.poll() is None and "'xhud'" in bus.call("GetServerInformation").stdout


def stable_hud(x, timeout=3.0):
    """The one HUD window's rectangle and a screenshot once two in a row agree."""
    win = one_window(x, timeout)
    last = None
    deadline = time.monotonic() + timeout
    while True:
        shot = x.screenshot(keep=False)
        now = region_bytes(shot, win.rect)
        if now == last or time.monotonic() > deadline:
            return win, shot
        last = now
        time.sleep(0.05)


# ---------------------------------------------------------------------------------------------


def test_notify_send_is_the_same_hud_as_the_info_verb(bus):
    proc, _ = bus.start_server()
    bus.run("notify-send", "Summary", "Body <b>bold</b>")
    win, shot = stable_hud(bus.x)
    assert len(bright_bands(shot, win.rect)) >= 3, "icon, summary and body expected"
    via_bus = region_bytes(shot, win.rect)
    listed = named(bus.x, "list").stdout.split()
    assert listed == ["notify-1"], listed
    bus.call("CloseNotification", "1")
    assert hidden(bus.x, 3), "CloseNotification did not hide the HUD"
    # The same HUD from the command line: the same pixels.
    # (A bus notification's body is regular, so that its <b> stands out.)
    res = named(bus.x, "info", "--id", "cli", "--position", "top-right", "--label", "Summary", "--details", "Body <b>bold</b>", "--markup",
                "--details-font", "Sans 12px")
    assert res.returncode == 0, res.stderr
    win2, shot2 = stable_hud(bus.x)
    assert win2.rect == win.rect
    assert region_bytes(shot2, win2.rect) == via_bus, "notify-send and `xhud info --markup` drew different HUDs"
    assert proc.poll() is None


def test_replaces_id_updates_in_place(bus):
    bus.start_server()
    nid = int(bus.run("notify-send", "-p", "First", "one").stdout)
    win, shot = stable_hud(bus.x)
    before = region_bytes(shot, win.rect)
    again = int(bus.run("notify-send", "-p", "-r", str(nid), "Second, a longer summary", "two").stdout)
    assert again == nid
    assert wait_until(lambda: (lambda w: len(w) == 1 and w[0].rect != win.rect)(visible(bus.x)), 3), "the HUD did not change"
    win2, shot2 = stable_hud(bus.x)
    assert region_bytes(shot2, win2.rect) != before
    assert named(bus.x, "list").stdout.split() == [f"notify-{nid}"]


def test_synchronous_value_hint_is_one_bar_updated_in_place(bus):
    bus.start_server()
    ids, fills = [], []
    for v in (45, 50, 55):
        ids.append(int(bus.run("notify-send", "-p", "-h", f"int:value:{v}", "-h", "string:x-canonical-private-synchronous:volume",
                               "Volume").stdout))
        win, shot = stable_hud(bus.x)
        fill, track, _ = bar_fill(shot, win.rect)
        assert track > 60, f"no bar in {win.rect}"
        fills.append((fill, track))
    assert len(set(ids)) == 1, f"one id for one tag, got {ids}"
    assert len(visible(bus.x)) == 1
    assert fills[0][0] < fills[1][0] < fills[2][0], f"the bar did not grow: {fills}"
    # It is the named HUD `xhud --id volume` updates.
    assert named(bus.x, "list").stdout.split() == ["volume"]
    assert named(bus.x, "--id", "volume", "--progress", "0.9").returncode == 0
    win, shot = stable_hud(bus.x)
    assert bar_fill(shot, win.rect)[0] > fills[2][0]
    bus.run("notify-send", "-h", "string:x-dunst-stack-tag:volume", "-h", "int:value:10", "Volume")
    assert wait_until(lambda: bar_fill(bus.x.screenshot(keep=False), win.rect)[0] < fills[0][0], 3)
    assert len(visible(bus.x)) == 1


def test_action_button_click_is_printed_by_notify_send(bus):
    bus.start_server()
    out = bus.tmp / "ns.out"
    ns = bus.x.spawn(["notify-send", "-A", "yes=Yes", "--wait", "Question", "Proceed?"], stdout=open(out, "wb"),
                     stderr=subprocess.STDOUT)
    win, shot = stable_hud(bus.x)
    button = bright_bands(shot, win.rect)[-1]   # the button is the lowest content
    bus.x.click(win.x + win.width // 2, (button[0] + button[1]) // 2)
    assert wait_until(lambda: ns.poll() is not None, 5), "notify-send still waits after the click"
    assert out.read_text().strip() == "yes"
    assert hidden(bus.x, 3)


def test_methods_and_signals(bus):
    bus.start_server()
    caps = bus.call("GetCapabilities").stdout
    for c in ("body", "body-markup", "actions", "icon-static", "persistence", "x-canonical-private-synchronous",
              "x-dunst-stack-tag", "synchronous"):
        assert f"'{c}'" in caps, caps
    assert bus.call("GetServerInformation").stdout.strip() == "('xhud', 'xhud', '0.1.0', '1.2')"
    mon = bus.monitor()
    nid = bus.notify("Closed by the caller", "body", timeout=0)
    one_window(bus.x)
    bus.call("CloseNotification", str(nid))
    assert mon.closed(nid) == 3, mon.text()
    assert hidden(bus.x, 3)
    # A notification that is not there: an empty reply, nothing else.
    assert bus.call("CloseNotification", "4242").stdout.strip() == "()"
    # Clicked: dismissed by the user.
    nid = bus.notify("Click me", timeout=0)
    win = one_window(bus.x)
    bus.x.click(win.x + win.width // 2, win.y + 12)
    assert mon.closed(nid) == 2, mon.text()


def test_expiry_and_persistence(bus):
    bus.start_server()
    mon = bus.monitor()
    nid = bus.notify("Short", timeout=400)
    one_window(bus.x)
    assert mon.closed(nid, 5) == 1, mon.text()
    assert hidden(bus.x, 2)
    nid = bus.notify("Stays", timeout=0)
    one_window(bus.x)
    # Past the [notification] durations' minimum would be 5 s; 2.5 s past the short one's.
    assert not hidden(bus.x, 2.5), "expire_timeout 0 expired"
    assert mon.closed(nid, 0.1) is None


def test_malformed_calls_get_an_error_and_the_server_stays(bus):
    proc, _ = bus.start_server()
    res = bus.run("dbus-send", "--session", "--print-reply", f"--dest={NAME}", OBJ, f"{NAME}.Notify", "string:x", "uint32:1",
                  check=False)
    assert res.returncode != 0 and "org.freedesktop.DBus.Error.InvalidArgs" in res.stderr, res.stderr
    res = bus.run("dbus-send", "--session", "--print-reply", f"--dest={NAME}", OBJ, f"{NAME}.CloseNotification", "string:1",
                  check=False)
    assert "InvalidArgs" in res.stderr, res.stderr
    res = bus.run("dbus-send", "--session", "--print-reply", f"--dest={NAME}", OBJ, f"{NAME}.NoSuchMethod", check=False)
    assert "UnknownMethod" in res.stderr, res.stderr
    # Hints of the wrong types are ignored; an image-data of lies is refused, not read.
    bus.notify("Odd hints", hints="{'value': <'x'>, 'urgency': <'high'>, 'image-data': <(100000, 1, 1, true, 8, 4, [byte 1])>, "
               "'x-canonical-private-synchronous': <42>}")
    # 100 KB of summary and 60 KB of body: cut to the HUD's limits, shown.
    big = "W" * 100_000
    bus.notify(big, "&<" * 30_000)
    assert wait_until(lambda: len(visible(bus.x)) == 2, 5), "the notifications did not show"
    assert server_up(bus, proc)


def test_the_bus_going_away_leaves_the_server_and_its_huds(bus):
    proc, err = bus.start_server()
    bus.notify("Still here", timeout=0)
    one_window(bus.x)
    kill_group(bus.daemon, grace=1.0)
    assert wait_until(lambda: "session bus closed" in err.read_text(), 5), err.read_text()
    assert proc.poll() is None
    assert len(visible(bus.x)) == 1
    assert named(bus.x, "--id", "after", "--label", "after").returncode == 0
    assert wait_until(lambda: len(visible(bus.x)) == 2, 3)


def test_dunst_keeps_the_name_unless_replaced(bus):
    if shutil.which("dunst") is None:
        pytest.skip("dunst not installed (scripts/deps.sh installs it)")
    dunst = bus.x.spawn(["dunst"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert wait_until(lambda: "dunst" in bus.call("GetServerInformation", check=False).stdout, 5), "dunst did not take the name"
    proc, err = bus.start_server(expect="notifications are off")
    assert "--replace" in err.read_text(), "the message says how to take it over"
    assert proc.poll() is None, "the server stays, without the name"
    assert "dunst" in bus.call("GetServerInformation").stdout
    kill_group(proc)
    # dunst 1.9 does not let its name be replaced: --replace waits in the bus's queue for it.
    proc, err = bus.start_server("--replace", expect="")
    assert wait_until(lambda: "serving" in err.read_text() or "quits" in err.read_text(), 5), err.read_text()
    kill_group(dunst)
    assert wait_until(lambda: "serving" in err.read_text(), 5), err.read_text()
    assert server_up(bus, proc)


def test_replace_takes_the_name_from_a_daemon_that_allows_it(bus, tmp_path):
    first, first_err = bus.start_server()
    other = XSession(tmp_path / "other", False)
    (tmp_path / "other").mkdir()
    try:
        other.start()
        other.env = dict(other.env, XDG_RUNTIME_DIR=bus.x.env["XDG_RUNTIME_DIR"])
        second, _ = bus.start_server("--replace", x=other)
        assert wait_until(lambda: "another daemon took" in first_err.read_text(), 5), first_err.read_text()
        assert first.poll() is None
        bus.run("notify-send", "On the other display")
        assert wait_until(lambda: other.visible_hud_windows(), 5), "the replacing server does not show notifications"
        assert not visible(bus.x)
    finally:
        other.stop()


def test_the_configuration_turns_notifications_on(bus):
    config = Path(bus.x.env["XDG_CONFIG_HOME"]) / "xhud" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text("notifications = true\n[notification]\nmin-duration = 0.3\nmax-duration = 0.3\n")
    proc, _ = bus.start_server(flag=False)
    mon = bus.monitor()
    nid = bus.notify("Brief, as [notification] says")
    one_window(bus.x)
    assert mon.closed(nid, 3) == 1, mon.text()
    config.write_text("notifications = false\n")
    kill_group(proc)
    proc, err = bus.start_server(flag=False, expect="")
    assert wait_until(lambda: named(bus.x, "list").returncode == 0, 5)
    assert "serving" not in err.read_text()
    assert "'xhud'" not in bus.call("GetServerInformation", check=False).stdout


PY_CLIENT = r'''
import sys, dbus
bus = dbus.SessionBus()
n = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                   "org.freedesktop.Notifications")
side = 32
red = dbus.Struct((side, side, side * 4, True, 8, 4, dbus.ByteArray(bytes([230, 20, 20, 255]) * side * side)),
                  signature="iiibiiay")
hint = sys.argv[1]
print(n.Notify("py", 0, "", "Pixels", "", [], {hint: red}, 0))
'''


@pytest.mark.parametrize("hint", ["image-data", "icon_data"])
def test_raw_pixels_from_a_python_client_are_the_icon(bus, hint):
    if subprocess.run([sys.executable, "-c", "import dbus"], env=bus.x.env, capture_output=True).returncode != 0:
        pytest.skip("python3-dbus not installed (scripts/deps.sh installs it)")
    bus.start_server()
    res = bus.run(sys.executable, "-c", PY_CLIENT, hint)
    assert res.stdout.strip().isdigit(), res.stdout + res.stderr
    win, shot = stable_hud(bus.x)
    reds = [(xx, y) for y in range(win.y, win.y + win.height) for xx in range(win.x, win.x + win.width)
            if (lambda p: p[0] > 180 and p[1] < 80 and p[2] < 80)(shot.pixel(xx, y))]
    assert len(reds) > 200, f"the red icon is not drawn ({len(reds)} red pixels)"
