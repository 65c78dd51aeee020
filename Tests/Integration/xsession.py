"""One X server for one test (`XSession`): Xvfb (1280x800x24) on a display number Xvfb picks
itself, optionally xcompmgr, a solid root background; the xhud and xev processes a test starts,
its HUD's windows, screenshots. Everything a test starts is ended in `stop`, whatever happens.

The binary is $XHUD_BIN, default .build/debug/xhud of this repository; a test that starts it is
skipped, with the reason, when it does not exist.

With xcompmgr the root is painted from the pixmap in _XROOTPMAP_ID/_XSETROOT_ID, or in grey when
there is none: the background is set with a pixmap published in both (set_root_background)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from harness.polling import wait_until
from harness.procs import end_hosts, hosts, kill_group
from harness.screens import Screenshot, parse_ppm, region_bytes
from harness.windows import WinInfo, parse_xwininfo
from harness.xlib import create_and_destroy_a_window, set_root_background
from harness.xserver import compositor_failure, start_xvfb

REPO = Path(__file__).resolve().parents[2]


def _xhud_bin() -> Path:
    value = os.environ.get("XHUD_BIN", "")
    if not value:
        return REPO / ".build" / "debug" / "xhud"
    if "/" not in value and shutil.which(value):  # a command name on PATH
        return Path(shutil.which(value))
    return Path(value).resolve()


XHUD_BIN = _xhud_bin()
SCREEN_W, SCREEN_H = 1280, 800
BACKGROUND = (0x33, 0x66, 0xCC)

TAG = "XHUD_TEST_TAG"  # marks the environment of everything a test starts (see kill_tagged)


def tagged_hosts(tag: str) -> list[int]:
    """Live xhud-host processes (whatever their argv[0]) started with TAG=tag."""
    return hosts(TAG, tag)


def kill_tagged(tag: str) -> None:
    """Ends the detached HUD processes a test started (notifications live on in a new session,
    out of reach of the session's process-group cleanup)."""
    end_hosts(TAG, tag, timeout=1.0)


class XhudProcess:
    """A running xhud; its stdout and stderr go to files (never a pipe that could fill)."""

    def __init__(self, session: "XSession", args: list[str], proc: subprocess.Popen, out: Path, err: Path):
        self.session, self.args, self.proc, self.out_path, self.err_path = session, args, proc, out, err

    @property
    def stderr(self) -> str:
        return self.err_path.read_text(errors="replace") if self.err_path.exists() else ""

    def describe(self) -> str:
        rc = self.proc.poll()
        state = "running" if rc is None else f"exited {rc}"
        return f"xhud {' '.join(self.args)} ({state}); stderr: {self.stderr.strip()[-2000:]!r}"

    def wait(self, timeout: float):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def signal(self, sig) -> None:
        self.proc.send_signal(sig)


class XevProcess:
    """xev on a window of a given geometry; collects its output lines in a thread."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.lines: list[str] = []
        self._lock = threading.Lock()
        self.outer: int | None = None
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        for raw in self.proc.stdout:
            line = raw.decode(errors="replace")
            with self._lock:
                self.lines.append(line)
            m = re.search(r"Outer window is (0x[0-9a-fA-F]+)", line)
            if m and self.outer is None:
                self.outer = int(m.group(1), 16)

    def text(self) -> str:
        with self._lock:
            return "".join(self.lines)

    def clear(self) -> None:
        with self._lock:
            self.lines.clear()

    def button_presses(self) -> int:
        return self.text().count("ButtonPress event")

    def stop(self, timeout: float = 5.0) -> str:
        """Ends xev; returns all it printed."""
        self.proc.terminate()
        self.proc.wait(timeout)
        self._thread.join(timeout)
        return self.text()


class XSession:
    """One X server for one test: Xvfb, maybe xcompmgr, and whatever the test starts."""

    def __init__(self, tmp: Path, composited: bool):
        self.tmp = tmp
        self.composited = composited
        self.procs: list[subprocess.Popen] = []
        self.xvfb: subprocess.Popen | None = None
        self.xcompmgr: subprocess.Popen | None = None
        self.display = ""
        self.env: dict[str, str] = {}
        self.shot_count = 0

    # -- server ----------------------------------------------------------------------------

    def start(self) -> None:
        self.xvfb, env = start_xvfb(SCREEN_W, SCREEN_H, self.tmp / "xvfb.log")
        self.display = env["DISPLAY"]
        # Servers started on demand leave the test's process group (setsid): the tag finds them.
        self.tag = uuid.uuid4().hex
        env[TAG] = self.tag
        # Hermetic: no configuration file of the machine's user applies to a test.
        env["XDG_CONFIG_HOME"] = str(self.tmp / "config")
        env["XDG_CONFIG_DIRS"] = str(self.tmp / "etc-xdg")
        env.pop("XHUD_CONFIG", None)
        env["XDG_CACHE_HOME"] = str(self.tmp / "cache")   # the kept font matches (FontMatchCache) too
        self.env = env
        set_root_background(self.display, BACKGROUND)
        if self.composited:
            self.start_compositor()
        # The pointer somewhere neutral (top-left quarter, outside any test window) so that
        # "the monitor under the pointer" is well defined.
        self.run("xdotool", "mousemove", "40", "40")

    def start_compositor(self) -> None:
        log = self.tmp / "xcompmgr.log"
        with open(log, "wb") as out:
            self.xcompmgr = subprocess.Popen(["xcompmgr"], env=self.env, stdin=subprocess.DEVNULL, stdout=out,
                                             stderr=out, start_new_session=True)
        failure = compositor_failure(self.xcompmgr, self.display, log)
        if failure:
            raise RuntimeError(failure)
        # Nothing to wait for: the root it paints is the colour the server already shows, and a
        # window mapped while it starts is found by its query of the tree.

    def stop(self) -> None:
        for p in reversed(self.procs):
            kill_group(p, grace=1.0)
        if getattr(self, "tag", None):
            kill_tagged(self.tag)
        if self.xcompmgr:
            kill_group(self.xcompmgr, grace=1.0)
        if self.xvfb:
            kill_group(self.xvfb, grace=2.0)

    # -- commands ----------------------------------------------------------------------------

    def run(self, *cmd: str, timeout: float = 10, check: bool = True, env=None) -> subprocess.CompletedProcess:
        res = subprocess.run(list(cmd), env=env or self.env, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
        if check and res.returncode != 0:
            raise AssertionError(f"{' '.join(cmd)} failed ({res.returncode}): {res.stderr.strip()}")
        return res

    def spawn(self, cmd: list[str], **kw) -> subprocess.Popen:
        kw.setdefault("stdin", subprocess.DEVNULL)
        p = subprocess.Popen(cmd, env=kw.pop("env", self.env), start_new_session=True, **kw)
        self.procs.append(p)
        return p

    # -- xhud --------------------------------------------------------------------------------

    def start_xhud(self, *args: str, wait_mapped: bool = True, timeout: float = 5.0, foreground: bool = True) -> XhudProcess:
        if not XHUD_BIN.exists():
            pytest.skip(f"xhud binary not found at {XHUD_BIN} (build it, or set XHUD_BIN)")
        n = len(self.procs)
        out, err = self.tmp / f"xhud{n}.out", self.tmp / f"xhud{n}.err"
        if foreground and "--wait" not in args and "--hide-after" not in args and "--min-duration" not in args:
            # Notifications return at once and hide themselves; these tests hold a HUD up until
            # they signal it, as any other HUD.
            args = (*args, "--wait", "--min-duration", "600")
        proc = self.spawn([str(XHUD_BIN), *args], stdout=open(out, "wb"), stderr=open(err, "wb"))
        hud = XhudProcess(self, list(args), proc, out, err)
        if wait_mapped:
            self.wait_hud_mapped(hud, timeout)
        return hud

    def wait_hud_mapped(self, hud: XhudProcess, timeout: float = 5.0) -> list[WinInfo]:
        found = wait_until(lambda: hud.proc.poll() is not None or self.visible_hud_windows(), timeout, 0.03)
        if hud.proc.poll() is not None:
            raise AssertionError(f"xhud exited before its window was mapped: {hud.describe()}")
        if not found:
            raise AssertionError(f"no viewable xhud window within {timeout} s: {hud.describe()}")
        return found

    def hud_windows(self) -> list[WinInfo]:
        """All windows whose WM_CLASS instance is "xhud" (mapped or not)."""
        res = self.run("xdotool", "search", "--classname", "^xhud$", check=False)
        ids = [int(tok) for tok in res.stdout.split() if tok.strip().isdigit()]
        infos = []
        for wid in ids:
            info = self.window_info(wid)
            if info is not None:
                infos.append(info)
        return infos

    def visible_hud_windows(self) -> list[WinInfo]:
        """Viewable InputOutput xhud windows: what draws the HUD."""
        return [w for w in self.hud_windows() if w.viewable and not w.input_only]

    def window_info(self, wid: int) -> WinInfo | None:
        res = self.run("xwininfo", "-id", str(wid), check=False)
        if res.returncode != 0:
            return None  # gone meanwhile
        return parse_xwininfo(wid, res.stdout)

    def xprop(self, wid: int, *props: str) -> str:
        return self.run("xprop", "-id", str(wid), *props, check=False).stdout

    # -- screen --------------------------------------------------------------------------------

    def screenshot(self, keep: bool = True) -> Screenshot:
        raw = subprocess.run(["import", "-silent", "-window", "root", "-depth", "8", "ppm:-"], env=self.env,
                             capture_output=True, timeout=20, stdin=subprocess.DEVNULL)
        if raw.returncode != 0:
            raise AssertionError("import -window root failed: " + raw.stderr.decode(errors="replace"))
        shot = parse_ppm(raw.stdout)
        if keep:  # the last screenshots stay in the test's tmp dir, for a look after a failure
            self.shot_count += 1
            shot.save_ppm(self.tmp / f"screen{self.shot_count:02d}.ppm")
        return shot

    def hud_bbox(self, timeout: float = 3.0, region=None, tolerance: int = 10, colour=BACKGROUND):
        """Waits until the screen (or region x, y, w, h) shows something other than colour
        (default: the background), i.e. the HUD, drawn without shadow, and until two screenshots
        in a row agree; returns (bbox, screenshot)."""
        last = None
        deadline = time.monotonic() + timeout
        while True:
            shot = self.screenshot()
            box = shot.bbox_not(colour, tolerance, region)
            if box is not None and box == last:
                return box, shot
            last = box
            if time.monotonic() > deadline:
                return box, shot
            time.sleep(0.05)

    def wait_screen(self, predicate, timeout: float = 5.0, interval: float = 0.05) -> Screenshot:
        """Takes screenshots until predicate(shot) holds or timeout passes; returns the last one
        (kept, as screenshot() keeps them) for the caller to assert on."""
        shots = []

        def look():
            shots[:] = [self.screenshot(keep=False)]
            return predicate(shots[0])

        wait_until(look, timeout, interval)
        self.shot_count += 1
        shots[0].save_ppm(self.tmp / f"screen{self.shot_count:02d}.ppm")
        return shots[0]

    def wait_still(self, region, unlike=None, timeout: float = 5.0) -> Screenshot:
        """Screenshots until region (x, y, w, h) shows the same in two in a row and, given unlike
        (a colour, or a screenshot taken before), is not all that colour or not what that showed:
        a HUD that does not move, drawn. Returns the last screenshot."""
        last = []

        def still(shot):
            now = region_bytes(shot, region)
            same = bool(last) and now == last[0]
            last[:] = [now]
            if not same or unlike is None:
                return same
            if isinstance(unlike, Screenshot):
                return now != region_bytes(unlike, region)
            return shot.bbox_not(unlike, 0, region) is not None

        return self.wait_screen(still, timeout)

    def root_selects(self, event: str) -> bool:
        """Whether a client selects event (as xwininfo names it: SubstructureNotify, ...) on the root."""
        out = self.run("xwininfo", "-root", "-events").stdout
        return event in out.split("Someone wants these events:")[-1].split("Do not propagate")[0].split()

    # -- test windows ------------------------------------------------------------------------

    def start_xev(self, geometry: str = "400x300+100+100", events: str = "button") -> XevProcess:
        p = self.spawn(["stdbuf", "-oL", "xev", "-geometry", geometry, "-event", events],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        xev = XevProcess(p)
        if not wait_until(lambda: xev.outer is not None, 5):
            raise AssertionError("xev did not report its window")
        if not wait_until(lambda: (self.window_info(xev.outer) or WinInfo(0, 0, 0, 0, 0, 0, False, False, False)).viewable, 5):
            raise AssertionError("xev window not mapped")
        return xev

    def watch_root(self) -> XevProcess:
        """xev on the root's substructure (every map, unmap, configure of a top-level window),
        once it is listening: it has printed the CreateNotify of a window made for it to see."""
        xev = XevProcess(self.spawn(["stdbuf", "-oL", "xev", "-root", "-event", "substructure"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL))
        self.sync_watcher(xev)
        xev.clear()
        return xev

    def sync_watcher(self, xev: XevProcess, timeout: float = 5.0) -> None:
        """Returns once a root watcher has printed every event the server sent it so far: the
        server sends events in order, so the CreateNotify of a window made now comes last."""
        before = xev.text().count("CreateNotify")

        def seen():
            create_and_destroy_a_window(self.display)
            return wait_until(lambda: xev.text().count("CreateNotify") > before, 0.5)

        if not wait_until(seen, timeout, 0):
            raise AssertionError("the root watcher printed no CreateNotify: " + xev.text()[-600:])

    def click(self, x: int, y: int, button: int = 1) -> None:
        # One xdotool: the server takes the move and the click in that order.
        self.run("xdotool", "mousemove", str(x), str(y), "click", str(button))
