"""The desktop's look: its light or dark preference and its UI font.

The settings portal's `org.freedesktop.appearance` `color-scheme` (served here by a stand-in
portal on a private bus, as xdg-desktop-portal serves GNOME's and KDE's setting) chooses the
style of HUDs that nothing else colours, and a change is followed by the next HUD. The UI font
(the portal's `org.gnome.desktop.interface` `font-name`, XSETTINGS' `Gtk/FontName` served by
the real xsettingsd, GTK's settings.ini `gtk-font-name`) draws every font that names
`system-ui`, as the defaults do."""

from __future__ import annotations

import subprocess
import time

import pytest

from conftest import wait_until
from named_client import named, nx  # noqa: F401  (nx: a fixture)
from test_notifications import bus  # noqa: F401  (a fixture: a private bus)

PYTHON = "/usr/bin/python3"
if subprocess.run([PYTHON, "-c", "import dbus, gi"], capture_output=True).returncode != 0:
    pytestmark = pytest.mark.skip(reason="python3-dbus and python3-gi (scripts/deps.sh installs them)")

PORTAL = r'''
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
path = sys.argv[1]
font_path = sys.argv[2] if len(sys.argv) > 2 else None
def font():
    try:
        return open(font_path).read().strip() if font_path else ""
    except OSError:
        return ""
def scheme():
    try:
        return int(open(path).read().strip() or 0)
    except (OSError, ValueError):
        return 0
class Settings(dbus.service.Object):
    last = scheme()
    @dbus.service.method("org.freedesktop.portal.Settings", in_signature="ss", out_signature="v")
    def ReadOne(self, namespace, key):
        if (namespace, key) == ("org.gnome.desktop.interface", "font-name") and font():
            return dbus.String(font(), variant_level=1)
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


def hud_pixels(x, label: str):
    """The HUD named `label`'s window as it shows, once still: (width, height, bytes)."""
    def read():
        for w in x.visible_hud_windows():
            if label in x.xprop(w.id, "_NET_WM_NAME"):
                shot = x.screenshot(keep=False)
                return (w.width, w.height, bytes(b for yy in range(w.y, w.y + w.height) for xx in range(w.x, w.x + w.width)
                                                 for b in shot.pixel(xx, yy)))
        return None
    from conftest import wait_steady
    return wait_steady(read, 5, 0.15)


def typeface(x, *args: str):
    """The pixels of a HUD labelled "Typeface" drawn with `args`, hidden after."""
    res = named(x, "--id", "face", "--mode", "text", "--label", "Typeface", "--details", "the details label",
                "--animation", "none", "--blur", "0", "--no-shadow", *args)
    assert res.returncode == 0, res.stderr
    got = hud_pixels(x, "Typeface")
    assert got, "no HUD"
    assert named(x, "hide", "--id", "face").returncode == 0
    assert wait_until(lambda: not x.visible_hud_windows(), 5)
    return got


def assert_drawn_in_serif(x):
    """The default fonts draw in DejaVu Serif: a HUD with no font given is the same, pixel for
    pixel, as one naming DejaVu Serif at the defaults' weights and sizes, and not one in Sans."""
    serif = typeface(x, "--font", "DejaVu Serif Semibold 16px", "--details-font", "DejaVu Serif 12px")
    sans = typeface(x, "--font", "DejaVu Sans Semibold 16px", "--details-font", "DejaVu Sans 12px")
    assert serif != sans, "premise: the two families draw differently"
    got = wait_until(lambda: (t := typeface(x)) == serif and t, 5)
    assert got, "the desktop's UI font (DejaVu Serif) does not draw the default label"


def test_the_portals_ui_font_draws_the_default_fonts(bus, tmp_path):
    scheme, font = tmp_path / "scheme", tmp_path / "font"
    scheme.write_text("0")
    font.write_text("DejaVu Serif 11")
    portal = subprocess.Popen([PYTHON, "-c", PORTAL, str(scheme), str(font)], env=bus.x.env, stdout=subprocess.PIPE, text=True)
    bus.x.procs.append(portal)
    assert portal.stdout.readline().strip() == "ready", "the stand-in portal did not start"
    bus.start_server(flag=False, expect=None)
    assert_drawn_in_serif(bus.x)


def test_gtk_settings_ini_names_the_ui_font_and_the_dark_preference(bus):
    ini = bus.x.tmp / "config" / "gtk-3.0" / "settings.ini"
    ini.parent.mkdir(parents=True, exist_ok=True)
    ini.write_text("[Settings]\ngtk-font-name = DejaVu Serif 10\ngtk-application-prefer-dark-theme = false\n"
                   "gtk-theme-name=Adwaita\n")
    bus.start_server(flag=False, expect=None)
    assert_drawn_in_serif(bus.x)
    dark = show(bus.x, "Plain", "--style", "dark")
    assert show(bus.x, "Default") > dark + 200, "a desktop that prefers light (GTK: not dark) got a dark HUD"


def test_xsettings_name_the_ui_font(bus):
    import shutil
    if shutil.which("xsettingsd") is None:
        pytest.skip("xsettingsd is not installed (scripts/deps.sh installs it)")
    conf = bus.x.tmp / "xsettingsd.conf"
    conf.write_text('Gtk/FontName "DejaVu Serif 11"\nNet/ThemeName "Adwaita-dark"\nXft/DPI 98304\n')
    bus.x.spawn(["xsettingsd", "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert wait_until(lambda: _owner(bus.x), 5), "xsettingsd did not take the selection"
    bus.start_server(flag=False, expect=None)
    assert_drawn_in_serif(bus.x)


def _owner(x) -> bool:
    """Whether _XSETTINGS_S0 has an owner."""
    from conftest import _open
    xl, d = _open(x.display)
    try:
        return xl.XGetSelectionOwner(d, xl.XInternAtom(d, b"_XSETTINGS_S0", 0)) != 0
    finally:
        xl.XCloseDisplay(d)
