"""The Wayland backend on a real compositor: a headless sway (Debian 12's 1.7, pixman), HUDs
started with WAYLAND_DISPLAY set and DISPLAY unset, and what the compositor shows read back with
grim (the session and its screenshots: wayland_session.py). sway refuses to run as root: as
root, sway and every client run as the user `xhudtest` (made when missing). Clicks and Escape:
test_wayland_input.py."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import XHUD_BIN, xhud_bin, xplain  # noqa: F401 (fixtures)
from harness.procs import hosts
from harness.sway import UserSession
from wayland_session import BACKGROUND, HEIGHT, WIDTH, _as_user, gone, shown, sway, sway_scaled, wait_until  # noqa: F401


def test_background_alone(sway):
    shot = sway.shot()
    assert (shot.width, shot.height) == (WIDTH, HEIGHT)
    assert shot.pixel(WIDTH // 2, HEIGHT // 2) == BACKGROUND
    assert shot.bezel() is None


def test_spinner_at_the_centre_animates_and_goes(sway):
    p = sway.spawn("--label", "Hello")
    box = shown(sway)
    assert box, f"no bezel at the output's centre; xhud said {p.stderr.read1().decode() if p.poll() is not None else ''}"
    x, y, w, h = box
    assert abs((x + w / 2) - WIDTH / 2) <= 3 and abs((y + h / 2) - HEIGHT / 2) <= 3, f"bezel {box} is not centred"
    assert 40 <= w <= 400 and 40 <= h <= 400, f"bezel {box}"
    # The spinner turns: its square differs from one moment to the next.
    frames = []
    for _ in range(4):
        frames.append(sway.shot().region(x, y, w, h // 2))
        time.sleep(0.15)
    assert len(set(frames)) > 1, "the spinner did not move in 0.6 s"
    os.killpg(p.pid, signal.SIGTERM)
    assert gone(sway), "the HUD stayed after its client ended"


def test_fade_in_is_drawn_with_alpha(sway):
    """No compositor-side opacity on Wayland: a slow fade-in's frames are drawn translucent, the
    bezel's pixels between the background and their final colour."""
    sway.spawn("--label", "Fading", "--fade-in", "3")
    cx, cy = WIDTH // 2 - 30, HEIGHT // 2   # beside the indicator and the label: the bezel's fill
    assert wait_until(lambda: sway.shot().pixel(cx, cy) != BACKGROUND, 3), "nothing appeared"
    time.sleep(0.7)
    middle = sum(sway.shot().pixel(cx, cy))
    assert wait_until(lambda: sway.shot().bezel() is not None, 5)
    time.sleep(3)
    final = sum(sway.shot().pixel(cx, cy))
    assert final + 30 < middle < sum(BACKGROUND) - 30, (final, middle, sum(BACKGROUND))


def test_named_osd_updates_in_place_and_hides(sway):
    r = sway.xhud("--id", "volume", "--mode", "bar", "--progress", "0.5")
    assert r.returncode == 0, r.stderr
    box = shown(sway)
    assert box, "the OSD did not show"
    x, y, w, h = box

    def fill(shot):
        """The light pixels in the bezel: the bar's outline and its fill."""
        return sum(1 for j in range(y, y + h) for i in range(x, x + w) if sum(shot.pixel(i, j)) > 600)

    before = sway.shot()
    r = sway.xhud("--id", "volume", "--progress", "0.9")
    assert r.returncode == 0, r.stderr
    assert wait_until(lambda: sway.shot().region(*box) != before.region(*box), 3), "the bar did not change"
    time.sleep(0.4)   # the bar's move
    after = sway.shot()
    assert after.bezel() == box, "the update moved the bezel or made another one"
    assert fill(after) > fill(before) * 1.3, "the bar's fill did not grow"
    r = sway.xhud("hide", "--id", "volume")
    assert r.returncode == 0, r.stderr
    assert gone(sway), "the OSD stayed after hide"


def test_sway_exec_runs_the_osd(sway):
    """A binding's command, run by sway with its own environment (`swaymsg exec` runs it as
    `bindsym ... exec` does): two presses, one OSD, updated in place."""
    if "SWAYSOCK" not in sway.env:
        pytest.skip("sway's IPC socket was not found")
    for progress in ("0.3", "0.8"):
        r = subprocess.run(sway.command(["swaymsg", "exec", f"{XHUD_BIN} --id volume --mode bar --progress {progress}"]),
                           capture_output=True, text=True, timeout=10)
        assert r.returncode == 0, r.stdout + r.stderr
        box = shown(sway)
        assert box, f"no OSD after the press with {progress}"
        if progress == "0.3":
            first = box, sway.shot().region(*box)
    assert box == first[0], "the second press moved the OSD or made another"
    assert sway.shot().region(*box) != first[1], "the second press did not update the bar"


