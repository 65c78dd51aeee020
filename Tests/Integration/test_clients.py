"""One server draws every HUD: `xhud` is a thin client that starts the display's server when none
runs, stays for its HUD's life, and survives the server's death (a new one shows its HUD again).
What a client will not trust: test_client_trust.py; many clients' HUDs on one screen:
test_shared_screen.py."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from conftest import XHUD_BIN, children_of, proc_state, region_bytes, wait_steady, wait_until
from named_client import nx, servers as server_pids  # noqa: F401 (nx is a fixture)
from thin_client import hud_rects, loaded_libraries, start

X_LIBRARIES = ("libX11", "libxcb", "libcairo", "libpango", "libfontconfig")


def test_a_plain_hud_is_drawn_by_the_server_and_its_client_loads_no_x(nx):
    client = start(nx, "--mode", "annular", "--label", "Thin", "--progress", "0.5")
    assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
    servers = server_pids(nx)
    assert len(servers) == 1 and servers[0] != client.pid, f"no server drew it: {servers}"
    libs = loaded_libraries(client.pid)
    assert not [lib for lib in libs if lib.startswith(X_LIBRARIES)], f"the client loaded {sorted(libs)}"
    assert any(lib.startswith("libX11") for lib in loaded_libraries(servers[0]))
    client.send_signal(signal.SIGTERM)
    assert client.wait(5) == 0
    assert wait_until(lambda: not hud_rects(nx), 3), "SIGTERM left the HUD up"


def test_the_server_loads_pango_only_for_text_that_needs_it(nx):
    """Pango and the 16 libraries it brings are not mapped and relocated before main (the
    loader's list for xhud-host has none of them), nor loaded for a plain label (DirectText draws
    it with HarfBuzz alone): only the first text that needs Pango (markup here) loads it."""
    host = Path(XHUD_BIN).with_name("xhud-host")
    at_start = subprocess.run([str(host)], env=dict(os.environ, LD_TRACE_LOADED_OBJECTS="1"),
                              capture_output=True, text=True, timeout=10).stdout
    assert "libcairo" in at_start and "libX11" in at_start, at_start
    late = [lib for lib in ("libpango", "libglib", "libgobject", "libharfbuzz") if lib in at_start]
    assert not late, f"loaded before main: {late}"
    plain = start(nx, "--mode", "text", "--label", "Plain text")
    assert wait_until(lambda: len(hud_rects(nx)) == 1, 5), "no HUD"
    libs = loaded_libraries(server_pids(nx)[0])
    assert any(lib.startswith("libharfbuzz") for lib in libs), sorted(libs)
    assert not any(lib.startswith("libpango") for lib in libs), sorted(libs)
    marked = start(nx, "--mode", "text", "--markup", "--label", "<b>Pango</b> on demand")
    assert wait_until(lambda: len(hud_rects(nx)) == 2, 5), "no second HUD"
    libs = loaded_libraries(server_pids(nx)[0])
    assert any(lib.startswith("libpangocairo") for lib in libs), sorted(libs)
    for client in (plain, marked):
        client.send_signal(signal.SIGTERM)
        assert client.wait(5) == 0


def traced_starts(x, xhud: Path, tmp: Path) -> dict[str, str]:
    """A cold HUD of `xhud` under `strace -ff` (openat and execve): {"client": trace,
    "server": trace}, each process's trace told by the program it executed."""
    tmp.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["strace", "-ff", "-o", str(tmp / "t"), "-e", "trace=openat,execve", str(xhud),
                        "--mode", "text", "--label", "Maps", "--hide-after", "0.2", "--linger", "0.5"],
                       env=x.env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr[-800:]
    traces = {}
    for f in tmp.glob("t.*"):
        text = f.read_text(errors="replace")
        # The program a process executed: its first execve (a spawned server opens /dev/null
        # for its standard streams before it).
        execs = [line for line in text.splitlines() if line.startswith("execve(") and "= 0" in line]
        if not execs:
            continue
        if "xhud-host" in execs[0]:
            traces["server"] = text
        elif "xhud" in execs[0]:
            traces["client"] = text
    assert set(traces) == {"client", "server"}, f"traced: {sorted(traces)}"
    return traces


