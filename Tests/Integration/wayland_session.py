"""A Wayland compositor for one test, as its clients see it: a headless sway (harness/sway.py) or
another compositor (`session`), run as the user `xhudtest` when the tests run as root (made when
missing), the xhud clients started in it, and what it shows read back with grim (`Shot`, with
the HUD's bezel found in it). The output is 1280x720 in a solid colour; a HUD's bezel is darker
than it at the centre."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from conftest import XHUD_BIN
from harness import sway as harness_sway
from harness.polling import wait_until as harness_wait
from harness.screens import Screenshot, parse_ppm
from harness.sway import as_user, sway_user

WIDTH, HEIGHT = 1280, 720
BACKGROUND = (0x3A, 0x6E, 0xA5)


def wait_until(predicate, timeout, step=0.05):
    """Whether predicate held within timeout; polled less often than X tests poll (a grim each)."""
    return bool(harness_wait(predicate, timeout, step))


class Shot(Screenshot):
    """A screenshot (a binary PPM) with the HUD's bezel found in it."""

    def __init__(self, data: bytes):
        shot = parse_ppm(data)
        super().__init__(shot.width, shot.height, shot.data)

    @property
    def pixels(self) -> bytes:
        return self.data

    def dark(self, x, y) -> bool:
        """Darker than the background by far: a dark bezel over it."""
        return sum(self.pixel(x, y)) < sum(BACKGROUND) - 120

    def bezel(self, reach=300, step=2) -> tuple[int, int, int, int] | None:
        """The bounding box of the dark pixels within `reach` of the centre (x, y, w, h): the
        bezel, its light label, indicator and bar inside it. A `reach` of None: anywhere."""
        cx, cy = self.width // 2, self.height // 2
        rx, ry = (cx, cy) if reach is None else (reach, reach)
        xs, ys = [], []
        for y in range(max(0, cy - ry), min(self.height, cy + ry), step):
            row = [x for x in range(max(0, cx - rx), min(self.width, cx + rx), step) if self.dark(x, y)]
            if row:
                ys.append(y)
                xs += (row[0], row[-1])
        if not ys:
            return None
        return min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


class XhudClients:
    """xhud run as the session's user: to its end (xhud) or left running (spawn)."""

    def xhud(self, *args, timeout=10) -> subprocess.CompletedProcess:
        return self.run([XHUD_BIN, *args], timeout)

    def spawn(self, *args) -> subprocess.Popen:
        return self.spawn_client([XHUD_BIN, *args])


class Sway(XhudClients, harness_sway.Sway):
    """A headless sway, the HUDs its clients start, and what it shows as a `Shot`."""

    def __init__(self, user: str | None, scale: int = 1):
        super().__init__("xhud-wayland-", user, WIDTH, HEIGHT, "".join(f"{c:02x}" for c in BACKGROUND), scale)

    def start(self):
        try:
            super().start()
        except RuntimeError as e:
            pytest.fail(str(e))
        # swaybg paints the background a moment after the output is up.
        if not wait_until(lambda: self.shot().pixel(WIDTH // 2, HEIGHT // 2) == BACKGROUND, 10):
            pytest.fail(f"the background is not {BACKGROUND} (is swaybg installed?)")

    def shot(self, output: str | None = None) -> Shot:
        return Shot(self.grim(output))

    def stop(self):
        self.end_clients()
        super().stop()


def _as_user() -> str | None:
    """The user sway and the clients run as (None: this one), able to reach the binary and the
    tests' helpers; the test is skipped when there is none."""
    user, why = sway_user(make=True)
    if why:
        pytest.skip(why)
    for path, test in ((XHUD_BIN, "-x"), (Path(__file__).with_name("wayland_pointer.py"), "-r")):
        if subprocess.run([*as_user(user), "test", test, str(path)]).returncode != 0:
            pytest.skip(f"the user {user} (sway refuses root) cannot reach {path}: the checkout must be readable by others")
    return user


@pytest.fixture
def sway():
    yield from _sway(1)


@pytest.fixture
def sway_scaled():
    """The same output at scale 2 (a 640x360 desktop in 1280x720 pixels)."""
    yield from _sway(2)


def _sway(scale: int):
    yield from session(lambda user: Sway(user, scale), ("sway", "swaybg", "grim"))


def session(make, tools: tuple[str, ...]):
    """A compositor for one test, made by make(user) and started; stopped and its directory
    removed afterwards. Skipped without its tools or the binary."""
    for tool in tools:
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed (scripts/deps.sh installs it)")
    if not XHUD_BIN.exists():
        pytest.skip(f"{XHUD_BIN} is not built")
    s = make(_as_user())
    try:
        s.start()
        yield s
    finally:
        s.stop()
        s.remove()


def shown(s: Sway, timeout=5.0):
    """The bezel once it is up (its fade-in over), else None."""
    box = None
    if wait_until(lambda: s.shot().bezel() is not None, timeout):
        time.sleep(0.5)   # the fade-in's end
        box = s.shot().bezel()
    return box


def gone(s: Sway, timeout=5.0) -> bool:
    return wait_until(lambda: s.shot().bezel() is None, timeout)
