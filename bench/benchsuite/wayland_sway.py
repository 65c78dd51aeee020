"""A headless sway (wlroots, pixman) for the `wayland` section, run as the bench user: sway
refuses to run as root, so as root sway, the daemons and every client run as
$BENCH_WAYLAND_USER (default xhudtest, as in Tests/Integration/test_wayland.py) through
`runuser` (harness/sway.py), in a directory of the suite's (0755) that holds the runtime
directory, the configuration and a copy of bench/wlpoll (the suite's helpers are in a
directory only root reads). Its processes are the suite's (procs.spawn), each with its log."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

from harness import sway
from harness.procs import end_processes

BG = "3366cc"
W, H = 1280, 720


class Sway(sway.Sway):
    """A headless sway as the bench user, and the environment its clients run in."""

    LOG_TAIL = 300  # the report's status line

    def __init__(self, suite, user: str | None):
        super().__init__("xhud-bench-sway.", user, W, H, BG, env={"NO_AT_BRIDGE": "1"})
        self.s = suite
        (self.directory / "config" / "wob").mkdir()
        self.poll = str(self.directory / "wlpoll")
        shutil.copy(suite.wlpoll, self.poll)
        os.chmod(self.poll, 0o755)

    def chown(self, *paths: Path) -> None:
        """The bench user's: these paths, or (none named) the directory as made, before sway runs
        (the runtime directory may then hold a portal's mount that root cannot enter)."""
        d = self.directory
        self.own(*(paths or [Path(r) / n for r, ds, fs in os.walk(d) for n in ds + fs] + [d]))

    def run(self, args, timeout=20, **extra) -> subprocess.CompletedProcess:
        try:
            return super().run(args, timeout, **extra)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(args, -999, "", "timeout")

    def spawn(self, args, name: str, **extra) -> subprocess.Popen:
        return self.s.procs.spawn(self.command(args, **extra), dict(os.environ), log_name=name)

    def launch(self, cmd: list[str]) -> subprocess.Popen:
        self.chown()
        p = self.s.procs.spawn(cmd, dict(os.environ), log_name="sway")
        self.log_path = Path(p.log_path)
        return p

    def start(self) -> None:
        (self.directory / "config" / "wob" / "wob.ini").write_text("timeout = 10000\n")
        super().start()
        if not self.background(10):
            raise RuntimeError(f"the output does not show #{BG} (is swaybg installed?)")

    def background(self, seconds=3.0, region=None) -> bool:
        args = [self.poll, "--wait-bg", BG, "--settle", str(int(seconds * 1000))] + (["--region", region] if region else [])
        return self.run(args, timeout=seconds + 10).returncode == 0

    def refresh(self, hz: int) -> None:
        self.run(["swaymsg", "--", "output", "HEADLESS-1", "mode", "--custom", f"{W}x{H}@{hz}Hz"])
        time.sleep(0.2)

    def end_servers(self) -> None:
        """No xhud server for this display afterwards, nor its socket's directory. Not the
        suite's end_orphans: swaybg, which sway starts detached, is re-parented to the suite too."""
        end_processes("xhud-host", "XDG_RUNTIME_DIR", str(self.runtime))
        shutil.rmtree(self.runtime / "xhud", ignore_errors=True)

    def stop(self) -> None:
        self.end_servers()
        self.s.procs.stop(self.process)
        self.remove()


def bench_user() -> tuple[str | None, str | None]:
    """(the user sway runs as, None for this one; why it cannot run, or None)."""
    user = os.environ.get("BENCH_WAYLAND_USER", sway.USER)
    return sway.sway_user(user, hint=f" (useradd -m {user}, or BENCH_WAYLAND_USER)")
