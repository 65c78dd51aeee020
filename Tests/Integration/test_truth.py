"""What a HUD puts on screen is true: over a window, the window shows through its bezel (never
the wallpaper hidden behind the window), in every frame of a show, a grow and a hide, with and
without a compositor. Frames are read back with XGetImage every few milliseconds."""

from __future__ import annotations

import subprocess
import threading
import time

from conftest import XHUD_BIN, set_root_background, wait_steady, wait_until
from test_liveness import Grabber

GREEN = (0x20, 0xA0, 0x40)


class Frames:
    """Raw frames of a rectangle of the root, read on a connection of their own."""

    def __init__(self, display: str, rect):
        self.grabber = Grabber(display)
        self.rect = rect
        self.frames: list[bytes] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run)

    def _run(self):
        while not self.stop.is_set():
            raw = self.grabber.raw(self.rect)
            if raw and (not self.frames or raw != self.frames[-1]):
                self.frames.append(raw)
            time.sleep(0.004)   # sampling interval

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        self.grabber.close()

    def latest(self) -> bytes:
        return self.frames[-1] if self.frames else b""

    def green_pixels(self, raw: bytes) -> int:
        """Pixels whose green stands out of red and blue: the wallpaper, or a bezel tinted by it."""
        n = 0
        for i in range(0, len(raw), 16):   # every fourth pixel (BGRX)
            b, g, r = raw[i], raw[i + 1], raw[i + 2]
            if g - max(r, b) > 24:
                n += 1
        return n


