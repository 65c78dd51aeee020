"""Motion as the screen shows it, sampled with XGetImage hundreds of times a second: a bar fed
100 just before its input ends is seen full, at full alpha, before it fades."""

from __future__ import annotations

import ctypes
import subprocess
import time

import pytest

from conftest import XHUD_BIN, _open, wait_until
from test_scripts import bar_fill, bright


class PixelProbe:
    """Reads single pixels of the root window (ZPixmap, 24-bit TrueColor) with XGetImage."""

    def __init__(self, display: str):
        self.x, self.d = _open(display)
        self.x.XGetImage.restype = ctypes.c_void_p
        self.x.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                     ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        self.root = self.x.XRootWindow(self.d, self.x.XDefaultScreen(self.d))

    def pixel(self, px: int, py: int) -> tuple[int, int, int]:
        img = self.x.XGetImage(self.d, self.root, px, py, 1, 1, 0xFFFFFFFF, 2)  # ZPixmap
        data = ctypes.cast(img + 16, ctypes.POINTER(ctypes.c_void_p)).contents.value   # XImage.data
        b, g, r = ctypes.string_at(data, 3)
        self.x.XFree(ctypes.c_void_p(data))
        self.x.XFree(ctypes.c_void_p(img))
        return r, g, b

    def close(self):
        self.x.XCloseDisplay(self.d)


@pytest.mark.parametrize("easing", [[], ["--smooth"]], ids=["exact", "smooth"])
def test_a_bar_is_seen_full_before_it_fades(xplain, easing):
    """With --smooth the bar eases to 100 % over 0.2 s: the hide waits for it (and two frames)."""
    p = subprocess.Popen([str(XHUD_BIN), "--mode", "bar", "--label", "Copying", "--geometry", "400x300+0+0",
                          "--no-shadow", *easing], env=xplain.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        p.stdin.write(b"progress=0.5\n")
        p.stdin.flush()
        win = wait_until(lambda: xplain.visible_hud_windows(), 5)
        assert win, "no HUD"
        win = win[0]
        time.sleep(0.8)                                  # shown, fade-in over
        shot = xplain.screenshot()
        fill, track, y = bar_fill(shot, win.rect)
        assert y is not None and track > 60, "no bar"
        left = next(xx for xx in range(win.x, win.x + win.width) if bright(shot.pixel(xx, y)))
        end = left + track - 7                           # inside the fill only when nearly full
        rest = shot.pixel(win.x + 3, win.y + win.height // 2)   # the bezel at full alpha
        assert not bright(shot.pixel(end, y)), "premise: at 50 % the end of the bar is empty"
        probe = PixelProbe(xplain.display)
        p.stdin.write(b"progress=1\n")
        p.stdin.close()                                  # input ends: the HUD hides
        seen_full_at_rest = False
        samples = 0
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            full = bright(probe.pixel(end, y))
            bezel = probe.pixel(win.x + 3, win.y + win.height // 2)
            samples += 1
            if full and max(abs(a - b) for a, b in zip(bezel, rest)) <= 1:
                seen_full_at_rest = True
                break
        probe.close()
        assert seen_full_at_rest, (f"in {samples} samples the bar never showed 100 % at full alpha: "
                                   "it faded as the last value arrived")
        assert p.wait(5) == 0
    finally:
        if p.poll() is None:
            p.kill()