def test_wrapped_command_shows_and_passes_its_status(sway):
    """`xhud -- COMMAND` on Wayland: the HUD shows after its grace time while the command runs,
    and xhud exits with the command's status."""
    p = sway.spawn("--label", "Building", "--result-time", "0", "--", "/bin/sh", "-c", "sleep 2; exit 3")
    assert shown(sway, 3), "no HUD while the command ran"
    assert p.wait(timeout=10) == 3
    assert gone(sway)


def test_progress_on_stdin(sway):
    """The line protocol on stdin moves a bar; its end hides the HUD."""
    p = subprocess.Popen(sway.command([str(XHUD_BIN), "--mode", "bar", "--label", "Copying"]), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    sway.clients.append(p)
    p.stdin.write(b"progress=0.1\n")
    p.stdin.flush()
    box = shown(sway)
    assert box, "no bar"
    before = sway.shot().region(*box)
    p.stdin.write(b"progress=0.9\n")
    p.stdin.flush()
    assert wait_until(lambda: sway.shot().region(*box) != before, 3), "the bar did not move"
    p.stdin.close()
    assert p.wait(timeout=5) == 0
    assert gone(sway)


def test_notify_send_shows_on_wayland(sway):
    """`xhud server --notifications` on sway: notify-send's notification is a HUD there."""
    for tool in ("dbus-daemon", "notify-send"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed")
    bus = subprocess.Popen(sway.command(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"]),
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
    sway.clients.append(bus)
    address = bus.stdout.readline().decode().strip()
    assert address.startswith("unix:"), address
    server = subprocess.Popen(sway.command([str(XHUD_BIN), "server", "--notifications"], DBUS_SESSION_BUS_ADDRESS=address),
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    sway.clients.append(server)

    def notify():
        return subprocess.run(sway.command(["notify-send", "Hello from notify-send"], DBUS_SESSION_BUS_ADDRESS=address),
                              capture_output=True, text=True, timeout=10).returncode == 0

    # The name is taken once the server is up.
    assert wait_until(notify, 10, 0.3), "notify-send never reached the server"
    assert wait_until(lambda: sway.shot().bezel(reach=None, step=4) is not None, 5), "no notification shown"


def test_two_named_huds_stack_apart(sway):
    """Two named HUDs stack as on X11: two bezels, one above the other, not overlapping (the
    first slides to make room: its layer surface's margins follow)."""
    for name in ("first", "second"):
        r = sway.xhud("--id", name, "--label", name.title(), "--mode", "text", "--hide-after", "8")
        assert r.returncode == 0, r.stderr

    def runs():
        shot = sway.shot()
        # A row is a bezel's when it has dark pixels near the centre (its text is light).
        column = [any(shot.dark(x, y) for x in range(WIDTH // 2 - 60, WIDTH // 2 + 60, 3)) for y in range(HEIGHT)]
        found, start = [], None
        for y, dark in enumerate(column + [False]):
            if dark and start is None:
                start = y
            elif not dark and start is not None:
                if y - start > 8:
                    found.append((start, y))
                start = None
        return found

    assert wait_until(lambda: len(runs()) == 2, 5), f"not two bezels apart: {runs()}"
    time.sleep(0.8)   # the slide's end
    (a0, a1), (b0, b1) = runs()
    assert a1 < b0, "the bezels overlap"


def test_window_has_no_meaning_on_wayland(sway):
    r = sway.xhud("--label", "x", "--window", "active", "--hide-after", "1")
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Wayland" in r.stderr


def test_monitor_names_an_output(sway):
    sway.spawn("--label", "Here", "--monitor", "HEADLESS-1")
    assert shown(sway), "no HUD on the output named HEADLESS-1"
    r = sway.xhud("--label", "Nowhere", "--monitor", "DP-9", "--hide-after", "1")
    assert r.returncode == 2 and "DP-9" in r.stderr and "HEADLESS-1" in r.stderr, (r.returncode, r.stderr)


@pytest.mark.parametrize("position", ["top", "bottom-right"])
def test_position_puts_the_bezel_at_the_edge(sway, position):
    """The layer surface is anchored where the HUD's layout puts its window: at the edge (with
    the layout's margin), as on X11."""
    sway.spawn("--label", "Edge", "--position", position)
    assert wait_until(lambda: sway.shot().bezel(reach=None, step=4) is not None, 5), "no bezel"
    time.sleep(0.5)
    x, y, w, h = sway.shot().bezel(reach=None)
    if position == "top":
        assert y < 60 and abs(x + w / 2 - WIDTH / 2) <= 3, (x, y, w, h)
    else:
        assert WIDTH - (x + w) < 60 and HEIGHT - (y + h) < 60, (x, y, w, h)
        assert x > WIDTH / 2 and y > HEIGHT / 2, (x, y, w, h)


def test_scale_two_draws_twice_the_pixels(sway_scaled):
    """At output scale 2 the HUD is laid out at scale 2 and sent with a buffer scale of 2: its
    bezel covers twice the pixels each way, sharp, still at the centre."""
    sway_scaled.spawn("--label", "Hello")
    box = shown(sway_scaled)
    assert box, "no bezel at scale 2"
    x, y, w, h = box
    assert abs((x + w / 2) - WIDTH / 2) <= 4 and abs((y + h / 2) - HEIGHT / 2) <= 4, box
    # At scale 1 the same HUD's bezel is about 85x100 pixels (test_spinner_at_the_centre...).
    assert 150 <= w <= 260 and 170 <= h <= 300, box


def test_bad_backend_is_refused(sway):
    r = sway.xhud("--backend", "mir", "--label", "x")
    assert r.returncode == 2 and "--backend" in r.stderr


def test_idle_osd_costs_no_cpu(sway):
    """Nothing ticks when nothing moves: a shown bar's server sleeps."""
    r = sway.xhud("--id", "volume", "--mode", "bar", "--progress", "0.5")
    assert r.returncode == 0, r.stderr
    assert shown(sway), "the OSD did not show"
    time.sleep(0.5)
    pids = sway.processes("xhud-host")
    assert pids, "no server process"

    def cpu():
        total = 0
        for pid in pids:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])   # utime + stime, in clock ticks
        return total

    # Its start's last work (the accessibility bus, looked for after the first frames) may
    # fall in a window on a loaded machine: the first of three 2 s windows that is still.
    used = []
    for _ in range(3):
        before = cpu()
        time.sleep(2)   # the window: time passing is what is measured
        used.append(cpu() - before)
        if used[-1] <= 2:
            break
    assert used[-1] <= 2, f"the server used CPU while the OSD stood still: {used} ticks a 2 s window"


def test_protocol_tables_are_what_the_scanner_makes():
    """The checked-in interface tables are wayland-scanner's output for the protocols."""
    if not shutil.which("wayland-scanner"):
        pytest.skip("wayland-scanner is not installed (libwayland-bin)")
    script = Path(__file__).resolve().parents[2] / "scripts" / "wayland-protocols.sh"
    r = subprocess.run([str(script), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_x11_server_never_loads_libwayland(xplain):
    """With only DISPLAY set the server draws on X11, and libwayland-client is not even mapped
    (it is loaded with dlopen when Wayland is chosen)."""
    env = {k: v for k, v in xplain.env.items() if k != "WAYLAND_DISPLAY"}
    xplain.env = env
    xplain.start_xhud("--label", "X11")
    pids = hosts("DISPLAY", env["DISPLAY"])
    assert pids, "no X11 server process"
    for pid in pids:
        maps = Path(f"/proc/{pid}/maps").read_text()
        assert "libwayland" not in maps, f"server {pid} mapped libwayland on X11"


def test_compositor_without_layer_shell_says_so(tmp_path):
    """weston has no layer-shell: with no X display to fall back on, xhud says why and exits 3."""
    if not shutil.which("weston"):
        pytest.skip("weston is not installed")
    if not XHUD_BIN.exists():
        pytest.skip(f"{XHUD_BIN} is not built")
    s = UserSession("xhud-weston-", _as_user())
    log = open(s.directory / "weston.log", "wb")
    weston = subprocess.Popen(s.command(["weston", "--backend=headless-backend.so", "--use-pixman", "--socket=wayland-1",
                                         "--idle-time=0"]), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        if not wait_until(lambda: (s.runtime / "wayland-1").exists(), 10):
            pytest.skip("weston did not start: " + (s.directory / "weston.log").read_text()[-500:])
        r = s.run([XHUD_BIN, "--label", "Hello", "--hide-after", "1"], 10)
        assert r.returncode == 3, (r.returncode, r.stderr)
        assert "zwlr_layer_shell_v1" in r.stderr, r.stderr
    finally:
        os.killpg(weston.pid, signal.SIGTERM)
        weston.wait(timeout=5)
        log.close()
        s.remove()
