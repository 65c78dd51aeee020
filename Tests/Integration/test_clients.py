"""One server draws every HUD: `xhud` is a thin client that starts the display's server when none
runs, stays for its HUD's life, and survives the server's death (a new one shows its HUD again)."""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import XHUD_BIN, children_of, proc_state, region_bytes, tagged_hosts, wait_steady, wait_until
from hud_pixels import intersect
from named_client import nx  # noqa: F401 (nx is a fixture)

X_LIBRARIES = ("libX11", "libxcb", "libcairo", "libpango", "libfontconfig")


def loaded_libraries(pid: int) -> set[str]:
    libs = set()
    for line in open(f"/proc/{pid}/maps"):
        path = line.split()[-1] if len(line.split()) >= 6 else ""
        if ".so" in path:
            libs.add(os.path.basename(path))
    return libs


def server_pids(x) -> list[int]:
    return tagged_hosts(x.tag)


def hud_rects(x) -> list[tuple[int, int, int, int]]:
    return [w.rect for w in x.visible_hud_windows()]


def start(x, *args, stdin=subprocess.DEVNULL, stdout=None):
    return x.spawn([str(XHUD_BIN), *args], stdin=stdin, stdout=stdout or subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


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


def test_huds_of_many_clients_stack_without_overlap(nx):
    clients = [start(nx, "--mode", "bar", "--progress", f"0.{i}", "--label", f"Client {i}") for i in range(1, 7)]
    rects = wait_until(lambda: (r := hud_rects(nx)) and len(r) == 6 and r, 10)
    assert rects, f"{len(hud_rects(nx))} of 6 HUDs visible"
    # The stack settles (each new HUD moves the group): two reads a slide's length apart agree.
    wait_steady(lambda: sorted(hud_rects(nx)), 10, 0.3)
    rects = hud_rects(nx)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not intersect(a, b), f"HUDs overlap: {a} {b}"
    assert len(server_pids(nx)) == 1
    for c in clients:
        c.send_signal(signal.SIGTERM)
        assert c.wait(5) == 0


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


def test_without_a_private_directory_a_private_server_draws_the_hud(nx):
    """No server can run where others could use its socket: the client's own private server (the
    same server, joined by a socket pair, ending with its HUD) draws it; no socket is made."""
    open_dir = Path(tempfile.mkdtemp(prefix="xhud-open-", dir="/tmp"))
    os.chmod(open_dir, 0o777)
    (open_dir / "xhud").mkdir()
    os.chmod(open_dir / "xhud", 0o777)   # others could use it: no server there
    try:
        env = dict(nx.env, XDG_RUNTIME_DIR=str(open_dir))
        client = nx.spawn([str(XHUD_BIN), "--label", "Alone"], env=env, stderr=subprocess.PIPE)
        assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
        hosts = server_pids(nx)
        servers = [p for p in hosts if p != client.pid]
        assert client.pid in hosts and len(servers) == 1, f"not a client and its private server: {hosts}"
        assert parent_of(servers[0]) == client.pid, "the server is not the client's own"
        assert any(lib.startswith("libX11") for lib in loaded_libraries(servers[0])), "its server does not draw"
        assert not list((open_dir / "xhud").iterdir()), "a socket or lock was made where others can write"
        client.send_signal(signal.SIGTERM)
        assert client.wait(5) == 0
        assert wait_until(lambda: not hud_rects(nx) and not server_pids(nx), 5), "the private server outlived its HUD"
    finally:
        os.chmod(open_dir / "xhud", 0o700)
        subprocess.run(["rm", "-rf", str(open_dir)])


def parent_of(pid: int) -> int:
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])


def test_a_usage_error_runs_no_command(nx, tmp_path):
    marker = tmp_path / "ran"
    r = subprocess.run([str(XHUD_BIN), "--mode", "nope", "--", "touch", str(marker)], env=nx.env,
                       capture_output=True, text=True, timeout=10)
    assert r.returncode == 2 and "nope" in r.stderr
    assert not marker.exists()


