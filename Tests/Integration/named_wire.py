"""The named-HUD server's wire format, from the outside: a request framed as the client frames
it, sent over the socket, and the reply parsed."""

from __future__ import annotations

import socket
import struct
from pathlib import Path


def frame(tag: bytes, fields: list[bytes]) -> bytes:
    payload = b"".join(f + b"\0" for f in fields)
    return tag + struct.pack("<I", len(payload)) + payload


def request(args: list[str], cwd: str = "/") -> bytes:
    return frame(b"xhq2", [cwd.encode(), b""] + [a.encode() for a in args])   # cwd, flags (none), argv


def talk(path: Path, data: bytes, timeout=3.0, close_write=False):
    """Sends data, reads until EOF; returns (status, stdout, stderr) of the reply, or None when
    the server closed the connection without one."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    try:
        s.connect(str(path))
        try:
            s.sendall(data)
            if close_write:
                s.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError):
            pass
        buf = b""
        while True:
            try:
                chunk = s.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            buf += chunk
    finally:
        s.close()
    return parse_reply(buf)


def parse_reply(buf: bytes):
    if not buf:
        return None
    assert buf[:4] == b"xhr2", f"not a reply: {buf[:40]!r}"
    n = struct.unpack("<I", buf[4:8])[0]
    assert len(buf) == 8 + n, f"reply length {n}, got {len(buf) - 8} bytes"
    fields = buf[8:].split(b"\0")
    assert fields[-1] == b"" and len(fields) == 4, f"reply fields {fields!r}"
    return int(fields[0]), fields[1].decode(), fields[2].decode()
