"""An X server of its own for a test or a benchmark run: a free display number, Xvfb started and
waited for until it answers, a compositing manager that has taken its selection, an environment
that reaches this display only, a private runtime directory.

Xvfb runs with -noreset: without it the server resets when its last client leaves, which throws
away the root background set by a short-lived client and RandR monitors set by
`xrandr --setmonitor`."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from harness.polling import wait_until
from harness.procs import kill_group
from harness.xlib import compositor_running

XVFB_OPTIONS = ["-nolisten", "tcp", "-noreset"]


def display_taken(n: int) -> bool:
    return os.path.exists(f"/tmp/.X11-unix/X{n}") or os.path.exists(f"/tmp/.X{n}-lock")


def free_display(first: int = 150, last: int = 400) -> int | None:
    """The first display number from first to last (excluded) with no server behind it."""
    return next((n for n in range(first, last) if not display_taken(n)), None)


def x_environment(display: str, base: dict | None = None, drop_bus: bool = False) -> dict[str, str]:
    """base (this process's environment) for a client of display: no Wayland display to prefer,
    no X authority of another server, and with drop_bus no session bus of the machine's."""
    drop = {"WAYLAND_DISPLAY", "XAUTHORITY"} | ({"DBUS_SESSION_BUS_ADDRESS"} if drop_bus else set())
    env = {k: v for k, v in (os.environ if base is None else base).items() if k not in drop}
    env["DISPLAY"] = display
    return env


def xvfb_command(display: str, width: int, height: int) -> list[str]:
    """display: ":N", or "-displayfd FD" for Xvfb to pick the number and write it to FD."""
    return ["Xvfb", *display.split(), "-screen", "0", f"{width}x{height}x24", *XVFB_OPTIONS]


def answers(env: dict, timeout: float = 10.0, proc: subprocess.Popen | None = None) -> bool:
    """Waits until the server of env's DISPLAY answers xdpyinfo; False after timeout, or as soon
    as proc (the server) has ended."""
    def up():
        if proc is not None and proc.poll() is not None:
            return "ended"
        try:
            rc = subprocess.run(["xdpyinfo"], env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, timeout=5).returncode
        except subprocess.TimeoutExpired:
            return None
        return "up" if rc == 0 else None
    return wait_until(up, timeout, 0.05) == "up"


def read_displayfd(fd: int, proc: subprocess.Popen, timeout: float = 10.0) -> str:
    """The display number Xvfb -displayfd writes (a line), "" when it ends or times out first."""
    number = b""
    deadline = time.monotonic() + timeout
    while not number.endswith(b"\n") and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 64)
            if not chunk:
                break
            number += chunk
        elif proc.poll() is not None:
            break
    return number.decode().strip()


def start_xvfb(width: int, height: int, log: Path, base: dict | None = None) -> tuple[subprocess.Popen, dict]:
    """Xvfb on a display number it picks itself (-displayfd: no race with another's choice), in
    a session of its own, answering: (the process, the environment of its clients)."""
    r, w = os.pipe()
    with open(log, "wb") as out:
        proc = subprocess.Popen(xvfb_command(f"-displayfd {w}", width, height), pass_fds=(w,),
                                stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True)
    os.close(w)
    try:
        number = read_displayfd(r, proc)
    finally:
        os.close(r)
    if not number:
        kill_group(proc)
        raise RuntimeError("Xvfb did not start: " + log.read_text(errors="replace")[-2000:])
    env = x_environment(":" + number, base)
    if not answers(env, 10, proc):
        kill_group(proc)
        raise RuntimeError(f"Xvfb on :{number} does not answer xdpyinfo")
    return proc, env


def start_xvfb_from(first: int, last: int, width: int, height: int, spawn, stop, base: dict | None = None,
                    drop_bus: bool = False) -> tuple[subprocess.Popen, int, dict]:
    """Xvfb on the first free display number from first to last (excluded) where one starts
    and answers: (the process, the number, the environment of its clients). spawn(cmd, env,
    number) starts a process the caller's way; stop(proc) ends one that did not answer."""
    n = first
    while (n := free_display(n, last)) is not None:
        env = x_environment(f":{n}", base, drop_bus)
        proc = spawn(xvfb_command(f":{n}", width, height), env, n)
        if answers(env, 5, proc):
            return proc, n, env
        stop(proc)
        n += 1
    raise RuntimeError("no free X display number")


def compositor_failure(proc: subprocess.Popen, display: str, log: Path, timeout: float = 5.0) -> str | None:
    """None once proc, a compositing manager, owns _NET_WM_CM_S0; else why not."""
    if not wait_until(lambda: proc.poll() is not None or compositor_running(display), timeout):
        return "xcompmgr did not take _NET_WM_CM_S0: " + log.read_text(errors="replace")[-500:]
    if proc.poll() is not None:
        return "xcompmgr died: " + log.read_text(errors="replace")
    return None


def private_dir(path: Path, exist_ok: bool = True) -> Path:
    """path as a directory only its owner enters (0700, whatever the umask), as a runtime
    directory must be."""
    path.mkdir(mode=0o700, exist_ok=exist_ok)
    os.chmod(path, 0o700)
    return path
