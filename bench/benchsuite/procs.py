"""Processes: everything started is tracked and ended at the end; /proc sampling."""

from __future__ import annotations

import ctypes
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from benchsuite.common import HZ


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
