"""A headless sway (wlroots, pixman) for the tests and the benchmarks, and the environment its
clients run in. sway refuses to run as root: as root, sway and every client run as another user
(USER) through runuser, with `env -i` and the session's environment only, in a directory (0755)
that holds that user's runtime directory, home, configuration and cache (0700 each). What runs
as that user reaches only what others may read: the checkout must be readable by others."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from harness.polling import wait_until
from harness.procs import kill_group, processes

USER = "xhudtest"


def sway_user(user: str = USER, make: bool = False, hint: str = "") -> tuple[str | None, str | None]:
    """(the user sway and its clients run as, None for this one; why there is none, or None).
    With make, a user that does not exist is made (useradd -m); else hint follows the reason."""
    if os.geteuid() != 0:
        return None, None
    if not shutil.which("runuser"):
        return None, "sway refuses to run as root, and there is no runuser to run it as another user"
    try:
        pwd.getpwnam(user)
    except KeyError:
        if not make:
            return None, f"sway refuses to run as root, and there is no user {user}{hint}"
        if subprocess.run(["useradd", "-m", user], capture_output=True).returncode != 0:
            return None, f"sway refuses to run as root, and the user {user} could not be made"
    return user, None


def as_user(user: str | None) -> list[str]:
    """The prefix that runs a command as user (None: as this one)."""
    return ["runuser", "-u", user, "--"] if user else []


class UserSession:
    """A directory of the user's own and the environment of the clients run in it as that user."""

    def __init__(self, prefix: str, user: str | None, display: str = "wayland-1", env: dict | None = None):
        self.user = user
        self.directory = Path(tempfile.mkdtemp(prefix=prefix))
        os.chmod(self.directory, 0o755)
        self.runtime = self.directory / "runtime"
        dirs = [self.runtime, self.directory / "home", self.directory / "config", self.directory / "cache"]
        for d in dirs:
            d.mkdir(mode=0o700)
        self.own(self.directory, *dirs)
        self.env = {"HOME": str(self.directory / "home"), "XDG_RUNTIME_DIR": str(self.runtime), "PATH": "/usr/bin:/bin",
                    "WAYLAND_DISPLAY": display, "XDG_CONFIG_HOME": str(self.directory / "config"),
                    "XDG_CACHE_HOME": str(self.directory / "cache"), **(env or {})}
        self.clients: list[subprocess.Popen] = []

    def own(self, *paths: Path) -> None:
        """These paths become the user's."""
        if self.user:
            pw = pwd.getpwnam(self.user)
            for p in paths:
                os.chown(p, pw.pw_uid, pw.pw_gid)

    def command(self, args, **extra) -> list[str]:
        """args as the user, in the session's environment and extra (a variable given None: unset)."""
        env = {k: v for k, v in dict(self.env, **extra).items() if v is not None}
        return [*as_user(self.user), "env", "-i", *(f"{k}={v}" for k, v in env.items()), *map(str, args)]

    def run(self, args, timeout: float = 20, **extra) -> subprocess.CompletedProcess:
        return subprocess.run(self.command(args, **extra), capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def spawn_client(self, args, **extra) -> subprocess.Popen:
        """A client left running, its output in pipes, in a process group of its own (end_clients)."""
        p = subprocess.Popen(self.command(args, **extra), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        self.clients.append(p)
        return p

    def end_clients(self, grace: float = 3.0) -> None:
        for p in self.clients:
            kill_group(p, grace)

    def processes(self, name: str) -> list[int]:
        """This session's live processes of that name: its runtime directory in their environment."""
        return processes(name, "XDG_RUNTIME_DIR", str(self.runtime))

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)


class Sway(UserSession):
    """A headless sway with one output, HEADLESS-1, of one colour: the session's compositor."""

    LOG_TAIL = 2000  # how much of sway's log says why it did not start

    def __init__(self, prefix: str, user: str | None, width: int = 1280, height: int = 720,
                 colour: str = "3366cc", scale: int = 1, env: dict | None = None):
        super().__init__(prefix, user, "wayland-1", env)
        self.width, self.height, self.colour, self.scale = width, height, colour, scale
        self.config = self.directory / "sway.conf"
        self.log_path = self.directory / "sway.log"
        self.process: subprocess.Popen | None = None

    def launch(self, cmd: list[str]) -> subprocess.Popen:
        """Starts sway's command line, its output in log_path."""
        self.log = open(self.log_path, "wb")
        return subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)

    def start(self) -> None:
        """sway up, its socket made; the background (drawn by swaybg a moment later) is the
        caller's to wait for."""
        self.config.write_text(f"output * bg #{self.colour} solid_color\n"
                               f"output HEADLESS-1 resolution {self.width}x{self.height} scale {self.scale}\n"
                               "default_border none\n")
        self.process = self.launch(self.command(["sway", "-c", self.config], WAYLAND_DISPLAY=None, WLR_BACKENDS="headless",
                                                WLR_RENDERER="pixman", WLR_LIBINPUT_NO_DEVICES="1"))
        if not wait_until(lambda: self.process.poll() is not None or (self.runtime / "wayland-1").exists(), 10, 0.05) \
                or self.process.poll() is not None:
            raise RuntimeError("sway did not start: " + self.log_path.read_text(errors="replace")[-self.LOG_TAIL:])
        sock = next(self.runtime.glob("sway-ipc.*.sock"), None)
        if sock:
            self.env["SWAYSOCK"] = str(sock)

    def grim(self, output: str | None = None, **extra) -> bytes:
        """What an output (None: all) shows, read back with grim: a binary PPM (screens.parse_ppm)."""
        out = subprocess.run(self.command(["grim", *(["-o", output] if output else []), "-t", "ppm", "-"], **extra),
                             capture_output=True, timeout=10)
        if out.returncode != 0:
            raise RuntimeError("grim failed: " + out.stderr.decode(errors="replace"))
        return out.stdout

    def stop(self, grace: float = 5.0) -> None:
        if self.process:
            kill_group(self.process, grace)
        if getattr(self, "log", None):
            self.log.close()
