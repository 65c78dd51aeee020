"""Processes read through /proc: their state, parent, name, environment, children, CPU time and
memory; the processes of one name found by a variable in their environment (the xhud-host
servers of a test's tag, of a runtime directory); a process group ended with grace."""

from __future__ import annotations

import os
import signal
import subprocess
import time

HZ = os.sysconf("SC_CLK_TCK")


def read_stat(pid: int):
    """(state, ppid, utime+stime ticks) from /proc/PID/stat, or None."""
    try:
        s = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    # The name, in parentheses, may hold spaces and parentheses: the fields follow the last ")".
    rest = s[s.rindex(")") + 2:].split()
    return rest[0], int(rest[1]), int(rest[11]) + int(rest[12])


def proc_state(pid: int) -> str | None:
    """The state letter of pid (R, S, Z, ...), None when there is no such process."""
    st = read_stat(pid)
    return st[0] if st else None


def alive(pid: int) -> bool:
    return proc_state(pid) not in (None, "Z", "X")


def comm(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/comm").read().strip()
    except OSError:
        return ""


def environ_of(pid: int) -> dict[str, str]:
    try:
        raw = open(f"/proc/{pid}/environ", "rb").read()
    except OSError:
        return {}
    out = {}
    for item in raw.split(b"\0"):
        k, sep, v = item.partition(b"=")
        if sep:
            out[k.decode(errors="replace")] = v.decode(errors="replace")
    return out


def status_kib(pid: int, field: str) -> int | None:
    """A figure of /proc/PID/status in KiB (VmRSS, VmHWM, ...), None when unreadable."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def pids() -> list[int]:
    return [int(d) for d in os.listdir("/proc") if d.isdigit()]


def children_of(pid: int) -> list[int]:
    try:
        return [int(p) for p in open(f"/proc/{pid}/task/{pid}/children").read().split()]
    except OSError:
        return []


def descendants(pid: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for p in pids():
        st = read_stat(p)
        if st:
            kids.setdefault(st[1], []).append(p)
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


def processes(name: str, variable: str, value: str) -> list[int]:
    """Live processes called name (their comm, whatever their argv[0]) with variable=value in
    their environment."""
    return [p for p in pids() if comm(p) == name and alive(p) and environ_of(p).get(variable) == value]


def hosts(variable: str, value: str) -> list[int]:
    """Live xhud-host processes with variable=value in their environment."""
    return processes("xhud-host", variable, value)


def reap(name: str) -> None:
    """Ended processes called name that are children of this one (servers re-parented to a
    subreaper): a zombie keeps its pid, and its name, until it is waited for."""
    for p in pids():
        if proc_state(p) == "Z" and comm(p) == name:
            try:
                os.waitpid(p, os.WNOHANG)
            except ChildProcessError:
                pass


def end_processes(name: str, variable: str, value: str, timeout: float = 3.0) -> None:
    """SIGTERM to every such process, then SIGKILL to those left after `timeout`; waits for them."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        found = processes(name, variable, value)
        for pid in found:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout
        while found and time.monotonic() < deadline:
            reap(name)
            found = processes(name, variable, value)
            if found:
                time.sleep(0.02)   # the polling interval
        if not found:
            return


def end_hosts(variable: str, value: str, timeout: float = 3.0) -> None:
    end_processes("xhud-host", variable, value, timeout)


def kill_group(proc: subprocess.Popen, grace: float = 2.0) -> None:
    """Ends a process started with start_new_session=True, and its process group: SIGTERM while
    it runs, then SIGKILL to what is left after `grace` (stragglers in the group too)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        if sig == signal.SIGTERM and proc.poll() is not None:
            continue
        try:
            os.killpg(proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
