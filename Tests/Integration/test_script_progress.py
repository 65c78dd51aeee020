"""Progress from a script's output on stdin: zenity-style numbers and `# text` lines, and the
richer line protocol (label=, mode=, progress=, done, cancel), with warnings for bad lines."""

from __future__ import annotations

import subprocess
import time

import pytest

from conftest import XHUD_BIN, region_bytes, wait_until
from hud_pixels import any_hud_viewable, bar_fill, visible
from script_client import lines_of, xs, xt  # noqa: F401 (fixtures)


def wait_bar(x, ok=lambda fill, track: True, timeout=5.0):
    """Screenshots until the first HUD window shows a bar whose (fill, track) satisfies ok and
    is the same as in the screenshot before (its tween is over); returns (rect, screenshot)."""
    state = {"rect": (0, 0, 0, 0), "last": None}

    def shows(shot):
        wins = visible(x)
        if not wins:
            state["last"] = None
            return False
        rect = wins[0].rect
        fill, track, _ = bar_fill(shot, rect)
        before, state["last"], state["rect"] = state["last"], (rect, fill, track), rect
        return track > 60 and ok(fill, track) and before == (rect, fill, track)

    shot = x.wait_screen(shows, timeout)
    return state["rect"], shot


# ---------------------------------------------------------------------------------------------
# 1. zenity-style scripts


ZENITY_SCRIPT = 'for p in 10 40 70 90; do echo $p; echo "# Step $p"; sleep 0.45; done'


def test_zenity_script_progress_grows_and_exits_0(xt):
    """`script | xhud --progress --text Start`: zenity's bare --progress is accepted, the bar
    fills as numbers arrive, and the end of the script ends xhud with 0."""
    x = xt
    err = x.tmp / "zenity.err"
    script = x.spawn(["bash", "-c", ZENITY_SCRIPT], stdout=subprocess.PIPE)
    t0 = time.monotonic()
    hud = x.spawn([str(XHUD_BIN), "--progress", "--text", "Start", "--no-shadow", "--animation", "none"],
                  stdin=script.stdout, stderr=open(err, "wb"), stdout=subprocess.DEVNULL)
    script.stdout.close()
    wins = wait_until(lambda: hud.poll() is not None or visible(x), 5)
    assert hud.poll() is None and wins, f"no HUD window for a zenity script (rc {hud.poll()}): {err.read_text()}"
    rect, early = wait_bar(x)
    f1, track1, _ = bar_fill(early, rect)
    _, late = wait_bar(x, lambda fill, track: fill - f1 > 0.3 * track)   # "70" or "90" came
    f2, track2, _ = bar_fill(late, rect)
    assert track1 > 60 and abs(track1 - track2) <= 3, f"no bar track found: widths {track1}, {track2} in {rect}"
    assert f2 - f1 > 0.3 * track2, f"the bar did not fill between 10% and 70%: {f1} -> {f2} of {track2} px"
    assert region_bytes(early, rect) != region_bytes(late, rect)
    rc = wait_until(lambda: hud.poll() is not None, 4)
    elapsed = time.monotonic() - t0
    assert hud.returncode == 0, f"exit {hud.returncode} at the end of the script: {err.read_text()}"
    assert elapsed >= 1.7, f"xhud ended after {elapsed:.2f} s, before its input did"
    assert err.read_text() == "", f"unexpected stderr: {err.read_text()!r}"
    assert wait_until(lambda: not any_hud_viewable(x), 2), "HUD still on screen after xhud exited"


