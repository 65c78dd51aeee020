"""The suite: the display's HUD server, the render section, and the run of every section."""

from __future__ import annotations

import os
import re
import select
import shutil
import socket
import subprocess
import time
from pathlib import Path

from benchsuite.common import FULL, T_CLIENTS, log
from benchsuite.load import LoadMixin
from benchsuite.procs import Procs
from benchsuite.session import XSession, runtime_root
from benchsuite.startup import StartupMixin
from benchsuite.steady import SteadyMixin
from benchsuite.warm import WarmMixin


class Suite(StartupMixin, WarmMixin, SteadyMixin, LoadMixin):
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
            from benchsuite.wayland import bench_wayland
            log("wayland: xhud beside wob and mako on a headless sway")
            bench_wayland(self)
