"""Reliability: numbers that cannot crash, requests that fail alone, bounded images, a server
whose memory stays flat, a socket directory no one else can take, signals that end a HUD at
once and reach a wrapped command, Escape that always gives input back, and messages that never
carry raw control characters."""

from __future__ import annotations

import os
import signal
import stat
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest

from conftest import XHUD_BIN, alive, wait_steady, wait_until
from named_client import LINGER, named, nx, ok, servers  # noqa: F401  (nx is a fixture)


def run(x, *args, timeout=10, input=None, env=None):
    return subprocess.run([str(XHUD_BIN), *args], env=env or x.env, capture_output=True, text=input is None or isinstance(input, str),
                          timeout=timeout, input=input, stdin=None if input is not None else subprocess.DEVNULL)


BAD_NUMBERS = [
    (["--margin", "3e9"], "--margin must be between 0 and 500"),
    (["--margin", "1e308"], "--margin must be between 0 and 500"),
    (["--geometry", "99999999999x100+0+0"], "--geometry must be WxH+X+Y"),
    (["--geometry", "100x100+99999999999+0"], "--geometry must be WxH+X+Y"),
    (["--kill-timeout", "1e308", "--", "true"], "--kill-timeout must be between 0 and 86400 seconds"),
    (["--min-show", "1e308"], "--min-show must be between 0 and 86400 seconds"),
    (["--result-time", "1e308", "--", "true"], "--result-time must be between 0 and 86400 seconds"),
    (["--hide-after", "inf"], "--hide-after must be between 0 and 86400 seconds"),
    (["--scale", "nan"], "--scale must be between 0.5 and 8"),
    (["--progress", "-1"], "--progress must be between 0 and 1, got -1"),
    (["--progress", "abc"], "'abc' is invalid for '--progress"),
    (["--image-size", "1e9"], "--image-size must be between 1 and 512"),
    (["--min-size", "1e9x10"], "--min-size must be WxH, each between 0 and 4096"),
]


@pytest.mark.parametrize("args,message", BAD_NUMBERS, ids=[" ".join(a) for a, _ in BAD_NUMBERS])
def test_numbers_out_of_range_exit_2_with_the_range(xplain, args, message):
    res = run(xplain, *args)
    assert res.returncode == 2, f"{args}: exit {res.returncode}, stderr {res.stderr!r}"
    assert message in res.stderr, f"{args}: {res.stderr!r}"
    assert res.stderr.count("\n") == 1, f"not one line: {res.stderr!r}"


def test_negative_offset_is_a_value_not_a_flag(xplain):
    res = run(xplain, "--offset", "-50,20", "--hide-after", "0.2", "--animation", "none")
    assert res.returncode == 0, res.stderr


def test_geometry_off_the_screen_is_refused(xplain):
    res = run(xplain, "--geometry", "100x100+5000+0")
    assert res.returncode == 2 and "outside the screen" in res.stderr, res.stderr


def test_bad_requests_fail_alone_and_the_server_lives(nx):
    ok(nx, "--id", "base", "--mode", "bar", "--progress", "0.5", "--hide-after", "30", *LINGER)
    [server] = servers(nx)
    for args, _ in BAD_NUMBERS:
        if "--" in args:
            continue
        res = named(nx, "--id", "other", *args)
        assert res.returncode == 2, f"{args} through the server: exit {res.returncode} {res.stderr!r}"
    assert servers(nx) == [server], "a bad request killed the display's server"
    res, took = ok(nx, "list")
    assert res.stdout.split() == ["base"] and took < 1.0, (res.stdout, took)


