"""The suite's processes: each started with a log file of its own, tracked, and ended at the end,
with whatever was re-parented to the suite meanwhile. Reading /proc is harness/procs.py's."""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from harness.procs import kill_group, pids, read_stat


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
        kill_group(p, grace)
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
        for pid in pids():
            if pid in mine:
                continue
            st = read_stat(pid)
            if st and st[1] == me:
                if st[0] in ("Z", "X"):
                    try:
                        os.waitpid(pid, os.WNOHANG)
                    except ChildProcessError:
                        pass
                else:
                    found.append(pid)
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