def test_a_window_shows_through_the_bezel_never_the_wallpaper(x):
    """A white page over a green wallpaper: through a show, a grow (details, then a button) and
    a hide, no frame inside the page shows green, with or without a compositor."""
    set_root_background(x.display, GREEN)
    page = x.start_xev("700x500+290+150")   # xev's window is white: the page
    inside = (300, 160, 680, 480)           # within the page, away from its border
    probes = [(640, 400), (979, 160), (300, 639), (979, 639)]   # its middle and corners
    shot = x.wait_screen(lambda s: all(s.pixel(*p) == (255, 255, 255) for p in probes))
    assert all(shot.pixel(*p) == (255, 255, 255) for p in probes), "the page is not on screen"
    with Frames(x.display, inside) as frames:
        p = subprocess.Popen([str(XHUD_BIN), "--label", "Copying", "--mask", "none"], env=x.env,
                             stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        assert wait_until(lambda: x.visible_hud_windows(), 5)
        # Each step plays while frames are read: time passing is what is tested.
        time.sleep(0.5)
        p.stdin.write(b"details=file 2 of 3\\nalmost there\n")
        p.stdin.flush()
        time.sleep(0.5)
        p.stdin.write(b"button=Cancel\n")
        p.stdin.flush()
        time.sleep(0.5)
        p.stdin.close()
        assert p.wait(5) == 0
        assert wait_until(lambda: not x.visible_hud_windows(), 3)
        # The frames end once they show the page as it was before the HUD.
        assert wait_until(lambda: frames.latest() == frames.frames[0], 3), "the page did not come back whole"
    assert len(frames.frames) > 10, "too few frames were read"
    worst = max(frames.green_pixels(f) for f in frames.frames)
    assert worst == 0, f"{worst} pixels of the page looked like the wallpaper in the worst of {len(frames.frames)} frames"
    assert page.proc.poll() is None


def edge_contrast(x, background) -> int:
    """How far the bezel's left edge (its first pixels, halfway down) stands from the background."""
    win = x.visible_hud_windows()[0]
    shot = x.wait_screen(lambda s: s.bbox_not(background, 10, win.rect) is not None)   # drawn
    y = win.y + win.height // 2
    return max(max(abs(a - b) for a, b in zip(shot.pixel(xx, y), background)) for xx in range(win.x, win.x + 6))


def test_the_edge_reads_on_black_and_on_white(x):
    """A dark bezel on a black window and a light one on white stay distinct at their edge (the
    hairline), whether or not a compositor shadows them."""
    set_root_background(x.display, (0, 0, 0))
    hud = x.start_xhud("--label", "On black", "--no-shadow", "--animation", "none")
    assert edge_contrast(x, (0, 0, 0)) >= 40
    hud.signal(15)
    assert hud.wait(5) == 0
    assert wait_until(lambda: not x.visible_hud_windows(), 3)
    set_root_background(x.display, (255, 255, 255))
    hud = x.start_xhud("--label", "On white", "--style", "light", "--no-shadow", "--animation", "none")
    assert edge_contrast(x, (255, 255, 255)) >= 30
    hud.signal(15)
    assert hud.wait(5) == 0


def test_a_fading_blurred_bezel_never_leaves_a_blurred_slab(xplain):
    """Over sharp stripes, a blurred bezel (the default) fading out goes from blurred and dark to
    the sharp stripes themselves: no frame shows the blur without the bezel's fill (a slab of
    blurred background where nothing is any more)."""
    from test_material import set_striped_root
    set_striped_root(xplain.display, period=16, band=8)
    hud = xplain.start_xhud("--mode", "text", "--label", "Fading", "--mask", "none", "--animation", "fade")
    win = xplain.visible_hud_windows()[0]
    row = (win.x + 20, win.y + 8, win.width - 40, 1)   # the bezel's top margin: no text
    grabber = Grabber(xplain.display)
    try:
        # Faded in: two reads a fade's length (0.3 s) apart agree.
        assert wait_steady(lambda: grabber.raw(row), 5, 0.3), "the HUD never came to rest"
        with Frames(xplain.display, row) as frames:
            assert wait_until(frames.latest, 2), "no frame of the HUD was read"
            hud.signal(15)
            assert hud.wait(5) == 0
            assert wait_until(lambda: not xplain.visible_hud_windows(), 3)
            # Unmapped, the root is already repainted: the frames end once they show it.
            assert wait_until(lambda: frames.latest() == grabber.raw(row), 3), "the last frame was not read"
    finally:
        grabber.close()

    def measure(raw):
        reds = [raw[i + 2] for i in range(0, len(raw) - 3, 4)]
        return max(reds) - min(reds), sum(reds) / len(reds)

    contrast_sharp, mean_sharp = measure(frames.frames[-1])
    contrast_hud, mean_hud = measure(frames.frames[0])
    assert contrast_sharp > 100 and contrast_hud < contrast_sharp / 2, (contrast_sharp, contrast_hud)
    dark = max(1.0, mean_sharp - mean_hud)
    for raw in frames.frames:
        c, m = measure(raw)
        # How far along the fade the frame is, by its fill and by its sharpness: a true blend
        # has both add up to about one; a slab has neither.
        along = c / contrast_sharp + (mean_sharp - m) / dark
        assert along > 0.6, f"a blurred slab: contrast {c}, mean {m:.0f} " \
            f"(sharp {contrast_sharp}/{mean_sharp:.0f}, HUD {contrast_hud}/{mean_hud:.0f})"


class Page:
    """A plain window of one colour, drawn by this test: what lies beneath a HUD."""

    def __init__(self, display: str, rect, rgb):
        from conftest import _open
        self.x, self.d = _open(display)
        x = self.x
        import ctypes
        x.XCreateSimpleWindow.restype = ctypes.c_ulong
        x.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                          ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
        x.XSetWindowBackground.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
        for f in (x.XClearWindow, x.XMapWindow, x.XDestroyWindow):
            f.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
        scr = x.XDefaultScreen(self.d)
        self.w = x.XCreateSimpleWindow(self.d, x.XRootWindow(self.d, scr), *rect, 0, 0, self._pixel(rgb))
        x.XMapWindow(self.d, self.w)
        x.XSync(self.d, 0)

    @staticmethod
    def _pixel(rgb):
        return (rgb[0] << 16) | (rgb[1] << 8) | rgb[2]

    def paint(self, rgb):
        """The application beneath draws: its whole window, the part under the HUD included."""
        self.x.XSetWindowBackground(self.d, self.w, self._pixel(rgb))
        self.x.XClearWindow(self.d, self.w)
        self.x.XSync(self.d, 0)

    def close(self):
        self.x.XDestroyWindow(self.d, self.w)
        self.x.XCloseDisplay(self.d)


def bezel_pixel(x, win):
    return x.screenshot().pixel(win.x + 8, win.y + win.height // 2)


def grabbed_pixel(grabber, win):
    """bezel_pixel's pixel read with XGetImage (fast enough to poll), as (r, g, b)."""
    b, g, r = grabber.raw((win.x + 8, win.y + win.height // 2, 1, 1))[:3]
    return (r, g, b)


def test_a_bezel_never_shows_what_is_gone_from_beneath_it(xplain):
    """Without a compositor the bezel blends over a copy of the screen taken as it appears. When
    the window beneath draws anew (here: white to black), the copy is out of date and the bezel
    rises to opaque rather than keep showing the white that is gone."""
    page = Page(xplain.display, (240, 150, 800, 500), (255, 255, 255))
    grabber = Grabber(xplain.display)
    try:
        hud = xplain.start_xhud("--mode", "text", "--label", "Beneath", "--mask", "none", "--animation", "none", "--blur", "0")
        win = xplain.visible_hud_windows()[0]
        # Drawn (no longer the page's white) and at rest.
        wait_steady(lambda: (p := grabbed_pixel(grabber, win)) != (255, 255, 255) and p, 5, 0.1)
        before = bezel_pixel(xplain, win)
        assert before[0] > 55, f"premise: the white page shows through the bezel: {before}"
        page.paint((0, 0, 0))
        assert wait_until(lambda: bezel_pixel(xplain, win)[0] <= 40, 3), \
            f"the bezel still shows the white page that is gone: {bezel_pixel(xplain, win)} (before {before})"
        hud.signal(15)
        assert hud.wait(5) == 0
    finally:
        grabber.close()
        page.close()


def test_a_hide_never_dissolves_into_what_is_gone(xplain):
    """The page beneath turned from white to black while the HUD showed: its fade-out dissolved
    into the copy taken before, the white that is gone, for 200 ms. Read every 3 ms from the
    hide on: the bezel's place is never lighter than the bezel over black or the black page."""
    page = Page(xplain.display, (240, 150, 800, 500), (255, 255, 255))
    grabber = Grabber(xplain.display)
    try:
        hud = xplain.start_xhud("--mode", "text", "--label", "Beneath", "--mask", "none", "--blur", "0")
        win = xplain.visible_hud_windows()[0]
        assert wait_steady(lambda: grabbed_pixel(grabber, win), 5, 0.3), "the HUD never came to rest"
        page.paint((0, 0, 0))
        assert wait_until(lambda: grabbed_pixel(grabber, win)[0] <= 40, 3), "the bezel did not rise to opaque"
        hud.signal(15)
        seen = []
        deadline = time.monotonic() + 0.6
        while time.monotonic() < deadline:
            seen.append(grabbed_pixel(grabber, win))
            time.sleep(0.003)   # sampling interval
        assert hud.wait(5) == 0
    finally:
        grabber.close()
        page.close()
    light = [p for p in seen if p[0] > 60]
    assert not light, f"the hide showed the page that is gone: {light[:5]} of {len(seen)} reads"
    assert seen[-1] == (0, 0, 0), f"the black page is not what is left: {seen[-1]}"


def test_a_stack_moving_over_a_still_page_keeps_its_material(xplain):
    """What a HUD's own windows uncover as they move and leave is not a change beneath: after a
    second HUD comes and goes (the first slides twice) the first still blends as before."""
    page = Page(xplain.display, (240, 150, 800, 500), (255, 255, 255))
    grabber = Grabber(xplain.display)
    try:
        first = xplain.start_xhud("--mode", "text", "--label", "First", "--mask", "none", "--blur", "0")
        win = xplain.visible_hud_windows()[0]
        # Faded in: two reads a fade's length (0.3 s) apart agree.
        assert wait_steady(lambda: grabbed_pixel(grabber, win), 5, 0.3), "the first HUD never came to rest"
        before = bezel_pixel(xplain, win)
        second = xplain.start_xhud("--mode", "text", "--label", "Second", "--mask", "none", "--blur", "0")
        assert wait_until(lambda: len(xplain.visible_hud_windows()) == 2, 5)
        # The first has slid up: two reads a slide's length (0.25 s) apart agree.
        assert wait_steady(lambda: sorted(w.rect for w in xplain.visible_hud_windows()), 5, 0.3)
        second.signal(15)
        assert second.wait(5) == 0
        assert wait_until(lambda: len(xplain.visible_hud_windows()) == 1, 5)
        # Slid back, and at rest for longer than a rise to opaque (0.3 s) would take.
        rest = wait_steady(lambda: (w := xplain.visible_hud_windows()) and (w[0].rect, grabbed_pixel(grabber, w[0])), 5, 0.35)
        assert rest, "the first HUD never came to rest after the second left"
        win = xplain.visible_hud_windows()[0]
        after = bezel_pixel(xplain, win)
        assert abs(after[0] - before[0]) <= 6, f"the bezel changed: {before} -> {after}"
        first.signal(15)
        assert first.wait(5) == 0
    finally:
        grabber.close()
        page.close()


def test_a_burst_of_huds_keeps_every_bezels_material(xplain):
    """Twenty clients at once over a still white page: every HUD's own maps and moves are the
    only drawing, so no bezel rises to opaque. Each map forgets the damage around it, and the X
    server reports the rest of the damage again after each such repair: a burst makes twenty
    before the server reads the first report, and each of those reports must still be known as
    a repair's (a report taken for drawing beneath made bezels rise, and their content was drawn
    again every frame of the rise)."""
    page = Page(xplain.display, (0, 0, 1280, 800), (255, 255, 255))
    grabber = Grabber(xplain.display)
    args = ["--mode", "annular", "--progress", "0.5", "--blur", "0", "--wait", "--min-duration", "600"]
    try:
        alone = xplain.start_xhud(*args, "--label", "Alone")
        win = xplain.visible_hud_windows()[0]
        assert wait_steady(lambda: grabbed_pixel(grabber, win), 5, 0.3), "the HUD never came to rest"
        material = bezel_pixel(xplain, win)
        assert material[0] > 55, f"premise: the white page shows through the bezel: {material}"
        alone.signal(15)
        assert alone.wait(5) == 0
        assert wait_until(lambda: not xplain.visible_hud_windows(), 5)

        # From one shell, as a script's loop would: the clients start within a millisecond or so.
        # Its status: whether every client exited 0.
        script = 'for i in $(seq 20); do "$0" "$@" --label "Burst $i" & pids="$pids $!"; done; for p in $pids; do wait $p || exit 1; done'
        burst = xplain.spawn(["sh", "-c", script, str(XHUD_BIN), *args],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(lambda: len(xplain.visible_hud_windows()) == 20, 10), len(xplain.visible_hud_windows())
        # At rest: every bezel's pixel twice the same, a rise's length (0.3 s) apart.
        assert wait_steady(lambda: [grabbed_pixel(grabber, w) for w in sorted(xplain.visible_hud_windows(), key=lambda w: w.rect)],
                           10, 0.35), "the stack never came to rest"
        shot = xplain.screenshot()
        pixels = [(w.rect, shot.pixel(w.x + 8, w.y + w.height // 2)) for w in xplain.visible_hud_windows()]
        risen = [(r, p) for r, p in pixels if max(abs(a - b) for a, b in zip(p, material)) > 6]
        assert not risen, f"bezels that rose to opaque over a still page ({material} expected): {risen}"
        subprocess.run(["pkill", "-TERM", "-s", str(burst.pid), "-x", "xhud"], check=False)   # the clients, in the shell's session
        assert burst.wait(5) == 0
    finally:
        grabber.close()
        page.close()
