"""The named-HUD server's defences: another user's requests refused (the directory's mode, then
the server's own SO_PEERCRED check), malformed messages answered with one line or dropped
while the HUD stays as it was, and a flood of idle connections that leaves room for a real
request."""

from __future__ import annotations

import json
import os
import shutil
import stat
import struct
import subprocess
import time

import pytest

from conftest import XHUD_BIN, region_bytes, wait_until
from hud_pixels import bar_fill
from named_client import LINGER, OTHER_UID, named, nx, ok, one_window, servers, sock_path  # noqa: F401 (nx is a fixture)
from named_wire import frame, parse_reply, request, talk


# ---------------------------------------------------------------------------------------------
# 1. Another user


CLIENT = r"""
import json, socket, struct, sys
path = sys.argv[1]
payload = b"".join(a.encode() + b"\0" for a in sys.argv[2:])
out = {}
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(3)
try:
    s.connect(path)
except OSError as e:
    out["connect_error"] = e.__class__.__name__
else:
    try:
        s.sendall(b"xhq2" + struct.pack("<I", len(payload)) + payload)
    except OSError:   # a server that answers and hangs up before reading
        pass
    buf = b""
    while True:
        try:
            c = s.recv(65536)
        except OSError:
            break
        if not c:
            break
        buf += c
    out["reply"] = buf.hex()
print(json.dumps(out))
"""


def as_other_user(args: list[str]) -> dict:
    py = "/usr/bin/python3"
    if not os.path.exists(py):
        pytest.skip("no /usr/bin/python3 to run as another user")
    if shutil.which("setpriv"):
        cmd = ["setpriv", f"--reuid={OTHER_UID}", f"--regid={OTHER_UID}", "--clear-groups", py, "-c", CLIENT, *args]
    elif shutil.which("useradd") and shutil.which("runuser"):
        if subprocess.run(["id", "xhudtest"], capture_output=True).returncode != 0:
            subprocess.run(["useradd", "-M", "xhudtest"], check=True, capture_output=True)
        cmd = ["runuser", "-u", "xhudtest", "--", py, "-c", CLIENT, *args]
    else:
        pytest.skip("neither setpriv nor useradd+runuser: cannot act as another user")
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=10, cwd="/")
    assert res.returncode == 0, f"the other user's client failed: {res.stderr}"
    return json.loads(res.stdout)


def test_other_uid_refused(nx):
    if os.geteuid() != 0:
        pytest.skip("needs root to act as another user")
    x = nx
    ok(x, "--id", "vol", "--mode", "bar", "--progress", "0.3", "--label", "Volume", "--no-shadow",
       "--animation", "none", "--hide-after", "20", *LINGER)
    win = one_window(x)
    before = region_bytes(x.wait_screen(lambda s: bar_fill(s, win.rect)[1] > 60), win.rect)
    path = sock_path(x)
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, f"socket mode {oct(path.stat().st_mode)}"
    assert stat.S_IMODE((x.rt / "xhud").stat().st_mode) == 0o700
    evil = [str(path), "/", "", "--id", "vol", "--progress", "0.9", "--label", "Hacked"]

    # The directory (0700) keeps the other user out.
    out = as_other_user(evil)
    assert out.get("connect_error") == "PermissionError", f"another uid reached the socket: {out}"

    # With the file modes opened up, the server's own SO_PEERCRED check refuses it.
    modes = [(p, p.stat().st_mode) for p in (x.rt, x.rt / "xhud", path)]
    try:
        os.chmod(x.rt, 0o711)
        os.chmod(x.rt / "xhud", 0o711)
        os.chmod(path, 0o666)
        out = as_other_user(evil)
    finally:
        for p, m in modes:
            os.chmod(p, stat.S_IMODE(m))
    assert "connect_error" not in out, f"premise: the opened-up socket should accept the connection: {out}"
    reply = parse_reply(bytes.fromhex(out["reply"]))
    assert reply is not None, "the server closed the connection without a reply"
    status, stdout, stderr = reply
    assert status != 0 and stderr.strip(), f"another uid's request was accepted: {reply}"
    assert "refused" in stderr or "another user" in stderr, reply

    time.sleep(0.3)   # a change, had there been one, shows meanwhile: time passing is what is tested
    after_win = one_window(x)
    assert after_win.rect == win.rect
    assert region_bytes(x.screenshot(), win.rect) == before, "another uid's request changed the HUD"
    ok(x, "--id", "vol", "--progress", "0.9", *LINGER)   # and the owner still can
    rect = one_window(x).rect
    fill, track, _ = bar_fill(x.wait_screen(lambda s: (f := bar_fill(s, rect))[0] > 0.8 * f[1] > 0), rect)
    assert fill > 0.8 * track, f"the owner's update after the refusal: {fill} of {track} px"


# ---------------------------------------------------------------------------------------------
# 2. Malformed messages


