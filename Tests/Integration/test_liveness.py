"""Liveness under stress: many HUDs with fast updates on a loaded machine never freeze (their
pixels keep changing while they animate) and never outlive their input. The event loop must not
be able to lose a wake-up; this test fails on any HUD that stops moving for a second or that is
still running a second after its input ends (plus its 0.3 s hide animation).

XHUD_STRESS_SECONDS sets the duration (default 20; bench/soak runs the 30-minute version)."""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
import subprocess
import threading
import time

from conftest import XHUD_BIN, _Xlib, loop_witness, wait_until

SECONDS = float(os.environ.get("XHUD_STRESS_SECONDS", "20"))


class Grabber:
    """XGetImage of small regions of the root on a connection of its own; a digest per region."""

    def __init__(self, display: str):
        self.x = x = _Xlib.lib()
        x.XGetImage.restype = ctypes.c_void_p
        x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        x.XDestroyImage.argtypes = [ctypes.c_void_p]
        self.d = x.XOpenDisplay(display.encode())
        self.root = x.XRootWindow(self.d, x.XDefaultScreen(self.d))

    def raw(self, rect) -> bytes:
        """The rectangle's pixels as the server holds them (BGRX rows)."""
        x0, y0, w, h = rect
        img = self.x.XGetImage(self.d, self.root, x0, y0, w, h, 0xFFFFFFFF, 2)   # ZPixmap
        if not img:
            return b""
        data = ctypes.c_void_p.from_address(img + 16).value
        bpl = ctypes.c_int.from_address(img + 44).value
        out = ctypes.string_at(data, bpl * h)
        self.x.XDestroyImage(img)
        return out

    def digest(self, rect) -> bytes:
        return hashlib.sha1(self.raw(rect)).digest()

    def close(self):
        self.x.XCloseDisplay(self.d)


def burn(stop: threading.Event):
    """A busy process per core: the HUDs compete for the CPU, as on a machine that is working."""
    procs = [subprocess.Popen(["sh", "-c", "while :; do :; done"]) for _ in range(os.cpu_count() or 2)]
    stop.wait()
    for p in procs:
        p.kill()
        p.wait()


def feed(proc: subprocess.Popen, stop: threading.Event, rate: float):
    """Progress lines at `rate` a second, alternating so that every value changes pixels."""
    i = 0
    try:
        while not stop.is_set():
            i += 1
            proc.stdin.write(f"{(i * 37) % 100}\n".encode())
            proc.stdin.flush()
            time.sleep(1 / rate)
    except (BrokenPipeError, ValueError):
        pass


def test_many_huds_with_fast_updates_under_load_never_freeze(xplain):
    loop_witness(xplain)
    cells = [(c * 320, r * 400, 320, 400) for r in range(2) for c in range(4)]   # 8 HUDs on 1280x800
    huds = []
    for i, (x0, y0, w, h) in enumerate(cells):
        args = ["--geometry", f"{w}x{h}+{x0}+{y0}", "--mask", "none", "--label", f"HUD {i}"]
        if i % 4 == 3:
            args += ["--mode", "indeterminate"]    # a spinner: moves by itself
            stdin = subprocess.DEVNULL
        else:
            args += ["--mode", "bar" if i % 2 else "annular", "--animation", "fade"]
            stdin = subprocess.PIPE
        p = subprocess.Popen([str(XHUD_BIN), *args], env=xplain.env, stdin=stdin, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, start_new_session=True)
        xplain.procs.append(p)
        huds.append(p)
    stop, stop_feed = threading.Event(), threading.Event()
    threads = [threading.Thread(target=burn, args=(stop,), daemon=True)]
    threads += [threading.Thread(target=feed, args=(p, stop_feed, 40), daemon=True) for p in huds if p.stdin]
    for t in threads:
        t.start()
    grab = Grabber(xplain.display)
    try:
        assert wait_until(lambda: len(xplain.visible_hud_windows()) == len(huds), 10), "not every HUD appeared"
        last = [grab.digest(c) for c in cells]
        changed_at = [time.monotonic()] * len(cells)
        worst = [0.0] * len(cells)
        end = time.monotonic() + SECONDS
        while time.monotonic() < end:
            time.sleep(0.05)
            now = time.monotonic()
            for i, c in enumerate(cells):
                d = grab.digest(c)
                if d != last[i]:
                    last[i], changed_at[i] = d, now
                worst[i] = max(worst[i], now - changed_at[i])
            for i, p in enumerate(huds):
                assert p.poll() is None, f"HUD {i} exited {p.returncode}: {p.stderr.read()[-500:]!r}"
        frozen = [f"HUD {i}: {w:.2f} s" for i, w in enumerate(worst) if w > 1.0]
        assert not frozen, f"pixels stopped changing for over a second: {frozen}"

        # The end of input ends the fed HUDs; SIGTERM the spinners. Within a second each
        # (plus the hide animation).
        stop_feed.set()
        t0 = time.monotonic()
        for p in huds:
            if p.stdin:
                p.stdin.close()
            else:
                p.send_signal(signal.SIGTERM)
        for i, p in enumerate(huds):
            try:
                code = p.wait(timeout=max(0.1, t0 + 1.3 - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise AssertionError(f"HUD {i} still running {time.monotonic() - t0:.2f} s after its input ended")
            assert code == 0, f"HUD {i} exited {code}"
    finally:
        stop.set()
        stop_feed.set()
        grab.close()
