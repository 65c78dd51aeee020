"""The Wayland backend on KDE's compositor: KWin 5.27 headless (`--virtual`) at 150 %, the
scale KDE users pick most. KWin offers wp_fractional_scale_v1 and the viewporter: a HUD is laid
out at 1.5 and drawn into a buffer of its own size in device pixels, shown at its surface's size
(no buffer drawn at 2 and scaled down, as where neither is offered). Its screenshots come from
KWin's own interface (kwin_shot.py). As root, KWin and every client run as the user `xhudtest`.

The 1280x720 desktop is 1920x1080 device pixels, black (no wallpaper): a HUD is what is lit."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from harness.procs import kill_group
from harness.sway import UserSession
from wayland_session import Shot, XhudClients, session, wait_until

WIDTH, HEIGHT, SCALE = 1280, 720, 1.5
PIXELS = (int(WIDTH * SCALE), int(HEIGHT * SCALE))
SHOT = Path(__file__).with_name("kwin_shot.py")


class KShot(Shot):
    def dark(self, x, y) -> bool:
        """Part of the HUD: lit, against the black desktop (the name is the bezel finder's)."""
        return sum(self.pixel(x, y)) > 24


class KWin(XhudClients, UserSession):
    """KWin headless as the session's user, on a session bus of its own (its screenshots)."""

    def __init__(self, user: str | None):
        super().__init__("xhud-kwin-", user, "wayland-k")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={self.runtime / 'bus'}"
        self.daemons: list[subprocess.Popen] = []

    def start(self):
        self.log = open(self.directory / "kwin.log", "wb")
        bus = subprocess.Popen(self.command(["dbus-daemon", "--session", "--nofork", "--address", self.env["DBUS_SESSION_BUS_ADDRESS"]]),
                               stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.daemons.append(bus)
        if not wait_until(lambda: (self.runtime / "bus").exists(), 10):
            pytest.fail("the session bus did not start")
        # A copy: Debian gives kwin_wayland a file capability (CAP_SYS_RESOURCE), which a
        # container's bounding set refuses at exec; the copy has none and needs none here.
        kwin = self.directory / "kwin_wayland"
        shutil.copy(shutil.which("kwin_wayland"), kwin)
        args = self.command([str(kwin), "--virtual", "--width", str(WIDTH), "--height", str(HEIGHT), "--scale", str(SCALE),
                             "--socket", "wayland-k", "--no-lockscreen"], WAYLAND_DISPLAY=None,
                            KWIN_SCREENSHOT_NO_PERMISSION_CHECKS="1")
        self.daemons.append(subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True))
        if not wait_until(lambda: (self.runtime / "wayland-k").exists(), 20):
            pytest.fail("KWin did not start: " + (self.directory / "kwin.log").read_text()[-2000:])
        if not wait_until(lambda: self.try_shot() is not None, 20):
            pytest.fail("KWin's screenshots do not answer: " + (self.directory / "kwin.log").read_text()[-2000:])

    def try_shot(self) -> KShot | None:
        out = subprocess.run(self.command(["/usr/bin/python3", str(SHOT)]), capture_output=True, timeout=20)
        return KShot(out.stdout) if out.returncode == 0 else None

    def shot(self) -> KShot:
        s = self.try_shot()
        assert s is not None, "KWin's screenshot failed"
        return s

    def stop(self):
        self.end_clients(grace=5)
        for p in reversed(self.daemons):
            kill_group(p, grace=5)
        self.log.close()


@pytest.fixture
def kwin():
    yield from session(KWin, ("kwin_wayland", "dbus-daemon"))


def settled(k: KWin, timeout=8.0):
    """The HUD's bounding box once it stands still (its fade-in over), else None."""
    if not wait_until(lambda: k.shot().bezel(reach=None, step=3) is not None, timeout):
        return None
    time.sleep(0.6)
    return k.shot().bezel(reach=None)


def test_hud_is_laid_out_at_one_and_a_half(kwin):
    """At 150 % the HUD is 1.5 times its size at scale 1, at the centre of the output's device
    pixels. (Drawn at wl_output's integer scale, 2, it was twice the size and off centre: its
    margins counted in a 960x540 desktop.)"""
    p = kwin.spawn("--label", "Hello", "--hide-after", "30")
    box = settled(kwin)
    assert box, "no HUD at 150 %"
    x, y, w, h = box
    assert abs(x + w / 2 - PIXELS[0] / 2) <= 3 and abs(y + h / 2 - PIXELS[1] / 2) <= 3, box
    os.killpg(p.pid, signal.SIGTERM)
    assert wait_until(lambda: kwin.shot().bezel(reach=None, step=3) is None, 5), "the HUD stayed"
    kwin.spawn("--label", "Hello", "--hide-after", "30", "--scale", "1")
    one = settled(kwin)
    assert one, "no HUD at --scale 1"
    assert abs(w / one[2] - SCALE) < 0.06 and abs(h / one[3] - SCALE) < 0.06, (box, one)


def test_edge_position_counts_margins_in_the_desktop(kwin):
    """--position bottom-right: the bezel at the bottom-right corner, its margin (20 at scale 1,
    30 device pixels and a shadow) from the edges."""
    kwin.spawn("--label", "Corner", "--position", "bottom-right", "--hide-after", "30")
    box = settled(kwin)
    assert box, "no HUD"
    x, y, w, h = box
    assert 0 <= PIXELS[0] - (x + w) <= 60 and 0 <= PIXELS[1] - (y + h) <= 60, box


def test_spinner_turns_and_a_named_bar_updates_in_place(kwin):
    """Frames are paced by KWin's frame callbacks: the spinner turns; a named bar changes in
    place, in the same box."""
    kwin.spawn("--label", "Turning", "--hide-after", "30")
    box = settled(kwin)
    assert box, "no spinner"
    x, y, w, h = box
    frames = set()
    for _ in range(6):
        frames.add(kwin.shot().region(x, y, w, h // 2))
        time.sleep(0.12)
    assert len(frames) >= 3, f"the spinner did not turn ({len(frames)} distinct frames of 6)"
    r = kwin.xhud("--id", "volume", "--mode", "bar", "--progress", "0.2", "--position", "top")
    assert r.returncode == 0, r.stderr
    assert wait_until(lambda: kwin.shot().bezel(reach=None, step=3) is not None, 5)
    time.sleep(0.6)
    before = kwin.shot()
    r = kwin.xhud("--id", "volume", "--progress", "0.9")
    assert r.returncode == 0, r.stderr
    assert wait_until(lambda: kwin.shot().pixels != before.pixels, 3), "the bar did not change"
    r = kwin.xhud("hide", "--id", "volume")
    assert r.returncode == 0, r.stderr