def test_a_stack_over_a_desktop_without_a_wallpaper_shows_no_hud_in_another(nx):
    """Without a compositor and without a wallpaper pixmap, each HUD blends over a copy of the
    screen. HUDs arriving next to others, and moving to make room, must not catch each other in
    that copy: four identical HUDs end up with identical pixels, and the others make room for
    the fourth without being unmapped (no flicker, no wait for the screen to repaint)."""
    for prop in ("_XROOTPMAP_ID", "_XSETROOT_ID"):
        nx.run("xprop", "-root", "-remove", prop)
    clients = []

    def at_rest():
        """The HUDs' windows and pixels the same in two reads in a row."""
        def look():
            rects = sorted(hud_rects(nx))
            shot = nx.screenshot(keep=False)
            return rects, [region_bytes(shot, r) for r in rects]
        assert wait_steady(look, 5, 0.05), "the HUDs never came to rest"

    for i in range(3):
        clients.append(start(nx, "--mode", "text", "--label", "Same", "--no-shadow", "--animation", "none", "--mask", "none"))
        assert wait_until(lambda: len(hud_rects(nx)) == i + 1, 5), f"HUD {i + 1} did not show"
        at_rest()
    watch = nx.watch_root()
    clients.append(start(nx, "--mode", "text", "--label", "Same", "--no-shadow", "--animation", "none", "--mask", "none"))
    assert wait_until(lambda: len(hud_rects(nx)) == 4, 5)
    at_rest()
    nx.sync_watcher(watch)   # it has printed all that happened
    events = watch.stop()
    assert "MapNotify" in events, "xev saw nothing"
    assert "UnmapNotify" not in events, "HUDs were unmapped to make room for another"
    shot = nx.screenshot()
    rects = sorted(hud_rects(nx), key=lambda r: r[1])
    w, h = rects[0][2], rects[0][3]
    assert all((r[2], r[3]) == (w, h) for r in rects), rects
    pictures = [[shot.pixel(r[0] + dx, r[1] + dy) for dy in range(h) for dx in range(w)] for r in rects]
    for i, p in enumerate(pictures[1:], 1):
        worst = max(max(abs(a - b) for a, b in zip(pa, pb)) for pa, pb in zip(pictures[0], p))
        assert worst <= 2, f"HUD {i + 1} differs from the first by {worst}: one holds another's pixels"
    for c in clients:
        c.send_signal(signal.SIGTERM)
        assert c.wait(5) == 0


def test_without_a_display_no_server_and_no_socket_stay(nx):
    env = dict(nx.env, DISPLAY=":987654")
    r = subprocess.run([str(XHUD_BIN), "--label", "x"], env=env, capture_output=True, text=True, timeout=10)
    assert r.returncode == 3 and "cannot open display" in r.stderr, r
    w = subprocess.run([str(XHUD_BIN), "--label", "x", "--", "sh", "-c", "echo out; exit 4"], env=env,
                       capture_output=True, text=True, timeout=10)
    assert (w.returncode, w.stdout) == (4, "out\n"), w
    assert not list((nx.rt / "xhud").glob("987654*.sock")), "a server that could not start left its socket"


def test_a_screen_the_display_does_not_have_is_refused_cleanly(nx):
    """DISPLAY naming a screen the X server does not have: the server's first questions (asked
    while XOpenDisplay waits) find no such root; Xlib then refuses the display, and so does xhud,
    with its message and status, leaving no server behind."""
    env = dict(nx.env, DISPLAY=nx.env["DISPLAY"].split(".")[0] + ".7")
    r = subprocess.run([str(XHUD_BIN), "--label", "x"], env=env, capture_output=True, text=True, timeout=10)
    assert r.returncode == 3 and "cannot open display" in r.stderr, r
    assert not any(".7" in p.name for p in (nx.rt / "xhud").glob("*.sock")), "a server that could not start left its socket"


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