def big_png(path: Path, w: int, h: int, rows: int | None = None) -> Path:
    """A PNG of w x h; with `rows`, only that many rows of data (its header is what counts)."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    idat = zlib.compress(b"\0" * (w * 4 + 1) * (rows or h))
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                     + chunk(b"IDAT", idat) + chunk(b"IEND", b""))
    return path


@pytest.mark.parametrize("kind", ["fifo", "huge", "device"])
def test_images_that_could_block_or_explode_are_refused_fast(nx, tmp_path, kind):
    if kind == "fifo":
        image = tmp_path / "image.png"
        os.mkfifo(image)
    elif kind == "huge":
        image = big_png(tmp_path / "huge.png", 20000, 20000, rows=4)
    else:
        image = Path("/dev/zero")
    want = {"fifo": "not a regular file", "huge": "20000x20000 pixels", "device": "not a regular file"}[kind]
    t0 = time.monotonic()
    res = run(nx, "--mode", "custom", "--image", str(image), timeout=5)
    assert res.returncode == 2 and want in res.stderr, res.stderr
    assert time.monotonic() - t0 < 2
    # Through the server: the request fails alone, the server goes on answering at once.
    ok(nx, "--id", "base", "--hide-after", "30", *LINGER)
    t0 = time.monotonic()
    res = named(nx, "--id", "pic", "--mode", "custom", "--image", str(image), timeout=5)
    assert res.returncode == 2 and want in res.stderr, res.stderr
    assert time.monotonic() - t0 < 2
    res, took = ok(nx, "list")
    assert res.stdout.split() == ["base"] and took < 1.0


def test_a_large_image_is_kept_small(nx, tmp_path):
    """A 2048x2048 PNG (the largest allowed) is scaled down once decoded: the server does not
    keep its 16 MB."""
    image = big_png(tmp_path / "big.png", 2048, 2048)
    ok(nx, "--id", "base", "--hide-after", "30", *LINGER)
    [server] = servers(nx)
    before = rss_kib(server)
    ok(nx, "--id", "pic", "--mode", "custom", "--image", str(image), "--hide-after", "30")
    # Shown and drawn: two HUDs, their stack at rest (two reads a fade's length apart agree).
    assert wait_until(lambda: len(nx.visible_hud_windows()) == 2, 5), "the image's HUD did not show"
    wait_steady(lambda: sorted(w.rect for w in nx.visible_hud_windows()), 5, 0.3)
    assert rss_kib(server) - before < 8 * 1024, f"RSS grew by {(rss_kib(server) - before) / 1024:.1f} MiB"


def rss_kib(pid: int) -> int:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def test_server_memory_is_flat_over_a_thousand_huds(nx):
    """1000 named HUDs shown and hidden: the server ends within 5 MB of where it was after the
    first (a HUD and what it drew with are freed when it goes)."""
    def cycle(i):
        ok(nx, "--id", f"h{i}", "--mode", "bar", "--progress", "0.5", "--label", f"HUD {i}",
           "--hide-after", "0", "--animation", "none", "--linger", "60")
    cycle(0)
    [server] = servers(nx)
    assert wait_until(lambda: not ok(nx, "list")[0].stdout.strip(), 3)
    first = rss_kib(server)
    for i in range(1, 1000):
        cycle(i)
    assert wait_until(lambda: not ok(nx, "list")[0].stdout.strip(), 5), "HUDs still listed"
    # Freed: a HUD's windows are destroyed with it.
    assert wait_until(lambda: not nx.hud_windows(), 5), "HUD windows outlive their HUDs"
    after = rss_kib(server)
    assert servers(nx) == [server]
    assert after - first < 5 * 1024, f"RSS {first / 1024:.1f} MiB after the first HUD, {after / 1024:.1f} MiB after 1000"


def test_without_runtime_dir_the_socket_lives_in_the_home(nx, tmp_path):
    """Without XDG_RUNTIME_DIR the directory is ~/.cache/xhud, which no other user can create
    first; a squatted /tmp/xhud-UID (the old fallback) changes nothing."""
    home = tmp_path / "home"
    home.mkdir()
    squat = Path(f"/tmp/xhud-{os.getuid()}")
    made = False
    if not squat.exists():
        squat.mkdir(mode=0o777)
        os.chmod(squat, 0o777)
        made = True
    try:
        env = {k: v for k, v in nx.env.items() if k not in ("XDG_RUNTIME_DIR", "XDG_CACHE_HOME")}
        env["HOME"] = str(home)
        res = run(nx, "--id", "vol", "--mode", "bar", "--progress", "0.4", "--hide-after", "30", "--linger", "0.5", env=env)
        assert res.returncode == 0, res.stderr
        directory = home / ".cache" / "xhud"
        socks = list(directory.glob("*.sock"))
        assert len(socks) == 1 and socks[0].name.endswith(nx.display.lstrip(":") + ".sock"), socks
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
        res = run(nx, "list", env=env)
        assert res.returncode == 0 and res.stdout.split() == ["vol"], (res.returncode, res.stdout, res.stderr)
        run(nx, "hide", "--id", "vol", env=env)
    finally:
        if made:
            squat.rmdir()


def test_sigterm_does_not_wait_out_min_show(xplain):
    hud = xplain.start_xhud("--label", "Busy", "--min-show", "5")
    t0 = time.monotonic()
    hud.signal(signal.SIGTERM)
    code = hud.wait(3)
    took = time.monotonic() - t0
    assert code == 0 and took < 1.0, f"exit {code} after {took:.2f} s"


def test_escape_gives_input_back_from_a_plain_hud(xplain):
    """`xhud --label Busy` blocks clicks on the monitor: Escape cancels it (exit 1)."""
    hud = xplain.start_xhud("--label", "Busy")
    xplain.run("xdotool", "key", "Escape")   # its grab is requested with the map
    assert hud.wait(3) == 1


def test_sigint_from_a_process_reaches_the_wrapped_command(xplain):
    p = subprocess.Popen([str(XHUD_BIN), "--", "sh", "-c",
                          "trap 'echo got INT; exit 7' INT; echo ready; sleep 20 >/dev/null 2>&1 & wait"],
                         env=xplain.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert p.stdout.readline() == b"ready\n"   # the command runs: xhud forwards signals by now
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=5)
    assert p.returncode == 7 and out == b"got INT\n", (p.returncode, out)


def test_killing_xhud_loses_no_output_of_the_command(xplain, tmp_path):
    out = tmp_path / "out.txt"
    script = "for i in 1 2 3 4 5 6; do echo \"line $i $((i*15))%\"; sleep 0.2; done"
    with open(out, "wb") as f:
        p = subprocess.Popen([str(XHUD_BIN), "--progress-from-output", "--", "sh", "-c", script], env=xplain.env,
                             stdout=f, stderr=subprocess.DEVNULL, start_new_session=True)
        # Killed while the command prints: its first lines are through.
        assert wait_until(lambda: out.read_bytes().count(b"\n") >= 2, 5), out.read_bytes()
        p.kill()
        p.wait()
    assert wait_until(lambda: out.read_bytes().count(b"\n") == 6, 5), out.read_bytes()
    assert out.read_bytes() == b"".join(b"line %d %d%%\n" % (i, i * 15) for i in range(1, 7))


def test_control_characters_from_input_are_escaped_and_nul_reported(xplain):
    lines = b"frob\x1b]0;owned\x07\x1b[31m\nlabel=a\x00b\nprogress=0.5\n"
    p = subprocess.run([str(XHUD_BIN), "--mode", "bar", "--animation", "none"], env=xplain.env, input=lines,
                       capture_output=True, timeout=10)
    assert p.returncode == 0
    assert b"\x1b" not in p.stderr and b"\x07" not in p.stderr, p.stderr
    assert b"\\e]0;owned\\x07\\e[31m" in p.stderr, p.stderr
    assert b"stdin line 2: contains NUL bytes" in p.stderr, p.stderr
    res = run(xplain, "--label", "x", "--mask", "\x1b[2Jbad")
    assert res.returncode == 2 and "\x1b" not in res.stderr and "\\e[2Jbad" in res.stderr, res.stderr