def test_zenity_auto_close_at_100(xs):
    """--auto-close: a `100` line ends xhud (0) although the script goes on."""
    x = xs
    script = x.spawn(["bash", "-c", 'echo 20; echo "# Copying"; sleep 0.4; echo 100; sleep 6; echo "# late"'],
                     stdout=subprocess.PIPE)
    t0 = time.monotonic()
    hud = x.spawn([str(XHUD_BIN), "--progress", "--text", "Start", "--auto-close"], stdin=script.stdout,
                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    script.stdout.close()
    assert wait_until(lambda: hud.poll() is not None or visible(x), 5) and hud.poll() is None, "no HUD window"
    try:
        rc = hud.wait(3)
    except subprocess.TimeoutExpired:
        pytest.fail("--auto-close: xhud still running 3 s after `100` (it waits for the end of input)")
    elapsed = time.monotonic() - t0
    assert rc == 0, f"--auto-close exit {rc}: {hud.stderr.read()!r}"
    assert 0.35 <= elapsed < 2.5, f"exited after {elapsed:.2f} s; `100` came at 0.4 s, end of input at 6.4 s"
    assert script.poll() is None, "the script ended already: the test proves nothing"
    assert wait_until(lambda: not any_hud_viewable(x), 2)


# ---------------------------------------------------------------------------------------------
# 2. The line protocol


def start_stdin_hud(x, *args):
    err = x.tmp / f"stdin{len(x.procs)}.err"
    hud = x.spawn([str(XHUD_BIN), "--animation", "none", "--no-shadow", *args], stdin=subprocess.PIPE,
                  stdout=subprocess.DEVNULL, stderr=open(err, "wb"))
    ok = wait_until(lambda: hud.poll() is not None or visible(x), 5)
    assert ok and hud.poll() is None, f"no HUD for stdin (rc {hud.poll()}): {err.read_text(errors='replace')}"
    return hud, err


def send(hud, data: bytes):
    hud.stdin.write(data)
    hud.stdin.flush()


def wait_warnings(err, n, timeout=5.0):
    """The warning lines on stderr once there are n of them (or timeout passes)."""
    wait_until(lambda: len(lines_of(err.read_bytes())) >= n, timeout)
    return lines_of(err.read_bytes())


def test_line_protocol_label_progress_mode_done(xs):
    x = xs
    hud, err = start_stdin_hud(x, "--label", "Start")
    before = x.screenshot()
    rect0 = visible(x)[0].rect
    send(hud, b"label=Hello protocol\nmode=bar\nprogress=0.5\n")
    rect, mid = wait_bar(x, lambda fill, track: 0.3 * track < fill < 0.75 * track)
    fill, track, _ = bar_fill(mid, rect)
    assert track > 60, f"mode=bar: no bar in {rect}"
    assert 0.3 * track < fill < 0.75 * track, f"progress=0.5: {fill} of {track} px filled"
    assert rect != rect0 or region_bytes(before, rect0) != region_bytes(mid, rect0), "label/mode change not drawn"
    send(hud, b"progress=1\n")
    rect2, shot = wait_bar(x, lambda fill, track: fill > 0.9 * track)
    full, track2, _ = bar_fill(shot, rect2)
    assert full > 0.9 * track2 and full > fill + 0.3 * track, f"progress=1: {full} of {track2} px (0.5: {fill})"

    send(hud, b"frobnicate the widgets\n")
    warn = wait_warnings(err, 1)
    assert len(warn) == 1, f"an unknown line: want one warning line, got {warn!r}"
    assert "frobnicate" in warn[0] and "line 5" in warn[0], warn
    assert hud.poll() is None, "xhud ended on an unknown line"
    assert visible(x), "the HUD went away on an unknown line"

    send(hud, b"done\n")
    try:
        rc = hud.wait(3)
    except subprocess.TimeoutExpired:
        pytest.fail("`done` did not end xhud within 3 s")
    assert rc == 0, f"`done`: exit {rc}; {err.read_text(errors='replace')!r}"
    assert len(lines_of(err.read_bytes())) == 1
    assert wait_until(lambda: not any_hud_viewable(x), 2)


def test_line_protocol_cancel_exits_1(xs):
    x = xs
    hud, err = start_stdin_hud(x, "--label", "Start")
    send(hud, b"label=About to cancel\ncancel\n")
    try:
        rc = hud.wait(3)
    except subprocess.TimeoutExpired:
        pytest.fail("`cancel` did not end xhud within 3 s")
    assert rc == 1, f"`cancel`: exit {rc}; {err.read_text(errors='replace')!r}"
    assert err.read_text() == ""
    assert wait_until(lambda: not any_hud_viewable(x), 2)


def test_line_protocol_bad_lines_warn_and_go_on(xs):
    """An invalid UTF-8 line and a 10 MB line: one warning line each (naming the line), no
    crash, and the end of input still ends xhud with 0."""
    x = xs
    hud, err = start_stdin_hud(x, "--mode", "bar", "--progress", "0.2", "--label", "Start")
    send(hud, b"label=caf\xe9 \xff\xfe bytes\n")                    # line 1
    w1 = wait_warnings(err, 1)
    assert len(w1) == 1 and "line 1" in w1[0] and "UTF-8" in w1[0], f"invalid UTF-8 line: {w1!r}"
    send(hud, b"label=" + b"x" * (10 * 1024 * 1024) + b"\n")          # line 2
    w2 = wait_warnings(err, 2)[1:]
    assert len(w2) == 1 and "line 2" in w2[0], f"10 MB line: want one warning line, got {[l[:200] for l in w2]!r}"
    assert len(w2[0]) < 400, f"the warning for a 10 MB line is {len(w2[0])} characters long"
    assert hud.poll() is None, f"xhud died on a 10 MB line: rc {hud.returncode}"
    send(hud, b"progress=0.9\n")                                         # still listening
    rect, shot = wait_bar(x, lambda fill, track: fill > 0.75 * track)
    fill, track, _ = bar_fill(shot, rect)
    assert track > 60 and fill > 0.75 * track, f"progress=0.9 after the bad lines: {fill} of {track} px"

    # Lines that are garbage through and through: warned about (each warning names its line).
    send(hud, b"\xff\xfe\xfd\n" + b"y" * (10 * 1024 * 1024) + b"\n")  # lines 4 and 5
    wait_until(lambda: (m := lines_of(err.read_bytes())[2:]) and any("line 5" in l for l in m), 5)
    more = lines_of(err.read_bytes())[2:]
    assert any("line 4" in l for l in more) and any("line 5" in l for l in more), more
    assert all(len(l) < 400 and ("line 4" in l or "line 5" in l) for l in more), [l[:200] for l in more]
    hud.stdin.close()
    try:
        rc = hud.wait(3)
    except subprocess.TimeoutExpired:
        pytest.fail("end of input did not end xhud within 3 s")
    assert rc == 0, f"end of input after bad lines: exit {rc}"