def test_a_wallpaper_freed_under_the_server_is_noticed(nx):
    """A HUD blends over a copy of the screen, never over the root's wallpaper pixmap: when the
    pixmap's owner frees it without changing the root's property, the next HUD's bezel looks as
    the first one did, not like a bezel over nothing (black)."""
    from test_pixels import EXPECTED, close
    args = ("--mode", "text", "--label", "Wallpaper", "--animation", "none", "--no-shadow", "--wait", "--blur", "0")

    def bezel_pixel():
        """A pixel of the bezel inside its margin, left of the label, once the screen is still."""
        box, shot = nx.hud_bbox()
        assert box is not None, "nothing drawn"
        left, top, _, bottom = box
        return shot.pixel(left + 6, (top + bottom) // 2)

    first = start(nx, *args)
    before = bezel_pixel()
    assert close(before, EXPECTED), f"the first bezel is {before}, expected {EXPECTED}"
    first.send_signal(signal.SIGTERM)
    assert first.wait(5) == 0
    assert wait_until(lambda: not hud_rects(nx), 3), "SIGTERM left the HUD up"
    prop = nx.run("xprop", "-root", "_XROOTPMAP_ID").stdout
    pixmap = prop.split("#")[-1].strip()
    assert pixmap.startswith("0x"), prop
    nx.run("xkill", "-id", pixmap)   # frees the setter's pixmap; the property still names it
    assert len(server_pids(nx)) == 1, "the server did not linger between the two HUDs"
    second = start(nx, *args)
    assert wait_until(lambda: hud_rects(nx), 5), "no second HUD"
    # The error comes back, and the frame is drawn again over a copy of the screen.
    wait_until(lambda: close(bezel_pixel(), before), 5)
    after = bezel_pixel()
    assert close(after, before), f"the bezel over a freed wallpaper is {after}, the first was {before}"
    second.send_signal(signal.SIGTERM)
    assert second.wait(5) == 0


def test_a_new_wallpaper_never_takes_a_hud_off_the_screen(nx):
    """Without a compositor a HUD blends over a copy of the screen beneath it, which a new
    wallpaper puts out of date: the bezel rises to opaque, as when a window beneath draws. It
    must not unmap its window to take a new copy: every frame read at the HUD's centre while the
    wallpaper changes shows the HUD, never the new wallpaper."""
    import threading
    from test_liveness import Grabber
    nx.run("hsetroot", "-solid", "#2040a0")
    hud = start(nx, "--mode", "text", "--label", "Pinned", "--animation", "none", "--blur", "0")
    assert wait_until(lambda: hud_rects(nx), 5), "no HUD"
    x, y, w, h = hud_rects(nx)[0]
    grabber = Grabber(nx.env["DISPLAY"])
    centre = (x + w // 2, y + h // 2, 1, 1)
    seen, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            seen.append(bytes(grabber.raw(centre)[:3]))
            time.sleep(0.002)   # several looks a refresh
    t = threading.Thread(target=watch)
    try:
        time.sleep(0.3)   # past its first frames
        t.start()
        time.sleep(0.05)
        nx.run("hsetroot", "-solid", "#a02020")
        time.sleep(0.5)
    finally:
        stop.set()
        t.join()
        grabber.close()
    new_wallpaper = bytes([0x20, 0x20, 0xa0])   # BGR
    assert len(seen) > 50
    assert new_wallpaper not in seen, (
        f"{seen.count(new_wallpaper)} of {len(seen)} looks showed the new wallpaper where the HUD is")
    assert len(set(seen)) > 1, "the bezel did not change over the new wallpaper"
    hud.send_signal(signal.SIGTERM)
    assert hud.wait(5) == 0


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


FAKE_SERVER = r"""
import os, socket, sys
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(path)
os.chmod(path, 0o777)
s.listen(4)
print("ready", flush=True)
s.settimeout(10)
got = b""
try:
    c, _ = s.accept()
    c.settimeout(3)
    while True:
        b = c.recv(65536)
        if not b:
            break
        got += b
except OSError:
    pass
print("received", len(got), flush=True)
"""


def test_the_client_tells_nothing_to_a_server_of_another_user(nx):
    """A socket in the user's directory whose server is another user's (the directory swapped
    under the client): the client sends it nothing (no arguments, no directory, no stdin) and
    draws its HUD itself."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        pytest.skip("needs root and setpriv to act as another user")
    from named_client import OTHER_UID
    d = nx.rt / "xhud"
    d.mkdir(mode=0o700, exist_ok=True)
    os.chmod(d, 0o777)
    os.chmod(nx.rt, 0o755)
    sock = d / (nx.env["DISPLAY"].lstrip(":").split(".")[0] + ".sock")
    fake = subprocess.Popen(["setpriv", f"--reuid={OTHER_UID}", f"--regid={OTHER_UID}", "--clear-groups",
                             "/usr/bin/python3", "-c", FAKE_SERVER, str(sock)], stdout=subprocess.PIPE, text=True)
    try:
        assert fake.stdout.readline().strip() == "ready"
        os.chmod(d, 0o700)
        os.chmod(nx.rt, 0o700)
        res = subprocess.run([str(XHUD_BIN), "--label", "secret-label", "--hide-after", "0.2", "--animation", "none"],
                             env=nx.env, capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
        assert res.returncode == 0, res.stderr
        out, _ = fake.communicate(timeout=15)
        assert "received 0" in out, f"the other user's server heard the client: {out!r}"
    finally:
        fake.kill()


def test_a_runtime_directory_others_can_write_is_not_used(nx):
    """XDG_RUNTIME_DIR writable by others without the sticky bit: another user could swap the
    xhud directory in it, so no server is started or asked there; the HUD still shows."""
    os.chmod(nx.rt, 0o777)
    try:
        res = subprocess.run([str(XHUD_BIN), "--label", "Still shown", "--hide-after", "0.3", "--animation", "none"],
                             env=nx.env, capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
        assert res.returncode == 0, res.stderr
        assert not list((nx.rt / "xhud").glob("*.sock")) if (nx.rt / "xhud").exists() else True
        assert server_pids(nx) == []
    finally:
        os.chmod(nx.rt, 0o700)


GARBLED_SERVER = r"""
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(4)
print("ready", flush=True)
s.settimeout(10)
for _ in range(3):
    try:
        c, _ = s.accept()
    except OSError:
        break
    c.recv(65536)
    c.sendall(b"not a reply at all")
    c.close()
"""


def test_hide_and_list_say_when_the_server_gave_no_answer(nx):
    """A server that takes the connection and answers nothing usable: `xhud list` and `xhud hide`
    say so and exit non-zero, where without any server they rightly succeed quietly."""
    res = subprocess.run([str(XHUD_BIN), "list"], env=nx.env, capture_output=True, text=True, timeout=10)
    assert (res.returncode, res.stdout) == (0, ""), "no server: nothing is shown, nothing to list"
    d = nx.rt / "xhud"
    d.mkdir(mode=0o700, exist_ok=True)
    sock = d / (nx.env["DISPLAY"].lstrip(":").split(".")[0] + ".sock")
    for verb in (["list"], ["hide", "--id", "volume"]):
        fake = subprocess.Popen([sys.executable, "-c", GARBLED_SERVER, str(sock)], stdout=subprocess.PIPE, text=True)
        try:
            assert fake.stdout.readline().strip() == "ready"
            res = subprocess.run([str(XHUD_BIN), *verb], env=nx.env, capture_output=True, text=True, timeout=15)
            assert res.returncode == 3, (verb, res.returncode, res.stderr)
            assert "did not answer" in res.stderr
        finally:
            fake.kill()
            fake.wait()
            sock.unlink(missing_ok=True)


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


def test_huds_of_every_region_and_place_share_one_layout(nx):
    """HUDs pinned to an edge stack from it, and a HUD over a region never covers one over the
    screen with the same centre: one layout for the whole display."""
    named = [("p1", "--offset", "0,10000"), ("p2", "--offset", "0,10000"), ("p3", "--offset", "0,10000"),
             ("screen",), ("region", "--geometry", "600x400+340+200")]
    for name, *place in named:
        r = nx.run(str(XHUD_BIN), "--id", name, "--mode", "text", "--label", f"HUD {name}", *place, check=False)
        assert r.returncode == 0, r.stderr
    assert wait_until(lambda: len(hud_rects(nx)) == 5, 10), hud_rects(nx)
    # Settled: two reads a slide's length apart agree.
    assert wait_steady(lambda: sorted(hud_rects(nx)), 10, 0.3)
    rects = hud_rects(nx)
    for i, a in enumerate(rects):
        for b in rects[i + 1:]:
            assert not intersect(a, b), f"HUDs overlap: {a} {b}"
    bottoms = sorted((y + h for (x, y, w, h) in rects if y > 500), reverse=True)
    assert len(bottoms) == 3 and bottoms[0] > 760, f"the pinned HUDs are not stacked from the bottom edge: {rects}"
    region = [r for r in rects if 340 <= r[0] and r[0] + r[2] <= 940 and 200 <= r[1] and r[1] + r[3] <= 600]
    assert region, f"the region's HUD left its region: {rects}"
    for name, *_ in named:
        nx.run(str(XHUD_BIN), "hide", "--id", name, check=False)
    assert wait_until(lambda: not hud_rects(nx), 5)
