"""Accessibility: the server as an AT-SPI application on the accessibility bus, read as a screen
reader reads it. Each test starts a private session bus and at-spi2-core's bus launcher (which
starts the accessibility bus and its registry, and sets AT_SPI_BUS on the test's Xvfb), then
walks the desktop and listens for events with pyatspi, in helper processes of a Python that has
it (this one, else Debian's /usr/bin/python3 with python3-pyatspi; skipped when neither can
import it): libatspi keeps its first bus for the life of a process, and each test has its own."""

from __future__ import annotations

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import BACKGROUND, XHUD_BIN, kill_group, kill_tagged, wait_until
from named_client import nx, named, one_window  # noqa: F401  (nx: a fixture)

LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
ROOT = "/org/a11y/atspi/accessible/root"


def _pyatspi_python() -> str | None:
    for py in dict.fromkeys([sys.executable, "/usr/bin/python3"]):
        if py and os.path.exists(py) and subprocess.run([py, "-c", "import pyatspi"], capture_output=True).returncode == 0:
            return py
    return None


PYATSPI = _pyatspi_python()
if not os.path.exists(LAUNCHER):
    pytestmark = pytest.mark.skip(reason=f"{LAUNCHER} missing: install at-spi2-core")
elif PYATSPI is None:
    pytestmark = pytest.mark.skip(reason="import pyatspi fails: install python3-pyatspi, run with /usr/bin/python3")
elif shutil.which("dbus-daemon") is None or shutil.which("gdbus") is None:
    pytestmark = pytest.mark.skip(reason="dbus-daemon or gdbus missing (scripts/deps.sh installs them)")

# Walks the desktop once and prints it as JSON: the applications and their children.
WALK = textwrap.dedent("""
    import json, pyatspi
    out = []
    for app in pyatspi.Registry.getDesktop(0):
        if app is None:
            continue
        kids = []
        for c in app:
            if c is None:
                continue
            st = c.getState()
            kids.append({"name": c.name, "role": c.getRoleName(), "description": c.description,
                         "showing": st.contains(pyatspi.STATE_SHOWING), "visible": st.contains(pyatspi.STATE_VISIBLE)})
        out.append({"name": app.name, "role": app.getRoleName(), "toolkit": app.toolkitName, "children": kids})
    print(json.dumps(out))
""")

# Prints each event as a JSON line until killed; "ready" once listening.
LISTEN = textwrap.dedent("""
    import json, sys, pyatspi
    def seen(e):
        try:
            src = e.source
            name, role = (src.name, src.getRoleName()) if src is not None else ("", "")
        except Exception:
            name, role = "?", "?"
        data = e.any_data
        if not isinstance(data, (str, int, float, type(None))):
            try:
                data = data.name
            except Exception:
                data = str(data)
        print(json.dumps({"type": str(e.type), "name": name, "role": role, "detail1": e.detail1, "data": data}), flush=True)
    types = ["object:children-changed", "object:property-change:accessible-name", "object:state-changed:showing",
             "object:announcement"]
    pyatspi.Registry.registerEventListener(seen, *types)
    print(json.dumps({"type": "ready"}), flush=True)
    pyatspi.Registry.start()
""")


