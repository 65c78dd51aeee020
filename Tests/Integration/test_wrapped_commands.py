"""Wrapping a command (`xhud -- COMMAND`): its output and status pass through, with or without
a display; the grace time before a HUD shows; cancel by button or Escape ends the command, with
SIGKILL after --kill-timeout when it ignores SIGTERM."""

from __future__ import annotations

import os
import subprocess
import time

import pytest

from conftest import XHUD_BIN, XevProcess, alive, children_of, proc_state, wait_until
from hud_pixels import any_hud_viewable, bright_bands, visible
from script_client import xhud, xs, xt  # noqa: F401 (fixtures)


SEQ = subprocess.run(["seq", "1", "100000"], capture_output=True, check=True).stdout
WRAPPED = ["sh", "-c", "seq 1 100000; echo err >&2; exit 3"]


@pytest.mark.parametrize("extra", [[], ["--progress-from-output"]], ids=["plain", "progress-from-output"])
def test_wrapping_passes_output_and_status(xs, extra):
    x = xs
    res = xhud(["--label", "Build", *extra, "--", *WRAPPED], x.env)
    assert res.stdout == SEQ, f"stdout differs from seq's ({len(res.stdout)} vs {len(SEQ)} bytes)"
    assert res.stderr == b"err\n", f"stderr {res.stderr[:300]!r}"
    assert res.returncode == 3, f"exit {res.returncode}"

    # stdin passes through too, and output with percentages is left alone.
    data = b"50% done\n\x00\xffbinary\n100%\n"
    res = xhud(["--label", "Cat", *extra, "--", "cat"], x.env, stdin=None, input=data)
    assert (res.returncode, res.stdout, res.stderr) == (0, data, b""), res


@pytest.mark.parametrize("extra", [[], ["--progress-from-output"]], ids=["plain", "progress-from-output"])
def test_wrapping_without_display_passes_through(xhud_bin, extra):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    res = xhud(["--label", "Build", *extra, "--", *WRAPPED], env)
    assert res.stdout == SEQ, f"no display: stdout differs ({len(res.stdout)} vs {len(SEQ)} bytes)"
    assert res.stderr == b"err\n", f"no display: stderr {res.stderr[:300]!r}"
    assert res.returncode == 3, f"no display: exit {res.returncode}"


def root_watcher(x) -> XevProcess:
    """xev on the root's substructure: reports every MapNotify of a top-level window."""
    return x.watch_root()


def test_quick_command_never_maps_a_window(xs):
    """Grace time: a 0.1 s command shows nothing at all, not even its result icon."""
    x = xs
    watcher = root_watcher(x)
    t0 = time.monotonic()
    res = xhud(["--label", "Quick", "--", "sh", "-c", "sleep 0.1"], x.env)
    assert res.returncode == 0, res
    assert time.monotonic() - t0 < 0.45, "premise: the command should end within the grace time"
    time.sleep(1.0)  # past the grace time: a HUD that was going to appear has
    maps = [l for l in watcher.text().splitlines() if "MapNotify" in l]
    assert not maps, f"{len(maps)} window(s) mapped for a 0.1 s command: {watcher.text()[-600:]}"
    assert not any_hud_viewable(x)


