"""The X session: Xvfb, maybe xcompmgr, a session bus and dunst; window queries."""

from __future__ import annotations

import atexit
import contextlib
import os
import select
import shutil
import subprocess
import tempfile
import sys
import time
from pathlib import Path

from benchsuite.common import BG, FULL, SCREEN_H, SCREEN_W
from harness.windows import WinInfo, parse_xwininfo
from harness.xlib import set_root_background
from harness.xserver import compositor_failure, private_dir, start_xvfb_from


class XSession:
    def __init__(self, suite, composited: bool):
        self.s = suite
        self.composited = composited
        self.xvfb = self.xcm = self.dbus = self.dunst = None
        self.server: subprocess.Popen | None = None  # a foreground `xhud server`, when one is up
        self.env: dict[str, str] = {}
        self.display = ""
        self.number = 0
        self.runtime: Path | None = None  # this session's XDG_RUNTIME_DIR
        self.fresh_runtimes = 0
        self.notes: list[str] = []

    @property
    def name(self) -> str:
        return "xcompmgr" if self.composited else "no compositor"

    def start(self) -> None:
        procs = self.s.procs
        first = self.s.args.display_base
        self.xvfb, n, self.env = start_xvfb_from(
            first, first + 201, SCREEN_W, SCREEN_H, lambda cmd, env, n: procs.spawn(cmd, env, log_name=f"xvfb{n}"),
            procs.stop, dict(os.environ, NO_AT_BRIDGE="1"), drop_bus=True)  # NO_AT_BRIDGE: GTK, no accessibility bus
        self.display, self.number = f":{n}", n
        # A private XDG_RUNTIME_DIR: the display's HUD server listens in it, and in nobody else's.
        self.runtime = private_dir(self.s.runtime_root / f"run{n}")
        self.env["XDG_RUNTIME_DIR"] = str(self.runtime)
        # A private cache: the font matches a server keeps for the next (FontMatchCache).
        self.env["XDG_CACHE_HOME"] = str(self.s.work / f"cache{n}")
        self.font_matches = self.s.work / f"cache{n}" / "xhud" / "fonts" / "matches"
        set_root_background(self.display, tuple(bytes.fromhex(BG)))
        if self.composited:
            self.xcm = procs.spawn(["xcompmgr"], self.env, log_name="xcompmgr")
            failure = compositor_failure(self.xcm, self.display, Path(self.xcm.log_path))
            if failure:
                raise RuntimeError(failure)
            time.sleep(0.3)
        if self.s.have("dunst") and self.s.have("notify-send") and self.s.have("dbus-daemon"):
            self.start_dunst()

    def start_dunst(self) -> None:
        procs = self.s.procs
        self.dbus = procs.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], self.env,
                                stdout=subprocess.PIPE, log_name="dbus")
        line = b""
        deadline = time.monotonic() + 5
        while not line.endswith(b"\n") and time.monotonic() < deadline:
            r, _, _ = select.select([self.dbus.stdout], [], [], 0.1)
            if r:
                chunk = os.read(self.dbus.stdout.fileno(), 512)
                if not chunk:
                    break
                line += chunk
        if not line.strip():
            self.notes.append("dbus-daemon did not start: notify-send/dunst not measured")
            procs.stop(self.dbus)
            self.dbus = None
            return
        self.env["DBUS_SESSION_BUS_ADDRESS"] = line.decode().strip().splitlines()[0]
        cfg = self.s.work / "xdg"
        (cfg / "dunst").mkdir(parents=True, exist_ok=True)
        # dunst 1.9's defaults, pinned: top right, no icons, a progress bar from the value hint.
        (cfg / "dunst" / "dunstrc").write_text(
            "[global]\nmonitor = 0\nfollow = none\norigin = top-right\noffset = 10x50\nwidth = 300\n"
            "font = Monospace 8\nshow_indicators = no\nicon_position = off\nidle_threshold = 0\n"
            "sticky_history = no\n")
        self.env["XDG_CONFIG_HOME"] = str(cfg)
        self.dunst = procs.spawn(["dunst"], self.env, log_name="dunst")
        for _ in range(100):
            if self.dunst.poll() is not None:
                break
            if self.run(["dunstctl", "is-paused"]).returncode == 0:
                return
            time.sleep(0.05)
        self.notes.append("dunst did not start: " + Path(self.dunst.log_path).read_text(errors="replace")[-300:])
        procs.stop(self.dunst)
        self.dunst = None

    @property
    def socket_path(self) -> Path:
        """Where the display's HUD server listens: $XDG_RUNTIME_DIR/xhud/<display number>.sock."""
        return (self.runtime or Path("/nonexistent")) / "xhud" / f"{self.number}.sock"

    @contextlib.contextmanager
    def fresh_runtime(self):
        """XDG_RUNTIME_DIR is a new empty directory (0700, this user's) inside the block: a cold
        start finds nothing an earlier server left there (its socket, its lock, the xhud/
        directory). The font matches are in XDG_CACHE_HOME and stay kept."""
        self.fresh_runtimes += 1
        d = self.s.runtime_root / f"run{self.number}-{self.fresh_runtimes}"
        private_dir(d, exist_ok=False)
        old = self.runtime
        self.runtime = d
        self.env["XDG_RUNTIME_DIR"] = str(d)
        try:
            yield d
        finally:
            self.runtime = old
            self.env["XDG_RUNTIME_DIR"] = str(old)
            shutil.rmtree(d, ignore_errors=True)

    def stop(self) -> None:
        for p in (self.server, self.dunst, self.dbus, self.xcm, self.xvfb):
            self.s.procs.stop(p)
        self.server = None

    def run(self, cmd, timeout=20, check=False, env=None) -> subprocess.CompletedProcess:
        """Runs a short command with its output in files (never a pipe a daemon could keep open)."""
        out_path = self.s.procs.logfile(Path(str(cmd[0])).name)
        with open(out_path, "w+b") as out, open(str(out_path) + ".err", "w+b") as err:
            try:
                res = subprocess.run([str(c) for c in cmd], env=env or self.env, stdin=subprocess.DEVNULL,
                                     stdout=out, stderr=err, timeout=timeout)
                rc = res.returncode
            except subprocess.TimeoutExpired:
                rc = -999
            out.seek(0)
            err.seek(0)
            res = subprocess.CompletedProcess(cmd, rc, out.read().decode(errors="replace"),
                                              err.read().decode(errors="replace"))
        if check and res.returncode != 0:
            raise RuntimeError(f"{' '.join(map(str, cmd))} failed ({res.returncode}): {res.stderr.strip()}")
        return res

    def dunst_clear(self) -> None:
        if self.dunst:
            self.run(["dunstctl", "close-all"])

    def wait_background(self, timeout=3.0) -> bool:
        """Waits until the whole screen shows the background again."""
        bgfile = self.s.work / "bg.raw"
        if not bgfile.exists():
            return True
        return self.run([self.s.pw, "waiteq", FULL, bgfile, str(int(timeout * 1000)), "0"]).returncode == 0