def test_neither_process_reads_its_memory_map_before_main(nx, tmp_path):
    """The Swift runtime finds argv on Linux by reading and parsing /proc/self/maps before main;
    with X11, Cairo and fontconfig mapped that is some 160 lines and a few hundred microseconds
    on the way to a cold server's first frame. xhud and xhud-host take argv from glibc instead
    (Sources/CArgv). Traced on a cold HUD: the client (linked statically in every build), and
    the server it starts where the Swift runtime is linked in, as released (a debug build loads
    the runtime as a shared library, whose own constructor reads the map); the release build is
    checked too when there is one (the benchmark test makes it)."""
    if not shutil.which("strace"):
        pytest.skip("strace is not installed (scripts/deps.sh installs it)")
    builds = [Path(XHUD_BIN)]
    release = Path(XHUD_BIN).parent.parent / "release" / "xhud"
    if release.exists() and release.resolve() != Path(XHUD_BIN).resolve():
        builds.append(release)
    for n, xhud in enumerate(builds):
        traces = traced_starts(nx, xhud, tmp_path / str(n))
        assert "/proc/self/maps" not in traces["client"], f"{xhud}: the client read its memory map"
        host = xhud.with_name("xhud-host")
        linked = subprocess.run(["ldd", str(host)], capture_output=True, text=True).stdout
        if "libswiftCore" not in linked:
            assert "libcairo.so.2" in traces["server"], traces["server"][-500:]
            assert "/proc/self/maps" not in traces["server"], f"{host}: the server read its memory map"


def test_a_server_started_by_a_client_holds_nothing_of_it(nx):
    """The server a client starts lives in a session of its own, in /, with /dev/null for its
    standard streams and none of the client's descriptors: `out=$(xhud ...)` ends when the
    client does, and the client's files are not held open by the server."""
    assert not server_pids(nx)
    extra_r, extra_w = os.pipe()
    out_r, out_w = os.pipe()
    try:
        client = nx.spawn([str(XHUD_BIN), "--mode", "annular", "--label", "Spawned", "--progress", "0.4",
                           "--hide-after", "0.3"], stdout=out_w, stderr=subprocess.DEVNULL, pass_fds=(extra_w,))
        os.close(out_w)
        os.close(extra_w)
        assert wait_until(lambda: server_pids(nx), 5), "no server was started"
        server = server_pids(nx)[0]
        fds = {}
        for n in os.listdir(f"/proc/{server}/fd"):
            try:
                fds[int(n)] = os.readlink(f"/proc/{server}/fd/{n}")
            except FileNotFoundError:
                pass   # a descriptor the server's threads open for a moment (a file being read)
        assert all(fds[n] == "/dev/null" for n in (0, 1, 2)), fds
        assert fds[3].startswith("socket:") and fds[4].endswith(".lock"), fds
        ours = {os.readlink(f"/proc/self/fd/{fd}") for fd in (extra_r, out_r)}
        assert not ours & set(fds.values()), f"the server holds the client's pipes: {fds}"
        assert os.readlink(f"/proc/{server}/cwd") == "/"
        assert os.getsid(server) not in (os.getsid(0), client.pid), "in the client's session"
        assert client.wait(5) == 0
        # Both pipes end with the client: the server holds neither write end.
        assert os.read(out_r, 100) == b""
        assert os.read(extra_r, 100) == b""
    finally:
        for fd in (extra_r, out_r):
            os.close(fd)


def test_a_killed_client_takes_its_hud_with_it(nx):
    keep = start(nx, "--label", "Stays")
    gone = start(nx, "--label", "Goes")
    assert wait_until(lambda: len(hud_rects(nx)) == 2, 5)
    gone.send_signal(signal.SIGKILL)
    t0 = time.monotonic()
    assert wait_until(lambda: len(hud_rects(nx)) == 1, 2, 0.005), "the killed client's HUD stayed"
    took = time.monotonic() - t0
    assert took < 1.0, f"its HUD went after {took:.3f} s"
    assert keep.poll() is None
    keep.send_signal(signal.SIGTERM)
    assert keep.wait(5) == 0