def test_slow_command_shows_hud_after_grace(xs):
    """A longer command shows the HUD after about 0.5 s, while it runs."""
    x = xs
    t0 = time.monotonic()
    slow = x.spawn([str(XHUD_BIN), "--label", "Slow", "--", "sleep", "1.6"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    first = None
    while time.monotonic() - t0 < 1.5 and first is None:
        if visible(x):
            first = time.monotonic() - t0
        time.sleep(0.03)
    assert first is not None, "no HUD window while a 1.6 s command ran"
    assert 0.4 <= first <= 1.3, f"the HUD appeared {first:.2f} s after the start, the grace time is 0.5 s"
    assert slow.poll() is None, "premise: the command is still running"
    assert slow.wait(5) == 0


def sh_with_pidfile(pidfile, body="sleep 30"):
    return ["sh", "-c", f'echo $$ > "{pidfile}"; {body}']


def wait_tree(pidfile, timeout=5.0):
    """The wrapped shell's pid (from its pid file) and its child's."""
    ok = wait_until(lambda: pidfile.exists() and pidfile.read_text().strip().isdigit()
                    and children_of(int(pidfile.read_text())), timeout)
    assert ok, "the wrapped command did not start"
    sh = int(pidfile.read_text())
    return [sh, *children_of(sh)]


def button_in(shot, rect):
    """The centre of the button: the lowest band of bright pixels in the bezel (the button's
    outline and title); None when there is none."""
    bands = bright_bands(shot, rect)
    if not bands:
        return None
    x0, y0, w, h = rect
    # A crisp 1 px outline is a band of its own: the button is the last bands that lie within a
    # few pixels of each other (outline, title, outline).
    top, bottom = bands[-1]
    for t, b in reversed(bands[:-1]):
        if top - b > 8:
            break
        top = t
    if not (len(bands) >= 2 and bottom - top >= 10):
        return None
    return x0 + w // 2, (top + bottom) // 2


def button_centre(x, rect):
    """The button's centre, once it is drawn."""
    shot = x.wait_screen(lambda s: button_in(s, rect))
    bands = bright_bands(shot, rect)
    assert bands, f"nothing bright in the HUD window {rect}"
    centre = button_in(shot, rect)
    assert centre, f"no button found: bright bands {bands}"
    return centre


def test_cancel_button_kills_wrapped_command(xt):
    x = xt
    pidfile = x.tmp / "pid"
    t0 = time.monotonic()
    hud = x.spawn([str(XHUD_BIN), "--button", "Cancel", "--label", "Busy", "--no-shadow", "--kill-timeout", "1.5",
                   "--", *sh_with_pidfile(pidfile)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    pids = wait_tree(pidfile)
    assert len(pids) == 2, f"expected sh and its sleep, got {pids}"
    assert wait_until(lambda: visible(x), 3), "no HUD window for the wrapped command"
    bx, by = button_centre(x, visible(x)[0].rect)
    x.click(bx, by)
    t_click = time.monotonic()
    gone = wait_until(lambda: not any(alive(p) for p in pids), 2.5)
    assert gone, f"the wrapped command survived the Cancel button: {[(p, proc_state(p)) for p in pids]}"
    assert time.monotonic() - t_click < 1.2, "the command was not ended by SIGTERM (before --kill-timeout 1.5)"
    try:
        rc = hud.wait(4)
    except subprocess.TimeoutExpired:
        pytest.fail("xhud did not exit after Cancel")
    assert rc == 1, f"cancel: exit {rc}; {hud.stderr.read()!r}"
    assert wait_until(lambda: not any_hud_viewable(x), 2)


def test_cancel_exits_promptly_once_command_is_gone(xs):
    """Escape cancels (the HUD blocks input); with the default --kill-timeout (5 s) a command
    that obeys SIGTERM is gone at once, and so is xhud, without spinning."""
    x = xs
    pidfile = x.tmp / "pid"
    hud = x.spawn([str(XHUD_BIN), "--button", "Cancel", "--label", "Busy", "--", *sh_with_pidfile(pidfile)],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids = wait_tree(pidfile)
    assert wait_until(lambda: visible(x), 3), "no HUD window for the wrapped command"
    x.run("xdotool", "key", "Escape")   # its grab is requested with the map
    assert wait_until(lambda: not any(alive(p) for p in pids), 2), "Escape did not end the wrapped command"

    def cpu_seconds():
        f = open(f"/proc/{hud.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")

    try:
        c0 = cpu_seconds()
    except OSError:
        c0 = None
    try:
        rc = hud.wait(1.5)
    except subprocess.TimeoutExpired:
        c1 = cpu_seconds()
        hud.kill()
        pytest.fail(f"xhud still running 1.5 s after its cancelled command was gone "
                    f"(used {c1 - c0:.2f} s of CPU meanwhile)")
    assert rc == 1


def test_cancel_kills_command_ignoring_sigterm(xs):
    """--kill-timeout 0.5: a command (and its child) that ignore SIGTERM are SIGKILLed."""
    x = xs
    pidfile = x.tmp / "pid"
    hud = x.spawn([str(XHUD_BIN), "--button", "Cancel", "--label", "Stubborn", "--kill-timeout", "0.5",
                   "--", *sh_with_pidfile(pidfile, 'trap "" TERM; sleep 30; echo still here')],
                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pids = wait_tree(pidfile)
    assert wait_until(lambda: visible(x), 3), "no HUD window for the wrapped command"
    x.run("xdotool", "key", "Escape")   # its grab is requested with the map
    t0 = time.monotonic()
    time.sleep(0.25)   # SIGTERM has come and gone: time passing is what is tested
    assert all(alive(p) for p in pids), "premise: the command should ignore SIGTERM"
    gone = wait_until(lambda: not any(alive(p) for p in pids), 2.0)
    assert gone, f"a SIGTERM-ignoring command survived --kill-timeout 0.5: {[(p, proc_state(p)) for p in pids]}"
    assert time.monotonic() - t0 < 2.0
    try:
        rc = hud.wait(2)
    except subprocess.TimeoutExpired:
        pytest.fail("xhud did not exit after killing the command")
    assert rc == 1, f"cancel: exit {rc}"

