"""Real window managers on a test's display, for test_window_managers.py: i3 (no compositor),
Openbox with picom, xfwm4 with its own compositor, and XWayland under weston's headless backend
(the fixture wm, one test per window manager, skipped only where its package is missing); each
configured to run `xhud --id volume ...` on two keys; yellow test windows (xterm) they manage."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from conftest import (SCREEN_H, SCREEN_W, TAG, XHUD_BIN, XSession, _missing_tools, compositor_running, parse_ppm,
                      wait_until)

YELLOW = (255, 255, 0)   # the test windows' background: nothing of the HUD is yellow
CENTRE = (SCREEN_W // 2, SCREEN_H // 2)
CENTRE_REGION = (CENTRE[0] - 300, CENTRE[1] - 200, 600, 400)   # around the screen's centre


# What each window manager needs: (commands, the Debian packages that hold them).
NEEDS = {
    "i3": (["i3", "i3-msg", "xterm"], "i3-wm xterm"),
    "openbox-picom": (["openbox", "picom", "xterm", "wmctrl"], "openbox picom xterm wmctrl"),
    "xfwm4": (["xfwm4", "xfconf-query", "xfsettingsd", "dbus-daemon", "xterm", "wmctrl"],
              "xfwm4 xfconf xfce4-settings dbus xterm wmctrl"),
    "weston-xwayland": (["weston", "Xwayland", "weston-screenshooter", "xterm", "wmctrl", "convert"],
                        "weston xwayland xterm wmctrl imagemagick"),
}

# The keybinding: two keys, two volumes. XF86Audio* are in Xvfb's default keymap.
KEYS = [("XF86AudioLowerVolume", "0.3"), ("XF86AudioRaiseVolume", "0.8")]


def volume_command(progress: str) -> str:
    # --hide-after: the second press comes well within it even on a slow machine; --linger: the
    # server does not outlive the test by long (teardown kills it anyway, by its tag).
    return (f"{XHUD_BIN} --id volume --mode bar --progress {progress} --label Volume "
            f"--no-shadow --hide-after 20 --linger 2")


# ---------------------------------------------------------------------------------------------
# Window managers


class WM:
    """A window manager running on a session's display."""

    def __init__(self, name: str, s: XSession):
        self.name, self.s = name, s
        self.keys = True         # a keybinding can run a command
        self.moves = True        # it honours a client's move request (xdotool windowmove)
        self.pointer = True      # XTEST can move the pointer
        self.why_no_keys = ""

    def move(self, wid: int, x: int, y: int) -> None:
        self.s.run("xdotool", "windowmove", str(wid), str(x), str(y))

    def fullscreen(self, wid: int) -> None:
        self.s.run("wmctrl", "-i", "-r", hex(wid), "-b", "add,fullscreen")

    def activate(self, wid: int) -> None:
        self.s.run("wmctrl", "-i", "-a", hex(wid), check=False)


class I3(WM):
    def fullscreen(self, wid: int) -> None:
        self.s.run("i3-msg", f"[id={wid}] fullscreen enable")

    def move(self, wid: int, x: int, y: int) -> None:
        self.s.run("i3-msg", f"[id={wid}] move position {x} px {y} px")

    def activate(self, wid: int) -> None:
        self.s.run("i3-msg", f"[id={wid}] focus", check=False)


def wm_ready(s: XSession) -> bool:
    out = s.run("xprop", "-root", "_NET_SUPPORTING_WM_CHECK", check=False).stdout
    return bool(re.search(r"window id # 0x[0-9a-fA-F]*[1-9a-fA-F]", out))


def private_runtime_dir(s: XSession) -> Path:
    """XDG_RUNTIME_DIR for the named HUDs' socket: 0700, short (a socket path has 108 bytes)."""
    rt = Path(tempfile.mkdtemp(prefix="xhud-wm-", dir="/tmp"))
    os.chmod(rt, 0o700)
    s.env["XDG_RUNTIME_DIR"] = str(rt)
    s.cleanup.append(lambda: shutil.rmtree(rt, ignore_errors=True))
    return rt


def log_of(s: XSession, name: str) -> str:
    p = s.tmp / f"{name}.log"
    return p.read_text(errors="replace")[-3000:] if p.exists() else ""


def spawn_logged(s: XSession, name: str, cmd: list[str], **kw) -> subprocess.Popen:
    log = open(s.tmp / f"{name}.log", "wb")
    return s.spawn(cmd, stdout=log, stderr=subprocess.STDOUT, **kw)


def start_i3(s: XSession) -> WM:
    conf = s.tmp / "i3.config"
    binds = "\n".join(f"bindsym {key} exec --no-startup-id {volume_command(p)}" for key, p in KEYS)
    conf.write_text(f"""# i3 config file (v4)
# written by window_managers.py (without the line above i3 takes it for a v3 file)
font pango:DejaVu Sans 8
for_window [instance="xhudparent"] floating enable
{binds}
""")
    p = spawn_logged(s, "i3", ["i3", "-c", str(conf)])
    if not wait_until(lambda: p.poll() is not None or wm_ready(s), 10) or p.poll() is not None:
        raise AssertionError("i3 did not start: " + log_of(s, "i3"))
    return I3("i3", s)


