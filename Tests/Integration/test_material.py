"""The bezel as a material on a real desktop: blurred like iOS's (on the X server without a
compositor, asked of the compositor with one), the window shaped to the rounded bezel so that
a shadowing or blurring compositor follows the bezel and not a box, and text at a readable
width."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
import threading
import time

import pytest

from conftest import _open, wait_until

STRIPE = (240, 192, 64)
GROUND = (58, 110, 165)


def set_striped_root(display: str, period: int = 40, band: int = 12) -> None:
    """A wallpaper of vertical stripes (a pixmap in _XROOTPMAP_ID, as hsetroot sets one): sharp
    edges that a blur must soften."""
    x, d = _open(display)
    try:
        scr = x.XDefaultScreen(d)
        root = x.XRootWindow(d, scr)
        # The whole screen's size: picom's new backends draw a wallpaper pixmap once, untiled.
        w, h = x.XDisplayWidth(d, scr), x.XDisplayHeight(d, scr)
        pm = x.XCreatePixmap(d, root, w, h, x.XDefaultDepth(d, scr))
        gc = x.XCreateGC(d, pm, 0, None)
        x.XSetForeground(d, gc, (GROUND[0] << 16) | (GROUND[1] << 8) | GROUND[2])
        x.XFillRectangle(d, pm, gc, 0, 0, w, h)
        x.XSetForeground(d, gc, (STRIPE[0] << 16) | (STRIPE[1] << 8) | STRIPE[2])
        for left in range(0, w, period):
            x.XFillRectangle(d, pm, gc, left, 0, band, h)
        x.XFreeGC(d, gc)
        x.XSetWindowBackgroundPixmap(d, root, pm)
        x.XClearWindow(d, root)
        value = ctypes.c_ulong(pm)
        for prop in (b"_XROOTPMAP_ID", b"_XSETROOT_ID"):
            x.XChangeProperty(d, root, x.XInternAtom(d, prop, 0), 20, 32, 0, ctypes.byref(value), 1)
        x.XSetCloseDownMode(d, 1)
        x.XSync(d, 0)
    finally:
        x.XCloseDisplay(d)


class _XRect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_short), ("y", ctypes.c_short), ("width", ctypes.c_ushort), ("height", ctypes.c_ushort)]


def bounding_shape(display: str, wid: int, kind: int = 0) -> list[tuple[int, int, int, int]]:
    """The window's bounding shape (or, kind=2, its input shape) as rectangles (XShapeGetRectangles)."""
    ext = ctypes.CDLL(ctypes.util.find_library("Xext"))
    ext.XShapeGetRectangles.restype = ctypes.POINTER(_XRect)
    ext.XShapeGetRectangles.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int,
                                        ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int)]
    x, d = _open(display)
    try:
        count, ordering = ctypes.c_int(0), ctypes.c_int(0)
        rects = ext.XShapeGetRectangles(d, wid, kind, ctypes.byref(count), ctypes.byref(ordering))  # 0: ShapeBounding
        out = [(rects[i].x, rects[i].y, rects[i].width, rects[i].height) for i in range(count.value)]
        if rects:
            x.XFree(rects)
        return out
    finally:
        x.XCloseDisplay(d)


def row_contrast(shot, win, y) -> int:
    """The spread of red along a row inside the bezel (sharp stripes: large; 240 vs 58 bare)."""
    lum = [shot.pixel(xx, y)[0] for xx in range(win.x + 14, win.x + win.width - 14)]
    return max(lum) - min(lum)


def row_sharpness(shot, win, y) -> int:
    """The spread of brightness along a row inside the bezel: how sharp what shows through is.
    Brightness, not a channel: the frost raises saturation on purpose (colour glows through),
    so a channel of two complementary stripes keeps more spread than their brightness does."""
    lum = [sum(shot.pixel(xx, y)) for xx in range(win.x + 14, win.x + win.width - 14)]
    return max(lum) - min(lum)


def hud_window(x):
    wins = wait_until(lambda: x.visible_hud_windows(), 5)
    assert wins, "no HUD window"
    return wins[0]


def wallpaper_shown(x, period: int, band: int):
    """Waits until the screen shows the striped wallpaper (a compositor that paints through its
    overlay window shows nothing of it before its first paint); returns that screenshot."""
    def shows(shot):
        return all(shot.pixel(xx, shot.height - 20) == (STRIPE if xx % period < band else GROUND) for xx in range(64))
    shot = x.wait_screen(shows)
    assert shows(shot), "the wallpaper is not on screen"
    return shot


