"""Scripts: zenity-style progress on stdin, the richer line protocol, wrapping a command
(output and status pass through, grace time, cancel), notifications that return at once, and
the exit codes of usage errors."""

from __future__ import annotations

import os
import signal
import subprocess
import time
import uuid

import pytest

from conftest import BACKGROUND, TAG, XHUD_BIN, XevProcess, alive, children_of, environ_of, kill_tagged, proc_state, tagged_hosts, wait_until  # noqa: F401

@pytest.fixture
def xs(xplain):
    """xplain, with an environment tagged so that detached HUDs are found and killed."""
    tag = uuid.uuid4().hex
    xplain.env = dict(xplain.env, **{TAG: tag})
    try:
        yield xplain
    finally:
        kill_tagged(tag)


@pytest.fixture
def xt(x):
    """x (with and without xcompmgr), tagged like xs."""
    tag = uuid.uuid4().hex
    x.env = dict(x.env, **{TAG: tag})
    try:
        yield x
    finally:
        kill_tagged(tag)


def xhud(args, env, timeout=10, **kw) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([str(XHUD_BIN), *args], env=env, capture_output=True, timeout=timeout,
                              stdin=kw.pop("stdin", subprocess.DEVNULL), **kw)
    except subprocess.TimeoutExpired:
        pytest.fail(f"xhud {' '.join(args)} did not exit within {timeout} s")


def lines_of(data) -> list[str]:
    if isinstance(data, bytes):
        data = data.decode(errors="replace")
    return [l for l in data.splitlines() if l.strip()]


def bright(px, threshold=185) -> bool:
    return min(px) >= threshold


def bright_bands(shot, rect):
    """Runs of consecutive rows of rect that hold bright pixels (label, bar, button), top down."""
    x0, y0, w, h = rect
    rows = [y for y in range(max(0, y0), min(shot.height, y0 + h))
            if any(bright(shot.pixel(xx, y)) for xx in range(max(0, x0), min(shot.width, x0 + w)))]
    bands = []
    for y in rows:
        if bands and y <= bands[-1][1] + 3:   # a thin outline's gaps do not split a band
            bands[-1][1] = y
        else:
            bands.append([y, y])
    return [tuple(b) for b in bands]


def bar_fill(shot, rect):
    """The bar's fill inside rect (a HUD window in bar mode, where the bar is the topmost
    content): on the middle row of the first band of bright rows, the bright pixels (the fill
    and the track's outline) and the extent of the track; returns (fill, track width, row)."""
    x0, y0, w, h = rect
    bands = bright_bands(shot, rect)
    if not bands:
        return 0, 0, None
    top, bottom = bands[0]
    y = (top + bottom) // 2
    xs_ = [xx for xx in range(max(0, x0), min(shot.width, x0 + w)) if bright(shot.pixel(xx, y))]
    if not xs_:   # the first band is no bar (a label between two frames, while the mode changes)
        return 0, 0, None
    return len(xs_), xs_[-1] - xs_[0] + 1, y


def visible(x):
    return x.visible_hud_windows()


def any_hud_viewable(x) -> bool:
    return bool([w for w in x.hud_windows() if w.viewable])


def region_bytes(shot, rect) -> bytes:
    x0, y0, w, h = rect
    return b"".join(bytes(shot.pixel(x, y)) for y in range(y0, y0 + h) for x in range(x0, x0 + w))


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


# ---------------------------------------------------------------------------------------------
# 3.-6. Wrapping a command


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


# ---------------------------------------------------------------------------------------------
# 7. Notifications


def test_notification_returns_at_once_and_hides_itself(xs):
    x = xs
    t0 = time.monotonic()
    res = xhud(["success", "Saved", "--min-duration", "1"], x.env)
    took = time.monotonic() - t0
    assert res.returncode == 0, res
    assert took < 0.5, f"`xhud success` took {took:.2f} s to return"
    assert wait_until(lambda: visible(x), 0.5), "no HUD window after `xhud success` returned"
    time.sleep(max(0, t0 + 0.6 - time.monotonic()))
    assert visible(x), "the notification was gone at 0.6 s (min-duration 1)"
    assert wait_until(lambda: not any_hud_viewable(x), max(0.1, t0 + 2.5 - time.monotonic()), 0.05), (
        "the notification is still on screen 2.5 s after it appeared (1 s + fade)")

    t0 = time.monotonic()
    res = xhud(["info", "Half a second", "--hide-after", "0.5"], x.env)
    assert res.returncode == 0 and time.monotonic() - t0 < 0.5, res
    assert wait_until(lambda: visible(x), 0.5), "no HUD window for --hide-after 0.5"
    time.sleep(max(0, t0 + 0.3 - time.monotonic()))
    assert visible(x), "--hide-after 0.5: gone at 0.3 s"
    assert wait_until(lambda: not any_hud_viewable(x), max(0.1, t0 + 1.8 - time.monotonic()), 0.05), (
        "--hide-after 0.5: still on screen at 1.8 s")


