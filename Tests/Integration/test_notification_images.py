"""What a notification carries, drawn: images of every format (JPEG by path and by file:// URI,
GIF, BMP, WebP through gdk-pixbuf) in their colours, an OSD's icon above its bar, `<b>` in a
body bolder than the regular text around it, a link in its colour; an image that cannot be read
is said on the server's stderr. The real notify-send against `xhud server --notifications` on a
private bus (test_notifications.py's harness); pixels read back from the screen."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import wait_until
from hud_pixels import bar_fill, bright, bright_bands
from named_client import nx, hidden  # noqa: F401  (nx: a fixture)
from test_notifications import bus, stable_hud  # noqa: F401  (bus: a fixture)

if shutil.which("convert") is None:
    pytestmark = pytest.mark.skip(reason="ImageMagick's convert not installed")

WEBP_LOADER = Path("/usr/lib/x86_64-linux-gnu/gdk-pixbuf-2.0/2.10.0/loaders/libpixbufloader-webp.so")
LINK = (0x3D, 0x8F, 0xE8)   # NotificationMarkup.linkColor


def image(tmp: Path, name: str, colour: str, size="64x64") -> Path:
    path = tmp / name
    subprocess.run(["convert", "-size", size, f"xc:{colour}", str(path)], check=True, timeout=20)
    return path


def near(px, rgb, tol=40) -> bool:
    return all(abs(a - b) <= tol for a, b in zip(px, rgb))


def count(shot, rect, test) -> int:
    x0, y0, w, h = rect
    return sum(1 for y in range(y0, y0 + h) for xx in range(x0, x0 + w) if test(shot.pixel(xx, y)))


def shows_colour(bus, rgb, least=200):
    """Waits for one HUD that has at least `least` pixels of the colour; returns how many."""
    def seen():
        win, shot = stable_hud(bus.x)
        n = count(shot, win.rect, lambda p: near(p, rgb))
        return n if n >= least else None
    return wait_until(seen, 5, 0.1)


def test_jpeg_by_path_and_by_file_uri(bus, tmp_path):
    """libnotify's own test image is a JPEG: by path (-i) and as a file:// URI (image-path,
    with an escaped space) it is drawn in its colour, not the drawn info icon."""
    _, err = bus.start_server()
    green = image(tmp_path, "green.jpg", "#20c040")
    nid = int(bus.run("notify-send", "-p", "-i", str(green), "JPEG", "by path").stdout)
    assert shows_colour(bus, (0x20, 0xC0, 0x40)), f"the JPEG's green is not drawn: {err.read_text()}"
    bus.call("CloseNotification", str(nid))
    assert hidden(bus.x, 3)
    orange = image(tmp_path, "an orange.jpg", "#e08020")
    uri = "file://" + str(orange).replace(" ", "%20")
    bus.run("notify-send", "-h", f"string:image-path:{uri}", "JPEG", "by URI")
    assert shows_colour(bus, (0xE0, 0x80, 0x20)), f"the JPEG named by URI is not drawn: {err.read_text()}"
    assert "cannot use image" not in err.read_text()


@pytest.mark.parametrize("name,colour,rgb", [("red.gif", "#e03020", (0xE0, 0x30, 0x20)),
                                             ("blue.bmp", "#2040e0", (0x20, 0x40, 0xE0)),
                                             ("yellow.webp", "#e0d020", (0xE0, 0xD0, 0x20))])
def test_gif_bmp_webp(bus, tmp_path, name, colour, rgb):
    if name.endswith(".webp") and not WEBP_LOADER.exists():
        pytest.skip("webp-pixbuf-loader not installed")
    _, err = bus.start_server()
    bus.run("notify-send", "-i", str(image(tmp_path, name, colour)), name, "an image")
    assert shows_colour(bus, rgb), f"{name} is not drawn: {err.read_text()}"


def test_an_image_that_cannot_be_read_is_said(bus, tmp_path):
    """A file of no image format: the HUD shows its drawn icon, and the server says why."""
    _, err = bus.start_server()
    junk = tmp_path / "junk.jpg"
    junk.write_text("not a picture at all")
    bus.run("notify-send", "-i", str(junk), "Junk", "an image it cannot read")
    stable_hud(bus.x)
    said = wait_until(lambda: "cannot use image" in err.read_text() and str(junk) in err.read_text(), 5)
    assert said, err.read_text()


def test_an_osd_draws_its_icon_above_its_bar(bus, tmp_path):
    _, err = bus.start_server()
    red = image(tmp_path, "speaker.png", "#d02020")
    bus.run("notify-send", "-i", str(red), "-h", "int:value:45", "-h", "string:x-canonical-private-synchronous:volume", "Volume")
    assert shows_colour(bus, (0xD0, 0x20, 0x20)), f"the OSD's icon is not drawn: {err.read_text()}"
    win, shot = stable_hud(bus.x)
    fill, track, _ = bar_fill(shot, win.rect)
    assert track > 60 and 0.3 < fill / track < 0.6, (fill, track)


def body_ink(bus, body: str) -> int:
    """The bright pixels of a notification's body (its lowest band of text), summary "S"."""
    nid = int(bus.run("notify-send", "-p", "-a", "t", "S", body).stdout)
    win, shot = stable_hud(bus.x)
    bands = bright_bands(shot, win.rect)
    assert len(bands) >= 3, f"icon, summary and body expected, got {bands}"
    top, bottom = bands[-1]
    x0, _, w, _ = win.rect
    ink = count(shot, (x0, top, w, bottom - top + 1), bright)
    bus.call("CloseNotification", str(nid))
    assert hidden(bus.x, 3)
    return ink


