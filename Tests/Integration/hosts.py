"""The xhud-host processes of a test or a benchmark, found by a variable in their environment
(their XDG_RUNTIME_DIR, a test's tag): one implementation for the integration tests and the
benchmarks (bench/wire.py and bench/remote.py import it from here)."""

from __future__ import annotations

import os
import signal
import time


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


def proc_state(pid: int) -> str | None:
    """The state letter of pid (R, S, Z, ...), None when there is no such process."""
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    return proc_state(pid) not in (None, "Z", "X")


def hosts(variable: str, value: str) -> list[int]:
    """Live xhud-host processes (whatever their argv[0]) with variable=value in their environment."""
    pids = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        try:
            if open(f"/proc/{pid}/comm").read().strip() != "xhud-host":
                continue
        except OSError:
            continue
        if alive(pid) and environ_of(pid).get(variable) == value:
            pids.append(pid)
    return pids


def reap() -> None:
    """Children of this process (servers re-parented to a subreaper) that have ended."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_hosts(variable: str, value: str, timeout: float = 3.0) -> None:
    """SIGTERM to every such process, then SIGKILL to those left after `timeout`; waits for them."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = hosts(variable, value)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout
        while pids and time.monotonic() < deadline:
            reap()
            pids = hosts(variable, value)
            if pids:
                time.sleep(0.02)   # the polling interval
        if not pids:
            return
