"""What a client does not trust: a runtime directory others can write (no server is started or
asked there: the client's own private server draws its HUD, or none), a socket whose server is
another user's (told nothing), a server that answers garbage (said so), and a display that is
not there or has no such screen (no server or socket left behind)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import XHUD_BIN, wait_until
from named_client import OTHER_UID, nx, servers as server_pids  # noqa: F401 (nx is a fixture)
from thin_client import hud_rects, loaded_libraries


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