OPENBOX_RC = """<?xml version="1.0" encoding="UTF-8"?>
<openbox_config xmlns="http://openbox.org/3.4/rc">
  <focus><focusNew>yes</focusNew><followMouse>yes</followMouse></focus>
  <keyboard>
{binds}
  </keyboard>
</openbox_config>
"""


def start_openbox_picom(s: XSession) -> WM:
    binds = "\n".join(
        f'    <keybind key="{key}"><action name="Execute"><command>{volume_command(p)}</command></action></keybind>'
        for key, p in KEYS)
    rc = s.tmp / "rc.xml"
    rc.write_text(OPENBOX_RC.format(binds=binds))
    picom = spawn_logged(s, "picom", ["picom", "--config", "/dev/null", "--backend", "xrender", "--shadow"])
    if not wait_until(lambda: picom.poll() is not None or compositor_running(s.display), 10) or picom.poll() is not None:
        raise AssertionError("picom did not start: " + log_of(s, "picom"))
    p = spawn_logged(s, "openbox", ["openbox", "--sm-disable", "--config-file", str(rc)])
    if not wait_until(lambda: p.poll() is not None or wm_ready(s), 10) or p.poll() is not None:
        raise AssertionError("openbox did not start: " + log_of(s, "openbox"))
    return WM("openbox-picom", s)


def start_dbus(s: XSession) -> None:
    d = s.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL)
    address = d.stdout.readline().decode().strip()
    if not address:
        raise AssertionError("dbus-daemon --session printed no address")
    s.env["DBUS_SESSION_BUS_ADDRESS"] = address


def start_xfwm4(s: XSession) -> WM:
    start_dbus(s)
    # The shortcuts xfsettingsd runs (xfwm4 has none that run a command).
    for key, p in KEYS:
        s.run("xfconf-query", "-c", "xfce4-keyboard-shortcuts", "-p", f"/commands/custom/{key}", "-n", "-t",
              "string", "-s", volume_command(p))
    s.run("xfconf-query", "-c", "xfce4-keyboard-shortcuts", "-p", "/commands/custom/override", "-n", "-t",
          "bool", "-s", "true")
    s.run("xfconf-query", "-c", "xfwm4", "-p", "/general/use_compositing", "-n", "-t", "bool", "-s", "true")
    # Focus follows the mouse, as under i3 (its default) and Openbox (rc.xml above).
    s.run("xfconf-query", "-c", "xfwm4", "-p", "/general/click_to_focus", "-n", "-t", "bool", "-s", "false")
    p = spawn_logged(s, "xfwm4", ["xfwm4", "--compositor=on", "--sm-client-disable"])
    if not wait_until(lambda: p.poll() is not None or (wm_ready(s) and compositor_running(s.display)), 10) \
            or p.poll() is not None:
        raise AssertionError(f"xfwm4 did not start with its compositor (running: {p.poll() is None}): "
                             + log_of(s, "xfwm4"))
    spawn_logged(s, "xfsettingsd", ["xfsettingsd", "--no-daemon", "--replace"])
    return WM("xfwm4", s)


def adopt_display(s: XSession, display: str) -> None:
    """What XSession.start does after its Xvfb answers, for a display someone else runs."""
    s.display = display
    env = dict(os.environ)
    for var in ("WAYLAND_DISPLAY", "XAUTHORITY"):
        env.pop(var, None)
    env["DISPLAY"] = display
    s.tag = uuid.uuid4().hex
    env[TAG] = s.tag
    env["XDG_CONFIG_HOME"] = str(s.tmp / "config")
    env["XDG_CONFIG_DIRS"] = str(s.tmp / "etc-xdg")
    env.pop("XHUD_CONFIG", None)
    env["XDG_CACHE_HOME"] = str(s.tmp / "cache")
    s.env = env