def runtime_root(work: Path) -> Path:
    """Where the sessions' XDG_RUNTIME_DIRs go: a private directory on a tmpfs (/dev/shm), as a
    user's /run/user/UID is (systemd-logind mounts it at login, empty): a cold start creates its
    directory, lock and socket there, and on a disk file system (ext4: about 0.35 ms each here)
    the run would pay what no user does. The work directory where there is no tmpfs."""
    try:
        mounts = Path("/proc/mounts").read_text().split("\n")
        if any(m.split()[1:3] == ["/dev/shm", "tmpfs"] for m in mounts if len(m.split()) > 2) and os.access("/dev/shm", os.W_OK):
            d = Path(tempfile.mkdtemp(prefix="xhud-bench-run.", dir="/dev/shm"))
            atexit.register(shutil.rmtree, d, True)
            return d
    except OSError:
        pass
    return work


def window_info(x: XSession, wid: int) -> WinInfo | None:
    """Where a window is, its class (InputOutput or not) and map state; None when it is gone."""
    r = x.run(["xwininfo", "-id", str(wid)], timeout=10)
    return parse_xwininfo(wid, r.stdout) if r.returncode == 0 else None


def watch_maps() -> int:
    """`suite.py --watch-maps`: prints "ready" once it listens, then "map T WINDOW" for each
    MapNotify of a child of the root of $DISPLAY, T being CLOCK_MONOTONIC in seconds (the clock
    of time.monotonic() in the suite) when the event was read. A process of its own, so that the
    suite's spawning never delays the reading; it runs until it is killed."""
    import ctypes
    from harness.xlib import Xlib
    x11 = Xlib.lib()
    dpy = x11.XOpenDisplay(None)
    if not dpy:
        print("cannot open the display", flush=True)
        return 3
    root = x11.XDefaultRootWindow(dpy)
    x11.XSelectInput(dpy, root, 1 << 19)  # SubstructureNotifyMask
    x11.XSync(dpy, 0)
    print("ready", flush=True)
    # XEvent is a union of 24 longs; XMapEvent: type (int), serial, send_event (Bool), display,
    # event, window, override_redirect: on LP64 one long each.
    ev = (ctypes.c_ulong * 24)()
    map_notify = 19
    while True:
        x11.XNextEvent(dpy, ev)
        t = time.monotonic()
        if ev[0] & 0xFFFFFFFF == map_notify:
            sys.stdout.write(f"map {t:.6f} {ev[5]}\n")
            sys.stdout.flush()
