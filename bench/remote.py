#!/usr/bin/env python3
"""A remote display (`ssh -X`, a build server far away): first paint through a latency proxy, and
the X round trips each client waits on, xhud beside the C floor, osd_cat and zenity, in one run.

    bench/remote.py [--rtt 20[,100]] [--runs N] [--compositor both|on|off] [--quick]
                    [--xhud PATH] [--helpers DIR] [--display N] [--out FILE] [--trace]

Xvfb listens on TCP (`-listen tcp -ac`); a proxy in this script (asyncio, one event loop thread)
forwards 127.0.0.1:(6000+P) to it and holds every byte half the round trip in each direction
(order kept: a FIFO per direction, each chunk sent at its arrival time + RTT/2). The measured
clients get DISPLAY=127.0.0.1:P; firstframe (bench/firstframe.c) watches the real display and
times exec to the first changed pixels (`--cmd-display`). xhud's HUD server connects through the
proxy too: warm, a `xhud server` started with the proxied DISPLAY (it has shown one HUD before);
cold, none runs and the invocation starts one (its font match kept from an earlier start, as on
any second start). With a compositor, xcompmgr runs locally on the real display: only the HUD's
processes are remote.

Round trips: the proxy parses the X11 protocol in both directions (the connection set-up, each
request's opcode and length with BIG-REQUESTS, the extensions' major opcodes from QueryExtension
replies, each reply's, error's and event's sequence number). A *wait* is a client falling silent
after a request batch until something from the server reaches it, at least 0.75 RTT later; it is
named by what arrived (the replies by the requests they answer: InternAtom _NET_WM_NAME,
QueryExtension RENDER, GetInputFocus = XSync, ...; events by name). Only the waits that end
before the first paint count: the first request batch that draws onto a mapped window (core
drawing, RENDER Composite/FillRectangles/Glyphs/Trapezoids onto a picture of it, MIT-SHM
PutImage), or maps a window with a background pixel, on any connection opened for the run (a
warm server's connection counts from the run's start).

Targets (issue #33): warm first paint within RTT + 5 ms; cold at most 1.0x the C floor's median.
Prints a markdown report (also to --out); exit 0 unless the bench itself could not run.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import ctypes
import os
import re
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# The processes of a run: the harness of the integration tests and the suite (harness/).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness.procs import end_hosts, hosts  # noqa: E402
from harness.xserver import answers, private_dir, x_environment  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BG = "3366cc"

CORE = {1: "CreateWindow", 2: "ChangeWindowAttributes", 3: "GetWindowAttributes", 4: "DestroyWindow",
        5: "DestroySubwindows", 6: "ChangeSaveSet", 7: "ReparentWindow", 8: "MapWindow", 9: "MapSubwindows",
        10: "UnmapWindow", 11: "UnmapSubwindows", 12: "ConfigureWindow", 13: "CirculateWindow", 14: "GetGeometry",
        15: "QueryTree", 16: "InternAtom", 17: "GetAtomName", 18: "ChangeProperty", 19: "DeleteProperty",
        20: "GetProperty", 21: "ListProperties", 22: "SetSelectionOwner", 23: "GetSelectionOwner",
        24: "ConvertSelection", 25: "SendEvent", 26: "GrabPointer", 27: "UngrabPointer", 28: "GrabButton",
        29: "UngrabButton", 30: "ChangeActivePointerGrab", 31: "GrabKeyboard", 32: "UngrabKeyboard", 33: "GrabKey",
        34: "UngrabKey", 35: "AllowEvents", 36: "GrabServer", 37: "UngrabServer", 38: "QueryPointer",
        39: "GetMotionEvents", 40: "TranslateCoordinates", 41: "WarpPointer", 42: "SetInputFocus",
        43: "GetInputFocus", 44: "QueryKeymap", 45: "OpenFont", 46: "CloseFont", 47: "QueryFont",
        48: "QueryTextExtents", 49: "ListFonts", 50: "ListFontsWithInfo", 51: "SetFontPath", 52: "GetFontPath",
        53: "CreatePixmap", 54: "FreePixmap", 55: "CreateGC", 56: "ChangeGC", 57: "CopyGC", 58: "SetDashes",
        59: "SetClipRectangles", 60: "FreeGC", 61: "ClearArea", 62: "CopyArea", 63: "CopyPlane", 64: "PolyPoint",
        65: "PolyLine", 66: "PolySegment", 67: "PolyRectangle", 68: "PolyArc", 69: "FillPoly",
        70: "PolyFillRectangle", 71: "PolyFillArc", 72: "PutImage", 73: "GetImage", 74: "PolyText8",
        75: "PolyText16", 76: "ImageText8", 77: "ImageText16", 78: "CreateColormap", 79: "FreeColormap",
        80: "CopyColormapAndFree", 81: "InstallColormap", 82: "UninstallColormap", 83: "ListInstalledColormaps",
        84: "AllocColor", 85: "AllocNamedColor", 86: "AllocColorCells", 87: "AllocColorPlanes", 88: "FreeColors",
        89: "StoreColors", 90: "StoreNamedColor", 91: "QueryColors", 92: "LookupColor", 93: "CreateCursor",
        94: "CreateGlyphCursor", 95: "FreeCursor", 96: "RecolorCursor", 97: "QueryBestSize", 98: "QueryExtension",
        99: "ListExtensions", 100: "ChangeKeyboardMapping", 101: "GetKeyboardMapping", 102: "ChangeKeyboardControl",
        103: "GetKeyboardControl", 104: "Bell", 105: "ChangePointerControl", 106: "GetPointerControl",
        107: "SetScreenSaver", 108: "GetScreenSaver", 109: "ChangeHosts", 110: "ListHosts", 111: "SetAccessControl",
        112: "SetCloseDownMode", 113: "KillClient", 114: "RotateProperties", 115: "ForceScreenSaver",
        116: "SetPointerMapping", 117: "GetPointerMapping", 118: "SetModifierMapping", 119: "GetModifierMapping",
        127: "NoOperation"}
MINOR = {
    "RENDER": {0: "QueryVersion", 1: "QueryPictFormats", 2: "QueryPictIndexValues", 4: "CreatePicture",
               5: "ChangePicture", 6: "SetPictureClipRectangles", 7: "FreePicture", 8: "Composite", 10: "Trapezoids",
               11: "Triangles", 17: "CreateGlyphSet", 19: "FreeGlyphSet", 20: "AddGlyphs", 22: "FreeGlyphs",
               23: "CompositeGlyphs8", 24: "CompositeGlyphs16", 25: "CompositeGlyphs32", 26: "FillRectangles",
               28: "SetPictureTransform", 29: "QueryFilters", 30: "SetPictureFilter", 33: "CreateSolidFill",
               34: "CreateLinearGradient", 35: "CreateRadialGradient"},
    "RANDR": {0: "QueryVersion", 4: "SelectInput", 5: "GetScreenInfo", 8: "GetScreenResources", 9: "GetOutputInfo",
              20: "GetCrtcInfo", 25: "GetScreenResourcesCurrent", 31: "GetOutputPrimary", 42: "GetMonitors"},
    "XFIXES": {0: "QueryVersion", 2: "SelectSelectionInput", 5: "CreateRegion", 10: "DestroyRegion",
               11: "SetRegion", 21: "SetWindowShapeRegion"},
    "MIT-SHM": {0: "QueryVersion", 1: "Attach", 2: "Detach", 3: "PutImage", 4: "GetImage", 5: "CreatePixmap"},
    "SHAPE": {0: "QueryVersion", 1: "Rectangles", 2: "Mask", 3: "Combine", 4: "Offset", 5: "QueryExtents"},
    "BIG-REQUESTS": {0: "Enable"}, "XKEYBOARD": {0: "UseExtension"}, "DAMAGE": {0: "QueryVersion", 1: "Create"},
    "Generic Event Extension": {0: "QueryVersion"}, "SYNC": {0: "Initialize"},
    "XInputExtension": {47: "XIQueryVersion"}, "Composite": {0: "QueryVersion"},
}
DRAWING_CORE = {61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 74, 75, 76, 77}
EVENTS = {2: "KeyPress", 3: "KeyRelease", 4: "ButtonPress", 5: "ButtonRelease", 6: "MotionNotify", 7: "EnterNotify",
          8: "LeaveNotify", 9: "FocusIn", 10: "FocusOut", 11: "KeymapNotify", 12: "Expose", 13: "GraphicsExpose",
          14: "NoExpose", 15: "VisibilityNotify", 16: "CreateNotify", 17: "DestroyNotify", 18: "UnmapNotify",
          19: "MapNotify", 20: "MapRequest", 21: "ReparentNotify", 22: "ConfigureNotify", 23: "ConfigureRequest",
          24: "GravityNotify", 25: "ResizeRequest", 26: "CirculateNotify", 27: "CirculateRequest",
          28: "PropertyNotify", 29: "SelectionClear", 30: "SelectionRequest", 31: "SelectionNotify",
          32: "ColormapNotify", 33: "ClientMessage", 34: "MappingNotify", 35: "GenericEvent"}
PREDEFINED_ATOMS = {1: "PRIMARY", 23: "RESOURCE_MANAGER", 31: "STRING", 39: "WM_NAME", 40: "WM_NORMAL_HINTS",
                    35: "WM_HINTS", 67: "WM_CLASS", 68: "WM_TRANSIENT_FOR"}


class Conn:
    """One proxied X connection: what each side sent, parsed enough to name the round trips."""

    def __init__(self, cid: int):
        self.id = cid
        self.broken = ""   # why the stream could not be followed, once it could not
        self.cbuf = b""
        self.sbuf = b""
        self.csetup = False
        self.ssetup = False
        self.order = "<"
        self.seq = 0  # the last request's sequence number (the set-up is 0)
        self.requests: dict[int, str] = {}  # seq -> label
        self.pending_ext: dict[int, str] = {}  # seq of QueryExtension -> name
        self.pending_atom: dict[int, str] = {}  # seq of InternAtom -> name
        self.ext: dict[int, str] = {}  # major opcode -> extension name
        self.atoms: dict[int, str] = dict(PREDEFINED_ATOMS)
        self.last_sseq = 0
        self.painted_on_map: set[int] = set()  # windows with a background pixel: the map paints
        self.mapped: set[int] = set()
        self.pictures: dict[int, int] = {}  # RENDER picture -> drawable
        # (time, "c", [(seq, label, kind)]) with kind "map", "draw" or ""; (time, "s", [label])
        self.log: list[tuple[float, str, list]] = []
        self.opened = time.monotonic()

    def u16(self, b, o):
        return struct.unpack_from(self.order + "H", b, o)[0]

    def u32(self, b, o):
        return struct.unpack_from(self.order + "I", b, o)[0]

    def atom(self, a: int) -> str:
        return self.atoms.get(a, f"atom {a}")

    def client_data(self, data: bytes, t: float) -> None:
        self.cbuf += data
        items = []
        b = self.cbuf
        o = 0
        if not self.csetup:
            if len(b) < 12:
                return
            self.order = "<" if b[0:1] == b"l" else ">"
            n, d = self.u16(b, 6), self.u16(b, 8)
            size = 12 + (n + 3) // 4 * 4 + (d + 3) // 4 * 4
            if len(b) < size:
                return
            o = size
            self.csetup = True
            items.append((0, "connection set-up", ""))
        while len(b) - o >= 4:
            op = b[o]
            length = self.u16(b, o + 2) * 4
            hdr = 4
            if length == 0:
                if len(b) - o < 8:
                    break
                length = self.u32(b, o + 4) * 4
                hdr = 8
            if len(b) - o < length:
                break
            self.seq += 1
            label, kind = self.name_request(b, o, op, hdr, length)
            self.requests[self.seq] = label
            items.append((self.seq, label, kind))
            o += length
        self.cbuf = b[o:]
        if items:
            self.log.append((t, "c", items))

    def target(self, b, body: int, length_end: int, off: int) -> int | None:
        return self.u32(b, body + off) if body + off + 4 <= length_end else None

    def kind_of(self, b, o, op, hdr, length, ext: str | None, minor: int) -> str:
        """"draw" for drawing onto a mapped window (or a picture of one), "map" for a map that
        paints by itself (a window with a background pixel), else ""."""
        body, end = o + hdr, o + length
        if ext is None:
            if op == 1 and end - body >= 28:  # CreateWindow: wid, ..., value-mask at +24
                if self.u32(b, body + 24) & 0x2:  # CWBackPixel
                    self.painted_on_map.add(self.u32(b, body))
                return ""
            if op in (8, 9):
                w = self.target(b, body, end, 0)
                self.mapped.add(w)
                return "map" if w in self.painted_on_map else ""
            if op in DRAWING_CORE:
                d = self.target(b, body, end, 4 if op in (62, 63) else 0)
                return "draw" if d in self.mapped else ""
            return ""
        if ext == "RENDER":
            if minor == 4:  # CreatePicture: pid, drawable
                pid, d = self.target(b, body, end, 0), self.target(b, body, end, 4)
                if pid is not None:
                    self.pictures[pid] = d
                return ""
            off = {8: 12, 26: 4, 10: 8, 11: 8, 12: 8, 13: 8, 23: 8, 24: 8, 25: 8}.get(minor)
            if off is None:
                return ""
            pic = self.target(b, body, end, off)
            return "draw" if self.pictures.get(pic) in self.mapped else ""
        if ext == "MIT-SHM" and minor == 3:
            return "draw" if self.target(b, body, end, 0) in self.mapped else ""
        return ""

    def name_request(self, b, o, op, hdr, length):
        minor = b[o + 1]
        ext = self.ext.get(op, f"ext {op}") if op >= 128 else None
        kind = self.kind_of(b, o, op, hdr, length, ext, minor)
        label = self.label_request(b, o, op, hdr, length, ext, minor)
        return label, kind

    def label_request(self, b, o, op, hdr, length, ext, minor):
        if op == 98:  # QueryExtension
            n = self.u16(b, o + hdr)
            name = b[o + hdr + 4:o + hdr + 4 + n].decode(errors="replace")
            self.pending_ext[self.seq] = name
            return f"QueryExtension {name}"
        if op == 16:
            n = self.u16(b, o + hdr)
            name = b[o + hdr + 4:o + hdr + 4 + n].decode(errors="replace")
            self.pending_atom[self.seq] = name
            return f"InternAtom {name}"
        if op == 20 and length >= 24:
            return f"GetProperty {self.atom(self.u32(b, o + hdr + 4))}"
        if op == 23 and length >= 8:
            return f"GetSelectionOwner {self.atom(self.u32(b, o + hdr))}"
        if op == 43:
            return "GetInputFocus (XSync)"
        if ext is None:
            return CORE.get(op, f"core {op}")
        return f"{ext} {MINOR.get(ext, {}).get(minor, str(minor))}"

    def server_data(self, data: bytes) -> list[tuple[str, int, str]]:
        """Parses what the server sent; returns (kind, seq, label) for each message."""
        self.sbuf += data
        b = self.sbuf
        o = 0
        out = []
        if not self.ssetup:
            if len(b) < 8:
                return out
            size = 8 + self.u16(b, 6) * 4
            if len(b) < size:
                return out
            o = size
            self.ssetup = True
            out.append(("reply", 0, "connection set-up"))
        while len(b) - o >= 32:
            kind = b[o] & 0x7F
            size = 32
            if kind == 1 or kind == 35:
                size += self.u32(b, o + 4) * 4
            if len(b) - o < size:
                break
            s16 = self.u16(b, o + 2)
            seq = self.full_seq(s16)
            if kind == 1:
                label = self.requests.get(seq, f"request #{seq}")
                if seq in self.pending_ext:
                    name = self.pending_ext.pop(seq)
                    if b[o + 8]:
                        self.ext[b[o + 9]] = name
                if seq in self.pending_atom:
                    self.atoms[self.u32(b, o + 8)] = self.pending_atom.pop(seq)
                out.append(("reply", seq, label))
            elif kind == 0:
                out.append(("error", seq, f"error {b[o + 1]} on " + self.requests.get(seq, f"#{seq}")))
            else:
                out.append(("event", seq, EVENTS.get(kind, f"event {kind}")))
            o += size
        self.sbuf = b[o:]
        return out

    def full_seq(self, s16: int) -> int:
        # The newest request whose low 16 bits match, at most our own last sequence number.
        base = self.seq & ~0xFFFF
        s = base | s16
        if s > self.seq:
            s -= 0x10000
        return max(s, 0)


class Proxy:
    """127.0.0.1:listen -> 127.0.0.1:target, each direction held `delay` seconds, order kept."""

    def __init__(self, listen: int, target: int, delay: float):
        self.listen, self.target, self.delay = listen, target, delay
        self.conns: list[Conn] = []
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("the proxy did not start")

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            self.loop.create_server(lambda: _Side(self, None), "127.0.0.1", self.listen, reuse_address=True))
        self.ready.set()
        self.loop.run_forever()

    def close(self):
        def stop():
            self.server.close()
            for c in list(_Side.live):
                c.transport.close()
            self.loop.stop()
        self.loop.call_soon_threadsafe(stop)
        self.thread.join(5)

    def new_conn(self) -> Conn:
        with self.lock:
            c = Conn(len(self.conns))
            self.conns.append(c)
            return c


class _Delayed:
    """A FIFO of (due, bytes) written to a transport when due."""

    def __init__(self, loop, transport, delay, on_sent=None):
        self.loop, self.transport, self.delay, self.on_sent = loop, transport, delay, on_sent
        self.q: collections.deque = collections.deque()
        self.timer = None
        self.closing = False

    def push(self, data: bytes, meta=None):
        self.q.append((self.loop.time() + self.delay, data, meta))
        if self.timer is None:
            self.timer = self.loop.call_at(self.q[0][0], self.flush)

    def close_after(self):
        self.closing = True
        if self.timer is None:
            self.flush()

    def flush(self):
        self.timer = None
        now = self.loop.time()
        while self.q and self.q[0][0] <= now:
            _, data, meta = self.q.popleft()
            if self.transport is not None and not self.transport.is_closing():
                self.transport.write(data)
            if self.on_sent and meta:
                self.on_sent(meta)
        if self.q:
            self.timer = self.loop.call_at(self.q[0][0], self.flush)
        elif self.closing and self.transport is not None:
            self.transport.close()


class _Side(asyncio.Protocol):
    live: set = set()

    def __init__(self, proxy: Proxy, peer):
        self.proxy, self.peer = proxy, peer
        self.is_server = peer is not None  # the side toward the X server
        self.transport = None
        self.out: _Delayed | None = None  # toward this side's peer
        self.conn: Conn | None = None
        self.early: list[bytes] = []

    def connection_made(self, transport):
        self.transport = transport
        _Side.live.add(self)
        if self.peer is None:  # a client: connect to the X server
            self.conn = self.proxy.new_conn()
            transport.pause_reading()
            asyncio.ensure_future(self._upstream())

    async def _upstream(self):
        loop = self.proxy.loop
        try:
            _, up = await loop.create_connection(lambda: _Side(self.proxy, self), "127.0.0.1", self.proxy.target)
        except OSError:
            self.transport.close()
            return
        self.peer = up
        up.conn = self.conn
        conn = self.conn
        self.out = _Delayed(loop, up.transport, self.proxy.delay)
        up.out = _Delayed(loop, self.transport, self.proxy.delay,
                          on_sent=lambda items: conn.log.append((time.monotonic(), "s", items)))
        early, self.early = self.early, []
        for data in early:
            self.data_received(data)
        self.transport.resume_reading()

    def data_received(self, data):
        if self.out is None:
            # Before the X server's side is connected (Python 3.11.2's pause_reading in
            # connection_made does not hold): kept, sent once it is.
            self.early.append(data)
            return
        # The bytes are forwarded whatever the parser makes of them: a stream it cannot follow
        # costs the round-trip names, never the client's connection.
        items = None
        try:
            if self.is_server:
                items = self.conn.server_data(data)
            else:
                self.conn.client_data(data, time.monotonic())
        except Exception as e:  # noqa: BLE001
            if not self.conn.broken:
                self.conn.broken = f"{type(e).__name__}: {e}"
                print(f"remote.py: connection {self.conn.id}: the X11 stream could not be followed "
                            f"({self.conn.broken}); its round trips are not counted", file=sys.stderr)
        self.out.push(data, items)

    def connection_lost(self, exc):
        _Side.live.discard(self)
        if self.out is not None:
            self.out.close_after()
        elif self.peer is not None and self.peer.transport is not None:
            self.peer.transport.close()


# ---------------------------------------------------------------------------------------------
# Round trips from the proxy's log


def summarize(labels: list[str]) -> str:
    """"InternAtom A, InternAtom B, ..." as "InternAtom x12 (A, B, ...)"; repeats counted."""
    groups: dict[str, list[str]] = {}
    for lbl in labels:
        head, _, arg = lbl.partition(" ")
        if head in ("InternAtom", "GetProperty", "QueryExtension") and arg:
            groups.setdefault(head, []).append(arg)
        else:
            groups.setdefault(lbl, [])
    parts = []
    for head, args in groups.items():
        if not args:
            n = labels.count(head)
            parts.append(head + (f" x{n}" if n > 1 else ""))
        elif len(args) == 1:
            parts.append(f"{head} {args[0]}")
        else:
            shown = ", ".join(args[:3]) + (", ..." if len(args) > 3 else "")
            parts.append(f"{head} x{len(args)} ({shown})")
    return ", ".join(parts) or "?"


def waits_of(conn: Conn, since: float, until: float | None, rtt: float) -> list[tuple[float, str]]:
    """The waits of one connection between `since` and `until`: (time waited ms, what for)."""
    log = [e for e in list(conn.log) if e[0] >= since]
    out = []
    last_c = None
    delivered: list = []
    for t, side, items in log:
        if until is not None and t > until:
            break
        if side == "s":
            if last_c is not None:
                delivered.append((t, items))
            continue
        if last_c is not None and delivered and t - last_c >= 0.75 * rtt and delivered[-1][0] - last_c >= 0.75 * rtt:
            replies = [lbl for _, its in delivered for k, _, lbl in its if k in ("reply", "error")]
            events = [lbl for _, its in delivered for k, _, lbl in its if k == "event"]
            what = summarize(replies or events)
            if not replies and events:
                what = "event " + what
            out.append(((delivered[-1][0] - last_c) * 1000, what))
        last_c = t
        delivered = []
    return out


def first_paint_time(conns: list[Conn], since: float) -> float | None:
    """The earliest batch that draws onto a mapped window (or maps one that has a background
    pixel), on any connection."""
    best = None
    for c in conns:
        for t, side, items in list(c.log):
            if t < since or side != "c":
                continue
            if any(k in ("map", "draw") for _, _, k in items):
                best = t if best is None else min(best, t)
                break
    return best


# ---------------------------------------------------------------------------------------------
# Processes


def end_runtime_hosts(runtime: str) -> None:
    end_hosts("XDG_RUNTIME_DIR", runtime)


def stop(p: subprocess.Popen | None) -> None:
    if p is None or p.poll() is not None:
        return
    p.terminate()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


class Bench:
    def __init__(self, a, helpers: Path, work: Path):
        self.a = a
        self.ff = str(helpers / "firstframe")
        self.floor = str(helpers / "floor")
        self.xhud = a.xhud
        self.work = work
        self.procs: list[subprocess.Popen] = []

    def free_display(self, start: int) -> int:
        n = start
        while os.path.exists(f"/tmp/.X{n}-lock") or os.path.exists(f"/tmp/.X11-unix/X{n}") or \
                os.path.exists(f"/tmp/.X{n + 100}-lock"):
            n += 1
        return n

    def session(self, composited: bool, rtt_ms: float):
        """Xvfb :n on TCP, maybe xcompmgr on it, the proxy as display n+100."""
        n = self.free_display(self.a.display)
        local = x_environment(f":{n}", dict(os.environ, NO_AT_BRIDGE="1"), drop_bus=True)
        xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-listen", "tcp", "-ac", "-noreset"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(xvfb)
        if not answers(local, 10, xvfb):
            raise RuntimeError(f"Xvfb :{n} did not start")
        subprocess.run([self.ff, "setbg", BG], env=local, check=True)
        comp = None
        if composited:
            comp = subprocess.Popen(["xcompmgr"], env=local, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.procs.append(comp)
            if subprocess.run([self.ff, "waitcm", "5000"], env=local).returncode != 0:
                raise RuntimeError("xcompmgr did not start")
            time.sleep(0.3)
        proxy = Proxy(6000 + n + 100, 6000 + n, rtt_ms / 2000)
        runtime = private_dir(self.work / f"run{n}")
        remote = dict(local, DISPLAY=f"127.0.0.1:{n + 100}", XDG_RUNTIME_DIR=str(runtime),
                      XDG_CACHE_HOME=str(self.work / f"cache{n}"))
        local["XDG_RUNTIME_DIR"] = str(runtime)
        return {"n": n, "xvfb": xvfb, "comp": comp, "proxy": proxy, "local": local, "remote": remote,
                "runtime": str(runtime), "server": None,
                "font_matches": self.work / f"cache{n}" / "xhud" / "fonts" / "matches"}

    def close(self, s) -> None:
        stop(s.get("server"))
        end_runtime_hosts(s["runtime"])
        s["proxy"].close()
        for p in (s["comp"], s["xvfb"]):
            stop(p)

    def firstframe(self, s, cmd: list[str], stdin: str | None = None) -> tuple[float | None, str]:
        args = [self.ff, "--bg", BG, "--auto", "--timeout", "15000", "--settle", "5000",
                "--cmd-display", s["remote"]["DISPLAY"]]
        if stdin is not None:
            args += ["--stdin-text", stdin]
        env = dict(s["remote"], DISPLAY=s["local"]["DISPLAY"])
        r = subprocess.run(args + ["--", *cmd], env=env, capture_output=True, text=True, timeout=60)
        m = re.fullmatch(r"\s*([\d.]+) ([\d.]+)\s*", r.stdout)
        if r.returncode == 0 and m:
            return float(m.group(1)), ""
        return None, (r.stdout + r.stderr).strip()[-200:]

    def start_server(self, s, xhud: str) -> None:
        end_runtime_hosts(s["runtime"])
        s["server_bin"] = xhud
        p = subprocess.Popen([xhud, "server"], env=s["remote"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.procs.append(p)
        s["server"] = p
        sock = Path(s["runtime"]) / "xhud" / f"127.0.0.1_{s['n'] + 100}.sock"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if p.poll() is not None:
                raise RuntimeError(f"`xhud server` exited {p.returncode}")
            if sock.exists():
                try:
                    r = subprocess.run([xhud, "list"], env=s["remote"], capture_output=True, timeout=10)
                    if os.environ.get("REMOTE_DEBUG"): print("list:", r.returncode, r.stderr[-300:], file=sys.stderr)
                    if r.returncode == 0:
                        return
                except subprocess.TimeoutExpired:
                    pass   # a busy machine: ask again until the deadline
            time.sleep(0.05)
        listing = sorted(os.listdir(Path(s["runtime"]) / "xhud")) if (Path(s["runtime"]) / "xhud").exists() else "no directory"
        raise RuntimeError(f"`xhud server` did not answer ({sock.name} expected; {listing})")

    def keep_font_matches(self, s, cmd) -> None:
        if s["font_matches"].exists():
            return
        subprocess.run([*cmd, "--hide-after", "0.3", "--linger", "1"], env=s["remote"], capture_output=True, timeout=60)
        deadline = time.monotonic() + 10
        while not s["font_matches"].exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        end_runtime_hosts(s["runtime"])

    def run_one(self, s, key: str, cmd, opt) -> tuple[float | None, list, str]:
        proxy: Proxy = s["proxy"]
        rtt = self.a.current_rtt / 1000
        if opt.get("server") == "warm":
            if s["server"] is None or s["server"].poll() is not None or s.get("server_bin") != cmd[0]:
                stop(s["server"])
                self.start_server(s, cmd[0])
                self.firstframe(s, cmd)  # a server that has shown one HUD before
                time.sleep(0.3)
        elif opt.get("server") == "cold":
            stop(s["server"])
            s["server"] = None
            end_runtime_hosts(s["runtime"])
            self.keep_font_matches(s, cmd)
        else:
            if s["server"] is not None:
                stop(s["server"])
                s["server"] = None
            end_runtime_hosts(s["runtime"])
        with proxy.lock:
            known = len(proxy.conns)
        since = time.monotonic()
        ms, err = self.firstframe(s, cmd, opt.get("stdin"))
        time.sleep(0.05)
        with proxy.lock:
            conns = proxy.conns[known:]
            if opt.get("server") == "warm":
                conns = proxy.conns[:]  # the server's connection is older than the run
        paint = first_paint_time(conns, since)
        waits = []
        for c in conns:
            waits += [(c.id, ms_, what) for ms_, what in waits_of(c, since, paint, rtt)]
        if opt.get("server") == "cold":
            end_runtime_hosts(s["runtime"])
        return ms, waits, err


def clients(b: Bench) -> list[tuple[str, str, list[str], dict]]:
    hud = [b.xhud, "--mode", "annular", "--label", "Loading", "--progress", "0.5"]
    c = [("floor", "floor (C, Xlib + Cairo)", [b.floor, "Loading"], {}),
         ("xhud-warm", "**xhud warm** (server running)", hud, {"server": "warm"}),
         ("xhud-cold", "**xhud cold** (no server: starts one)", hud, {"server": "cold"})]
    if b.a.compare:
        old = [b.a.compare, *hud[1:]]
        c += [("xhud-warm-before", "xhud warm, before (--compare)", old, {"server": "warm"}),
              ("xhud-cold-before", "xhud cold, before (--compare)", old, {"server": "cold"})]
    if shutil.which("osd_cat"):
        c.append(("osd_cat", "osd_cat", ["osd_cat", "--pos=middle", "--align=center", "--delay=600",
                                          "--font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-*", "--colour=white"],
                  {"stdin": "Loading\n"}))
    if shutil.which("zenity"):
        c.append(("zenity", "zenity --progress --pulsate", ["zenity", "--progress", "--pulsate", "--no-cancel",
                                                            "--text=Loading"], {"stdin": ""}))
    return c


def fmt(v, nd=1):
    return "–" if v is None else f"{v:.{nd}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtt", default="20,100", help="round trips in ms, comma-separated (default 20,100)")
    ap.add_argument("--runs", type=int, default=9, help="timed runs per client (default 9; alternating)")
    ap.add_argument("--compositor", default="both", choices=["both", "on", "off"])
    ap.add_argument("--quick", action="store_true", help="2 runs, 20 ms, no compositor: structure only")
    ap.add_argument("--xhud", default=os.environ.get("XHUD_BIN") or str(REPO / ".build" / "release" / "xhud"))
    ap.add_argument("--helpers", default=None, help="directory with firstframe and floor (else compiled here)")
    ap.add_argument("--compare", default=None, help="another xhud (e.g. before a change), measured alongside")
    ap.add_argument("--display", type=int, default=240)
    ap.add_argument("--only", default=None, help="some clients only, comma-separated keys (floor,xhud-warm,...)")
    ap.add_argument("--out", default=None, help="also write the report here")
    ap.add_argument("--trace", action="store_true", help="print every wait of every run on stderr")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.rtt, a.compositor = 2, "20", "off"
    rtts = [float(x) for x in a.rtt.split(",") if x.strip()]
    if not Path(a.xhud).exists():
        print(f"remote: no xhud at {a.xhud}", file=sys.stderr)
        return 1
    for tool in ("Xvfb", "xdpyinfo", "cc", "pkg-config"):
        if not shutil.which(tool):
            print(f"remote: {tool} is missing", file=sys.stderr)
            return 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: detached servers come back here
    except (OSError, AttributeError):
        pass
    work = Path(tempfile.mkdtemp(prefix="xhud-remote-"))
    helpers = Path(a.helpers) if a.helpers else work
    if not a.helpers:
        for name, libs in (("firstframe", "x11"), ("floor", "x11 cairo")):
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", *libs.split()], capture_output=True,
                                   text=True).stdout.split()
            subprocess.run(["cc", "-O2", "-o", str(work / name), str(REPO / "bench" / f"{name}.c"), *flags, "-lm"],
                           check=True)
    b = Bench(a, helpers, work)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    comps = {"both": [False, True], "on": [True], "off": [False]}[a.compositor]
    results = []  # (rtt, composited, key, label, times, waits of the last run, counts, error)
    try:
        for rtt in rtts:
            a.current_rtt = rtt
            for composited in comps:
                s = b.session(composited, rtt)
                try:
                    cl = [c for c in clients(b) if not a.only or c[0] in a.only.split(",")]
                    rows = {k: {"label": lbl, "times": [], "counts": [], "waits": [], "error": ""} for k, lbl, _, _ in cl}
                    for rnd in range(a.runs + 1):  # round 0 warms caches up and is not counted
                        for key, _, cmd, opt in cl:
                            ms, waits, err = b.run_one(s, key, cmd, opt)
                            r = rows[key]
                            if ms is None:
                                r["error"] = err
                                continue
                            if a.trace:
                                print(f"remote: {rtt:g} ms {'xcompmgr' if composited else 'none'} {key} run {rnd}: "
                                      f"{ms:.1f} ms, {len(waits)} waits: " + "; ".join(f"[{c}] {w}" for c, _, w in waits),
                                      file=sys.stderr)
                            if rnd == 0:
                                continue
                            r["times"].append(ms)
                            r["counts"].append(len(waits))
                            r["waits"] = waits
                    for key, r in rows.items():
                        results.append((rtt, composited, key, r))
                    print(f"remote: {rtt:g} ms, {'xcompmgr' if composited else 'no compositor'}: " +
                          ", ".join(f"{k} {fmt(statistics.median(r['times']) if r['times'] else None)} ms"
                                    for k, r in rows.items()), file=sys.stderr)
                finally:
                    b.close(s)
    except KeyboardInterrupt:
        print("remote: interrupted", file=sys.stderr)
        return 130
    finally:
        for p in b.procs:
            stop(p)
        shutil.rmtree(work, ignore_errors=True)
    text = report(results, a)
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(text)
    sys.stdout.write(text)
    return 0


def report(results, a) -> str:
    lines = [f"# A remote display: first paint through a latency proxy, {time.strftime('%Y-%m-%d %H:%M')}", "",
             "Exec to the first changed pixels on the real display (firstframe), the client and xhud's HUD server "
             "reaching Xvfb through a proxy that holds each byte RTT/2 in each direction; min / median / max of "
             f"{a.runs} alternating runs. *Waits*: the round trips a client waited on before its first paint "
             "(median over the runs). xcompmgr, where on, runs on the real display.", ""]
    lines += ["| RTT | compositor | client | min ms | median ms | max ms | / floor | waits | target |",
              "|---:|---|---|---:|---:|---:|---:|---:|---|"]
    for rtt, comp, key, r in results:
        t = sorted(r["times"])
        floor = next((x for x in results if x[0] == rtt and x[1] == comp and x[2] == "floor"), None)
        fmed = statistics.median(floor[3]["times"]) if floor and floor[3]["times"] else None
        med = statistics.median(t) if t else None
        ratio = f"{med / fmed:.2f}" if med and fmed else "–"
        target = ""
        if key.startswith("xhud-warm") and med:
            target = f"≤ RTT + 5 = {rtt + 5:g} ms: " + ("met" if med <= rtt + 5 else "missed")
        elif key.startswith("xhud-cold") and med and fmed:
            target = "≤ 1.0× floor: " + ("met" if med <= fmed else "missed")
        waits = f"{statistics.median(r['counts']):g}" if r["counts"] else "–"
        if not t:
            lines.append(f"| {rtt:g} | {'xcompmgr' if comp else 'none'} | {r['label']} | – | – | – | – | – | "
                         f"failed: {r['error'][:80]} |")
            continue
        lines.append(f"| {rtt:g} | {'xcompmgr' if comp else 'none'} | {r['label']} | {t[0]:.1f} | {med:.1f} | "
                     f"{t[-1]:.1f} | {ratio} | {waits} | {target} |")
    lines += ["", "## Round trips waited on before the first paint (the last run)", "",
              "| RTT | path | compositor | round trips | what each waited for (connection: reply or event) |",
              "|---:|---|---|---:|---|"]
    for rtt, comp, key, r in results:
        if not r["times"]:
            continue
        what = "; ".join(f"{i + 1}. [{c}] {w}" for i, (c, _, w) in enumerate(r["waits"])) or "none"
        lines.append(f"| {rtt:g} | {key} | {'xcompmgr' if comp else 'none'} | {len(r['waits'])} | {what} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