def test_bold_in_a_body_stands_out(bus):
    """The body is regular: `<b>` in it is visibly bolder than the same words without."""
    bus.start_server()
    regular = body_ink(bus, "HMMMMH&amp;")   # an entity: markup, as the bold one is
    bold = body_ink(bus, "<b>HMMMMH</b>&amp;")
    assert bold > regular * 1.2, f"<b> is not bolder than the body around it: {bold} vs {regular} bright pixels"


def test_a_link_is_drawn_in_its_colour(bus):
    _, err = bus.start_server()
    bus.run("notify-send", "Link", 'see <a href="https://example.com/">example.com</a> now')
    win, shot = stable_hud(bus.x)
    linked = count(shot, win.rect, lambda p: near(p, LINK, 30))
    assert linked > 40, f"{linked} pixels of the link colour"
    caps = bus.call("GetCapabilities").stdout
    assert "'body-hyperlinks'" in caps, caps


def link_centres(shot, rect) -> list[tuple[int, int]]:
    """The centre of each run of the link colour along the rows of `rect`, left to right, in
    the row that has the most of it (links on one line)."""
    x0, y0, w, h = rect
    best = max(range(y0, y0 + h), key=lambda y: sum(1 for x in range(x0, x0 + w) if near(shot.pixel(x, y), LINK, 30)))
    runs, start, gap = [], None, 0
    for x in range(x0, x0 + w + 1):
        on = x < x0 + w and near(shot.pixel(x, best), LINK, 30)
        if on:
            start = x if start is None else start
            gap = 0
        elif start is not None:
            gap += 1
            if gap > 12:   # a word gap inside a link is narrower than the text between links
                runs.append(((start + x - gap) // 2, best))
                start, gap = None, 0
    return runs


def test_a_click_opens_the_link_under_it(bus, tmp_path):
    """A click on a link of a body opens that link with xdg-open (a stand-in here, first on the
    server's PATH): the second of two when it is clicked; a click beside the links opens
    nothing; a file: link is never opened. Each click dismisses the notification."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    opened = tmp_path / "opened"
    (bin_dir / "xdg-open").write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> {opened}\n")
    (bin_dir / "xdg-open").chmod(0o755)
    bus.x.env = dict(bus.x.env, PATH=f"{bin_dir}:{bus.x.env.get('PATH', '/usr/bin:/bin')}")
    bus.start_server()
    body = ('<a href="https://example.com/a?b=1&amp;c=2">first page</a> or '
            '<a href="https://example.org/two">second page</a>')
    bus.run("notify-send", "Links", body)
    win, shot = stable_hud(bus.x)
    links = link_centres(shot, win.rect)
    assert len(links) == 2, f"two links drawn: {links}"
    bus.x.click(*links[1])
    assert wait_until(lambda: opened.exists() and opened.read_text().strip(), 5), "xdg-open was not run"
    assert opened.read_text().split() == ["https://example.org/two"], "the link under the click"
    assert hidden(bus.x, 3), "the click dismisses it too"
    bus.run("notify-send", "Links", body)
    win, shot = stable_hud(bus.x)
    bus.x.click(win.rect[0] + 6, win.rect[1] + win.rect[3] // 2)   # the bezel's margin: no link
    assert hidden(bus.x, 3)
    bus.run("notify-send", "File", 'see <a href="file:///etc/passwd">a file</a> here')
    win, shot = stable_hud(bus.x)
    bus.x.click(*link_centres(shot, win.rect)[0])
    assert hidden(bus.x, 3)
    assert opened.read_text().split() == ["https://example.org/two"], "a click beside the links, or a file: link, opened one"