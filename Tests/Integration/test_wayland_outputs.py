"""A HUD follows its output on sway: a new scale lays it out again, an output unplugged moves it
to the one left, and a HUD that names no output shows where the user is (the focused output).
Outputs are made with `swaymsg create_output` (HEADLESS-2, to the right of HEADLESS-1). sway
1.7 keeps a disabled output's wl_output: an output is unplugged in a sway nested in the headless
one (its outputs are windows there, WL-1 and WL-2), by closing its window."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time

import pytest

from conftest import XHUD_BIN
from conftest import wait_until as wait_for
from test_accessibility import LAUNCHER, PYATSPI, WALK
from wayland_input import click, window_beneath
from wayland_session import BACKGROUND, HEIGHT, WIDTH, Shot, shown, sway, sway_scaled, wait_until  # noqa: F401 (fixtures)


def swaymsg(s, *args) -> str:
    r = subprocess.run(s.command(["swaymsg", *args]), capture_output=True, text=True, timeout=10)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r.stdout


def second_output(s, width=WIDTH, height=HEIGHT) -> None:
    swaymsg(s, "create_output")
    swaymsg(s, "output", "HEADLESS-2", "resolution", f"{width}x{height}", "position", str(WIDTH), "0")
    assert wait_until(lambda: s.shot("HEADLESS-2").pixel(width // 2, height // 2) == BACKGROUND, 10), \
        "HEADLESS-2 has no background"


def test_a_new_output_scale_lays_the_hud_out_again(sway):
    p = sway.spawn("--label", "Hello")
    box = shown(sway)
    assert box, "no HUD"
    swaymsg(sway, "output", "HEADLESS-1", "scale", "2")

    def doubled():
        b = sway.shot().bezel()
        return b is not None and b[2] >= 1.8 * box[2] and b[3] >= 1.8 * box[3]
    assert wait_until(doubled, 5), (box, sway.shot().bezel())
    x, y, w, h = sway.shot().bezel()
    assert abs(x + w / 2 - WIDTH / 2) <= 4 and abs(y + h / 2 - HEIGHT / 2) <= 4, (x, y, w, h)
    assert p.poll() is None, "the HUD's client ended"


@pytest.fixture
def nested(sway):
    """A sway inside the headless one (its outputs windows there): its clients' environment."""
    env = dict(WAYLAND_DISPLAY="wayland-1", WLR_BACKENDS="wayland", WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1")
    args = sway.command(["sway", "-c", sway.config], **env)
    inner = subprocess.Popen(args, stdout=sway.log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        assert wait_until(lambda: (sway.runtime / "wayland-2").exists(), 10), "the nested sway did not start"

        def socket():
            return next((str(p) for p in sway.runtime.glob("sway-ipc.*.sock") if str(p) != sway.env["SWAYSOCK"]), None)
        assert wait_until(lambda: socket() is not None, 5), "the nested sway has no IPC socket"
        sock = socket()
        yield {"WAYLAND_DISPLAY": "wayland-2", "SWAYSOCK": sock}
    finally:
        os.killpg(inner.pid, signal.SIGTERM)
        inner.wait(timeout=5)


def test_an_unplugged_output_hands_its_hud_to_the_one_left(sway, nested):
    """WL-2 goes (its window closed): the HUD on it moves to WL-1, whole and centred, and its
    client goes on; WL-2 is then no output to name."""
    def run(*args):
        r = subprocess.run(sway.command(list(args), **nested), capture_output=True, text=True, timeout=10)
        assert r.returncode == 0, (args, r.stdout, r.stderr)

    def shot(output):
        try:
            return Shot(sway.grim(output, **nested))
        except RuntimeError:
            return None

    run("swaymsg", "create_output")
    assert wait_until(lambda: shot("WL-2") is not None, 5), "no WL-2"
    p = subprocess.Popen(sway.command([str(XHUD_BIN), "--label", "Moving", "--monitor", "WL-2"], **nested),
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    sway.clients.append(p)
    assert wait_until(lambda: shot("WL-2").bezel(reach=None, step=4) is not None, 5), "no HUD on WL-2"
    assert shot("WL-1").bezel(reach=None, step=4) is None, "the HUD is on WL-1 too"
    swaymsg(sway, '[title="wlroots - WL-2"]', "kill")
    assert wait_until(lambda: (s := shot("WL-1")) is not None and s.bezel(reach=None, step=4) is not None, 5), \
        "the HUD did not move to WL-1"
    time.sleep(0.5)
    s = shot("WL-1")
    x, y, w, h = s.bezel(reach=None)
    assert abs(x + w / 2 - s.width / 2) <= 4 and abs(y + h / 2 - s.height / 2) <= 4, (x, y, w, h, s.width, s.height)
    assert p.poll() is None, "the HUD's client ended with its output"
    r = subprocess.run(sway.command([str(XHUD_BIN), "--label", "After", "--monitor", "WL-2", "--hide-after", "1"], **nested),
                       capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    assert r.returncode == 2 and "WL-2" in r.stderr, (r.returncode, r.stderr)


def test_a_hud_naming_no_output_shows_on_the_focused_one(sway):
    """On the focused output, centred there from its first frame, though that output is smaller
    than the first (which the HUD is laid out on until its surface enters the other)."""
    second_output(sway, 1024, 600)
    swaymsg(sway, "focus", "output", "HEADLESS-2")
    p = sway.spawn("--label", "Here", "--fade-in", "1")
    frames = []
    end = time.monotonic() + 5
    while time.monotonic() < end and len(frames) < 12:
        box = sway.shot("HEADLESS-2").bezel(reach=None, step=2)
        if box:
            frames.append(box)
    assert frames, "no HUD on the focused output"
    for x, y, w, h in frames:
        assert abs(x + w / 2 - 512) <= 4 and abs(y + h / 2 - 300) <= 4, frames
    assert sway.shot("HEADLESS-1").bezel() is None, "the HUD is on the unfocused output too"
    assert p.poll() is None


def test_a_screen_reader_reads_a_hud_on_wayland(sway, tmp_path):
    """The server is an AT-SPI application on Wayland too: the accessibility bus comes from the
    session bus (org.a11y.Bus), as there is no X root window to carry it; a HUD is a child
    named by its label, as on X11."""
    if not (os.path.exists(LAUNCHER) and PYATSPI and shutil.which("dbus-daemon")):
        pytest.skip("at-spi2-core, pyatspi or dbus-daemon missing (scripts/deps.sh installs them)")
    bus = sway.runtime / "bus"
    env = {"DBUS_SESSION_BUS_ADDRESS": f"unix:path={bus}"}
    daemon = subprocess.Popen(sway.command(["dbus-daemon", "--session", "--nofork", "--address", env["DBUS_SESSION_BUS_ADDRESS"]]),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, start_new_session=True)
    launcher = None
    try:
        assert wait_until(bus.exists, 10), "no session bus"
        launcher = subprocess.Popen(sway.command([LAUNCHER, "--launch-immediately"], **env), stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        sway.clients.append(subprocess.Popen(sway.command([str(XHUD_BIN), "--label", "Reading"], **env),
                                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                             start_new_session=True))
        assert shown(sway), "no HUD"

        def child():
            r = subprocess.run(sway.command([PYATSPI, "-c", WALK], **env), capture_output=True, text=True, timeout=20)
            if r.returncode != 0 or not r.stdout.strip():
                return None
            apps = json.loads(r.stdout.strip().splitlines()[-1])
            app = next((a for a in apps if a["name"] == "xhud"), None)
            return app and next((c for c in app["children"] if c["name"] == "Reading"), None)
        found = wait_for(child, 15, 0.2)
        assert found, "no accessible HUD named Reading under the xhud application"
        assert found["showing"], found
    finally:
        for p in (launcher, daemon):
            if p and p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=5)


def test_a_blocking_hud_still_covers_its_output_after_a_new_scale(sway_scaled):
    """A spinner blocks input over its output; at scale 1 after 2 the output is twice as large
    in surface coordinates, and the surface that takes the clicks is made again to cover it: a
    click near the corner, outside where it lay at scale 2, is still taken."""
    _, log = window_beneath(sway_scaled)
    hud = sway_scaled.spawn("--label", "Modal")
    time.sleep(1.5)  # shown (the window beneath is no background to find the bezel on)
    swaymsg(sway_scaled, "output", "HEADLESS-1", "scale", "1")
    time.sleep(1)
    r = click(sway_scaled, 60, 60)
    if r.returncode == 3:
        pytest.skip("the compositor has no virtual pointer: nothing can click")
    assert r.returncode == 0, r.stderr
    time.sleep(0.5)
    assert "button" not in log.read_text(errors="replace"), "a click near the corner reached the window beneath"
    assert hud.poll() is None