SCRIPT = 'for i in 1 2 3 4 5 6 7 8; do echo "step $i $((i*12))%"; echo "err $i" >&2; sleep 0.25; done; exit 4'


def test_a_killed_server_is_replaced_and_a_wrapped_command_never_notices(nx, tmp_path):
    out, err = tmp_path / "out", tmp_path / "err"
    with open(out, "wb") as o, open(err, "wb") as e:
        client = nx.spawn([str(XHUD_BIN), "--label", "Building", "--progress-from-output", "--", "sh", "-c", SCRIPT],
                          stdout=o, stderr=e)
        assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
        first = server_pids(nx)
        assert len(first) == 1
        os.kill(first[0], signal.SIGKILL)
        t0 = time.monotonic()
        assert wait_until(lambda: (s := server_pids(nx)) and s != first and hud_rects(nx), 2, 0.01), \
            "no new server showed the HUD again"
        took = time.monotonic() - t0
        assert took < 1.0, f"the HUD came back after {took:.3f} s"
        assert client.wait(10) == 4
    expected = subprocess.run(["sh", "-c", SCRIPT], capture_output=True)
    assert out.read_bytes() == expected.stdout
    assert err.read_bytes() == expected.stderr


def test_a_stdin_hud_maps_with_its_first_lines_applied(nx):
    """A producer a little slower than the server (its first lines 60 ms after the start): the
    HUD waits for them and maps at its final size, never with the bar alone first (64 px tall,
    then 87 with the label). Every size the HUD's window is seen with, polled from the start."""
    for run in range(3):
        client = start(nx, "--mode", "bar", stdin=subprocess.PIPE)
        time.sleep(0.06)   # the producer's delay is what is tested
        client.stdin.write(b"label=Copying files\n60\n")
        client.stdin.flush()
        seen, deadline = [], time.monotonic() + 5
        while time.monotonic() < deadline and (len(seen) < 8 or seen[-1] != seen[-8]):
            rects = hud_rects(nx)
            if rects:
                seen.append(rects[0][2:])
            time.sleep(0.01)
        assert seen, f"run {run}: no HUD"
        assert len(set(seen)) == 1, f"run {run}: the HUD changed size after it mapped: {sorted(set(seen), key=seen.index)}"
        client.stdin.close()
        assert client.wait(10) == 0
        assert wait_until(lambda: not hud_rects(nx), 5)


def test_a_silent_producer_still_gets_its_hud_at_once(nx):
    """A producer that writes nothing yet: the HUD shows as its options say, without waiting."""
    client = start(nx, "--mode", "bar", "--label", "Waiting", stdin=subprocess.PIPE)
    t0 = time.monotonic()
    assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
    assert time.monotonic() - t0 < 1.5
    client.stdin.close()
    assert client.wait(10) == 0


def test_a_stdin_hud_comes_back_as_it_was(nx):
    client = start(nx, "--mode", "bar", stdin=subprocess.PIPE)
    client.stdin.write(b"label=Copying files\n60\n")
    client.stdin.flush()
    assert wait_until(lambda: hud_rects(nx), 5)
    # Its size once the lines are applied (it may map with the bar alone, then grow): two reads
    # a show's length apart agree.
    rect = wait_steady(lambda: (r := hud_rects(nx)) and r[0], 5, 0.3)
    assert rect, "the HUD never came to rest"

    def at_rest():
        """The HUD's pixels once two reads a show's length (0.3 s) apart agree."""
        assert wait_steady(lambda: region_bytes(nx.screenshot(keep=False), rect), 5, 0.3), "the HUD never came to rest"
        return nx.screenshot()

    before = at_rest()
    os.kill(server_pids(nx)[0], signal.SIGKILL)
    assert wait_until(lambda: server_pids(nx) and hud_rects(nx), 3), "the HUD did not come back"
    after = at_rest()
    assert hud_rects(nx)[0] == rect
    x0, y0, w, h = rect
    differ = sum(1 for yy in range(y0, y0 + h) for xx in range(x0, x0 + w)
                 if max(abs(a - b) for a, b in zip(before.pixel(xx, yy), after.pixel(xx, yy))) > 8)
    assert differ <= w * h // 200, f"{differ} pixels of the HUD differ after the restart"
    client.stdin.close()
    assert client.wait(5) == 0
    assert wait_until(lambda: not hud_rects(nx), 3)


