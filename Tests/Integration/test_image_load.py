"""Images a request names are read and decoded off the server's loop: a bitmap on the image
thread, an SVG or a large bitmap by a child first; the loop only draws what is ready. A file that
changes between requests (album art written to one path) shows its new pixels."""

from __future__ import annotations

import os
import struct
import time
import zlib
from pathlib import Path

from conftest import tagged_hosts, wait_until
from named_client import LINGER, named, nx, ok  # noqa: F401 (nx is a fixture)
from test_liveness import Grabber
from test_text_load import cpu_while_shown, process_age


def png(path: Path, w: int, h: int, pixel=None) -> Path:
    """An RGBA PNG of w x h: one colour, or noise (which takes the longest to inflate)."""
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    row = (bytes(pixel) * w) if pixel else None
    rows = b"".join(b"\0" + (row or os.urandom(w * 4)) for _ in range(h))
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
    os.replace(tmp, path)   # as a program writes a file others read: whole or not at all
    return path


def test_a_bitmap_is_decoded_on_the_image_thread(nx, tmp_path):
    ok(nx, "--id", "first", "--mode", "text", "--label", "First", "--hide-after", "30", "--animation", "none",
       "--geometry", "300x200+0+0", *LINGER)
    [pid] = tagged_hosts(nx.tag)
    assert wait_until(lambda: process_age(pid) > 1.5, 5)   # past its start's work
    image = png(tmp_path / "noise.png", 256, 256)
    spent = cpu_while_shown(nx, pid, "--id", "pic", "--mode", "custom", "--image", str(image), "--image-size", "120",
                            "--geometry", "600x800+680+0", "--animation", "none", "--hide-after", "30")
    decoded, loop = spent.get("xhud-image", 0), spent["main"]
    # Reading and inflating 256 KB of noise: on the image thread, not the loop.
    assert decoded > 3e5, f"the image thread took {decoded / 1e6:.2f} ms, the loop {loop / 1e6:.1f} ms (threads: {sorted(spent)})"


def centre(grabber: Grabber, x: int, y: int) -> tuple[int, int, int]:
    b, g, r, _ = grabber.raw((x, y, 1, 1))[:4]
    return r, g, b


def test_an_image_rewritten_between_updates_shows_its_new_pixels(nx, tmp_path):
    """A player writes each song's cover to one path, then updates its HUD."""
    cover = png(tmp_path / "cover.png", 64, 64, pixel=(255, 0, 0, 255))
    args = ["--id", "song", "--mode", "custom", "--image", str(cover), "--image-size", "64",
            "--geometry", "400x400+0+0", "--animation", "none", "--hide-after", "30", *LINGER]
    ok(nx, *args)
    grabber = Grabber(nx.env["DISPLAY"])
    try:
        assert wait_until(lambda: centre(grabber, 200, 200 - 0)[0] > 200 or any(
            centre(grabber, 200, y)[0] > 200 and centre(grabber, 200, y)[2] < 50 for y in range(150, 250, 4)), 5), \
            "the red cover never showed"
        red_at = next(y for y in range(150, 250, 2) if centre(grabber, 200, y)[0] > 200 and centre(grabber, 200, y)[2] < 50)
        time.sleep(0.01)   # a new mtime even on a coarse clock
        png(cover, 64, 64, pixel=(0, 0, 255, 255))
        ok(nx, *args)
        assert wait_until(lambda: centre(grabber, 200, red_at)[2] > 200 and centre(grabber, 200, red_at)[0] < 50, 5), \
            f"the cover still shows {centre(grabber, 200, red_at)} after it was rewritten blue"
    finally:
        grabber.close()
