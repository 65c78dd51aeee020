#!/usr/bin/env python3
"""The benchmark suite behind bench/run: xhud next to what Linux users use today, in one run.

bench/run installs the alternatives, builds xhud and the C helpers, then calls this script, which
starts its own X servers (Xvfb, display numbers from --display-base up; one without and one with
xcompmgr), a private D-Bus session bus and dunst on each, measures, tears everything down (also on
Ctrl-C or SIGTERM) and writes OUT/latest.md, OUT/latest.json and OUT/startup.png.

Every HUD is drawn by the display's server (`xhud server`, or one that an `xhud` invocation starts
when none runs); `xhud` itself is a thin client that stays for its HUD's life. Each X session has
its own XDG_RUNTIME_DIR, so the server's socket is the suite's own.

xhud's executables are dropped from the page cache first (`read_as_installed`), so that their
pages are read back from the disk as an installed program's are, not mapped as the linker wrote
them; that changes the resident figures, not the times that follow the untimed first round.

Sections (each figure is min / median / max over repeated runs, clients interleaved round by
round so that drift spreads evenly):
  startup     exec to the first changed pixels of the client's first mapped window (firstframe);
              xhud cold (no server running: the invocation starts one) and warm (a server running)
  busy        the floor and xhud cold, taking turns, with a busy loop on each core all along
  warm        an update of a HUD that is already up, to the new value on screen (pixwatch)
  steady      CPU % of one core, wake-ups/s and peak RSS while up (/proc); for xhud, of the server
              drawing the one HUD, with the client's RSS beside
  render      xhud-render-bench's table (one frame per mode at scale 1 and 2)
  throughput  updates/s that a named HUD absorbs from 4 parallel loops of `xhud --id`
  clients     20 HUDs from 20 clients at once: spawn to map of each, stacking, the server's RSS
  wayland     xhud beside wob and mako on a headless sway: first pixel (bench/wlpoll, screencopy),
              CPU, wake-ups and peak RSS of the drawing process (bench/wayland.py)
No figure ever fails the run: exit status 0 unless the suite itself could not run.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import datetime
import json
import os
import platform
import re
import select
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import sys
import time
from pathlib import Path

# The section modules import this one as `suite`, also when it runs as a script.
sys.modules.setdefault("suite", sys.modules[__name__])

BG = "3366cc"
SCREEN_W, SCREEN_H = 1280, 800
FULL = f"{SCREEN_W}x{SCREEN_H}+0+0"
HZ = os.sysconf("SC_CLK_TCK")

# Targets from the project's issues: those bench/check.py checks are declared once, in
# thresholds.json, and read here; the rest are the report's own.
_THRESHOLDS = {t["metric"]: t["max"] for t in json.loads((Path(__file__).resolve().parent / "thresholds.json").read_text())["thresholds"]}
T_WARM_FLOOR = _THRESHOLDS["startup_ratio:xhud-warm"]  # warm first paint (the display's server running) over the floor's median
T_COLD_FLOOR = _THRESHOLDS["startup_ratio:xhud-cold"]  # cold first paint (no server running) over the floor's median ...
T_COLD_NEW_FLOOR = _THRESHOLDS["startup_ratio:xhud-cold-new"]  # ... the first cold start ever (no font match kept)
T_COLD_AHEAD = ("osd_cat", "aosd_cat")  # ... and ahead of these
T_COLD_BUSY = _THRESHOLDS["busy_ratio:xhud-cold"]  # cold first paint with a busy loop on each core, over the floor's under the same load
T_WARM_XOB_MS = 4.0  # xob's FIFO update (performance-notes.md), when xob itself is not installed
T_STATIC_CPU = 0.05  # "0.0 %" at one decimal
T_STATIC_WAKE = 1.0
T_SPIN_CPU = _THRESHOLDS["steady_cpu_with_x:xhud-spin"]  # the server and the X server together
T_SERVER_RSS_MIB = _THRESHOLDS["steady_rss:xhud-spin"]  # the server drawing one HUD
T_PER_HUD_MIB = 1.0  # each further HUD, on top of that
T_CLIENT_RSS_MIB = _THRESHOLDS["steady_client_rss:xhud-spin"]  # an `xhud` client
T_CLIENTS = 20  # HUDs from as many clients at once ...
T_CLIENT_MAP_MS = _THRESHOLDS["clients_max_ms"]  # ... each mapped within this of its client's spawn
T_RENDER_MS = 0.3
T_KEEPUP_MS = 50.0  # throughput: the last value on screen at most 3 frames later than on an idle HUD
T_GROWTH_MIB = 1.0
# A named HUD hides --hide-after (default 1.5 s) after its last update: the set-up steps keep it up.
KEEP = ["--hide-after", "600"]


def log(*a):
    print("bench:", *a, file=sys.stderr, flush=True)


class Interrupted(Exception):
    pass


def _on_signal(signum, frame):
    # Once: the tear-down that follows must not be interrupted by the next Ctrl-C or SIGTERM.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: None)
    raise Interrupted(signal.Signals(signum).name)


# ---------------------------------------------------------------------------------------------
# Processes: everything started here is tracked and ended at the end. This process is a child
# subreaper, so that what a client leaves behind (a named HUD's server) is re-parented to it
# and can be found and ended too.


class Procs:
    def __init__(self, work: Path):
        self.work = work
        self.live: list[subprocess.Popen] = []
        self.n = 0
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        except Exception:
            pass

    def logfile(self, name: str) -> Path:
        self.n += 1
        return self.work / f"{self.n:04d}-{re.sub(r'[^A-Za-z0-9_.-]', '_', name)[:40]}.log"

    def spawn(self, cmd: list[str], env: dict, stdin=subprocess.DEVNULL, stdout=None, log_name=None) -> subprocess.Popen:
        path = self.logfile(log_name or Path(cmd[0]).name)
        out = open(path, "wb")
        p = subprocess.Popen(cmd, env=env, stdin=stdin, stdout=stdout if stdout is not None else out, stderr=out,
                             start_new_session=True)
        out.close()
        p.log_path = path  # type: ignore[attr-defined]
        self.live.append(p)
        return p

    def stop(self, p: subprocess.Popen | None, grace: float = 2.0) -> None:
        if p is None:
            return
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                p.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            p.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        if p.stdin:
            try:
                p.stdin.close()
            except OSError:
                pass
        if p in self.live:
            self.live.remove(p)

    def orphans(self) -> list[int]:
        """Live children of this process that it did not start itself: re-parented descendants.
        Those that have ended are reaped on the way."""
        mine = {p.pid for p in self.live}
        me = os.getpid()
        found = []
        for d in os.listdir("/proc"):
            if not d.isdigit() or int(d) in mine:
                continue
            st = read_stat(int(d))
            if st and st[1] == me:
                if st[0] in ("Z", "X"):
                    try:
                        os.waitpid(int(d), os.WNOHANG)
                    except ChildProcessError:
                        pass
                else:
                    found.append(int(d))
        return found

    def end_orphans(self) -> None:
        for pid in self.orphans():
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            if not self.orphans():
                return
            time.sleep(0.05)
        for pid in self.orphans():
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass

    def teardown(self) -> None:
        for p in reversed(list(self.live)):
            self.stop(p, grace=1.0)
        self.end_orphans()


def read_stat(pid: int):
    """(state, ppid, utime+stime ticks) from /proc/PID/stat, or None."""
    try:
        s = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    rest = s[s.rindex(")") + 2:].split()
    return rest[0], int(rest[1]), int(rest[11]) + int(rest[12])


def comm(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/comm").read().strip()
    except OSError:
        return ""


def descendants(pid: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = read_stat(int(d))
            if st:
                kids.setdefault(st[1], []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in kids.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def sample(pid: int) -> dict[int, tuple[int, int]] | None:
    """Per thread: (CPU time in ns from schedstat, context switches) - or None when pid is gone."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    out = {}
    for t in tasks:
        try:
            ns = int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
        except (OSError, ValueError, IndexError):
            st = read_stat(int(t)) if t.isdigit() else None
            if st is None:
                continue
            ns = st[2] * 1_000_000_000 // HZ
        n = 0
        try:
            for line in open(f"/proc/{pid}/task/{t}/status"):
                if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
                    n += int(line.split()[1])
        except OSError:
            pass
        out[int(t)] = (ns, n)
    return out


def delta(a: dict, b: dict) -> tuple[int, int]:
    """CPU ns and context switches between two samples, over the threads alive at the second
    (a thread that starts in between counts from zero; one that ends in between is lost)."""
    ns = sw = 0
    for tid, (n1, s1) in b.items():
        n0, s0 = a.get(tid, (0, 0))
        ns += max(0, n1 - n0)
        sw += max(0, s1 - s0)
    return ns, sw


def status_kib(pid: int, field: str) -> int | None:
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def alive(pid: int) -> bool:
    st = read_stat(pid)
    return st is not None and st[0] not in ("Z", "X")


# ---------------------------------------------------------------------------------------------
# Statistics and formatting


def mmm(values):
    v = sorted(values)
    return (v[0], statistics.median(v), v[-1]) if v else None


def f1(v, nd=1):
    return "-" if v is None else f"{v:.{nd}f}"


def mark(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**missed**")


def md_table(header: list[str], rows: list[list[str]], align=None) -> str:
    align = align or ["---"] + ["---:"] * (len(header) - 2) + ["---"]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    for r in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in r) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The X session: Xvfb, maybe xcompmgr, a session bus and dunst