def test_notification_wait_lasts_until_hidden(xs):
    x = xs
    t0 = time.monotonic()
    res = xhud(["success", "Saved", "--min-duration", "1", "--wait"], x.env)
    took = time.monotonic() - t0
    assert res.returncode == 0, res
    assert 0.95 <= took <= 2.5, f"--wait returned after {took:.2f} s (1 s + fade expected)"
    assert not any_hud_viewable(x), "--wait returned while the HUD was still on screen"


def test_icon_notification_dismissed_by_click(xs):
    x = xs
    t0 = time.monotonic()
    res = xhud(["info", "Hello", "--min-duration", "3", "--animation", "none"], x.env)
    assert res.returncode == 0, res
    wins = wait_until(lambda: visible(x), 1)
    assert wins, "no HUD window for `xhud info`"
    cx, cy = wins[0].centre
    x.click(int(cx), int(cy))
    t_click = time.monotonic()
    assert wait_until(lambda: not any_hud_viewable(x), 1.2), "a click on the bezel did not dismiss `xhud info`"
    assert time.monotonic() - t0 < 2.2, "dismissed, but not well before its 3 s"


def test_text_notification_lets_clicks_through(xs):
    x = xs
    xev = x.start_xev("400x300+440+250")   # under the centred bezel
    x.click(460, 270)
    assert wait_until(lambda: xev.button_presses() >= 1, 3), "premise: xev gets clicks"
    xev.clear()
    res = xhud(["--mode", "text", "--label", "Hi", "--min-duration", "2", "--animation", "none"], x.env)
    assert res.returncode == 0, res
    wins = wait_until(lambda: visible(x), 1)
    assert wins, "no HUD window for --mode text"
    cx, cy = wins[0].centre
    x.click(int(cx), int(cy))
    assert wait_until(lambda: xev.button_presses() >= 1, 2), "the click on a text HUD did not reach the window below"
    time.sleep(0.4)   # a dismissal, had there been one, shows meanwhile: time passing is what is tested
    assert visible(x), "a click dismissed the text-only HUD (it should pass through)"


# ---------------------------------------------------------------------------------------------
# 8. Exit codes


def test_usage_errors_and_no_display(xs, tmp_path):
    x = xs
    bad_png = tmp_path / "bad.png"
    bad_png.write_bytes(b"GIF89a not a png at all")
    cases = [
        (["--frobnicate"], 2, True),
        (["--bezel-color", "nope", "--label", "x"], 2, True),
        (["success", "Saved", "--bezel-color", "nope"], 2, True),
        (["--mode", "custom", "--image", str(bad_png)], 2, True),
        (["--mode", "custom", "--image", str(tmp_path / "missing.png")], 2, True),
        (["--mode", "nonsense"], 2, True),
        (["--frobnicate", "--", "true"], 2, True),
        (["frobnicate", "text"], 2, True),
    ]
    for args, want, one in cases:
        t0 = time.monotonic()
        res = xhud(args, x.env, timeout=5)
        err = res.stderr.decode(errors="replace")
        assert res.returncode == want, f"xhud {' '.join(args)}: exit {res.returncode}, stderr {err!r}"
        if one:
            assert len(lines_of(err)) == 1, f"xhud {' '.join(args)}: want one line on stderr, got {err!r}"
        assert res.stdout == b"", f"xhud {' '.join(args)}: stdout {res.stdout!r}"
        assert time.monotonic() - t0 < 3
    assert not any_hud_viewable(x), "a HUD window appeared for a usage error"

    env = {k: v for k, v in x.env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    for args in (["--label", "x"], ["success", "Saved"], ["--mode", "text", "--label", "x"]):
        res = xhud(args, env, timeout=5)
        err = res.stderr.decode(errors="replace")
        assert res.returncode == 3, f"no DISPLAY, xhud {' '.join(args)}: exit {res.returncode}, {err!r}"
        assert len(lines_of(err)) == 1, f"no DISPLAY: want one line, got {err!r}"
