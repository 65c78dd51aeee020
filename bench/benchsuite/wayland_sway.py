"""A headless sway (wlroots, pixman) for the `wayland` section, run as the bench user: sway
refuses to run as root, so as root sway, the daemons and every client run as
$BENCH_WAYLAND_USER (default xhudtest, as in Tests/Integration/test_wayland.py) through
`runuser`, in a directory of the suite's (0755) that holds the runtime directory, the
configuration and a copy of bench/wlpoll (the suite's helpers are in a directory only root
reads)."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from benchsuite.procs import comm, read_stat

BG = "3366cc"
W, H = 1280, 720


class Sway:
    """A headless sway as the bench user, and the environment its clients run in."""

    def __init__(self, suite, user: str | None):
        self.s = suite
        self.user = user
        self.dir = Path(tempfile.mkdtemp(prefix="xhud-bench-sway."))
        os.chmod(self.dir, 0o755)
        self.runtime = self.dir / "run"
        for d in ("run", "home", "config", "cache"):
            (self.dir / d).mkdir(mode=0o700)
        (self.dir / "config" / "wob").mkdir()
        self.env = {"HOME": str(self.dir / "home"), "XDG_RUNTIME_DIR": str(self.runtime),
                    "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(self.dir / "config"),
                    "XDG_CACHE_HOME": str(self.dir / "cache"), "NO_AT_BRIDGE": "1"}
        self.sway = None
        self.poll = str(self.dir / "wlpoll")
        shutil.copy(suite.wlpoll, self.poll)
        os.chmod(self.poll, 0o755)

    def chown(self, *paths: Path) -> None:
        """The bench user's: these paths, or (none named) the directory as made, before sway runs
        (the runtime directory may then hold a portal's mount that root cannot enter)."""
        if self.user:
            pw = pwd.getpwnam(self.user)
            for p in paths or [Path(r) / n for r, ds, fs in os.walk(self.dir) for n in ds + fs] + [self.dir]:
                os.chown(p, pw.pw_uid, pw.pw_gid)

    def command(self, args: list[str], **extra) -> list[str]:
        env = dict(self.env, **extra)
        prefix = ["runuser", "-u", self.user, "--"] if self.user else []
        return [*prefix, "env", "-i", *(f"{k}={v}" for k, v in env.items()), *map(str, args)]

    def run(self, args, timeout=20, **extra) -> subprocess.CompletedProcess:
        try:
            return subprocess.run(self.command(args, **extra), capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(args, -999, "", "timeout")

    def spawn(self, args, name: str, **extra) -> subprocess.Popen:
        return self.s.procs.spawn(self.command(args, **extra), dict(os.environ), log_name=name)

    def start(self) -> None:
        (self.dir / "sway.conf").write_text(
            f"output * bg #{BG} solid_color\noutput HEADLESS-1 resolution {W}x{H}\ndefault_border none\n")
        (self.dir / "config" / "wob" / "wob.ini").write_text("timeout = 10000\n")
        self.chown()
        cmd = self.command(["sway", "-c", self.dir / "sway.conf"], WLR_BACKENDS="headless", WLR_RENDERER="pixman",
                           WLR_LIBINPUT_NO_DEVICES="1")
        self.sway = self.s.procs.spawn(cmd, dict(os.environ), log_name="sway")
        deadline = time.monotonic() + 10
        while not (self.runtime / "wayland-1").exists():
            if self.sway.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("sway did not start: " + Path(self.sway.log_path).read_text(errors="replace")[-300:])
            time.sleep(0.05)
        self.env["WAYLAND_DISPLAY"] = "wayland-1"
        sock = next(self.runtime.glob("sway-ipc.*.sock"), None)
        if sock:
            self.env["SWAYSOCK"] = str(sock)
        if not self.background(10):
            raise RuntimeError(f"the output does not show #{BG} (is swaybg installed?)")

    def background(self, seconds=3.0, region=None) -> bool:
        args = [self.poll, "--wait-bg", BG, "--settle", str(int(seconds * 1000))] + (["--region", region] if region else [])
        return self.run(args, timeout=seconds + 10).returncode == 0

    def refresh(self, hz: int) -> None:
        self.run(["swaymsg", "--", "output", "HEADLESS-1", "mode", "--custom", f"{W}x{H}@{hz}Hz"])
        time.sleep(0.2)

    def processes(self, name: str) -> list[int]:
        """This session's live processes of that name (its runtime directory in their
        environment). An ended one that was re-parented to the suite is reaped on the way."""
        mark = f"XDG_RUNTIME_DIR={self.runtime}".encode()
        found = []
        for d in os.listdir("/proc"):
            try:
                if not d.isdigit() or comm(int(d)) != name:
                    continue
                if (read_stat(int(d)) or ("Z",))[0] in ("Z", "X"):
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(int(d), os.WNOHANG)
                elif mark in Path(f"/proc/{d}/environ").read_bytes().split(b"\0"):
                    found.append(int(d))
            except OSError:
                pass
        return found

    def end_servers(self) -> None:
        """No xhud server for this display afterwards, nor its socket's directory. Not the
        suite's end_orphans: swaybg, which sway starts detached, is re-parented to the suite too."""
        for pid in self.processes("xhud-host"):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 3
        while self.processes("xhud-host") and time.monotonic() < deadline:
            time.sleep(0.02)
        for pid in self.processes("xhud-host"):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        while self.processes("xhud-host") and time.monotonic() < deadline + 2:
            time.sleep(0.02)
        shutil.rmtree(self.runtime / "xhud", ignore_errors=True)

    def stop(self) -> None:
        self.end_servers()
        self.s.procs.stop(self.sway)
        shutil.rmtree(self.dir, ignore_errors=True)


def bench_user() -> tuple[str | None, str | None]:
    """(the user sway runs as, None for this one; why it cannot run, or None)."""
    if os.geteuid() != 0:
        return None, None
    user = os.environ.get("BENCH_WAYLAND_USER", "xhudtest")
    try:
        pwd.getpwnam(user)
    except KeyError:
        return None, f"sway refuses root and there is no user {user} (useradd -m {user}, or BENCH_WAYLAND_USER)"
    if not shutil.which("runuser"):
        return None, "sway refuses root and runuser is missing"
    return user, None
