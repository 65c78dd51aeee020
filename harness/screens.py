"""Screenshots as RGB pixels: read from a binary PPM (ImageMagick's `import`, grim), the colour
of a pixel, the bytes of a region, the box of what differs from a background."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Screenshot:
    width: int
    height: int
    data: bytes  # RGB, 8 bits per channel, rows top to bottom

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel {x},{y} outside {self.width}x{self.height}")
        i = (y * self.width + x) * 3
        return tuple(self.data[i : i + 3])

    def region(self, x0: int, y0: int, w: int, h: int) -> bytes:
        """The pixels of a region (clipped to the screen), row after row."""
        x0, x1 = max(0, x0), min(self.width, x0 + w)
        stride = self.width * 3
        return b"".join(self.data[y * stride + x0 * 3 : y * stride + x1 * 3] for y in range(max(0, y0), min(self.height, y0 + h)))

    def bbox_not(self, colour, tolerance: int = 10, region=None):
        """Bounding box (left, top, right, bottom; inclusive) of the pixels that differ from
        `colour` by more than `tolerance` in some channel, inside region (x, y, w, h); None
        when there are none."""
        rx, ry, rw, rh = region or (0, 0, self.width, self.height)
        rx0, ry0 = max(0, rx), max(0, ry)
        rx1, ry1 = min(self.width, rx + rw), min(self.height, ry + rh)
        bg_row = bytes(colour) * (rx1 - rx0)
        stride = self.width * 3
        cr, cg, cb = colour

        def differs(row: bytes, px: int) -> bool:
            i = px * 3
            return (abs(row[i] - cr) > tolerance or abs(row[i + 1] - cg) > tolerance
                    or abs(row[i + 2] - cb) > tolerance)

        left, top, right, bottom = None, None, None, None
        n = rx1 - rx0
        for y in range(ry0, ry1):
            row = self.data[y * stride + rx0 * 3 : y * stride + rx1 * 3]
            if row == bg_row:  # the usual row: skipped without a look at each pixel
                continue
            first = next((px for px in range(n) if differs(row, px)), None)
            if first is None:
                continue
            last = next(px for px in range(n - 1, first - 1, -1) if differs(row, px))
            top = y if top is None else top
            bottom = y
            left = rx0 + first if left is None else min(left, rx0 + first)
            right = rx0 + last if right is None else max(right, rx0 + last)
        if top is None:
            return None
        return (left, top, right, bottom)

    def save_ppm(self, path: Path) -> None:
        path.write_bytes(b"P6\n%d %d\n255\n" % (self.width, self.height) + self.data)


def region_bytes(shot: Screenshot, region) -> bytes:
    """The pixels of region (x, y, w, h; clipped to the screen), row after row."""
    return shot.region(*region)


def parse_ppm(raw: bytes) -> Screenshot:
    # P6 <ws> width <ws> height <ws> maxval <one ws> data; ImageMagick and grim write no comments
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", raw)
    if not m:
        raise ValueError("not a binary PPM")
    w, h, maxval = int(m.group(1)), int(m.group(2)), int(m.group(3))
    data = raw[m.end() :]
    if maxval > 255:  # 16 bits per channel, big-endian: keep the high bytes
        data = data[0::2]
    if len(data) < w * h * 3:
        raise ValueError(f"short PPM: {len(data)} bytes for {w}x{h}")
    return Screenshot(w, h, bytes(data[: w * h * 3]))