def test_a_usage_error_runs_no_command(nx, tmp_path):
    marker = tmp_path / "ran"
    r = subprocess.run([str(XHUD_BIN), "--mode", "nope", "--", "touch", str(marker)], env=nx.env,
                       capture_output=True, text=True, timeout=10)
    assert r.returncode == 2 and "nope" in r.stderr
    assert not marker.exists()


def test_a_notification_with_stdin_a_pipe_ignores_its_end(nx):
    """`--mode text` in a pipeline: the notification does not read stdin, and the end of its
    input does not cut it short."""
    client = start(nx, "--mode", "text", "--label", "Hi", "--hide-after", "1", stdin=subprocess.PIPE)
    client.stdin.close()   # its input ends at once
    assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
    time.sleep(0.5)   # time passing is what is tested: it outlives the end of its input
    assert hud_rects(nx), "the end of stdin hid the notification"
    assert client.poll() is None, "the client left before its notification"
    assert client.wait(5) == 0


def test_a_client_after_one_whose_hud_outlives_it_gets_its_own_hud(nx):
    """A wrapped command's client exits as its command ends, while its HUD shows the result for
    --result-time; the next client's connection gets the same descriptor number. The server once
    found the session to start by that number and could start the old one again: the new
    client's HUD never showed and the client waited forever."""
    for i in range(8):
        wrapped = start(nx, "--grace", "0", "--result-time", "1.5", "--label", f"Wrapped {i}", "--", "true")
        assert wrapped.wait(10) == 0
        plain = start(nx, "--label", f"Plain {i}", "--hide-after", "0.3", "--animation", "none")
        try:
            assert plain.wait(5) == 0, f"round {i}: exit {plain.returncode}"
        except subprocess.TimeoutExpired:
            plain.kill()
            pytest.fail(f"round {i}: the plain client never ended (its HUD was not started)")


def test_a_cancel_that_arrives_with_the_end_still_ends_the_command(nx, tmp_path):
    """Without an animation the server says `cancel` and `done` at once; the client reads them in
    one go and must still end the command (SIGTERM), exiting 1, not let it run to the end."""
    out = tmp_path / "out"
    with open(out, "wb") as o:
        client = nx.spawn([str(XHUD_BIN), "--animation", "none", "--label", "job", "--", "sh", "-c",
                           "sleep 4; echo finished"], stdout=o, stderr=subprocess.PIPE)
        assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
        t0 = time.monotonic()
        nx.run("xdotool", "key", "Escape")
        assert client.wait(10) == 1, "cancelled"
        assert time.monotonic() - t0 < 2.5, "the command did not run to its end"
    assert b"finished" not in out.read_bytes()


def test_a_wrapped_command_takes_any_number_of_arguments(nx, tmp_path):
    """`tar cf out.tar files/*.jpg` with 600 files: the arguments never cross the socket."""
    files = [f"photo-{i:04d}-{'x' * 100}.jpg" for i in range(700)]
    res = subprocess.run([str(XHUD_BIN), "--label", "Archiving", "--", "sh", "-c", 'echo "$#"; echo "${700}"', "sh", *files],
                         env=nx.env, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["700", files[-1]]


def test_a_client_leaves_no_zombie_after_its_server_is_killed(nx):
    """A client whose server it started is killed and replaced reaps the dead one: no zombie
    stays beside a long HUD."""
    client = start(nx, "--label", "Long job")
    assert wait_until(lambda: hud_rects(nx), 5)
    for _ in range(2):
        first = server_pids(nx)
        assert len(first) == 1
        os.kill(first[0], signal.SIGKILL)
        assert wait_until(lambda: (s := server_pids(nx)) and s != first and hud_rects(nx), 3), "not shown again"
    zombies = lambda: [p for p in children_of(client.pid) if proc_state(p) == "Z"]
    assert wait_until(lambda: not zombies(), 2), f"zombie servers of the client: {zombies()}"
    client.send_signal(signal.SIGTERM)
    assert client.wait(5) == 0