def test_blur_without_a_compositor_softens_what_shows_through(xplain):
    set_striped_root(xplain.display)
    bare = xplain.screenshot()
    contrast = {}
    for blur in ["0", "10"]:
        hud = xplain.start_xhud("--mode", "text", "--label", "Blur", "--bezel-color", "#00000030", "--mask", "none",
                                "--animation", "none", "--blur", blur)
        win = hud_window(xplain)
        shot = xplain.wait_still(win.rect, unlike=bare)
        contrast[blur] = row_sharpness(shot, win, win.y + 8)
        hud.signal(15)
        hud.wait(5)
    assert contrast["0"] > 100, f"premise: sharp stripes show through a faint bezel: {contrast}"
    assert contrast["10"] < contrast["0"] / 2, f"--blur 10 did not soften the stripes: {contrast}"


def test_the_default_bezel_is_a_blurred_material(xplain):
    """As MBProgressHUD 1.x and SVProgressHUD 2.x, a HUD blurs what is behind it by default:
    the stripes behind the default bezel are far softer than behind a flat one (`--blur 0`)."""
    set_striped_root(xplain.display)
    bare = xplain.screenshot()
    contrast = {}
    for extra in ([], ["--blur", "0"]):
        hud = xplain.start_xhud("--mode", "text", "--label", "Material", "--mask", "none", "--animation", "none", *extra)
        win = hud_window(xplain)
        contrast[bool(extra)] = row_contrast(xplain.wait_still(win.rect, unlike=bare), win, win.y + 8)
        hud.signal(15)
        hud.wait(5)
    assert contrast[False] < contrast[True] / 2, f"the default did not blur: default {contrast[False]}, flat {contrast[True]}"


def test_the_blur_stops_at_the_rounded_edge(xplain):
    """Outside the bezel (its rounded corner) the wallpaper is sharp: no seam, no box."""
    set_striped_root(xplain.display)
    bare = xplain.screenshot()
    hud = xplain.start_xhud("--mode", "text", "--label", "Blur", "--bezel-color", "#00000030", "--mask", "none",
                            "--animation", "none", "--blur", "10", "--corner-radius", "16", "--geometry", "400x300+0+0")
    win = hud_window(xplain)
    shot = xplain.wait_still(win.rect, unlike=bare)
    corner = shot.pixel(win.x + 1, win.y + 1)
    assert corner in (STRIPE, GROUND), f"the corner outside the rounded bezel is not the plain wallpaper: {corner}"
    hud.signal(15)


def test_composited_the_window_is_the_rounded_bezel(x):
    """Under a compositor the window's bounding shape is the rounded bezel (so a shadowing or
    blurring compositor follows it), and the blur and shadow hints are set."""
    if not x.composited:
        pytest.skip("compositor case")
    hud = x.start_xhud("--mode", "annular", "--label", "Shape", "--blur", "12", "--mask", "none", "--animation", "none")
    win = hud_window(x)
    rects = wait_until(lambda: (r := bounding_shape(x.display, win.id)) and len(r) > 4 and r, 5) or \
        bounding_shape(x.display, win.id)
    assert len(rects) > 4, f"no rounded shape: {rects}"
    top = min(r[1] for r in rects)
    first = [r for r in rects if r[1] == top][0]
    assert first[0] > 2, f"the top row starts at the corner: not rounded ({first})"
    xs = min(r[0] for r in rects)
    ys = top
    w = max(r[0] + r[2] for r in rects) - xs
    h = max(r[1] + r[3] for r in rects) - ys
    assert w <= win.width and h <= win.height
    assert abs(w - win.width) <= 6 and abs(h - win.height) <= 6, (
        f"the window ({win.width}x{win.height}) is more than the bezel ({w}x{h}): a compositor shadows a box")
    blur = x.xprop(win.id, "_KDE_NET_WM_BLUR_BEHIND_REGION")
    assert "=" in blur and len(blur.split("=")[1].split(",")) >= 8, blur
    assert "= 1" in x.xprop(win.id, "_COMPTON_SHADOW")
    hud.signal(15)
    hud.wait(5)
    hud = x.start_xhud("--mode", "text", "--label", "Flat", "--no-shadow", "--mask", "none", "--animation", "none", "--blur", "0")
    win = hud_window(x)
    # Shaped (the blur's region is set with the shape), with its shadow hint.
    wait_until(lambda: len(bounding_shape(x.display, win.id)) > 4 and "= 0" in x.xprop(win.id, "_COMPTON_SHADOW"), 5)
    assert "= 0" in x.xprop(win.id, "_COMPTON_SHADOW")
    assert "not found" in x.xprop(win.id, "_KDE_NET_WM_BLUR_BEHIND_REGION")