class XSession:
    def __init__(self, suite: "Suite", composited: bool):
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
        base_env = {k: v for k, v in os.environ.items()
                    if k not in ("WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS")}
        base_env["NO_AT_BRIDGE"] = "1"  # GTK: no accessibility bus
        n = self.s.args.display_base
        while True:
            if n > self.s.args.display_base + 200:
                raise RuntimeError("no free X display number")
            if os.path.exists(f"/tmp/.X{n}-lock") or os.path.exists(f"/tmp/.X11-unix/X{n}"):
                n += 1
                continue
            p = procs.spawn(["Xvfb", f":{n}", "-screen", "0", f"{SCREEN_W}x{SCREEN_H}x24", "-nolisten", "tcp",
                             "-noreset"], base_env, log_name=f"xvfb{n}")
            env = dict(base_env, DISPLAY=f":{n}")
            ok = False
            for _ in range(100):
                if p.poll() is not None:
                    break
                if subprocess.run(["xdpyinfo"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  stdin=subprocess.DEVNULL).returncode == 0:
                    ok = True
                    break
                time.sleep(0.05)
            if ok:
                break
            procs.stop(p)
            n += 1
        self.xvfb, self.display, self.env, self.number = p, f":{n}", env, n
        # A private XDG_RUNTIME_DIR: the display's HUD server listens in it, and in nobody else's.
        self.runtime = self.s.runtime_root / f"run{n}"
        self.runtime.mkdir(mode=0o700, exist_ok=True)
        os.chmod(self.runtime, 0o700)
        self.env["XDG_RUNTIME_DIR"] = str(self.runtime)
        # A private cache: the font matches a server keeps for the next (FontMatchCache).
        self.env["XDG_CACHE_HOME"] = str(self.s.work / f"cache{n}")
        self.font_matches = self.s.work / f"cache{n}" / "xhud" / "fonts" / "matches"
        self.run([self.s.ff, "setbg", BG], check=True)
        if self.composited:
            self.xcm = procs.spawn(["xcompmgr"], env, log_name="xcompmgr")
            if self.run([self.s.ff, "waitcm", "5000"]).returncode != 0:
                raise RuntimeError("xcompmgr did not take _NET_WM_CM_S0: " + Path(self.xcm.log_path).read_text()[-500:])
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
        d.mkdir(mode=0o700)
        os.chmod(d, 0o700)
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


# ---------------------------------------------------------------------------------------------
# The suite


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


class Suite:
    def __init__(self, args):
        self.args = args
        self.work = Path(args.work)
        self.procs = Procs(self.work)
        h = Path(args.helpers)
        self.ff, self.pw, self.floor = str(h / "firstframe"), str(h / "pixwatch"), str(h / "floor")
        self.vblank = str(h / "vblank")
        self.wlpoll = str(h / "wlpoll")
        self.xhud = args.xhud
        self.quick = args.quick
        self.runs = args.runs
        self.steady_runs = args.steady_runs or (1 if self.quick else 3)
        self.window = args.window or (1.0 if self.quick else 5.0)
        self.settle = 0.3 if self.quick else 1.5
        self.ui_settle = 0.3 if self.quick else 0.6
        self.flood_seconds = 1.0 if self.quick else 5.0
        self.results: dict = {"startup": {}, "busy": {}, "warm": {}, "steady": {}, "throughput": {},
                              "clients": {}, "render": None, "wayland": None}
        self.notes: list[str] = []
        self.named: dict = {}  # named-HUD support: {"ok": bool, "why": str}
        self.runtime_root = runtime_root(self.work)
        self.read_as_installed()

    def read_as_installed(self) -> None:
        """Drops xhud's executables from the page cache, so that their pages come back as an
        installed program's do: read from the disk. A binary the linker has just written is
        cached in the larger blocks the writes made, and each first touch of its code then maps
        a whole block: a client measured 3.3 MiB resident straight after a build, 2.9 MiB once
        its file had been read back (the same binary). Clean pages only, after a sync."""
        os.sync()
        d = Path(self.xhud).parent
        for name in ("xhud", "xhud-host", "xhud-render-bench"):
            try:
                fd = os.open(d / name, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)

    def have(self, tool: str) -> bool:
        return shutil.which(tool) is not None

    # -- the display's HUD server -----------------------------------------------------------------

    def server_answers(self, x: XSession) -> bool:
        """Whether something listens on the display's server socket (a stale socket file refuses)."""
        path = x.socket_path
        if not path.exists():
            return False
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.settimeout(1.0)
            s.connect(str(path))
            return True
        except OSError:
            return False
        finally:
            s.close()

    def stop_servers(self, x: XSession) -> None:
        """No HUD server for x's display afterwards: the foreground one is stopped, one that an
        invocation started (detached, re-parented to this subreaper) is ended with the other
        orphans."""
        if x.server is not None:
            self.procs.stop(x.server)
            x.server = None
        self.procs.end_orphans()
        deadline = time.monotonic() + 3
        while self.server_answers(x) and time.monotonic() < deadline:
            time.sleep(0.02)

    def keep_font_matches(self, x: XSession, cmd: list[str]) -> None:
        """The font matches kept for a cold start: if there are none, one untimed HUD whose server
        lives long enough to write them, then no server again."""
        if x.font_matches.exists():
            return
        x.run([*cmd, "--hide-after", "0.3", "--linger", "1"], timeout=30)
        deadline = time.monotonic() + 5
        while not x.font_matches.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        self.stop_servers(x)

    def start_server(self, x: XSession, env_extra: dict | None = None, log_name: str = "xhud-server",
                     args: tuple = ()) -> subprocess.Popen:
        """A fresh `xhud server` in the foreground (it never lingers out), once it answers: its
        socket accepts and `xhud list` returns 0. Any other server is ended first."""
        self.stop_servers(x)
        p = self.procs.spawn([self.xhud, "server", *args], dict(x.env, **(env_extra or {})), log_name=log_name)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if p.poll() is not None:
                tail = Path(p.log_path).read_text(errors="replace").strip()[-200:]
                self.procs.stop(p)
                raise RuntimeError(f"`xhud server` exited {p.returncode}: {tail}")
            if self.server_answers(x) and x.run([self.xhud, "list"], timeout=5).returncode == 0:
                x.server = p
                return p
            time.sleep(0.05)
        self.procs.stop(p)
        raise RuntimeError("`xhud server` did not answer on its socket within 15 s")

    daemon_bus: tuple | None = None   # (dbus-daemon, its address) of the notification rows

    def spawn_bus(self, x: XSession, log_name: str) -> tuple:
        """A private session bus: (the dbus-daemon, its address)."""
        bus = self.procs.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], x.env,
                               stdout=subprocess.PIPE, log_name=log_name)
        r, _, _ = select.select([bus.stdout], [], [], 5)
        address = os.read(bus.stdout.fileno(), 512).decode().strip().splitlines()[0] if r else ""
        if not address:
            self.procs.stop(bus)
            raise RuntimeError("dbus-daemon did not start")
        return bus, address

    def ensure_daemon(self, x: XSession) -> str:
        """`xhud server --notifications` serving a session bus of its own (dunst keeps the
        display's); the bus's address."""
        if self.daemon_bus is None:
            self.daemon_bus = self.spawn_bus(x, "xhud-daemon-bus")
        address = self.daemon_bus[1]
        if x.server is None or x.server.poll() is not None or not getattr(x.server, "serves_bus", False):
            server = self.start_server(x, env_extra={"DBUS_SESSION_BUS_ADDRESS": address}, log_name="xhud-daemon",
                                       args=("--notifications",))
            deadline = time.monotonic() + 5
            while "serving" not in Path(server.log_path).read_text(errors="replace"):
                if time.monotonic() > deadline:
                    raise RuntimeError("xhud server --notifications did not take the name")
                time.sleep(0.02)
            server.serves_bus = True
            # A server that has just started has never drawn: one untimed notification first,
            # gone (its 0.3 s and its fade) before the timed one.
            x.run(["env", f"DBUS_SESSION_BUS_ADDRESS={address}", "notify-send", "-t", "300", "Warm"], timeout=10)
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and "history 1" not in x.run([self.xhud, "notifications", "count"], timeout=5).stdout:
                time.sleep(0.05)
            x.wait_background()
        return address

    def ensure_server(self, x: XSession) -> bool:
        """A foreground server up for x's display; True when it had to be (re)started."""
        if x.server is not None and x.server.poll() is None and self.server_answers(x):
            return False
        self.start_server(x)
        return True

    # -- startup --------------------------------------------------------------------------------

    def startup_clients(self):
        xhud = [self.xhud, "--mode", "annular", "--label", "Loading", "--progress", "0.5"]
        c = [
            ("floor", "floor (C, Xlib + Cairo, text line)", [self.floor, "Loading"], {}, None),
            # The display's server is up (a foreground `xhud server`): the client only asks it.
            ("xhud-warm", "**xhud --mode annular**", xhud, {"server": "warm"}, None),
            # No server runs: the invocation starts one (which then lingers; ended after the run).
            # It opens its label's font from the match an earlier server kept; the second row
            # has none kept (the first start ever, or after fonts or their configuration changed).
            ("xhud-cold", "**xhud --mode annular, cold** (no server: starts one)", xhud,
             {"server": "cold", "fonts": "kept"}, None),
            ("xhud-cold-new", "xhud --mode annular, cold, no font match kept", xhud,
             {"server": "cold", "fonts": "none"}, None),
            ("osd_cat", "osd_cat", ["osd_cat", "--pos=middle", "--align=center", "--delay=600",
                                    "--font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-*", "--colour=white"],
             {"stdin": "Loading\n"}, "xosd-bin"),
            ("aosd_cat", "aosd_cat", ["aosd_cat", "--position=4", "--fade-full=600000", "--fore-color=white",
                                      "--font=Sans Bold 16"], {"stdin": "Loading\n"}, "aosd-cat"),
            ("zenity", "zenity --progress --pulsate", ["zenity", "--progress", "--pulsate", "--no-cancel",
                                                       "--text=Loading"], {"stdin": ""}, "zenity"),
            ("yad", "yad --progress --pulsate", ["yad", "--progress", "--pulsate", "--no-buttons", "--undecorated",
                                                 "--center", "--text=Loading"], {"stdin": ""}, "yad"),
            # The same notify-send to each daemon, each on its own session bus (through `env`
            # alike: the command names the bus).
            ("notify-send", "notify-send (dunst running)", ["env", "notify-send", "-t", "0", "Loading"],
             {"exit_ok": True, "dunst": True}, "dunst libnotify-bin"),
            ("notify-xhud", "**notify-send (xhud server --notifications running)**",
             ["env", "notify-send", "-t", "0", "Loading"], {"exit_ok": True, "daemon": True}, "libnotify-bin dbus-daemon"),
            ("xob", "xob", ["xob"], {"stdin": "30\n"}, "xob; not in Debian 12"),
        ]
        return c

    def ff_args(self, opt: dict, pixel: str | None = None) -> list[str]:
        """firstframe's arguments for a start-up run of a client with these options: with no
        pixel known, the window the client maps first (--auto, the untimed first round), which
        tells where its first changed pixel was; then the patch around that pixel, watched from
        the fork on (--from-fork), as pixwatch watches the screen's centre."""
        where = ["--from-fork", "--region", patch_around(pixel)] if pixel else ["--auto"]
        ffargs = [self.ff, "--bg", BG, *where, "--timeout", "10000", "--settle", "5000"]
        if opt.get("exit_ok"):
            ffargs.append("--exit-ok")
        if "stdin" in opt:
            ffargs += ["--stdin-text", opt["stdin"]]
        return ffargs

    def cold_run(self, x: XSession, ffargs: list[str], cmd: list[str],
                 fonts: str | None) -> subprocess.CompletedProcess:
        """One cold start: no server for the display before (any is ended) and a fresh runtime
        directory, so that nothing is left from the run before; the font matches kept ("kept") or
        removed ("none"); no server afterwards either."""
        self.stop_servers(x)
        if fonts == "kept":
            self.keep_font_matches(x, cmd)
        elif fonts == "none":
            x.font_matches.unlink(missing_ok=True)
        x.wait_background()
        with x.fresh_runtime():
            r = x.run(ffargs + ["--"] + cmd, timeout=30)
            # The server this run started lingers: end it (its socket is in the fresh directory).
            self.stop_servers(x)
        x.wait_background()
        return r

    def pixwatch_run(self, x: XSession, e: dict, cmd: list[str], opt: dict) -> None:
        """The second harness beside the suite's run: bench/pixwatch polls the screen's centre
        from the fork on (`pixwatch update 1x1+CX+CY --end`), a program of its own; the same
        set-up as the run before it (a cold run's, or the server kept up)."""
        x.wait_background()
        pwargs = [self.pw, "update", f"1x1+{SCREEN_W // 2}+{SCREEN_H // 2}", "--timeout", "10000", "--end"]
        if opt.get("server") == "cold":
            r = self.cold_run(x, pwargs, cmd, opt.get("fonts"))
        else:
            r = x.run(pwargs + ["--"] + cmd, timeout=30)
        m = re.fullmatch(r"\s*([\d.]+) ([\d.]+) (-?[\d.]+)\s*", r.stdout)
        if r.returncode == 0 and m:
            e.setdefault("pixwatch", []).append(float(m.group(1)))
        else:
            e["pixwatch_error"] = (r.stdout + " " + r.stderr).strip()[:200]
        x.wait_background()

    def record_run(self, e: dict, r: subprocess.CompletedProcess, counted: bool) -> bool:
        """Adds firstframe's figures (first frame, map; ms) to a row's entry; False when the run failed."""
        m = re.fullmatch(r"\s*([\d.]+) (-?[\d.]+)\s*", r.stdout)
        if r.returncode == 0 and m:
            if counted:
                e["times"].append(float(m.group(1)))
                if float(m.group(2)) >= 0:
                    e["maps"].append(float(m.group(2)))
            e["region"] = (re.findall(r"watching (\S+)", r.stderr) or [e.get("region") or "?"])[-1]
            e["first_pixel"] = (re.findall(r"first change at (\d+,\d+)", r.stderr) or [e.get("first_pixel")])[-1]
            return True
        e["error"] = (r.stdout.strip() + " " + r.stderr.strip()).strip()[:200] or f"exit {r.returncode}"
        return False

    def bench_startup(self, x: XSession) -> None:
        res: dict = {}
        clients = []
        for key, label, cmd, opt, pkg in self.startup_clients():
            tool = cmd[0]
            entry = {"label": label, "times": [], "maps": [], "error": None, "status": "ok", "cmd": cmd}
            if opt.get("server") == "cold":
                entry["fresh_runtime"] = True  # cold_run's; the report says so only for runs that had it
            res[key] = entry
            if tool == "env":
                tool = cmd[1]
            if (key.startswith("xhud") or opt.get("daemon")) and not os.access(self.xhud, os.X_OK):
                entry["status"] = f"not built ({self.xhud})"
            elif opt.get("daemon") and not self.have("dbus-daemon"):
                entry["status"] = f"not installed ({pkg})"
            elif key not in ("floor", "xhud-warm", "xhud-cold", "xhud-cold-new") and not self.have(tool):
                entry["status"] = f"not installed ({pkg})"
            elif opt.get("dunst") and not x.dunst:
                entry["status"] = "not measured: dunst is not running (" + "; ".join(x.notes or ["not installed"]) + ")"
            else:
                clients.append((key, cmd, opt))
        failures = {k: 0 for k, _, _ in clients}
        for rnd in range(self.runs + 1):  # round 0 warms caches and daemons up; it is not counted
            for key, cmd, opt in clients:
                e = res[key]
                if failures[key] >= 2:
                    continue
                if opt.get("dunst"):
                    x.dunst_clear()
                if opt.get("daemon"):
                    x.dunst_clear()   # the row before's notification, which never expires
                    try:
                        cmd = ["env", f"DBUS_SESSION_BUS_ADDRESS={self.ensure_daemon(x)}"] + cmd[1:]
                    except RuntimeError as ex:
                        failures[key] += 1
                        e["error"] = str(ex)[:200]
                        continue
                ffargs = self.ff_args(opt, e.get("first_pixel") if rnd > 0 else None)
                # Cold and warm runs set the display's server up themselves, whatever ran before.
                if opt.get("server") == "warm":
                    try:
                        if self.ensure_server(x):
                            # A server that has just started has never drawn: one untimed HUD first,
                            # so that every warm run meets a server that has shown one before.
                            x.run(ffargs + ["--"] + cmd, timeout=30)
                    except RuntimeError as ex:
                        failures[key] += 1
                        e["error"] = str(ex)[:200]
                        continue
                # The second harness takes turns with the suite's: first in even rounds, second in odd.
                checked = rnd > 0 and key in CROSS_CHECKED
                if checked and rnd % 2 == 0:
                    self.pixwatch_run(x, e, cmd, opt)
                if opt.get("server") == "cold":
                    r = self.cold_run(x, ffargs, cmd, opt.get("fonts"))
                else:
                    r = x.run(ffargs + ["--"] + cmd, timeout=30)
                if not self.record_run(e, r, counted=rnd > 0):
                    failures[key] += 1
                elif checked and rnd % 2 == 1:
                    self.pixwatch_run(x, e, cmd, opt)
            if clients and any(o.get("dunst") for _, _, o in clients):
                x.dunst_clear()
            if clients and any(o.get("daemon") for _, _, o in clients) and self.daemon_bus is not None:
                x.run([self.xhud, "notifications", "close-all"], timeout=5)
                x.wait_background()
        self.stop_servers(x)
        if self.daemon_bus is not None:
            self.procs.stop(self.daemon_bus[0])
            self.daemon_bus = None
        for key, e in res.items():
            if e["status"] == "ok" and not e["times"]:
                e["status"] = "failed: " + (e["error"] or "no run succeeded")
        self.results["startup"][x.name] = res

    # -- start-up under load ----------------------------------------------------------------------

    def start_busy_loops(self) -> list[subprocess.Popen]:
        """One busy loop per online core, at the suite's own niceness (that of every measured
        client), once each is running."""
        loops = [self.procs.spawn([sys.executable, "-S", "-c", "while True: pass"], dict(os.environ),
                                  log_name=f"busy{i}") for i in range(os.cpu_count() or 1)]
        # Running once each has been on a CPU for a tick past its interpreter's start.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in loops):
                raise RuntimeError("a busy loop exited")
            if all((read_stat(p.pid) or ("", 0, 0))[2] > 2 for p in loops):
                break
            time.sleep(0.02)
        time.sleep(self.settle / 3)
        return loops

    def bench_busy(self, x: XSession) -> None:
        """The floor and xhud cold (font matches kept, as the startup section's cold row), taking
        turns run by run, with a busy loop on each core from the first run to the last."""
        xhud = [self.xhud, "--mode", "annular", "--label", "Loading", "--progress", "0.5"]
        rows = {key: {"label": label, "times": [], "maps": [], "error": None, "status": "ok", "cmd": cmd,
                      "fresh_runtime": key == "xhud-cold"}
                for key, label, cmd in (("floor", "floor, busy loop on each core", [self.floor, "Loading"]),
                                        ("xhud-cold", "xhud cold, busy loop on each core", xhud))}
        res = {"cores": os.cpu_count(), "rows": rows, "load": None}
        self.results["busy"][x.name] = res
        if not os.access(self.xhud, os.X_OK):
            rows["xhud-cold"]["status"] = f"not built ({self.xhud})"
        # Kept before the load starts: the untimed HUD that writes them is no part of the figures.
        if rows["xhud-cold"]["status"] == "ok":
            self.stop_servers(x)
            self.keep_font_matches(x, xhud)
        failures = {k: 0 for k in rows}
        loops = []
        try:
            loops = self.start_busy_loops()
            before = {p.pid: (read_stat(p.pid) or ("", 0, 0))[2] for p in loops}
            t0 = time.monotonic()
            for rnd in range(self.runs + 1):  # round 0 is not counted, as in the startup section
                for key, e in rows.items():
                    if e["status"] != "ok" or failures[key] >= 2:
                        continue
                    ffargs = self.ff_args({}, e.get("first_pixel") if rnd > 0 else None)
                    if key == "floor":
                        r = x.run(ffargs + ["--"] + e["cmd"], timeout=30)
                    else:
                        r = self.cold_run(x, ffargs, e["cmd"], "kept")
                    if not self.record_run(e, r, counted=rnd > 0):
                        failures[key] += 1
            # What the loops had of the CPUs: a loop that did not get its core is no load.
            spent = [(read_stat(p.pid) or ("", 0, before[p.pid]))[2] - before[p.pid] for p in loops]
            res["load"] = sum(spent) / HZ / (time.monotonic() - t0) / len(loops)
            if any(p.poll() is not None for p in loops):
                res["error"] = "a busy loop exited during the runs"
        except RuntimeError as ex:
            res["error"] = str(ex)[:200]
        finally:
            for p in loops:
                self.procs.stop(p)
            self.stop_servers(x)
        for e in rows.values():
            if e["status"] == "ok" and not e["times"]:
                e["status"] = "failed: " + (e["error"] or res.get("error") or "no run succeeded")

    # -- warm update -----------------------------------------------------------------------------

    def check_named(self, x: XSession) -> bool:
        """Whether this xhud serves named HUDs (`--id`); the result is kept for every section."""
        if self.named:
            return self.named["ok"]
        if not os.access(self.xhud, os.X_OK):
            self.named = {"ok": False, "why": "xhud not built"}
            return False
        r = x.run([self.xhud, "--id", "benchprobe", "--mode", "bar", "--progress", "0.1", "--label", "probe"],
                  timeout=5)
        if r.returncode == -999:
            self.named = {"ok": False, "why": "`xhud --id NAME ...` did not return within 5 s"}
        elif r.returncode != 0:
            msg = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[0]
            self.named = {"ok": False, "why": f"this xhud rejects --id ({msg[:100]})"}
        else:
            self.named = {"ok": True, "why": ""}
            x.run([self.xhud, "hide", "--id", "benchprobe"], timeout=5)
            time.sleep(0.5)
            self.procs.end_orphans()
        return self.named["ok"]

    def named_server(self) -> int | None:
        """The process serving a named HUD: something this suite started that outlived its
        invocation (re-parented here), preferably named xhud*."""
        cands = self.procs.orphans()
        for pid in cands:
            if comm(pid).startswith("xhud"):
                return pid
        for pid in cands:
            for d in descendants(pid):
                if comm(d).startswith("xhud"):
                    return d
        return cands[0] if cands else None

    def warm_clients(self, x: XSession):
        """(key, label, status, setup, action, teardown): setup() shows the value 30 and returns a
        state; action(state, value) returns the pixwatch arguments that make the update."""
        clients = []
        fifo_dir = self.work

        def fifo_client(key, label, reader_cmd):
            fifo = fifo_dir / f"{key}.fifo"

            def setup():
                if fifo.exists():
                    fifo.unlink()
                os.mkfifo(fifo)
                cmd = "tail -f " + sh_quote(str(fifo)) + " | exec " + " ".join(sh_quote(c) for c in reader_cmd)
                p = self.procs.spawn(["sh", "-c", cmd], x.env, log_name=key)
                write_fifo(fifo, "30\n")
                return {"p": p, "fifo": fifo}

            def action(st, v, timed=True):
                return ["--write", str(st["fifo"]), f"{v}\n"]

            def teardown(st):
                self.procs.stop(st["p"])
                st["fifo"].unlink(missing_ok=True)

            return (key, label, "ok", setup, action, teardown)

        # xhud: named HUD
        if not os.access(self.xhud, os.X_OK):
            clients.append(("xhud-id", "**xhud --id (named HUD)**", f"not built ({self.xhud})", None, None, None))
        elif not self.check_named(x):
            clients.append(("xhud-id", "**xhud --id (named HUD)**", "not available: " + self.named["why"],
                            None, None, None))
        else:
            def setup():
                r = x.run([self.xhud, "--id", "bench", "--mode", "bar", "--progress", "0.30", "--label", "Volume"]
                          + KEEP)
                if r.returncode != 0:
                    raise RuntimeError(f"xhud --id bench exit {r.returncode}: {r.stderr.strip()[:150]}")
                return {}

            def action(st, v, timed=True):
                # the timed update is exactly `xhud --id bench --progress 0.70`
                return ["--", self.xhud, "--id", "bench", "--progress", f"{v / 100:.2f}"] + ([] if timed else KEEP)

            def teardown(st):
                x.run([self.xhud, "hide", "--id", "bench"], timeout=5)
                time.sleep(0.5)
                self.procs.end_orphans()

            clients.append(("xhud-id", "**xhud --id (named HUD)**", "ok", setup, action, teardown))
        # xhud: progress line into a FIFO read on stdin, as xob is used
        if os.access(self.xhud, os.X_OK):
            clients.append(fifo_client("xhud-fifo", "**xhud, `echo 70 > fifo`** (tail -f fifo / xhud --mode bar)",
                                       [self.xhud, "--mode", "bar", "--label", "Volume"]))
        # xob
        if self.have("xob"):
            clients.append(fifo_client("xob", "xob, `echo 70 > fifo` (tail -f fifo / xob)", ["xob"]))
        else:
            clients.append(("xob", "xob, `echo 70 > fifo`", "not installed (xob is not in Debian 12)",
                            None, None, None))
        # dunst
        if not (self.have("notify-send") and self.have("dunst")):
            clients.append(("dunst", "notify-send -r ID (dunst)", "not installed (dunst libnotify-bin)",
                            None, None, None))
        elif not x.dunst:
            clients.append(("dunst", "notify-send -r ID (dunst)", "not measured: dunst is not running",
                            None, None, None))
        else:
            def setup():
                x.dunst_clear()
                r = x.run(["notify-send", "-p", "-t", "0", "-h", "int:value:30", "Volume"])
                if r.returncode != 0 or not r.stdout.strip().isdigit():
                    raise RuntimeError(f"notify-send -p: exit {r.returncode} {r.stdout.strip()} {r.stderr.strip()}")
                return {"id": r.stdout.strip()}

            def action(st, v, timed=True):
                return ["--", "notify-send", "-r", st["id"], "-t", "0", "-h", f"int:value:{v}", "Volume"]

            def teardown(st):
                x.dunst_clear()

            clients.append(("dunst", "notify-send -r ID (dunst)", "ok", setup, action, teardown))
        # xhud as the notification daemon: the same OSD through D-Bus (notify-send with the
        # synchronous hint, which updates the named HUD of its tag), on a bus of its own (dunst
        # keeps the display's).
        dbus_label = "**notify-send -h synchronous (xhud server --notifications)**"
        if not os.access(self.xhud, os.X_OK):
            clients.append(("xhud-dbus", dbus_label, f"not built ({self.xhud})", None, None, None))
        elif not (self.have("notify-send") and self.have("dbus-daemon")):
            clients.append(("xhud-dbus", dbus_label, "not installed (libnotify-bin dbus-daemon)", None, None, None))
        else:
            def osd(v):
                return ["notify-send", "-t", "600000", "-h", f"int:value:{v}",
                        "-h", "string:x-canonical-private-synchronous:bench-dbus", "Volume"]

            def setup():
                bus, address = self.spawn_bus(x, "xhud-dbus-bus")
                # The display's clients talk to this bus meanwhile (notify-send runs as dunst's
                # does, with no wrapper in front of it to time).
                st = {"bus": bus, "saved": x.env.get("DBUS_SESSION_BUS_ADDRESS")}
                x.env["DBUS_SESSION_BUS_ADDRESS"] = address
                server = self.start_server(x, log_name="xhud-dbus-server", args=("--notifications",))
                deadline = time.monotonic() + 5
                while "serving" not in Path(server.log_path).read_text(errors="replace"):
                    if time.monotonic() > deadline:
                        raise RuntimeError("xhud server --notifications did not take the name")
                    time.sleep(0.02)
                if x.run(osd(30)).returncode != 0:
                    raise RuntimeError("notify-send failed")
                return st

            def action(st, v, timed=True):
                return ["--"] + osd(v)

            def teardown(st):
                x.run([self.xhud, "hide", "--id", "bench-dbus"], timeout=5)
                self.stop_servers(x)
                self.procs.stop(st["bus"])
                if st["saved"] is None:
                    x.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
                else:
                    x.env["DBUS_SESSION_BUS_ADDRESS"] = st["saved"]

            clients.append(("xhud-dbus", dbus_label, "ok", setup, action, teardown))
        return clients

    def untimed(self, x: XSession, args: list[str]) -> None:
        if args[0] == "--write":
            write_fifo(Path(args[1]), args[2])
        else:
            x.run(args[1:], timeout=10)

    def bench_warm(self, x: XSession) -> None:
        res: dict = {}
        for key, label, status, setup, action, teardown in self.warm_clients(x):
            e = {"label": label, "status": status, "first": [], "final": [], "returned": [], "error": None}
            res[key] = e
            if status != "ok":
                continue
            st = None
            try:
                st = setup()
                time.sleep(self.ui_settle + 0.3)
                a_full = self.work / f"warm-{key}-a-full.raw"
                x.run([self.pw, "snap", FULL, a_full], check=True)
                self.untimed(x, action(st, 70, False))
                time.sleep(self.ui_settle)
                d = x.run([self.pw, "diff", FULL, a_full, "0"], check=True).stdout.split()
                if not d or d[0] == "none":
                    raise RuntimeError("the update 30 -> 70 changed nothing on screen")
                region = d[0]
                refs = {70: self.work / f"warm-{key}-70.raw", 30: self.work / f"warm-{key}-30.raw"}
                x.run([self.pw, "snap", region, refs[70]], check=True)
                self.untimed(x, action(st, 30, False))
                time.sleep(self.ui_settle)
                x.run([self.pw, "snap", region, refs[30]], check=True)
                e["region"] = region
                fails = 0
                for i in range(2 * (self.runs + 1)):  # 30 -> 70, 70 -> 30, ...; the first pair warms up
                    target = 70 if i % 2 == 0 else 30
                    r = x.run([self.pw, "update", region, "--until", refs[target], "--timeout", "3000"]
                              + action(st, target), timeout=20)
                    m = re.fullmatch(r"\s*([\d.]+) ([\d.]+) (-?[\d.]+)\s*", r.stdout)
                    if r.returncode == 0 and m:
                        if i >= 2:
                            e["first"].append(float(m.group(1)))
                            e["final"].append(float(m.group(2)))
                            e["returned"].append(float(m.group(3)))
                    else:
                        fails += 1
                        e["error"] = (r.stdout.strip() + " " + r.stderr.strip()).strip()[:200]
                        # back to a known state
                        self.untimed(x, action(st, target, False))
                        time.sleep(self.ui_settle)
                        if fails >= 3:
                            break
                    time.sleep(0.1)
            except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
                e["error"] = str(ex)[:200]
            finally:
                if st is not None:
                    teardown(st)
            if not e["final"]:
                e["status"] = "failed: " + (e["error"] or "no run succeeded")
        self.results["warm"][x.name] = res

    # -- steady state ----------------------------------------------------------------------------

    def steady_clients(self, x: XSession):
        """(key, label, status, start) where start() returns (handle, pid to measure)."""
        out = []

        def simple(key, label, cmd, stdin_text=None, env_extra=None, pick=None, pkg=None, served=False):
            if cmd[0] in (self.xhud,) and not os.access(self.xhud, os.X_OK):
                out.append((key, label, f"not built ({self.xhud})", None))
                return
            if cmd[0] == self.vblank and not os.access(self.vblank, os.X_OK):
                out.append((key, label, f"not built ({self.vblank})", None))
                return
            if cmd[0] not in (self.xhud, self.floor, self.vblank, "sh") and not self.have(cmd[0]):
                out.append((key, label, f"not installed ({pkg or cmd[0]})", None))
                return

            def start():
                env = dict(x.env, **(env_extra or {}))
                server = None
                if served:
                    # The HUD is drawn by the display's server: a fresh foreground one, with its
                    # stderr (XHUD_STATS) in a log, serving this HUD only. It is what is measured.
                    server = self.start_server(x, env_extra=env_extra, log_name=key + "-server")
                p = self.procs.spawn(cmd, env, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                                     log_name=key)
                if server is not None:
                    return {"p": p, "server": server}, server.pid
                if stdin_text is not None:
                    p.stdin.write(stdin_text.encode())
                    p.stdin.flush()
                pid = p.pid
                if pick:
                    time.sleep(0.2)
                    pid = next((d for d in descendants(p.pid) if comm(d) == pick), None)
                return {"p": p}, pid

            out.append((key, label, "ok", start))

        stats = {"XHUD_STATS": "1"}
        simple("floor", "floor (C, Xlib + Cairo)", [self.floor, "Loading"])
        # What any animation at the refresh rate costs the X server: its wake-up each refresh.
        simple("vblank", "a pixel presented each refresh (C, bench/vblank.c)", [self.vblank, "1"])
        simple("xhud-spin", "**xhud spinner** (--mode indeterminate; the server drawing it)",
               [self.xhud, "--mode", "indeterminate", "--label", "Loading"], env_extra=stats, served=True)
        simple("xhud-bar", "**xhud static bar** (--mode bar --progress 0.5; the server drawing it)",
               [self.xhud, "--mode", "bar", "--progress", "0.5", "--label", "Volume"], env_extra=stats, served=True)
        # the named HUD's server
        label = "**xhud --id static bar** (server)"
        if not os.access(self.xhud, os.X_OK):
            out.append(("xhud-id", label, f"not built ({self.xhud})", None))
        elif not self.check_named(x):
            out.append(("xhud-id", label, "not available: " + self.named["why"], None))
        else:
            def start_named():
                self.stop_servers(x)  # the invocation starts the server that is measured
                r = x.run([self.xhud, "--id", "bench", "--mode", "bar", "--progress", "0.5", "--label", "Volume"]
                          + KEEP, env=dict(x.env, **stats))
                if r.returncode != 0:
                    raise RuntimeError(f"xhud --id exit {r.returncode}: {r.stderr.strip()[:100]}")
                time.sleep(0.2)
                return {"named": True}, self.named_server()
            out.append(("xhud-id", label, "ok", start_named))
        simple("osd_cat", "osd_cat (text)", ["osd_cat", "--pos=middle", "--align=center", "--delay=600",
                                             "--font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-*", "--colour=white"],
               stdin_text="Loading\n", pkg="xosd-bin")
        simple("aosd_cat", "aosd_cat", ["aosd_cat", "--position=4", "--fade-full=600000", "--fore-color=white",
                                        "--font=Sans Bold 16"], stdin_text="Loading\n", pkg="aosd-cat")
        simple("zenity", "zenity --progress --pulsate", ["zenity", "--progress", "--pulsate", "--no-cancel",
                                                         "--text=Loading"], stdin_text="", pkg="zenity")
        simple("yad", "yad --progress --pulsate", ["yad", "--progress", "--pulsate", "--no-buttons",
                                                   "--undecorated", "--center", "--text=Loading"],
               stdin_text="", pkg="yad")
        # dunst showing a notification with a bar
        label = "dunst showing a bar (int:value:50)"
        if not (self.have("dunst") and self.have("notify-send")):
            out.append(("dunst", label, "not installed (dunst libnotify-bin)", None))
        elif not x.dunst:
            out.append(("dunst", label, "not measured: dunst is not running", None))
        else:
            def start_dunst():
                x.dunst_clear()
                x.run(["notify-send", "-t", "0", "-h", "int:value:50", "Volume"])
                return {"dunst": True}, x.dunst.pid
            out.append(("dunst", label, "ok", start_dunst))
        if self.have("xob"):
            fifo = self.work / "xob-steady.fifo"

            def start_xob():
                fifo.unlink(missing_ok=True)
                os.mkfifo(fifo)
                p = self.procs.spawn(["sh", "-c", f"tail -f {sh_quote(str(fifo))} | exec xob"], x.env, log_name="xob")
                write_fifo(fifo, "50\n")
                time.sleep(0.2)
                return {"p": p}, next((d for d in descendants(p.pid) if comm(d) == "xob"), None)
            out.append(("xob", "xob (bar, via tail -f fifo)", "ok", start_xob))
        else:
            out.append(("xob", "xob", "not installed (xob is not in Debian 12)", None))
        return out

    def stop_steady(self, x: XSession, handle: dict) -> None:
        if handle.get("p"):
            self.procs.stop(handle["p"])
        if handle.get("server"):
            self.stop_servers(x)
        if handle.get("named"):
            x.run([self.xhud, "hide", "--id", "bench"], timeout=5)
            time.sleep(0.5)
            self.stop_servers(x)
        if handle.get("dunst"):
            x.dunst_clear()

    def bench_steady(self, x: XSession) -> None:
        res: dict = {}
        clients = self.steady_clients(x)
        for key, label, status, _ in clients:
            res[key] = {"label": label, "status": status, "cpu": [], "wake": [], "hwm": [], "rss": [], "fps": [],
                        "xcpu": [], "cmcpu": [], "client_hwm": [], "client_rss": [], "error": None}
        for _ in range(self.steady_runs):
            for key, label, status, start in clients:
                e = res[key]
                if status != "ok" or (e["error"] and not e["cpu"]):
                    continue
                handle: dict = {}
                try:
                    handle, pid = start()
                    t_start = time.monotonic()
                    time.sleep(self.settle)
                    if pid is None or not alive(pid):
                        log_tail = Path(handle["p"].log_path).read_text(errors="replace")[-150:] if handle.get("p") else ""
                        raise RuntimeError("not running when the window opened " + log_tail)
                    xs = [self.xvfb_pid(x), x.xcm.pid if x.xcm else None]
                    a, t0 = sample(pid), time.monotonic()
                    xa = [sample(p) if p else None for p in xs]
                    time.sleep(self.window)
                    b, t1 = sample(pid), time.monotonic()
                    xb = [sample(p) if p else None for p in xs]
                    hwm, rss = status_kib(pid, "VmHWM"), status_kib(pid, "VmRSS")
                    if a is None or b is None or hwm is None or not alive(pid):
                        raise RuntimeError("exited during the window")
                    dt = t1 - t0
                    ns, sw = delta(a, b)
                    e["cpu"].append(100 * ns / 1e9 / dt)
                    e["wake"].append(sw / dt)
                    e["hwm"].append(hwm / 1024)
                    e["rss"].append(rss / 1024)
                    if xa[0] and xb[0]:
                        e["xcpu"].append(100 * delta(xa[0], xb[0])[0] / 1e9 / dt)
                    if xa[1] and xb[1]:
                        e["cmcpu"].append(100 * delta(xa[1], xb[1])[0] / 1e9 / dt)
                    p, server = handle.get("p"), handle.get("server")
                    if server is not None and p is not None:
                        # The client beside the server that draws its HUD.
                        chwm, crss = status_kib(p.pid, "VmHWM"), status_kib(p.pid, "VmRSS")
                        if chwm is not None and crss is not None:
                            e["client_hwm"].append(chwm / 1024)
                            e["client_rss"].append(crss / 1024)
                        # With XHUD_STATS in the client's environment the server sends the HUD's
                        # frame count back to the client when the HUD ends; the client prints it.
                        self.procs.stop(p, grace=3.0)
                        t_end = time.monotonic()
                        m = re.findall(r"xhud-stats: frames=(\d+)", Path(p.log_path).read_text(errors="replace"))
                        if m:
                            e["fps"].append(int(m[-1]) / (t_end - t_start))
                    elif p is not None and key.startswith("xhud"):
                        self.procs.stop(p)
                        t_end = time.monotonic()
                        m = re.findall(r"xhud-stats: frames=(\d+)", Path(p.log_path).read_text(errors="replace"))
                        if m:
                            e["fps"].append(int(m[-1]) / (t_end - t_start))
                except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
                    e["error"] = str(ex)[:200]
                finally:
                    self.stop_steady(x, handle)
                x.wait_background(3)
        for e in res.values():
            if e["status"] == "ok" and not e["cpu"]:
                e["status"] = "failed: " + (e["error"] or "no run succeeded")
        self.results["steady"][x.name] = res

    def xvfb_pid(self, x: XSession) -> int | None:
        return x.xvfb.pid if x.xvfb else None

    # -- throughput ------------------------------------------------------------------------------

    def bench_throughput(self, x: XSession) -> None:
        e = {"status": "ok", "ups": [], "failed": [], "lag": [], "rss_before": None, "rss_warm": None, "rss_after": None,
             "hwm_after": None, "error": None, "workers": 4, "seconds": self.flood_seconds}
        self.results["throughput"][x.name] = e
        if not os.access(self.xhud, os.X_OK):
            e["status"] = f"not built ({self.xhud})"
            return
        if not self.check_named(x):
            e["status"] = "not available: " + self.named["why"]
            return
        try:
            r = x.run([self.xhud, "--id", "bench", "--mode", "bar", "--progress", "0.10", "--label", "Volume"] + KEEP)
            if r.returncode != 0:
                raise RuntimeError(f"xhud --id bench exit {r.returncode}: {r.stderr.strip()[:150]}")
            time.sleep(self.ui_settle + 0.3)
            server = self.named_server()
            a_full = self.work / "tp-a.raw"
            x.run([self.pw, "snap", FULL, a_full], check=True)
            x.run([self.xhud, "--id", "bench", "--progress", "0.90"] + KEEP)
            time.sleep(self.ui_settle)
            d = x.run([self.pw, "diff", FULL, a_full, "0"], check=True).stdout.split()
            if not d or d[0] == "none":
                raise RuntimeError("--progress 0.90 changed nothing on screen")
            region = d[0]
            ref = self.work / "tp-55.raw"
            x.run([self.xhud, "--id", "bench", "--progress", "0.55"] + KEEP)
            time.sleep(self.ui_settle)
            x.run([self.pw, "snap", region, ref], check=True)
            x.run([self.xhud, "--id", "bench", "--progress", "0.10"] + KEEP)
            time.sleep(self.ui_settle)
            if server:
                e["rss_before"] = (status_kib(server, "VmRSS") or 0) / 1024
                e["server"] = comm(server)
            rounds = 1 if self.quick else 3
            for _ in range(rounds):
                r = x.run([self.pw, "flood", str(self.flood_seconds), "4", "0.10", "0.90", "--", self.xhud, "--id",
                           "bench", "--progress", "%"], timeout=self.flood_seconds + 120)
                m = re.fullmatch(r"\s*(\d+) (\d+) ([\d.]+)\s*", r.stdout)
                if not m:
                    raise RuntimeError("flood: " + (r.stdout + r.stderr).strip()[:150])
                ok, failed, el = int(m.group(1)), int(m.group(2)), float(m.group(3))
                e["ups"].append(ok / el)
                e["failed"].append(failed)
                u = x.run([self.pw, "update", region, "--until", ref, "--timeout", "10000", "--", self.xhud, "--id",
                           "bench", "--progress", "0.55"], timeout=30)
                m = re.fullmatch(r"\s*([\d.]+) ([\d.]+) (-?[\d.]+)\s*", u.stdout)
                e["lag"].append(float(m.group(2)) if m else None)
                if not m:
                    e["error"] = "last value not on screen: " + (u.stdout + u.stderr).strip()[:120]
                x.run([self.xhud, "--id", "bench", "--progress", "0.10"] + KEEP)
                time.sleep(1.0)
                if server and e["rss_warm"] is None and alive(server):
                    # After the first round: what serving updates needs is resident (a server
                    # gives back the pages of its files it no longer runs, and faults them in
                    # again when it does); growth from here on is memory kept per update.
                    e["rss_warm"] = (status_kib(server, "VmRSS") or 0) / 1024
            if server and alive(server):
                e["rss_after"] = (status_kib(server, "VmRSS") or 0) / 1024
                e["hwm_after"] = (status_kib(server, "VmHWM") or 0) / 1024
        except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
            e["status"] = "failed: " + str(ex)[:200]
        finally:
            x.run([self.xhud, "hide", "--id", "bench"], timeout=5)
            time.sleep(0.5)
            self.procs.end_orphans()

    # -- 20 clients at once ---------------------------------------------------------------------

    def hud_windows(self, x: XSession, known: dict) -> dict:
        """The HUD windows on the root now: {window id: info} of the children of class "xhud"
        that are InputOutput (a HUD's InputOnly input blocker is left out). `known` caches what
        xwininfo said about each window's class."""
        r = x.run(["xwininfo", "-root", "-children"], timeout=10)
        out = {}
        for m in re.finditer(r'^\s*(0x[0-9a-f]+) .*?\("([^"]*)" "[^"]*"\)', r.stdout, re.M):
            wid, instance = int(m.group(1), 16), m.group(2)
            if instance != "xhud":
                continue
            if wid not in known:
                known[wid] = window_info(x, wid)
            if known[wid] and known[wid]["io"]:
                out[wid] = known[wid]
        return out

    def clients_round(self, x: XSession, n: int) -> dict:
        """A foreground server with no HUD; one client, then n - 1 more at once. Returns the
        round's figures; every process it starts is ended before it returns."""
        rd: dict = {"lat": [], "first_ms": None, "rss1": None, "rss_n": None, "client_rss": [], "visible": 0,
                    "on_screen": 0, "overlaps": [], "exits": [], "mapped": 0, "rects": []}
        self.stop_servers(x)
        x.wait_background()
        server = self.start_server(x, log_name="clients-server")
        watcher = self.procs.spawn([sys.executable, os.path.abspath(__file__), "--watch-maps"], x.env,
                                   log_name="mapwatch")
        clients: list[tuple[subprocess.Popen, float]] = []
        known: dict = {}
        mapped_so_far: dict = {}

        def maps() -> dict[int, float]:
            """First MapNotify time of each child of the root, from the watcher's lines."""
            first: dict[int, float] = {}
            for m in re.finditer(r"^map ([\d.]+) (\d+)$", Path(watcher.log_path).read_text(errors="replace"), re.M):
                first.setdefault(int(m.group(2)), float(m.group(1)))
            return first

        def wait_mapped(count: int, timeout: float) -> tuple[dict, dict]:
            """Until `count` HUD windows are mapped. The watcher's lines are read every 20 ms; the
            windows are asked for (xwininfo) only once enough maps have come, and then at most
            every 0.25 s, so that the waiting takes little from the server being measured."""
            deadline = time.monotonic() + timeout
            before = len(maps())
            need = count - len(mapped_so_far)
            last = time.monotonic() - 0.25
            while True:
                mp = maps()  # before the windows: a window mapped by then is listed by then
                now = time.monotonic()
                if (len(mp) - before >= need and now - last >= 0.25) or now - last >= 2.0 or now > deadline:
                    last = now
                    huds = self.hud_windows(x, known)
                    mapped = {w: mp[w] for w in huds if w in mp}
                    if len(mapped) >= count or now > deadline:
                        mapped_so_far.update(mapped)
                        return mapped, huds
                time.sleep(0.02)

        def spawn(i: int) -> None:
            cmd = [self.xhud, "--mode", "annular", "--label", f"Client {i}", "--progress", "0.5"]
            t = time.monotonic()
            clients.append((self.procs.spawn(cmd, x.env, log_name=f"client{i}"), t))

        try:
            deadline = time.monotonic() + 10
            while "ready" not in Path(watcher.log_path).read_text(errors="replace"):
                if watcher.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the MapNotify watcher did not start: "
                                       + Path(watcher.log_path).read_text(errors="replace")[-200:])
                time.sleep(0.02)
            spawn(1)
            mapped, _ = wait_mapped(1, 30)
            if not mapped:
                raise RuntimeError("client 1's HUD was not mapped within 30 s")
            first_win = min(mapped, key=mapped.get)
            rd["first_ms"] = 1000 * (mapped[first_win] - clients[0][1])
            time.sleep(self.ui_settle)
            rd["rss1"] = (status_kib(server.pid, "VmRSS") or 0) / 1024
            rd["client1_rss"] = (status_kib(clients[0][0].pid, "VmRSS") or 0) / 1024
            for i in range(2, n + 1):  # as fast as this process can fork
                spawn(i)
            mapped, huds = wait_mapped(n, 60)
            rd["mapped"] = len(mapped)
            # The server maps the windows in the order it accepts the requests: the clients' order.
            later = sorted((t, w) for w, t in mapped.items() if w != first_win)
            rd["lat"] = [1000 * (mapped[first_win] - clients[0][1])] + \
                [1000 * (t - clients[i + 1][1]) for i, (t, _) in enumerate(later[:n - 1])]
            time.sleep(self.ui_settle + 0.3)  # the group settles into its stack
            rd["rss_n"] = (status_kib(server.pid, "VmRSS") or 0) / 1024
            rd["client_rss"] = [(status_kib(p.pid, "VmRSS") or 0) / 1024 for p, _ in clients]
            # Where they are now: visible, on screen, and no two overlapping.
            rects = []
            for w in mapped:
                info = window_info(x, w)
                if info and info["viewable"]:
                    rects.append((info["x"], info["y"], info["w"], info["h"]))
            rd["rects"] = rects
            rd["visible"] = len(rects)
            rd["on_screen"] = sum(1 for (rx, ry, rw, rh) in rects
                                  if rx >= 0 and ry >= 0 and rx + rw <= SCREEN_W and ry + rh <= SCREEN_H)
            rd["overlaps"] = [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:]
                              if min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0])
                              and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1])]
        finally:
            # SIGTERM to each client hides its HUD; each exits 0.
            for p, _ in clients:
                if p.poll() is None:
                    try:
                        os.kill(p.pid, signal.SIGTERM)
                    except ProcessLookupError:
                        pass
            for p, _ in clients:
                try:
                    rd["exits"].append(p.wait(timeout=5))
                except subprocess.TimeoutExpired:
                    rd["exits"].append(None)
                self.procs.stop(p)
            self.procs.stop(watcher)
            rd["hidden"] = x.wait_background(5) if clients else None  # every HUD gone from the screen
            self.stop_servers(x)
        return rd

    def bench_clients(self, x: XSession) -> None:
        n = T_CLIENTS
        e = {"status": "ok", "clients": n, "rounds": [], "error": None}
        self.results["clients"][x.name] = e
        if not os.access(self.xhud, os.X_OK):
            e["status"] = f"not built ({self.xhud})"
            return
        if not self.have("xwininfo"):
            e["status"] = "not measured: xwininfo is not installed (x11-utils)"
            return
        for _ in range(1 if self.quick else 3):
            try:
                e["rounds"].append(self.clients_round(x, n))
            except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
                e["error"] = str(ex)[:300]
                break
        if not e["rounds"]:
            e["status"] = "failed: " + (e["error"] or "no round finished")

    # -- render ----------------------------------------------------------------------------------

    def bench_render(self) -> None:
        rb = self.args.render_bench
        if not rb or not os.access(rb, os.X_OK):
            self.results["render"] = {"status": f"not built ({rb or 'xhud-render-bench'})", "rows": []}
            return
        frames = "40" if self.quick else "300"
        r = subprocess.run([rb, frames], capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        rows = []
        for line in r.stdout.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and re.fullmatch(r"[\d.]+", cells[2] or "x"):
                rows.append({"mode": cells[0], "scale": int(cells[1]), "min": float(cells[2]),
                             "median": float(cells[3])})
        status = "ok" if rows else f"failed: exit {r.returncode} {r.stderr.strip()[:150]}"
        self.results["render"] = {"status": status, "rows": rows, "frames": int(frames)}

    # -- all -------------------------------------------------------------------------------------

    def run(self) -> None:
        sections = set(self.args.only.split(",")) if self.args.only else {"startup", "busy", "warm", "steady",
                                                                           "render", "throughput", "clients",
                                                                           "wayland"}
        settings = {"both": [False, True], "off": [False], "on": [True]}[self.args.compositor]
        if True in settings and not self.have("xcompmgr"):
            self.notes.append("xcompmgr is not installed: measured without a compositor only")
            settings = [False]
        # The X sections need X servers; `--only wayland` (or render) starts none.
        if not sections & {"startup", "busy", "warm", "steady", "throughput", "clients"}:
            settings = []
        self.results["settings"] = ["xcompmgr" if c else "no compositor" for c in settings]
        if "render" in sections:
            log("render cost per frame (xhud-render-bench)")
            self.bench_render()
        for composited in settings:
            x = XSession(self, composited)
            try:
                log(f"X server with {x.name}")
                x.start()
                x.run([self.pw, "snap", FULL, self.work / "bg.raw"], check=True)
                self.notes += [f"{x.name}: {n}" for n in x.notes]
                # Each section starts with no HUD server for the display, and leaves none.
                if "startup" in sections:
                    log(f"{x.name}: start to first frame, {self.runs} runs")
                    self.bench_startup(x)
                    self.stop_servers(x)
                if "busy" in sections:
                    log(f"{x.name}: first frame with a busy loop on each core ({os.cpu_count()}), {self.runs} runs")
                    self.bench_busy(x)
                    self.stop_servers(x)
                if "warm" in sections:
                    log(f"{x.name}: warm update")
                    self.bench_warm(x)
                    self.stop_servers(x)
                if "steady" in sections:
                    log(f"{x.name}: steady state, {self.steady_runs} x {self.window:g} s")
                    self.bench_steady(x)
                    self.stop_servers(x)
                if "throughput" in sections:
                    log(f"{x.name}: throughput")
                    self.bench_throughput(x)
                    self.stop_servers(x)
                if "clients" in sections:
                    log(f"{x.name}: {T_CLIENTS} clients at once")
                    self.bench_clients(x)
                    self.stop_servers(x)
            finally:
                x.stop()
                self.procs.end_orphans()
                (self.work / "bg.raw").unlink(missing_ok=True)
        if "wayland" in sections:
            from wayland import bench_wayland
            log("wayland: xhud beside wob and mako on a headless sway")
            bench_wayland(self)


def window_info(x: XSession, wid: int) -> dict | None:
    """xwininfo's class (InputOutput or not), map state and absolute geometry of a window."""
    r = x.run(["xwininfo", "-id", str(wid)], timeout=10)
    if r.returncode != 0:
        return None
    def num(label):
        m = re.search(r"^\s*" + label + r":\s*(-?\d+)", r.stdout, re.M)
        return int(m.group(1)) if m else 0
    return {"io": bool(re.search(r"^\s*Class:\s*InputOutput", r.stdout, re.M)),
            "viewable": bool(re.search(r"^\s*Map State:\s*IsViewable", r.stdout, re.M)),
            "x": num("Absolute upper-left X"), "y": num("Absolute upper-left Y"),
            "w": num("Width"), "h": num("Height")}


def watch_maps() -> int:
    """`suite.py --watch-maps`: prints "ready" once it listens, then "map T WINDOW" for each
    MapNotify of a child of the root of $DISPLAY, T being CLOCK_MONOTONIC in seconds (the clock
    of time.monotonic() in the suite) when the event was read. A process of its own, so that the
    suite's spawning never delays the reading; it runs until it is killed."""
    import ctypes.util
    x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
    x11.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    x11.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
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


# The rows that bench/pixwatch measures as well, in the same rounds.
CROSS_CHECKED = ("floor", "xhud-warm", "xhud-cold")
PATCH = 9  # the side of the square watched around a client's first changed pixel


def patch_around(pixel: str) -> str:
    """The PATCH x PATCH square around a pixel ("X,Y"), inside the screen."""
    x, y = map(int, pixel.split(","))
    x0 = min(max(0, x - PATCH // 2), SCREEN_W - PATCH)
    y0 = min(max(0, y - PATCH // 2), SCREEN_H - PATCH)
    return f"{PATCH}x{PATCH}+{x0}+{y0}"


def sh_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def write_fifo(path: Path, text: str) -> None:
    """`echo TEXT > fifo`: blocks until a reader has it open (for at most 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nobody reads {path}")
            time.sleep(0.02)
    os.set_blocking(fd, True)
    os.write(fd, text.encode())
    os.close(fd)


# ---------------------------------------------------------------------------------------------
# Report


def machine_info() -> dict:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    debian = Path("/etc/debian_version").read_text().strip() if Path("/etc/debian_version").exists() else "?"
    versions = {}
    for pkg in ("xvfb", "xcompmgr", "xosd-bin", "aosd-cat", "zenity", "yad", "dunst", "libnotify-bin", "xob"):
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            versions[pkg] = r.stdout.strip()
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "arch": platform.machine(), "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "debian": debian, "versions": versions}


def startup_refs(res: dict) -> list[tuple[str, str, float]]:
    """The xhud figures that the alternatives are compared with: (name, key, median), warm first.
    A report from before the server (one xhud key, its own process) has that one."""
    refs = []
    for name, key in (("warm", "xhud-warm"), ("cold", "xhud-cold"), ("xhud", "xhud")):
        e = res.get(key, {})
        if key == "xhud-cold" and "--id" in e.get("cmd", []):
            continue  # an older report's cold start of a named HUD
        if e.get("times"):
            refs.append((name, key, mmm(e["times"])[1]))
    return refs


def fresh_runtimes(s: Suite) -> bool:
    """Whether the startup section's cold runs each had a new XDG_RUNTIME_DIR (a report from
    before they did has no such mark)."""
    return any(e.get("fresh_runtime") for res in s.results["startup"].values() for e in res.values())


def startup_section(s: Suite) -> list[str]:
    out = ["## 1. Start to first painted frame", "",
           "Milliseconds from fork+exec of the client until the screen where its window appears differs "
           "from the background: the untimed first run finds the client's first mapped window (`firstframe "
           f"--auto`, MapNotify on the root, then its area polled) and the first pixel that changed there; the "
           f"counted runs watch the {PATCH}x{PATCH} pixels around that one from the fork on, every 0.25 ms "
           "(`firstframe --from-fork`), whatever the client does meanwhile, as bench/pixwatch watches the "
           "screen's centre (below); *map* is the median to the MapNotify, noted on the way. Clients take turns "
           "run by run. "
           "*/ floor* is the client's median over the floor's; *xhud / this* is xhud's median over the "
           "client's, warm / cold (below 1: xhud is ahead).", "",
           "xhud draws every HUD in the display's server. **xhud --mode annular** is the warm case: a "
           "server runs (a foreground `xhud server`, started when none is up and then kept; after a start "
           "it first shows one untimed HUD, so that every warm run meets a server that has drawn before). "
           "*cold*: no server runs (any is ended before and after each run"
           + (", and each run has a new, empty `XDG_RUNTIME_DIR` on a tmpfs, as a user's `/run/user/UID` is at login: nothing is left there from the run before"
              if fresh_runtimes(s) else "") + "), so the invocation starts one "
           "(posix_spawn of xhud-host in a session of its own) and its HUD is the new server's first. "
           "A server keeps the font matches of its labels for the next (`$XDG_CACHE_HOME/xhud/fonts/matches`, "
           "checked against fontconfig's files with `stat`): the cold row opens its font from them (a server ran "
           "before on this account), the *no font match kept* row has them removed before each run (the first "
           "start ever, or after fonts or their configuration changed: fontconfig reads its configuration on "
           "the way to the first frame, in the font helper `xhud-fonts` that the client starts beside the server, "
           "while the server's libraries load).", ""]
    for setting, res in s.results["startup"].items():
        floor = res.get("floor", {})
        fmed = mmm(floor.get("times", []))[1] if floor.get("times") else None
        refs = startup_refs(res)
        medians = {k: mmm(e["times"])[1] for k, e in res.items() if e.get("times")}
        rows = []
        for key, e in res.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", ""])
                continue
            mn, med, mx = mmm(e["times"])
            ratio = f"{med / fmed:.2f}×" if fmed else "-"
            vs = " / ".join(f"{m / med:.2f}" for _, _, m in refs) if refs and not key.startswith("xhud") else ""
            cold = medians.get("xhud-cold") if any(k == "xhud-cold" for _, k, _ in refs) else None
            if key == "xhud-warm":
                target = f"warm ≤ {T_WARM_FLOOR:g}× floor: " + mark(med / fmed <= T_WARM_FLOOR if fmed else None)
            elif key in ("xhud-cold", "xhud-cold-new") and "--id" not in e.get("cmd", []):
                limit = T_COLD_FLOOR if key == "xhud-cold" else T_COLD_NEW_FLOOR
                target = f"cold ≤ {limit:g}× floor: " + mark(med / fmed <= limit if fmed else None)
                others = [k for k in T_COLD_AHEAD if k in medians]
                if others:
                    target += f"; ahead of {', '.join(others)}: " + mark(all(med < medians[k] for k in others))
            elif key.startswith("xhud") or key == "floor":
                target = ""
            elif key in T_COLD_AHEAD and cold:
                target = "cold xhud ahead: " + mark(cold < med)
            else:
                target = f"xhud ahead ({' / '.join(n for n, _, _ in refs)}): " \
                    + " / ".join(mark(m < med) for _, _, m in refs) if refs else "xhud ahead: n/a"
            rows.append([e["label"], str(len(e["times"])), f1(mn), f1(med), f1(mx), ratio, vs,
                         f1(mmm(e["maps"])[1]) if e["maps"] else "-", target])
        out += [f"### {setting}", "",
                md_table(["client", "runs", "min ms", "median ms", "max ms", "/ floor",
                          "xhud / this (" + " / ".join(n for n, _, _ in refs) + ")" if refs else "xhud / this",
                          "map ms", "target"], rows), ""]
        out += cross_check(res, setting)
    cmds = {}
    for res in s.results["startup"].values():
        for e in res.values():
            cmds.setdefault(re.sub(r"\*\*", "", e["label"]), e["cmd"])
    if cmds:
        out += ["Commands (osd_cat, aosd_cat, zenity, yad and xob get a pipe on stdin that holds the text shown, or "
                "nothing, and stays open; notify-send exits at once and dunst draws):", ""]
        out += [f"- {lab}: `{' '.join(shlex.quote(str(c)) for c in cmd)}`" for lab, cmd in cmds.items()] + [""]
    return out


def cross_check(res: dict, setting: str) -> list[str]:
    """The suite's first-paint figures beside bench/pixwatch's, measured in the same rounds."""
    rows = []
    for key in CROSS_CHECKED:
        e = res.get(key) or {}
        if not e.get("times") or not e.get("pixwatch"):
            if e.get("times") and e.get("pixwatch_error"):
                rows.append([e["label"], "", "pixwatch failed: " + e["pixwatch_error"], "", "", ""])
            continue
        ours, theirs = mmm(e["times"])[1], mmm(e["pixwatch"])
        diff = ours / theirs[1] - 1
        rows.append([e["label"], f1(ours), f1(theirs[1]), f"{f1(theirs[0])}-{f1(theirs[2])}", f"{diff * 100:+.0f} %",
                     "yes" if abs(diff) <= 0.10 else "**no**"])
    fl, pw = (res.get(k) or {} for k in ("floor", "xhud-warm"))
    if not rows:
        return []
    ratio = ""
    if fl.get("pixwatch") and pw.get("pixwatch") and fl.get("times") and pw.get("times"):
        ratio = (f" Warm over the floor: {mmm(pw['times'])[1] / mmm(fl['times'])[1]:.2f}× in the suite, "
                 f"{mmm(pw['pixwatch'])[1] / mmm(fl['pixwatch'])[1]:.2f}× in pixwatch.")
    return [f"Cross-check ({setting}): bench/pixwatch, a second program, polls the screen's centre pixel from the "
            f"fork on every 0.25 ms (`pixwatch update 1x1+{SCREEN_W // 2}+{SCREEN_H // 2} --end -- CMD`), beside "
            "each counted run of these rows with the same set-up (before it in even rounds, after it in odd "
            "ones)." + ratio, "",
            md_table(["client", "suite median ms", "pixwatch median ms", "pixwatch min-max", "suite / pixwatch",
                      "within 10 %"], rows), ""]


def busy_figures(b: dict) -> tuple[float, float] | None:
    """(floor's median, xhud cold's median) under load, in ms, when both were measured."""
    rows = (b or {}).get("rows") or {}
    fl, xc = (rows.get(k, {}).get("times") for k in ("floor", "xhud-cold"))
    return (mmm(fl)[1], mmm(xc)[1]) if fl and xc else None


def busy_section(s: Suite) -> list[str]:
    busy = s.results.get("busy") or {}
    if not busy:
        return []
    out = ["### Under load: a busy loop on each core", "",
           "The same start to the first painted frame while a busy loop (`python3 -S -c 'while True: pass'`, "
           "at the niceness of the clients measured) runs on each online core, from before the first run to "
           "after the last: the floor and xhud cold (font matches kept, as in the cold row above) take turns "
           "run by run, one warm-up round not counted. Each cold run has a runtime directory of its own "
           "(`XDG_RUNTIME_DIR`, new and empty" + ("; so do the cold rows above" if fresh_runtimes(s) else "")
           + ") and no server is left from the run before. */ floor* is over the floor's median under the "
           "same load; *quiet* is the row's median in the table above, and *× quiet* what the load made of it. *load* is the share of the cores the "
           "loops had during the runs.", ""]
    for setting, b in busy.items():
        quiet = s.results["startup"].get(setting, {})
        rows_in = b.get("rows") or {}
        floor = rows_in.get("floor", {})
        fmed = mmm(floor["times"])[1] if floor.get("times") else None
        rows = []
        for key, e in rows_in.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", "", ""])
                continue
            mn, med, mx = mmm(e["times"])
            q = quiet.get(key, {}).get("times")
            qmed = mmm(q)[1] if q else None
            target = ""
            if key == "xhud-cold":
                target = f"≤ {T_COLD_BUSY:g}× floor under load: " + mark(med / fmed <= T_COLD_BUSY if fmed else None)
            rows.append([e["label"], str(len(e["times"])), f1(mn), f1(med), f1(mx),
                         f"{med / fmed:.2f}×" if fmed else "-", f1(qmed), f"{med / qmed:.2f}" if qmed else "-",
                         f1(mmm(e["maps"])[1]), target])
        load = b.get("load")
        out += [f"#### {setting}: {b.get('cores')} busy loops"
                + (f", load {load * 100:.0f} % of the cores" if load is not None else ""), "",
                md_table(["client", "runs", "min ms", "median ms", "max ms", "/ floor", "quiet median ms", "× quiet",
                          "map ms", "target"], rows), ""]
        if b.get("error"):
            out += [f"Not all runs were made: {b['error']}", ""]
    return out


def warm_section(s: Suite) -> list[str]:
    out = ["## 2. Warm update", "",
           "A HUD is up showing 30 %; milliseconds from the start of the updating invocation (exec of the "
           "command, or the open+write of `echo 70 > fifo`) until the region that differs between the two "
           "values shows the new value exactly (*new value*, `pixwatch update --until`), and until its first "
           "pixel changes (*first change*). Updates go 30 -> 70 -> 30 ...; one warm-up pair not counted. "
           "*returned* is when the invocation exited.", ""]
    for setting, res in s.results["warm"].items():
        ref = None
        if res.get("xob", {}).get("final"):
            ref = ("xob", mmm(res["xob"]["final"])[1])
        rows = []
        xmeds = {k: mmm(e["final"])[1] for k, e in res.items() if k.startswith("xhud") and e.get("final")}
        best_x = min(xmeds.values()) if xmeds else None
        for key, e in res.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", ""])
                continue
            mn, med, mx = mmm(e["final"])
            first = mmm(e["first"])
            ret = mmm([v for v in e["returned"] if v >= 0])
            if key == "xhud-dbus":
                # The same OSD through D-Bus: measured against dunst doing the same, and beside --id.
                dunst = res.get("dunst", {}).get("final")
                target = "no slower than notify-send + dunst: " + mark(med <= mmm(dunst)[1] if dunst else None)
                vs = f"--id: {xmeds['xhud-id'] / med:.2f}" if "xhud-id" in xmeds else ""
            elif key.startswith("xhud"):
                limit = ref[1] if ref else T_WARM_XOB_MS
                what = "xob's median" if ref else f"xob's ~{T_WARM_XOB_MS:g} ms (performance notes; xob not installed)"
                target = f"≤ {what}: " + mark(med <= limit)
                vs = ""
            else:
                target = "xhud no slower: " + mark(best_x <= med if best_x is not None else None)
                vs = f"{best_x / med:.2f}" if best_x else ""
            rows.append([e["label"], str(len(e["final"])), f1(mn), f1(med), f1(mx),
                         f"{f1(first[0])} / {f1(first[1])} / {f1(first[2])}", f1(ret[1] if ret else None), vs,
                         target])
        out += [f"### {setting}", "",
                md_table(["client", "runs", "min ms", "median ms (new value)", "max ms",
                          "first change min / med / max", "returned ms", "best xhud / this", "target"], rows), ""]
    return out


def refresh_floor(res: dict) -> float | None:
    """The X server's CPU % while bench/vblank.c presents a pixel each refresh (its wake-up at
    each refresh, which any animation costs it), from one setting's steady results."""
    e = res.get("vblank") or {}
    return mmm(e["xcpu"])[1] if e.get("status") == "ok" and e.get("xcpu") else None


def steady_section(s: Suite) -> list[str]:
    out = ["## 3. Steady state", "",
           f"Each client started {s.steady_runs} time{'s' if s.steady_runs > 1 else ''}; after {s.settle:g} s to settle, a {s.window:g} s window: "
           "CPU % of one core (all threads, /proc/PID/task/*/schedstat), wake-ups/s (voluntary + "
           "nonvoluntary context switches of all threads), peak RSS (VmHWM at the end), and what the X "
           "server (and xcompmgr) spent meanwhile. Cells: median (min-max) over the runs.", "",
           "xhud's rows are the figures of the process that draws the HUD: the display's server. For the "
           "spinner and the bar, a fresh foreground `xhud server` (XHUD_STATS=1, its stderr in a log) "
           "serves that one HUD of a plain `xhud` client; *client peak RSS* is that client's (its CPU is "
           "~0 and not counted). frames/s: the HUD's frame count, which the server sends back to a client "
           "with XHUD_STATS=1 when its HUD ends (the client prints it), over the HUD's life (the client's "
           "spawn to its exit after SIGTERM). For `--id`, the server that the invocation started (no "
           "frames/s: that client returns at once). *a pixel presented each refresh*: bench/vblank.c, "
           "a 1x1 window given a new pixmap at each MSC with Present and nothing else; its Xvfb figure is "
           "what waking at every refresh costs the X server, which any animation at the refresh rate costs it.", ""]

    def cell(vals, nd=2):
        t = mmm(vals)
        if not t:
            return "-"
        return f"{t[1]:.{nd}f} ({t[0]:.{nd}f}-{t[2]:.{nd}f})" if len(vals) > 1 else f"{t[1]:.{nd}f}"

    for setting, res in s.results["steady"].items():
        rows = []
        for key, e in res.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", ""])
                continue
            cpu, wake, hwm = mmm(e["cpu"])[1], mmm(e["wake"])[1], mmm(e["hwm"])[2]
            chwm = mmm(e.get("client_hwm", []))
            targets = []
            if key in ("xhud-bar", "xhud-id"):
                targets.append(f"CPU 0.0 %: {mark(cpu < T_STATIC_CPU)}")
                targets.append(f"≤ {T_STATIC_WAKE:g} wake-up/s: {mark(wake <= T_STATIC_WAKE)}")
            if key == "xhud-spin":
                xc = mmm(e["xcpu"])[1] if e.get("xcpu") else None
                targets.append(f"with the X server ≤ {T_SPIN_CPU:g} %: {mark(cpu + xc <= T_SPIN_CPU if xc is not None else None)}")
                vx = refresh_floor(res)
                if xc is not None and vx is not None:
                    targets.append(f"the X server {xc - vx:+.2f} % beside a pixel presented each refresh")
            if key.startswith("xhud"):
                rss = mmm(e["rss"])[1]
                targets.append(f"server ≤ {T_SERVER_RSS_MIB:g} MiB (RSS, not the start's peak): {mark(rss <= T_SERVER_RSS_MIB)}")
            if chwm:
                targets.append(f"client ≤ {T_CLIENT_RSS_MIB:g} MiB: {mark(chwm[2] <= T_CLIENT_RSS_MIB)}")
            rows.append([e["label"], cell(e["cpu"]), cell(e["wake"], 1), cell(e["hwm"], 1),
                         cell(e["client_hwm"], 1) if e.get("client_hwm") else "",
                         cell(e["fps"], 1) if e["fps"] else "", cell(e["xcpu"]),
                         cell(e["cmcpu"]) if e["cmcpu"] else "", "; ".join(targets)])
        out += [f"### {setting}", "",
                md_table(["client", "CPU %", "wake-ups/s", "peak RSS MiB", "client peak RSS MiB", "frames/s",
                          "Xvfb CPU %", "xcompmgr CPU %", "target"], rows), ""]
    return out


def render_section(s: Suite) -> list[str]:
    r = s.results["render"]
    out = ["## 4. Render cost per frame", ""]
    if r is None:
        return []
    if r["status"] != "ok":
        return out + [f"xhud-render-bench: {r['status']}", ""]
    out += [f"`xhud-render-bench {r['frames']}`: one HUD frame per mode into a reused image surface, "
            f"{r['frames']} frames each (in-process, no X server).", ""]
    rows = []
    for row in r["rows"]:
        target = f"≤ {T_RENDER_MS} ms: {mark(row['median'] <= T_RENDER_MS)}" if row["scale"] == 1 else ""
        rows.append([row["mode"], str(row["scale"]), f"{row['min']:.3f}", f"{row['median']:.3f}", target])
    return out + [md_table(["mode", "scale", "min ms", "median ms", "target"], rows), ""]


def throughput_section(s: Suite) -> list[str]:
    out = ["## 5. Throughput of a named HUD", ""]
    any_e = next(iter(s.results["throughput"].values()), None)
    if any_e is None:
        return []
    out += [f"{any_e['workers']} parallel loops of `xhud --id bench --progress X` (X random in 0.10-0.90) for "
            f"{any_e['seconds']:g} s per round, then one `--progress 0.55`: *last value* is the ms from its start "
            "until the bar shows exactly 0.55 (a backlog would show here; compare the warm update of the idle "
            "HUD in section 2). RSS of the serving process before the first round, 1 s after it (what serving "
            "the flood needs is resident) and 1 s after the last; growth is from the first round's end to the last's.", ""]
    rows = []
    for setting, e in s.results["throughput"].items():
        if e["status"] != "ok":
            rows.append([setting, e["status"], "", "", "", "", ""])
            continue
        ups = mmm(e["ups"])
        lags = [v for v in e["lag"] if v is not None]
        lag = mmm(lags)
        base = e.get("rss_warm") if e.get("rss_warm") is not None else e["rss_before"]
        growth = (e["rss_after"] - base) if e["rss_after"] is not None and base is not None else None
        warm = s.results["warm"].get(setting, {}).get("xhud-id", {}).get("final")
        limit = (mmm(warm)[1] if warm else 0) + T_KEEPUP_MS
        keep = lag is not None and len(lags) == len(e["lag"]) and lag[2] <= limit
        target = f"keeps up (last value ≤ idle warm update + {T_KEEPUP_MS:g} ms = {limit:.0f} ms): {mark(keep)}"
        if growth is not None:
            target += f"; RSS growth < {T_GROWTH_MIB:g} MiB: {mark(growth < T_GROWTH_MIB)}"
        rows.append([setting, f"{ups[1]:.0f} ({ups[0]:.0f}-{ups[2]:.0f})", str(sum(e["failed"])),
                     f"{f1(lag[1])} ({f1(lag[0])}-{f1(lag[2])})" if lag else (e["error"] or "-"),
                     f"{f1(e['rss_before'])} -> {f1(e.get('rss_warm'))} -> {f1(e['rss_after'])}", f1(e["hwm_after"]), target])
    return out + [md_table(["setting", "updates/s median (min-max)", "failed invocations", "last value ms",
                            "server RSS MiB before -> after a round -> at the end", "server peak RSS MiB", "target"], rows), ""]


def clients_figures(e: dict) -> dict | None:
    """The figures of section 6 for one setting, over its rounds; None when none finished."""
    rounds = e.get("rounds") or []
    if not rounds:
        return None
    n = e.get("clients", T_CLIENTS)
    lat = [v for rd in rounds for v in rd["lat"]]
    per = [(rd["rss_n"] - rd["rss1"]) / (n - 1) for rd in rounds if rd["rss_n"] and rd["rss1"]]
    exits = [c for rd in rounds for c in rd["exits"]]
    return {"n": n, "rounds": len(rounds), "lat": mmm(lat), "count": len(lat),
            "first": mmm([rd["first_ms"] for rd in rounds if rd["first_ms"] is not None]),
            "mapped": min(rd["mapped"] for rd in rounds), "visible": min(rd["visible"] for rd in rounds),
            "on_screen": min(rd["on_screen"] for rd in rounds),
            "overlaps": max(len(rd["overlaps"]) for rd in rounds),
            "rss1": mmm([rd["rss1"] for rd in rounds if rd["rss1"]]),
            "rss_n": mmm([rd["rss_n"] for rd in rounds if rd["rss_n"]]), "per": mmm(per),
            "client": max((v for rd in rounds for v in rd["client_rss"] + [rd.get("client1_rss") or 0]), default=None),
            "exit0": sum(1 for c in exits if c == 0), "exits": len(exits),
            "hidden": all(rd.get("hidden") is not False for rd in rounds),
            "bad_exits": sorted({str(c) for c in exits if c != 0})}


def clients_section(s: Suite) -> list[str]:
    res = s.results.get("clients") or {}
    if not res:
        return []
    n = next(iter(res.values())).get("clients", T_CLIENTS)
    out = [f"## 6. {n} HUDs from {n} clients at once", "",
           f"A foreground `xhud server` with no HUD; one client (`xhud --mode annular --label \"Client 1\" "
           f"--progress 0.5`) until its HUD is mapped: the server's VmRSS with one HUD, the client's; then "
           f"{n - 1} more clients (\"Client 2\" ...) spawned as fast as the suite can fork. *spawn to map*: ms "
           "from just before each client's fork until the MapNotify of its HUD window (a separate watcher "
           "process with SubstructureNotify on the root; windows of class \"xhud\" that are InputOutput, "
           "the InputOnly input blockers left out), windows paired with clients in map order, which is the "
           "order the server accepts them in; over all clients of all rounds (client 1 included, alone: "
           "the server's first HUD). Then where the windows are (xwininfo): viewable, inside the screen, "
           "and overlapping pairs; the server's VmRSS with all of them and per further HUD; the largest "
           "client VmRSS. At the end SIGTERM to every client: each hides its HUD and should exit 0.", ""]
    rows = []
    for setting, e in res.items():
        f = clients_figures(e)
        if e["status"] != "ok" or f is None:
            rows.append([setting, e["status"] if e["status"] != "ok" else "no round finished"] + [""] * 10)
            continue
        lat, first = f["lat"], f["first"]
        stacked = f["visible"] == n and f["on_screen"] == n and f["overlaps"] == 0 and f["mapped"] == n
        targets = [f"all visible, stacked: {mark(stacked)}",
                   f"each ≤ {T_CLIENT_MAP_MS:g} ms: {mark(lat[2] <= T_CLIENT_MAP_MS and f['count'] == n * f['rounds'] if lat else False)}",
                   f"≤ {T_PER_HUD_MIB:g} MiB/HUD: {mark(f['per'][1] <= T_PER_HUD_MIB if f['per'] else None)}",
                   f"client ≤ {T_CLIENT_RSS_MIB:g} MiB: {mark(f['client'] <= T_CLIENT_RSS_MIB if f['client'] else None)}"]
        rows.append([setting, str(f["rounds"]),
                     f"{f['mapped']} / {f['visible']} / {f['on_screen']}", str(f["overlaps"]),
                     f"{lat[1]:.1f} / {lat[2]:.1f} ({f['count']})" if lat else "-",
                     f1(first[1]) if first else "-",
                     f1(f["rss1"][1] if f["rss1"] else None), f1(f["rss_n"][1] if f["rss_n"] else None),
                     f1(f["per"][1] if f["per"] else None, 2), f1(f["client"]),
                     f"{f['exit0']} / {f['exits']}" + (f" (others: {', '.join(f['bad_exits'])})" if f["bad_exits"] else "")
                     + ("" if f["hidden"] else "; HUDs left on screen"),
                     "; ".join(targets)])
    out += [md_table(["setting", "rounds", f"mapped / visible / on screen (of {n})", "overlapping pairs",
                      "spawn to map ms median / max (clients)", "client 1 alone ms", "server RSS MiB, 1 HUD",
                      f"server RSS MiB, {n} HUDs", "MiB per further HUD", "client RSS MiB, max",
                      "exit 0 on SIGTERM", "target"], rows), ""]
    errors = [f"{setting}: {e['error']}" for setting, e in res.items() if e.get("error") and e["status"] == "ok"]
    if errors:
        out += ["Rounds that did not finish: " + "; ".join(errors), ""]
    return out


def summary_section(s: Suite) -> list[str]:
    """One line per target, from the run without a compositor (and with, where it differs)."""
    rows = []
    for setting in s.results.get("settings", []):
        st = s.results["startup"].get(setting, {})
        fl = st.get("floor", {}).get("times")
        refs = {name: (key, m) for name, key, m in startup_refs(st)}
        if fl:
            f = mmm(fl)[1]
            for name, limit in (("warm", T_WARM_FLOOR), ("cold", T_COLD_FLOOR)):
                if name in refs:
                    x = refs[name][1]
                    what = "the server running" if name == "warm" else "no server running"
                    rows.append([f"{name} first paint ({what}) ≤ {limit:g}× floor ({setting})",
                                 f"{x:.1f} ms = {x / f:.2f}× {f:.1f} ms", mark(x / f <= limit)])
                    new = st.get("xhud-cold-new", {}).get("times")
                    if name == "cold" and new:
                        y = mmm(new)[1]
                        rows.append([f"cold first paint, no font match kept (the first start ever) ≤ {T_COLD_NEW_FLOOR:g}× floor ({setting})",
                                     f"{y:.1f} ms = {y / f:.2f}× {f:.1f} ms", mark(y / f <= T_COLD_NEW_FLOOR)])
                elif st.get(f"xhud-{name}") and "--id" not in st[f"xhud-{name}"].get("cmd", []):
                    rows.append([f"{name} first paint ≤ {limit:g}× floor ({setting})", st[f"xhud-{name}"]["status"],
                                 "n/a"])
            if "xhud" in refs:  # a report from before the server
                x = refs["xhud"][1]
                rows.append([f"start-up, own process ({setting})", f"{x:.1f} ms = {x / f:.2f}× {f:.1f} ms", "n/a"])
        bf = busy_figures((s.results.get("busy") or {}).get(setting))
        if bf:
            f, x = bf
            rows.append([f"cold first paint, a busy loop on each core ≤ {T_COLD_BUSY:g}× floor under the same load "
                         f"({setting})", f"{x:.1f} ms = {x / f:.2f}× {f:.1f} ms", mark(x / f <= T_COLD_BUSY)])
        if "cold" in refs:
            cold = refs["cold"][1]
            ahead = [(k, mmm(st[k]["times"])[1]) for k in T_COLD_AHEAD if st.get(k, {}).get("times")]
            rows.append([f"cold first paint ahead of {' and '.join(T_COLD_AHEAD)} ({setting})",
                         f"{cold:.1f} ms vs " + (", ".join(f"{k} {m:.1f} ms" for k, m in ahead) or "neither measured"),
                         mark(all(cold < m for _, m in ahead) if ahead else None)])
        if refs:
            name, (_, x) = next(iter(refs.items()))
            others = [(e["label"], mmm(e["times"])[1]) for k, e in st.items()
                      if not k.startswith("xhud") and k != "floor" and e.get("times")]
            behind = [lab for lab, m in others if m <= x]
            if others:
                rows.append([f"start-up ({name}) ahead of the alternatives ({setting})",
                             "behind: " + ", ".join(behind) if behind else f"ahead of all {len(others)} measured",
                             mark(not behind)])
        w = s.results["warm"].get(setting, {})
        for key, what in (("xhud-id", "xhud --id"), ("xhud-fifo", "xhud fed by a FIFO")):
            e = w.get(key)
            if e and e.get("final"):
                xob = w.get("xob", {}).get("final")
                ref = mmm(xob)[1] if xob else T_WARM_XOB_MS
                med, first = mmm(e["final"])[1], mmm(e["first"])[1]
                rows.append([f"warm update ≤ xob: {what} ({setting})",
                             f"new value {med:.1f} ms (first change {first:.1f} ms) vs {ref:.1f} ms"
                             + ("" if xob else " (xob's figure from the performance notes)"), mark(med <= ref)])
            elif e and key == "xhud-id":
                rows.append([f"warm update ≤ xob: {what} ({setting})", e["status"], "n/a"])
        sd = s.results["steady"].get(setting, {})
        for key, lim, what in (("xhud-bar", T_STATIC_CPU, "static bar CPU 0.0 %"),
                               ("xhud-spin", T_SPIN_CPU, f"spinner ≤ {T_SPIN_CPU:g} % CPU, the server + the X server")):
            e = sd.get(key)
            if e and e.get("cpu"):
                c = mmm(e["cpu"])[1]
                if key == "xhud-bar":
                    rows.append([f"{what} ({setting})", f"{c:.2f} %", mark(c < lim)])
                else:
                    xc = mmm(e["xcpu"])[1] if e.get("xcpu") else None
                    total = c + (xc or 0)
                    vx = refresh_floor(sd)
                    beside = f" (the X server for a pixel presented each refresh: {vx:.2f} %)" if vx is not None else ""
                    rows.append([f"{what} ({setting})", (f"{c:.2f} + {xc:.2f} %" if xc is not None else f"{c:.2f} %") + beside,
                                 mark(total <= lim if xc is not None else None)])
        e = sd.get("xhud-bar")
        if e and e.get("wake"):
            wk = mmm(e["wake"])[1]
            rows.append([f"static bar ≤ {T_STATIC_WAKE:g} wake-up/s ({setting})", f"{wk:.1f}/s", mark(wk <= T_STATIC_WAKE)])
        # The target is the RSS of a server showing one HUD (what bench/check.py checks); its
        # start-up's peak, before it gives pages back, is beside it.
        e = sd.get("xhud-spin")
        if e and e.get("rss") and e.get("hwm"):
            rss, peak = mmm(e["rss"])[1], mmm(e["hwm"])[2]
            rows.append([f"server RSS with one HUD ≤ {T_SERVER_RSS_MIB:g} MiB, steady ({setting})",
                         f"{rss:.1f} MiB (peak {peak:.1f})", mark(rss <= T_SERVER_RSS_MIB)])
        cpeaks = [mmm(e["client_hwm"])[2] for k, e in sd.items() if e.get("client_hwm")]
        if cpeaks:
            rows.append([f"client peak RSS ≤ {T_CLIENT_RSS_MIB:g} MiB, steady ({setting})",
                         f"{max(cpeaks):.1f} MiB", mark(max(cpeaks) <= T_CLIENT_RSS_MIB)])
        t = s.results["throughput"].get(setting)
        if t and t.get("ups"):
            lags = [v for v in t["lag"] if v is not None]
            warm = s.results["warm"].get(setting, {}).get("xhud-id", {}).get("final")
            limit = (mmm(warm)[1] if warm else 0) + T_KEEPUP_MS
            growth = (t["rss_after"] - t["rss_before"]) if t["rss_after"] is not None and t["rss_before"] is not None else None
            ok = bool(lags) and len(lags) == len(t["lag"]) and max(lags) <= limit and (growth is None or growth < T_GROWTH_MIB)
            rows.append([f"named HUD keeps up with 4 loops, no growth ({setting})",
                         f"{mmm(t['ups'])[1]:.0f} updates/s, last value {f1(max(lags) if lags else None)} ms, "
                         f"RSS {f1(t['rss_before'])} -> {f1(t['rss_after'])} MiB", mark(ok)])
        ce = (s.results.get("clients") or {}).get(setting)
        cf = clients_figures(ce) if ce and ce["status"] == "ok" else None
        if cf:
            n = cf["n"]
            stacked = cf["visible"] == n and cf["on_screen"] == n and cf["overlaps"] == 0 and cf["mapped"] == n
            rows.append([f"{n} HUDs from {n} clients: all visible, stacked ({setting})",
                         f"{cf['mapped']} mapped, {cf['visible']} viewable, {cf['on_screen']} inside the screen, "
                         f"{cf['overlaps']} overlapping pairs", mark(stacked)])
            if cf["lat"]:
                rows.append([f"{n} HUDs: each mapped ≤ {T_CLIENT_MAP_MS:g} ms after its client's spawn ({setting})",
                             f"median {cf['lat'][1]:.1f} ms, max {cf['lat'][2]:.1f} ms ({cf['count']} clients)",
                             mark(cf["lat"][2] <= T_CLIENT_MAP_MS and cf["count"] == n * cf["rounds"])])
            if cf["rss1"]:
                # At its first HUD's map: the start-up's pages, given back within a second (the
                # target is the steady figure above).
                rows.append([f"server RSS at its first HUD's map ({setting})", f"{cf['rss1'][1]:.1f} MiB", ""])
            if cf["per"]:
                rows.append([f"each further HUD ≤ {T_PER_HUD_MIB:g} MiB ({setting})",
                             f"{cf['per'][1]:.2f} MiB ({cf['rss1'][1]:.1f} -> {cf['rss_n'][1]:.1f} MiB for {n})",
                             mark(cf["per"][1] <= T_PER_HUD_MIB)])
            if cf["client"]:
                rows.append([f"a client ≤ {T_CLIENT_RSS_MIB:g} MiB ({setting})", f"max {cf['client']:.1f} MiB",
                             mark(cf["client"] <= T_CLIENT_RSS_MIB)])
            rows.append([f"{n} clients exit 0 on SIGTERM, their HUDs hidden ({setting})",
                         f"{cf['exit0']} of {cf['exits']} exit 0" + (f" (others: {', '.join(cf['bad_exits'])})"
                                                                     if cf["bad_exits"] else "")
                         + ("; the screen shows the background again" if cf["hidden"]
                            else "; HUDs still on screen 5 s later"),
                         mark(cf["exits"] > 0 and cf["exit0"] == cf["exits"] and cf["hidden"])])
        elif ce:
            rows.append([f"{T_CLIENTS} HUDs from {T_CLIENTS} clients ({setting})", ce["status"], "n/a"])
    r = s.results.get("render")
    if r and r["rows"]:
        worst = max((row["median"], row["mode"]) for row in r["rows"] if row["scale"] == 1)
        rows.append([f"render ≤ {T_RENDER_MS} ms/frame at scale 1", f"worst median {worst[0]:.3f} ms ({worst[1]})",
                     mark(worst[0] <= T_RENDER_MS)])
    if not rows:
        return []
    return ["## Targets", "", md_table(["target", "figure", "met?"], rows, ["---", "---", "---"]), ""]


def write_report(s: Suite, out_dir: Path) -> None:
    import wayland
    info = s.results.get("machine") or machine_info()
    s.results["machine"] = info
    s.results["meta"] = {"runs": s.runs, "steady_runs": s.steady_runs, "window": s.window, "settle": s.settle,
                         "quick": s.quick, "xhud": s.xhud, "xhud_note": s.args.xhud_note, "notes": s.notes}
    lines = ["# xhud benchmarks", "",
             f"{info['date']}; `uname -m` {info['arch']}; {info['cpu']}; {info['cores']} cores; Linux "
             f"{info['kernel']}; Debian {info['debian']}.", "",
             f"xhud: `{s.xhud}` ({s.args.xhud_note}). Xvfb {SCREEN_W}x{SCREEN_H}x24, each setting on its own "
             f"server, without and with xcompmgr. {s.runs} runs per start-up and warm-update figure"
             f"{' (--quick: figures are not meaningful)' if s.quick else ''}. Ratios within this run hold; "
             "absolute times drift between runs.", ""]
    if info["versions"]:
        lines += ["Versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()) + ".", ""]
    lines += summary_section(s) + startup_section(s) + busy_section(s) + warm_section(s) + steady_section(s) \
        + render_section(s) + throughput_section(s) + clients_section(s) + wayland.wayland_section(s)
    if s.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in s.notes] + [""]
    lines += ["![start-up](startup.png)", ""]
    (out_dir / "latest.md").write_text("\n".join(lines))
    (out_dir / "latest.json").write_text(json.dumps(s.results, indent=1, default=str))


# The chart's names for xhud's two start-up figures (the table's labels keep the command).
PLOT_LABELS = {"xhud-warm": "xhud, warm (server running)", "xhud-cold": "xhud, cold (starts the server)",
               "xhud-cold-new": "xhud, cold, no font match kept"}


def write_plot(s: Suite, out_dir: Path) -> str | None:
    """A horizontal bar chart of the start-up medians with min-max whiskers, per client and setting.
    Returns why there is none, or None."""
    st = s.results["startup"]
    settings = [k for k in s.results.get("settings", []) if k in st]
    if not settings:
        return "no start-up figures"
    keys = []
    for setting in settings:
        for k, e in st[setting].items():
            if e.get("times") and k not in keys:
                keys.append(k)
    if not keys:
        return "no start-up figures"
    # slowest at the top
    keys.sort(key=lambda k: -next((mmm(st[s_][k]["times"])[1] for s_ in settings if st[s_].get(k, {}).get("times")), 0))
    def label_of(k):
        e = next(st[s_][k] for s_ in settings if k in st[s_])
        if k in PLOT_LABELS and "--id" not in e.get("cmd", []):
            return PLOT_LABELS[k]
        return re.sub(r'[*`"]', "", e["label"])

    dat = s.work / "startup.dat"
    width = 0.8 / len(settings)
    with open(dat, "w") as f:
        for si, setting in enumerate(settings):
            f.write(f"# {setting}\n")
            for i, k in enumerate(keys):
                e = st[setting].get(k, {})
                if not e.get("times"):
                    continue
                mn, med, mx = mmm(e["times"])
                y = len(keys) - 1 - i + 0.4 - width * (si + 0.5)
                colour = (0x1a3d8f, 0xa04c00)[si % 2] if k.startswith("xhud") else (0x6f95e0, 0xf0a04b)[si % 2]
                f.write(f"{y:.3f} {med:.3f} {mn:.3f} {mx:.3f} {y - width * 0.45:.3f} {y + width * 0.45:.3f} "
                        f"{colour}\n")
            f.write("\n\n")
    tics = ", ".join(f'"{label_of(k)}" {len(keys) - 1 - i}' for i, k in enumerate(keys))
    xmax = max(mmm(st[s_][k]["times"])[2] for s_ in settings for k in keys if st[s_].get(k, {}).get("times"))
    plots = []
    for si, setting in enumerate(settings):
        plots.append(f"'{dat}' index {si} using (0):1:(0):2:5:6:7 with boxxyerror fill solid 1 noborder "
                     "lc rgb variable notitle")
        plots.append(f"keyentry with boxes fill solid 1 noborder lc rgb '{('#6f95e0', '#f0a04b')[si % 2]}' "
                     f"title '{setting}: median (xhud darker)'")
        plots.append(f"'' index {si} using 2:1:3:4 with xerrorbars pt -1 lw 1.2 lc rgb '#222222' "
                     + ("title 'min-max'" if si == 0 else "notitle"))
        plots.append(f"'' index {si} using 4:1:(sprintf('%.1f', $2)) with labels left offset 0.6,0 "
                     "font ',9' notitle")
    h = 170 + 30 * len(keys) * len(settings)
    title = (f"xhud: start to first painted frame, ms ({s.runs} runs per client; "
             f"{s.results['machine']['date']}; {s.results['machine']['cpu']}, {s.results['machine']['cores']} cores)")
    gp = s.work / "startup.gp"
    gp.write_text(f"""set terminal pngcairo size 1000,{h} font 'DejaVu Sans,10' noenhanced
set output '{out_dir / "startup.png"}'
set title "{title}"
set xlabel 'milliseconds from exec to the first painted pixels (bars: median; whiskers: min to max; lower is better)'
set xrange [0:{xmax * 1.12:.1f}]
set yrange [-0.6:{len(keys) - 0.4}]
set ytics ({tics}) nomirror
set xtics nomirror
set grid xtics lc rgb '#dddddd'
set key inside right center box opaque
set errorbars small
plot {', '.join(plots)}
""")
    if not shutil.which("gnuplot"):
        return "gnuplot is not installed (apt-get install gnuplot-nox): no plot"
    r = subprocess.run(["gnuplot", str(gp)], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or not (out_dir / "startup.png").exists():
        return "gnuplot failed: " + r.stderr.strip()[:300]
    return None


def main() -> int:
    if sys.argv[1:2] == ["--watch-maps"]:
        return watch_maps()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--helpers", default="", help="directory with firstframe, pixwatch and floor")
    ap.add_argument("--xhud", default="")
    ap.add_argument("--xhud-note", default="", help="how it was built, for the report")
    ap.add_argument("--render-bench", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default="", help="a scratch directory (default: a temporary one)")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--steady-runs", type=int, default=0)
    ap.add_argument("--window", type=float, default=0)
    ap.add_argument("--compositor", choices=["both", "on", "off"], default="both")
    ap.add_argument("--only", default="", help="comma-separated sections: startup,busy,warm,steady,render,"
                    "throughput,clients,wayland")
    ap.add_argument("--display-base", type=int, default=200)
    ap.add_argument("--from-json", default="", help="no measuring: write the report and the plot again from a "
                    "latest.json (after a change of the report's layout)")
    args = ap.parse_args()
    if not args.work:
        import atexit
        import tempfile
        args.work = tempfile.mkdtemp(prefix="xhud-benchrun.")
        atexit.register(shutil.rmtree, args.work, True)
    if args.from_json:
        out_dir = Path(args.out)
        out_dir.mkdir(parents=True, exist_ok=True)
        Path(args.work).mkdir(parents=True, exist_ok=True)
        results = json.loads(Path(args.from_json).read_text())
        meta = results.get("meta", {})
        args.runs, args.quick = meta.get("runs", args.runs), meta.get("quick", False)
        args.xhud, args.xhud_note = meta.get("xhud", args.xhud), meta.get("xhud_note", "")
        suite = Suite(args)
        suite.results = results
        suite.steady_runs, suite.window = meta.get("steady_runs", 0), meta.get("window", 0)
        suite.settle = meta.get("settle", 0)
        suite.notes = [n for n in meta.get("notes", []) if "gnuplot" not in n]
        write_report(suite, out_dir)
        why = write_plot(suite, out_dir)
        if why:
            suite.notes.append(why)
            write_report(suite, out_dir)
        return 0
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    suite = Suite(args)
    try:
        suite.run()
    except (KeyboardInterrupt, Interrupted) as ex:
        log(f"interrupted ({ex}): ending what the suite started")
        suite.procs.teardown()
        return 130
    finally:
        suite.procs.teardown()
    write_report(suite, out_dir)
    why = write_plot(suite, out_dir)
    if why:
        log(why)
        suite.notes.append(why)
        write_report(suite, out_dir)
    log(f"wrote {out_dir / 'latest.md'}" + ("" if why else f" and {out_dir / 'startup.png'}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
