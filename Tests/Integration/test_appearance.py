"""The desktop's light or dark preference: the settings portal's `org.freedesktop.appearance`
`color-scheme` (served here by a stand-in portal on a private bus, as xdg-desktop-portal serves
GNOME's and KDE's setting) chooses the style of HUDs that nothing else colours, and a change is
followed by the next HUD."""

from __future__ import annotations

import subprocess
import time

import pytest

from conftest import wait_until
from test_named import named, nx  # noqa: F401  (nx: a fixture)
from test_notifications import bus  # noqa: F401  (a fixture: a private bus)

PYTHON = "/usr/bin/python3"
if subprocess.run([PYTHON, "-c", "import dbus, gi"], capture_output=True).returncode != 0:
    pytestmark = pytest.mark.skip(reason="python3-dbus and python3-gi (scripts/deps.sh installs them)")

PORTAL = r'''
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
path = sys.argv[1]
def scheme():
    try:
        return int(open(path).read().strip() or 0)
    except (OSError, ValueError):
        return 0
class Settings(dbus.service.Object):
    last = scheme()
    @dbus.service.method("org.freedesktop.portal.Settings", in_signature="ss", out_signature="v")
    def ReadOne(self, namespace, key):
        if (namespace, key) != ("org.freedesktop.appearance", "color-scheme"):
            raise dbus.exceptions.DBusException("no such setting", name="org.freedesktop.portal.Error.NotFound")
        return dbus.UInt32(scheme(), variant_level=1)
    @dbus.service.signal("org.freedesktop.portal.Settings", signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass
    def poll(self):
        now = scheme()
        if now != self.last:
            self.last = now
            self.SettingChanged("org.freedesktop.appearance", "color-scheme", dbus.UInt32(now, variant_level=1))
        return True
name = dbus.service.BusName("org.freedesktop.portal.Desktop", dbus.SessionBus())
s = Settings(dbus.SessionBus(), "/org/freedesktop/portal/desktop")
GLib.timeout_add(30, s.poll)
print("ready", flush=True)
GLib.MainLoop().run()
'''


def bezel_brightness(x, label: str) -> int | None:
    """The summed channels of a pixel inside the bezel of the HUD named `label`'s window."""
    for w in x.visible_hud_windows():
        if label in x.xprop(w.id, "_NET_WM_NAME"):
            return sum(x.screenshot(keep=False).pixel(w.x + 6, w.y + w.height // 2))
    return None


def show(x, label: str, *args: str) -> int | None:
    res = named(x, "--id", label.lower(), "--mode", "text", "--label", label, "--animation", "none",
                "--hide-after", "10", "--blur", "0", "--no-shadow", *args)
    assert res.returncode == 0, res.stderr
    return wait_until(lambda: bezel_brightness(x, label), 5)


def test_the_desktops_preference_colours_the_huds_and_a_change_is_followed(bus, tmp_path):
    scheme = tmp_path / "scheme"
    scheme.write_text("2")   # prefer light
    portal = subprocess.Popen([PYTHON, "-c", PORTAL, str(scheme)], env=bus.x.env, stdout=subprocess.PIPE, text=True)
    bus.x.procs.append(portal)
    assert portal.stdout.readline().strip() == "ready", "the stand-in portal did not start"
    bus.start_server(flag=False, expect=None)
    dark = show(bus.x, "Plain", "--style", "dark")
    assert dark, "no HUD"
    # The preference is read on a thread once the server is up: the next HUDs are light.
    assert wait_until(lambda: (b := show(bus.x, "Light")) and b > dark + 200, 5), \
        f"a light desktop's HUD is not light: {bezel_brightness(bus.x, 'Light')} against dark {dark}"
    assert show(bus.x, "Chosen", "--style", "dark") < dark + 60, "--style on the command line is the user's"
    assert show(bus.x, "Coloured", "--bezel-color", "#202020") < dark + 60, "a bezel colour given wins"
    scheme.write_text("1")   # the desktop turns dark: followed at the next HUD
    assert wait_until(lambda: (b := show(bus.x, "Dark")) is not None and b < dark + 60, 5), \
        f"the desktop turned dark, the HUD did not: {bezel_brightness(bus.x, 'Dark')} against {dark}"


def test_without_a_portal_huds_are_dark(bus):
    bus.start_server(flag=False, expect=None)
    dark = show(bus.x, "Plain", "--style", "dark")
    time.sleep(0.6)   # past the portal's half-second answer deadline: time passing is what is tested
    assert show(bus.x, "Default") < dark + 60