def stripes_behind_picom(x, picom_args: list[str]) -> tuple[int, int, int]:
    """picom started with these arguments over 8-pixel stripes, a translucent HUD over them: the
    stripes' red spread (max - min) behind the bezel, just above it and far above it."""
    if shutil.which("picom") is None:
        pytest.skip("picom is not installed")
    from conftest import compositor_running
    set_striped_root(x.display, period=8, band=4)
    log = x.tmp / "picom.log"
    picom = x.spawn(["picom", *picom_args], stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    assert wait_until(lambda: compositor_running(x.display), 5), "picom did not start: " + log.read_text()
    bare = wallpaper_shown(x, 8, 4)
    hud = x.start_xhud("--mode", "text", "--label", "Material", "--bezel-color", "#00000030", "--mask", "none",
                       "--animation", "none", "--corner-radius", "16")
    win = hud_window(x)
    shot = x.wait_still((win.x - 20, win.y - 70, win.width + 40, win.height + 90), unlike=bare)

    def spread(y):
        red = [shot.pixel(xx, y)[0] for xx in range(win.x + 20, win.x + win.width - 20)]
        return max(red) - min(red)

    hud.signal(15)
    picom.terminate()
    assert "Old backends only support" not in log.read_text(), log.read_text()
    return spread(win.y + win.height // 2 + 14), spread(win.y - 2), spread(win.y - 60)


def test_picom_blurs_and_shadows_the_bezel_not_a_box(xplain):
    """picom with shadows and blur on: behind the bezel the stripes are blurred, and the blur
    stops at the bezel's edge: a row just above it is as sharp as the wallpaper far from it (no
    box around the bezel, which a window larger than the bezel would give)."""
    # A 7x7 box blur in two passes (picom's kernel syntax): it flattens 8-pixel stripes.
    inside, edge, far = stripes_behind_picom(xplain, ["--backend", "xrender", "--shadow", "--blur-method", "kernel",
                                                      "--blur-kern", "7,1,1,1,1,1,1,1;1,7,1,1,1,1,1,1", "--blur-background"])
    assert far > 150, f"premise: the wallpaper is sharp: {far}"
    assert inside < far / 3, f"picom did not blur behind the bezel: {inside} vs {far}"
    assert edge > far * 0.6, f"the blur reaches beyond the bezel (a box): {edge} vs {far}"


@pytest.mark.parametrize("backends", [[], ["--experimental-backends"]], ids=["legacy", "new"])
def test_the_shipped_picom_conf_blurs_on_picom_as_debian_starts_it(xplain, backends):
    """packaging/examples/picom.conf, given to picom with no other flag (Debian 12's picom 9.1
    then runs its legacy backends, which blur only with kernels) and with its new backends
    (`--experimental-backends`, the default from picom 10): the stripes behind the bezel are
    blurred, those beside it are as sharp as ever."""
    from conftest import REPO
    inside, _, far = stripes_behind_picom(xplain, [*backends, "--config", str(REPO / "packaging" / "examples" / "picom.conf")])
    assert far > 150, f"premise: the wallpaper is sharp: {far}"
    assert inside < far / 4, f"the shipped picom.conf did not blur behind the bezel: {inside} vs {far}"


def test_xcompmgr_client_shadows_leave_an_input_blocking_hud_alone(xplain):
    """`xcompmgr -c` builds a client-side shadow for a window configured before its first map
    (before it knows the window is ARGB) and draws it under the window forever: a dark box
    around the bezel, which a HUD that blocks input used to get (its blocker made the HUD's
    XMapRaised a restack before the map). Around the bezel is the background; inside it, the
    bezel's own colour blended once over the background. Three HUDs in a row: it was a race."""
    if shutil.which("xcompmgr") is None:
        pytest.skip("xcompmgr is not installed")
    from conftest import BACKGROUND, compositor_running
    xcm = xplain.spawn(["xcompmgr", "-c"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert wait_until(lambda: compositor_running(xplain.display), 5)
    # Set up: it selects SubstructureNotify on the root with its redirection (nothing else here does).
    assert wait_until(lambda: xplain.root_selects("SubstructureNotify"), 5), "xcompmgr -c did not set up"
    a = 0.81   # the dark style's fill where a blur is asked for and xcompmgr does not blur
    expected = tuple(round(25.5 * a + b * (1 - a)) for b in BACKGROUND)
    for run in range(3):
        hud = xplain.start_xhud("--mode", "text", "--label", "Blocking", "--mask", "clear", "--animation", "none")
        win = hud_window(xplain)
        shot = xplain.wait_still((win.x - 10, win.y - 10, win.width + 20, win.height + 20), unlike=BACKGROUND)
        inside = shot.pixel(win.x + 4, win.y + win.height // 2)
        around = [shot.pixel(win.x - 6, win.y + win.height // 2), shot.pixel(win.x + win.width // 2, win.y + win.height + 6)]
        assert max(abs(p - q) for p, q in zip(inside, expected)) <= 6, f"run {run}: bezel {inside}, expected {expected}"
        for p in around:
            assert max(abs(c - b) for c, b in zip(p, BACKGROUND)) <= 4, f"run {run}: a shadow box around the bezel: {p}"
        hud.signal(15)
        hud.wait(5)
        wait_until(lambda: not xplain.visible_hud_windows(), 3)
    xcm.terminate()


def test_xsetroot_placeholder_is_not_a_wallpaper(xplain, tmp_path):
    """ImageMagick's `display -window root` (as xsetroot) puts a 1x1 placeholder pixmap in
    _XSETROOT_ID: without a compositor the bezel must blend over the real background (a copy of
    the screen), not over that black pixel."""
    for prop in ("_XROOTPMAP_ID", "_XSETROOT_ID"):
        xplain.run("xprop", "-root", "-remove", prop)
    picture = tmp_path / "grey.png"
    subprocess.run(["convert", "-size", "64x64", "xc:#e0e0e0", str(picture)], check=True)
    xplain.run("display", "-window", "root", str(picture), check=False)
    assert "_XSETROOT_ID" in xplain.run("xprop", "-root", "_XSETROOT_ID").stdout
    hud = xplain.start_xhud("--mode", "text", "--label", "Over xsetroot", "--animation", "none", "--mask", "none", "--blur", "0")
    win = hud_window(xplain)
    got = xplain.wait_still(win.rect, unlike=(0xE0, 0xE0, 0xE0)).pixel(win.x + 4, win.y + win.height // 2)
    want = round(25.5 * 0.82 + 0xE0 * 0.18)
    assert all(abs(c - want) <= 4 for c in got), f"bezel {got}: not the dark bezel over #e0e0e0 ({want})"
    hud.signal(15)


@pytest.mark.parametrize("style,page", [("dark", (255, 255, 255)), ("light", (0, 0, 0)), ("dark", (90, 60, 160))],
                         ids=["dark-on-white", "light-on-black", "dark-on-violet"])
def test_one_material_under_every_compositor(xplain, style, page):
    """The same HUD over the same page is the same colour, within 10 levels, with no compositor
    (this process blurs), under xcompmgr (nothing blurs: a little denser) and under picom with
    the shipped configuration (picom blurs)."""
    import shutil as _shutil
    from conftest import REPO, compositor_running, set_root_background
    set_root_background(xplain.display, page)
    compositors = [("none", None), ("xcompmgr", ["xcompmgr"]),
                   ("picom", ["picom", "--config", str(REPO / "packaging" / "examples" / "picom.conf")])]
    colour = {}
    for name, cmd in compositors:
        if cmd and _shutil.which(cmd[0]) is None:
            continue
        comp = None
        if cmd:
            comp = xplain.spawn(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            assert wait_until(lambda: compositor_running(xplain.display), 5), f"{name} did not start"
            assert wait_until(lambda: xplain.root_selects("SubstructureNotify"), 5), f"{name} did not set up"
            xplain.wait_screen(lambda shot: shot.pixel(shot.width // 2, shot.height // 2) == page)
        hud = xplain.start_xhud("--mode", "text", "--label", "Material", "--style", style, "--mask", "none",
                                "--animation", "none")
        win = hud_window(xplain)
        shot = xplain.wait_still(win.rect, unlike=page)
        colour[name] = shot.pixel(win.x + 6, win.y + win.height // 2)   # left of the label
        hud.signal(15)
        assert hud.wait(5) == 0
        if comp:
            comp.terminate()
            comp.wait(5)
            assert wait_until(lambda: not compositor_running(xplain.display), 5)
    assert len(colour) >= 2, f"premise: a compositor to compare with: {colour}"
    for channel in range(3):
        values = [c[channel] for c in colour.values()]
        assert max(values) - min(values) <= 10, f"{style} over {page}: not one material: {colour}"
    assert all(c != page for c in colour.values()), colour


def test_colour_glows_through_the_frost(xplain):
    """As iOS's materials, the blur raises saturation: over a green window the bezel's fill is
    greener than the same fill blended over the green as it is."""
    from conftest import set_root_background
    green = (0x20, 0xC0, 0x40)
    set_root_background(xplain.display, green)
    hud = xplain.start_xhud("--mode", "text", "--label", "Frost", "--mask", "none", "--animation", "none")
    win = hud_window(xplain)
    got = xplain.wait_still(win.rect, unlike=green).pixel(win.x + 6, win.y + win.height // 2)
    a = 0.79   # the dark material's fill (HUDConfiguration.materialBezelColor)
    plain = [25.5 * a + c * (1 - a) for c in green]
    assert max(got) - min(got) >= 1.2 * (max(plain) - min(plain)), f"bezel {got}: no more colourful than {plain}"
    assert got[1] == max(got), f"the hue changed: {got}"
    hud.signal(15)
    assert hud.wait(5) == 0


@pytest.mark.parametrize("backends", [[], ["--experimental-backends"]], ids=["legacy", "new"])
def test_picom_fades_the_frost_with_the_bezel(xplain, backends):
    """picom blurs behind a window at the strength its opacity property says, whatever the
    pixels' alpha: a fade drawn in the pixels alone showed a fully frosted slab under a bezel
    still almost transparent, at both ends of every fade (300 ms at the end of a fade-out).
    Frames read every few ms through a fade-in and a fade-out over 8-pixel stripes: while the
    bezel has darkened them by less than a quarter of what it does when shown, the stripes keep
    at least a quarter of their contrast (picom's own curve blurs a little ahead of the
    opacity; the slab kept 7 %)."""
    if shutil.which("picom") is None:
        pytest.skip("picom is not installed")
    from conftest import REPO, compositor_running
    from test_liveness import Grabber
    set_striped_root(xplain.display, period=8, band=4)
    log = xplain.tmp / "picom.log"
    picom = xplain.spawn(["picom", *backends, "--config", str(REPO / "packaging" / "examples" / "picom.conf")],
                         stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    assert wait_until(lambda: compositor_running(xplain.display), 5), "picom did not start: " + log.read_text()
    bare = wallpaper_shown(xplain, 8, 4)
    row = (bare.width // 2 - 40, bare.height // 2 + 14, 80, 1)   # inside the bezel, below the label
    grab = Grabber(xplain.display)
    frames, stop = [], threading.Event()

    def sample():
        while not stop.is_set():
            px = grab.raw(row)
            red = [px[i + 2] for i in range(0, 80 * 4, 4)]
            frames.append((time.monotonic(), max(red) - min(red), sum(red) / len(red)))
            time.sleep(0.003)   # sampling interval
    t = threading.Thread(target=sample)
    t.start()
    try:
        hud = xplain.start_xhud("--mode", "text", "--label", "Material", "--bezel-color", "#00000030", "--mask", "none",
                                "--corner-radius", "16", "--no-shadow", wait_mapped=True)
        time.sleep(0.6)   # past the fade-in: time passing is what is sampled
        shown_at = len(frames)
        hud.signal(15)
        assert wait_until(lambda: not xplain.visible_hud_windows(), 3)
        time.sleep(0.2)   # what stays on screen after the HUD is gone is sampled
    finally:
        stop.set()
        t.join()
        grab.close()
        picom.terminate()
    far_spread, far_mean = frames[0][1], frames[0][2]
    shown_spread, shown_mean = frames[shown_at - 1][1], frames[shown_at - 1][2]
    assert shown_spread < far_spread / 3, f"premise: picom blurs the shown HUD: {shown_spread} vs {far_spread}"
    darkening = far_mean - shown_mean
    assert darkening > 10, f"premise: the bezel darkens what is behind: {far_mean} -> {shown_mean}"
    slab = [(round(at - frames[0][0], 3), spread, round(mean)) for at, spread, mean in frames
            if far_mean - mean < darkening / 4 and spread < far_spread / 4]
    # picom kept painting the blur of a window unmapped at a partial opacity: a ghost.
    assert abs(frames[-1][1] - far_spread) <= 4 and abs(frames[-1][2] - far_mean) <= 2, \
        f"after the HUD, the stripes are not as they were: {frames[-1][1:]} vs {(far_spread, far_mean)}"
    assert not slab, f"frost without its bezel (time, spread, mean; bare {far_spread}, {far_mean:.0f}): {slab[:8]}"