def start_weston(s: XSession) -> WM:
    # weston's xwayland module binds /tmp/.X11-unix/X<n> and fails when the directory is missing
    # (Xvfb -nolisten tcp uses abstract sockets and does not create it).
    if not os.path.isdir("/tmp/.X11-unix"):
        os.makedirs("/tmp/.X11-unix", exist_ok=True)
        os.chmod("/tmp/.X11-unix", 0o1777)
    wrt = Path(tempfile.mkdtemp(prefix="xhud-weston-", dir="/tmp"))
    os.chmod(wrt, 0o700)
    s.cleanup.append(lambda: shutil.rmtree(wrt, ignore_errors=True))
    socket_name = "wl-" + uuid.uuid4().hex[:8]
    env = dict(os.environ, XDG_RUNTIME_DIR=str(wrt))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    log = s.tmp / "weston.log"
    # --use-pixman: the headless backend's default renderer (noop) draws nothing, and the
    # screenshooter (allowed by --debug) waits for ever for a frame.
    p = s.spawn(["weston", "--backend=headless-backend.so", "--use-pixman", "--xwayland", "--debug",
                 f"--socket={socket_name}", f"--width={SCREEN_W}", f"--height={SCREEN_H}", f"--log={log}"],
                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def display():
        m = re.search(r"xserver listening on display (:\d+)", log.read_text(errors="replace")) if log.exists() else None
        return m.group(1) if m else None

    found = wait_until(lambda: p.poll() is not None or display(), 10)
    if p.poll() is not None or not found:
        text = log.read_text(errors="replace")[-2000:] if log.exists() else "(no log)"
        pytest.skip(f"weston --backend=headless-backend.so --xwayland did not start Xwayland here: {text}")
    adopt_display(s, display())
    s.env["WAYLAND_DISPLAY"] = socket_name
    s.weston_runtime = wrt
    # Xwayland starts on the first connection.
    if not wait_until(lambda: s.run("xdpyinfo", check=False, timeout=10).returncode == 0, 15, 0.1):
        raise AssertionError("Xwayland under weston does not answer xdpyinfo: " + log.read_text(errors="replace")[-2000:])
    if not wait_until(lambda: wm_ready(s), 10):
        raise AssertionError("weston's X window manager did not set _NET_SUPPORTING_WM_CHECK")
    wm = WM("weston-xwayland", s)
    wm.keys = False
    wm.why_no_keys = ("weston binds keys only to its own actions (weston.ini has no key that runs a command), "
                      "and its headless backend has no keyboard")
    wm.moves = False   # weston's X window manager ignores a client's move request: see the test
    # Xwayland under the headless backend (no pointer in the seat) dies of XTEST motion
    # (`xdotool mousemove`: "xserver exited, code 6" in weston's log), with or without a HUD.
    wm.pointer = False

    def screenshot(keep: bool = True):
        shots = s.tmp / "wl-shots"
        shots.mkdir(exist_ok=True)
        for old in shots.glob("*.png"):
            old.unlink()
        res = subprocess.run(["weston-screenshooter"], cwd=shots, env=dict(s.env, XDG_RUNTIME_DIR=str(wrt)),
                             capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
        pngs = sorted(shots.glob("*.png"))
        if res.returncode != 0 or not pngs:
            raise AssertionError(f"weston-screenshooter failed ({res.returncode}): {res.stderr.decode(errors='replace')}")
        raw = subprocess.run(["convert", str(pngs[-1]), "-depth", "8", "ppm:-"], capture_output=True, timeout=20)
        shot = parse_ppm(raw.stdout)
        if keep:
            s.shot_count += 1
            shot.save_ppm(s.tmp / f"screen{s.shot_count:02d}.ppm")
        return shot

    s.screenshot = screenshot
    return wm


STARTERS = {"i3": start_i3, "openbox-picom": start_openbox_picom, "xfwm4": start_xfwm4,
            "weston-xwayland": start_weston}


@pytest.fixture(params=list(STARTERS))
def wm(request, xhud_bin, tmp_path):
    name = request.param
    commands, packages = NEEDS[name]
    missing = [c for c in commands if shutil.which(c) is None]
    if missing:
        pytest.skip(f"{name}: {', '.join(missing)} not installed (Debian: apt-get install {packages})")
    if _missing_tools():
        pytest.skip("missing tools: " + ", ".join(_missing_tools()))
    s = XSession(tmp_path, composited=False)
    s.cleanup = []
    try:
        if name != "weston-xwayland":
            s.start()
        private_runtime_dir(s)
        w = STARTERS[name](s)
        yield w
    finally:
        s.stop()
        for f in s.cleanup:
            f()


# ---------------------------------------------------------------------------------------------
# Test windows


def start_window(wm: WM, name: str, geometry: str = "40x12+100+100") -> int:
    """An xterm (yellow, no text: its command is sleep) with WM_CLASS instance name; returns its
    client window once the window manager has mapped it."""
    s = wm.s
    spawn_logged(s, name, ["xterm", "-bw", "0", "-name", name, "-bg", "yellow", "-fg", "yellow", "-cr", "yellow",
                           "-geometry", geometry, "-e", "sleep", "600"])

    def mapped():
        out = s.run("xdotool", "search", "--classname", f"^{name}$", check=False).stdout.split()
        for tok in out:
            info = s.window_info(int(tok))
            if info and info.viewable:
                return int(tok)
        return None

    wid = wait_until(mapped, 10)
    assert wid, f"xterm {name} was not mapped: " + log_of(s, name)
    return wid


def make_fullscreen(wm: WM, wid: int) -> None:
    wm.fullscreen(wid)
    s = wm.s
    full = lambda: (i := s.window_info(wid)) and (i.x, i.y, i.width, i.height) == (0, 0, SCREEN_W, SCREEN_H)
    assert wait_until(full, 5), f"{wm.name}: window {wid:#x} is not fullscreen: {s.window_info(wid)}"
    # Painted: the centre of the screen is the window's yellow.
    assert wait_until(lambda: s.screenshot(keep=False).bbox_not(YELLOW, 10, CENTRE_REGION) is None, 5), (
        f"{wm.name}: the fullscreen window does not cover the screen's centre")