def test_malformed_messages_rejected(nx):
    x = nx
    ok(x, "--id", "vol", "--mode", "bar", "--progress", "0.2", "--label", "Volume", "--no-shadow",
       "--hide-after", "20", *LINGER)
    win = one_window(x)
    path = sock_path(x)

    def rejected(name, data, **kw):
        t0 = time.monotonic()
        reply = talk(path, data, **kw)
        took = time.monotonic() - t0
        assert took < 2.5, f"{name}: the server took {took:.2f} s to answer or hang up"
        if reply is not None:
            status, out, err = reply
            assert status == 2 and out == "", f"{name}: reply {reply}"
            assert len([l for l in err.splitlines() if l.strip()]) == 1, f"{name}: want a one-line error, got {err!r}"
        return reply

    rejected("garbage", b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    t0 = time.monotonic()
    r = rejected("10 MB length", b"xhq2" + struct.pack("<I", 10 * 1024 * 1024) + b"\0" * 100)
    assert r is not None and time.monotonic() - t0 < 1.0, f"a 10 MB header should be refused at once: {r}"
    r = rejected("unknown option", request(["--id", "vol", "--frobnicate"]))
    assert r is not None and "frobnicate" in r[2], r
    r = rejected("invalid UTF-8", frame(b"xhq2", [b"/", b"", b"--id", b"vol", b"--label", b"\xff\xfe\xfd"]))
    assert r is not None, "invalid UTF-8: no reply"
    rejected("bytes after the message", request(["--id", "vol", "--progress", "1"]) + b"trailing")
    rejected("unterminated field", b"xhq2" + struct.pack("<I", 5) + b"/\0abc")
    rejected("short and closed", b"xhq2" + struct.pack("<I", 100) + b"/\0--id\0", close_write=True)
    rejected("bad value", request(["--id", "vol", "--progress", "7"]))
    rejected("bad name", request(["--id", "no such name!", "--label", "x"]))

    # Still serving, the same window, and a normal update works.
    time.sleep(0.2)   # a change, had there been one, shows meanwhile: time passing is what is tested
    assert one_window(x).id == win.id, "the HUD was replaced or is gone after malformed messages"
    fill0, track, _ = bar_fill(x.screenshot(), win.rect)
    assert fill0 < 0.4 * track, f"a rejected message changed the bar: {fill0} of {track}"
    ok(x, "--id", "vol", "--progress", "0.9", *LINGER)
    rect = one_window(x).rect
    fill, track, _ = bar_fill(x.wait_screen(lambda s: (f := bar_fill(s, rect))[0] > 0.8 * f[1] > 0), rect)
    assert fill > 0.8 * track, f"a normal update after malformed messages: {fill} of {track} px"
    assert len(servers(x)) == 1

    # Usage errors through the client: exit 2, one line, HUD unchanged.
    for args in (["--id", "vol", "--bezel-color", "nope"], ["--id", "vol", "--frobnicate"],
                 ["--id", "bad name!", "--label", "x"]):
        res = named(x, *args)
        assert res.returncode == 2, f"xhud {' '.join(args)}: exit {res.returncode}, {res.stderr!r}"
        assert len(res.stderr.strip().splitlines()) == 1, f"xhud {' '.join(args)}: {res.stderr!r}"
    assert one_window(x).id == win.id


# ---------------------------------------------------------------------------------------------
# 3. A flood of idle connections


def test_a_flood_of_idle_connections_leaves_room_for_a_real_request(nx):
    """1 100 connections that never say anything (more than a process's 1 024 descriptors):
    the oldest idle ones are dropped as new ones come, and a keybinding's request is answered."""
    import resource
    import socket as sk
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.skip(f"this process may open only {hard} descriptors")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200), hard))
    # The server starts with the common limit of 1 024 descriptors, whatever this machine's is.
    first = subprocess.run(["prlimit", "--nofile=1024:1024", str(XHUD_BIN), "--id", "first", "--label", "Up",
                            "--hide-after", "30", "--animation", "none", *LINGER], env=nx.env, capture_output=True,
                           text=True, timeout=10, stdin=subprocess.DEVNULL)
    assert first.returncode == 0, first.stderr
    idle = []
    try:
        failures = 0
        while len(idle) < 1100 and failures < 5:
            s = sk.socket(sk.AF_UNIX, sk.SOCK_STREAM)
            # A blocking connect waits for room in the server's backlog, a second at most.
            s.setsockopt(sk.SOL_SOCKET, sk.SO_SNDTIMEO, struct.pack("ll", 1, 0))
            try:
                s.connect(str(sock_path(nx)))
            except OSError:
                s.close()
                failures += 1
                continue
            idle.append(s)
        assert len(idle) > 1030, f"only {len(idle)} connections were taken"
        t0 = time.monotonic()
        res = named(nx, "--id", "volume", "--mode", "bar", "--progress", "0.5", "--hide-after", "30", *LINGER)
        assert res.returncode == 0, res.stderr
        took = time.monotonic() - t0
        assert took < 1, f"answered after {took:.2f} s"
        assert wait_until(lambda: len(nx.visible_hud_windows()) == 2, 3)
    finally:
        for s in idle:
            s.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