class A11y:
    """A private session bus, at-spi2-core's launcher on it (the accessibility bus, the
    registry, AT_SPI_BUS on the display), and pyatspi helpers."""

    def __init__(self, x, tmp: Path, launch: bool = True):
        self.x = x
        self.tmp = tmp
        self.procs: list[subprocess.Popen] = []
        daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                                  stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(daemon)
        self.session = daemon.stdout.readline().decode().strip()
        assert self.session.startswith("unix:"), self.session
        x.env = dict(x.env, DBUS_SESSION_BUS_ADDRESS=self.session, XHUD_DEBUG_ACCESSIBILITY="1")
        x.env.pop("AT_SPI_BUS_ADDRESS", None)
        x.env.pop("NO_AT_BRIDGE", None)
        self.address = None
        if launch:
            self.launch()

    def launch(self):
        self.launcher = subprocess.Popen([LAUNCHER, "--launch-immediately"], env=self.x.env, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.procs.append(self.launcher)
        self.address = wait_until(self.root_property, 10)
        assert self.address, "at-spi-bus-launcher set no AT_SPI_BUS on the display"

    def root_property(self) -> str | None:
        res = subprocess.run(["xprop", "-root", "AT_SPI_BUS"], env=self.x.env, capture_output=True, text=True)
        m = re.search(r'AT_SPI_BUS\(STRING\) = "([^"]+)"', res.stdout)
        return m.group(1) if m else None

    def stop_bus(self):
        """The accessibility bus goes away (the launcher and what it started)."""
        kill_group(self.launcher, grace=1.0)
        subprocess.run(["xprop", "-root", "-remove", "AT_SPI_BUS"], env=self.x.env, capture_output=True)

    def py_env(self) -> dict:
        return dict(self.x.env, AT_SPI_BUS_ADDRESS=self.address or "")

    def walk(self) -> list[dict]:
        res = subprocess.run([PYATSPI, "-c", WALK], env=self.py_env(), capture_output=True, text=True, timeout=20)
        assert res.returncode == 0, res.stderr
        return json.loads(res.stdout.strip().splitlines()[-1])

    def xhud_app(self) -> dict | None:
        return next((a for a in self.walk() if a["name"] == "xhud"), None)

    def child(self, name: str, role: str | None = None, timeout: float = 10) -> dict | None:
        def found():
            app = self.xhud_app()
            return app and next((c for c in app["children"] if c["name"] == name and (role is None or c["role"] == role)), None)
        return wait_until(found, timeout, 0.1)

    def listen(self) -> "Listener":
        return Listener(self)

    def start_server(self) -> tuple[subprocess.Popen, Path]:
        """`xhud server` in the foreground, once its socket answers (else a client would start one)."""
        err = self.tmp / "server.err"
        proc = subprocess.Popen([str(XHUD_BIN), "server"], env=self.x.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=open(err, "wb"), start_new_session=True)
        self.procs.append(proc)
        assert wait_until(lambda: list(Path(self.x.rt).glob("xhud/*.sock")) or proc.poll() is not None, 10)
        assert proc.poll() is None, err.read_text()
        return proc, err

    def bus_call(self, dest: str, path: str, method: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["gdbus", "call", "--address", self.address, "-d", dest, "-o", path, "-m", method, *args],
                              env=self.x.env, capture_output=True, text=True, timeout=10)

    def xhud_bus_name(self) -> str | None:
        """xhud's unique name on the accessibility bus, from the registry's children."""
        out = self.bus_call("org.a11y.atspi.Registry", ROOT, "org.a11y.atspi.Accessible.GetChildren").stdout
        for name in re.findall(r"\('(:[0-9.]+)', objectpath '" + ROOT, out):
            got = self.bus_call(name, ROOT, "org.freedesktop.DBus.Properties.Get", "org.a11y.atspi.Accessible", "Name").stdout
            if "'xhud'" in got:
                return name
        return None

    def stop(self):
        for p in reversed(self.procs):
            kill_group(p, grace=1.0)


class Listener:
    def __init__(self, a11y: A11y):
        self.path = a11y.tmp / f"events{time.monotonic_ns()}.jsonl"
        self.proc = subprocess.Popen([PYATSPI, "-u", "-c", LISTEN], env=a11y.py_env(), stdout=open(self.path, "wb"),
                                     stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, start_new_session=True)
        a11y.procs.append(self.proc)
        assert wait_until(lambda: any(e["type"] == "ready" for e in self.events()), 10), "the pyatspi listener did not start"

    def events(self) -> list[dict]:
        if not self.path.exists():
            return []
        out = []
        for line in self.path.read_text(errors="replace").splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def wait(self, predicate, timeout=10):
        return wait_until(lambda: next((e for e in self.events() if predicate(e)), None), timeout, 0.05)


@pytest.fixture
def a11y(nx, tmp_path):
    a = A11y(nx, tmp_path)
    try:
        yield a
    finally:
        a.stop()


def serving(a11y, err: Path) -> bool:
    return bool(wait_until(lambda: "accessible on" in err.read_text(), 10))


# ---------------------------------------------------------------------------------------------


def test_application_under_the_desktop_with_a_notification_named_by_the_label(a11y):
    proc, err = a11y.start_server()
    assert serving(a11y, err), err.read_text()
    app = wait_until(a11y.xhud_app, 10, 0.1)
    assert app, "no xhud application under the desktop"
    assert app["role"] == "application" and app["toolkit"] == "xhud"
    res = named(a11y.x, "--id", "copy", "--label", "Copying files", "--details", "3 of 10", "--hide-after", "10")
    assert res.returncode == 0, res.stderr
    c = a11y.child("Copying files", "notification")
    assert c, a11y.xhud_app()
    assert c["showing"] and c["visible"] and c["description"] == "3 of 10"
    # Hidden: the child goes.
    named(a11y.x, "hide", "--id", "copy")
    assert wait_until(lambda: not a11y.xhud_app()["children"], 10, 0.1), a11y.xhud_app()
    assert proc.poll() is None


def test_new_hud_and_label_change_are_events(a11y):
    proc, err = a11y.start_server()
    assert serving(a11y, err), err.read_text()
    ev = a11y.listen()
    named(a11y.x, "--id", "copy", "--label", "Copying files", "--hide-after", "10")
    assert ev.wait(lambda e: e["type"].startswith("object:children-changed:add") and e["data"] == "Copying files"), ev.events()
    assert ev.wait(lambda e: e["type"] == "object:state-changed:showing" and e["name"] == "Copying files" and e["detail1"] == 1)
    assert ev.wait(lambda e: e["type"] == "object:announcement" and e["data"] == "Copying files"), ev.events()
    named(a11y.x, "--id", "copy", "--label", "Copied 3 of 10")
    got = ev.wait(lambda e: e["type"] == "object:property-change:accessible-name" and e["data"] == "Copied 3 of 10")
    assert got and got["role"] == "notification", ev.events()
    assert ev.wait(lambda e: e["type"] == "object:announcement" and e["data"] == "Copied 3 of 10")


def test_a_volume_osd_says_its_level(a11y):
    """An OSD is heard with its level ("Volume 45%"), again at a volume key's step."""
    proc, err = a11y.start_server()
    assert serving(a11y, err), err.read_text()
    ev = a11y.listen()
    named(a11y.x, "--id", "volume", "--mode", "bar", "--progress", "0.45", "--label", "Volume", "--hide-after", "10")
    assert ev.wait(lambda e: e["type"] == "object:announcement" and e["data"] == "Volume 45%"), ev.events()
    named(a11y.x, "--id", "volume", "--progress", "0.5")
    assert ev.wait(lambda e: e["type"] == "object:announcement" and e["data"] == "Volume 50%"), ev.events()


def test_error_verb_is_an_alert_from_a_server_it_starts(a11y):
    """`xhud error Failed` with no server running: the server it starts registers after its
    first frame and still says the alert that shows."""
    ev = a11y.listen()
    res = named(a11y.x, "error", "Failed")
    assert res.returncode == 0, res.stderr
    got = ev.wait(lambda e: e["type"] in ("object:announcement", "object:state-changed:showing") and e["name"] == "Failed")
    assert got and got["role"] == "alert", ev.events()
    assert ev.wait(lambda e: e["type"] == "object:announcement" and e["data"] == "Failed" and e["detail1"] == 2), ev.events()
    assert a11y.child("Failed", "alert", timeout=5) is not None


def test_a_wrapped_commands_result_is_said(a11y):
    """A client's own HUD (not named): its label, then its result as an alert."""
    ev = a11y.listen()
    res = subprocess.run([str(XHUD_BIN), "--label", "Building", "--grace", "0", "--result-time", "2", "--", "sh", "-c",
                          "sleep 0.8; exit 3"], env=a11y.x.env, capture_output=True, text=True, timeout=20,
                         stdin=subprocess.DEVNULL)
    assert res.returncode == 3, res.stderr
    assert ev.wait(lambda e: e["type"] == "object:announcement" and e["data"] == "Building"), ev.events()
    got = ev.wait(lambda e: e["type"] == "object:announcement" and e["role"] == "alert")
    assert got and "Exit status 3" in got["data"], ev.events()


def test_malformed_calls_get_errors_and_the_server_stays(a11y):
    proc, err = a11y.start_server()
    assert serving(a11y, err), err.read_text()
    name = wait_until(a11y.xhud_bus_name, 10, 0.1)
    assert name, "xhud is not among the registry's children"
    # dbus-send sends what it is given (gdbus would type the arguments from our introspection).
    calls = [
        (ROOT, "org.a11y.atspi.Accessible.GetChildAtIndex", "string:not a number"),
        (ROOT, "org.a11y.atspi.Accessible.GetChildAtIndex"),
        (ROOT, "org.a11y.atspi.Accessible.GetRole", "int32:1"),
        (ROOT, "org.freedesktop.DBus.Properties.Get", "string:org.a11y.atspi.Accessible", "string:NoSuchProperty"),
        (ROOT, "org.freedesktop.DBus.Properties.Get", "int32:1"),
        (ROOT, "org.freedesktop.DBus.Properties.GetAll", "string:org.example.Nothing"),
        (ROOT, "org.freedesktop.DBus.Properties.Set", "string:org.a11y.atspi.Accessible", "string:Name", "variant:string:x"),
        (ROOT, "org.a11y.atspi.Application.GetLocale", "string:x"),
        (ROOT, "org.a11y.atspi.Accessible.NoSuchMethod"),
        ("/org/a11y/atspi/cache", "org.a11y.atspi.Accessible.GetRole"),
        ("/org/a11y/atspi/accessible/hud/99", "org.a11y.atspi.Accessible.GetRole"),
        ("/org/a11y/atspi/accessible/hud/x", "org.freedesktop.DBus.Properties.GetAll", "string:org.a11y.atspi.Accessible"),
        ("/nowhere", "org.a11y.atspi.Accessible.GetRole"),
    ]
    for path, method, *args in calls:
        res = subprocess.run(["dbus-send", f"--address={a11y.address}", "--print-reply", f"--dest={name}", path, method, *args],
                             env=a11y.x.env, capture_output=True, text=True, timeout=10)
        assert res.returncode != 0 and "Error org.freedesktop.DBus.Error." in res.stderr, (path, method, args, res)
    ok = a11y.bus_call(name, ROOT, "org.a11y.atspi.Accessible.GetRole")
    assert ok.returncode == 0 and "uint32 75" in ok.stdout, ok
    ok = a11y.bus_call(name, ROOT, "org.freedesktop.DBus.Properties.GetAll", "org.a11y.atspi.Application")
    assert "'ToolkitName': <'xhud'>" in ok.stdout and "'AtspiVersion': <'2.1'>" in ok.stdout, ok
    ok = a11y.bus_call(name, ROOT, "org.freedesktop.DBus.Introspectable.Introspect")
    assert "org.a11y.atspi.Application" in ok.stdout, ok
    ok = a11y.bus_call(name, "/org/a11y/atspi/cache", "org.a11y.atspi.Cache.GetItems")
    assert ok.returncode == 0 and "'xhud'" in ok.stdout, ok
    assert proc.poll() is None
    res = named(a11y.x, "--id", "after", "--label", "Still here", "--hide-after", "5")
    assert res.returncode == 0 and a11y.child("Still here", "notification")


def test_the_bus_going_away_leaves_the_server_drawing(a11y):
    proc, err = a11y.start_server()
    assert serving(a11y, err), err.read_text()
    named(a11y.x, "--id", "a", "--label", "Before", "--hide-after", "10")
    assert a11y.child("Before", "notification")
    a11y.stop_bus()
    assert wait_until(lambda: "accessibility is off" in err.read_text(), 10), err.read_text()
    res = named(a11y.x, "--id", "b", "--label", "After", "--hide-after", "10")
    assert res.returncode == 0, res.stderr
    assert wait_until(lambda: len([w for w in a11y.x.hud_windows() if w.viewable]) == 2, 5)
    assert proc.poll() is None


@pytest.fixture
def no_a11y(nx, tmp_path):
    a = A11y(nx, tmp_path, launch=False)
    try:
        yield a
    finally:
        a.stop()


def test_without_an_accessibility_bus_the_server_draws_as_before(no_a11y):
    proc, err = no_a11y.start_server()
    res = named(no_a11y.x, "--id", "plain", "--label", "No screen reader", "--hide-after", "5")
    assert res.returncode == 0, res.stderr
    one_window(no_a11y.x, 3)
    assert wait_until(lambda: "accessibility is off: no accessibility bus" in err.read_text(), 10), err.read_text()
    # No bus launcher was started for us.
    owners = subprocess.run(["gdbus", "call", "--session", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus", "-m",
                             "org.freedesktop.DBus.NameHasOwner", "org.a11y.Bus"], env=no_a11y.x.env, capture_output=True, text=True)
    assert "false" in owners.stdout, owners
    assert proc.poll() is None


def test_no_at_bridge_turns_it_off(a11y):
    a11y.x.env = dict(a11y.x.env, NO_AT_BRIDGE="1")
    proc, err = a11y.start_server()
    named(a11y.x, "--id", "q", "--label", "Quiet", "--hide-after", "5")
    one_window(a11y.x, 3)
    time.sleep(0.5)  # nothing to wait for: its absence is the point
    assert a11y.xhud_app() is None
    assert proc.poll() is None


def _firstframe(tmp: Path) -> Path | None:
    src = Path(__file__).resolve().parents[2] / "bench" / "firstframe.c"
    out = tmp / "firstframe"
    cflags = subprocess.run(["pkg-config", "--cflags", "--libs", "x11"], capture_output=True, text=True).stdout.split()
    res = subprocess.run(["cc", "-O2", "-o", str(out), str(src), *cflags], capture_output=True, text=True)
    return out if res.returncode == 0 else None


def test_first_frame_is_not_delayed_by_the_accessibility_bus(a11y, tmp_path):
    """A cold HUD (no server running: the client starts one) to its first painted pixel, with
    and without an accessibility bus, alternating. Printed; fails only on a gross delay."""
    ff = _firstframe(tmp_path)
    if ff is None:
        pytest.skip("cannot build bench/firstframe.c")
    x = a11y.x
    times: dict[str, list[float]] = {"with": [], "without": []}
    for i in range(8):
        mode = "with" if i % 2 == 0 else "without"
        if mode == "with" and a11y.root_property() is None:
            a11y.launch()
        elif mode == "without" and a11y.root_property() is not None:
            a11y.stop_bus()
        kill_tagged(x.tag)
        res = subprocess.run([str(ff), "--bg", "%02x%02x%02x" % BACKGROUND, "--auto", "--exit-ok", "--", str(XHUD_BIN), "--mode", "text",
                              "--label", "X", "--hide-after", "0.3"], env=x.env, capture_output=True, text=True, timeout=30)
        assert res.returncode == 0, res.stdout + res.stderr
        times[mode].append(float(res.stdout.split()[0]))
        kill_tagged(x.tag)
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\ncold first paint (ms), median of {len(times['with'])}: with accessibility bus {med['with']:.1f} "
          f"{times['with']}, without {med['without']:.1f} {times['without']}")
    assert med["with"] < med["without"] * 1.5 + 20, times
