"""Constants, targets, logging and the tables' formatting, shared by every module."""

from __future__ import annotations

import json
import os
import signal
import statistics
import sys
import time
from pathlib import Path




BG = "3366cc"


SCREEN_W, SCREEN_H = 1280, 800


FULL = f"{SCREEN_W}x{SCREEN_H}+0+0"


HZ = os.sysconf("SC_CLK_TCK")


_THRESHOLDS = {t["metric"]: t["max"] for t in json.loads((Path(__file__).resolve().parents[1] / "thresholds.json").read_text())["thresholds"]}


T_WARM_FLOOR = _THRESHOLDS["startup_ratio:xhud-warm"]  # warm first paint (the display's server running) over the floor's median


T_COLD_FLOOR = _THRESHOLDS["startup_ratio:xhud-cold"]  # cold first paint (no server running) over the floor's median ...


T_COLD_NEW_FLOOR = _THRESHOLDS["startup_ratio:xhud-cold-new"]  # ... the first cold start ever (no font match kept)


T_COLD_AHEAD = ("osd_cat", "aosd_cat")  # ... and ahead of these


T_COLD_BUSY = _THRESHOLDS["busy_ratio:xhud-cold"]  # cold first paint with a busy loop on each core, over the floor's under the same load


T_WARM_XOB_MS = 4.0  # xob's FIFO update (performance-notes.md), when xob itself is not installed


T_STATIC_CPU = 0.05  # "0.0 %" at one decimal


T_STATIC_WAKE = 1.0


T_SPIN_CPU = _THRESHOLDS["steady_cpu_with_x:xhud-spin"]  # the server and the X server together


T_SERVER_RSS_MIB = _THRESHOLDS["steady_rss:xhud-spin"]  # the server drawing one HUD


T_PER_HUD_MIB = 1.0  # each further HUD, on top of that


T_CLIENT_RSS_MIB = _THRESHOLDS["steady_client_rss:xhud-spin"]  # an `xhud` client


T_CLIENTS = 20  # HUDs from as many clients at once ...


T_CLIENT_MAP_MS = _THRESHOLDS["clients_max_ms"]  # ... each mapped within this of its client's spawn


T_RENDER_MS = 0.3


T_KEEPUP_MS = 50.0  # throughput: the last value on screen at most 3 frames later than on an idle HUD


T_GROWTH_MIB = 1.0


KEEP = ["--hide-after", "600"]


def log(*a):
    print("bench:", *a, file=sys.stderr, flush=True)


class Interrupted(Exception):
    pass


def _on_signal(signum, frame):
    # Once: the tear-down that follows must not be interrupted by the next Ctrl-C or SIGTERM.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda *_: None)
    raise Interrupted(signal.Signals(signum).name)


def mmm(values):
    v = sorted(values)
    return (v[0], statistics.median(v), v[-1]) if v else None


def f1(v, nd=1):
    return "-" if v is None else f"{v:.{nd}f}"


def mark(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**missed**")


def md_table(header: list[str], rows: list[list[str]], align=None) -> str:
    align = align or ["---"] + ["---:"] * (len(header) - 2) + ["---"]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    for r in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in r) + " |")
    return "\n".join(lines)


CROSS_CHECKED = ("floor", "xhud-warm", "xhud-cold")


PATCH = 9  # the side of the square watched around a client's first changed pixel


def patch_around(pixel: str) -> str:
    """The PATCH x PATCH square around a pixel ("X,Y"), inside the screen."""
    x, y = map(int, pixel.split(","))
    x0 = min(max(0, x - PATCH // 2), SCREEN_W - PATCH)
    y0 = min(max(0, y - PATCH // 2), SCREEN_H - PATCH)
    return f"{PATCH}x{PATCH}+{x0}+{y0}"


def sh_quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


def write_fifo(path: Path, text: str) -> None:
    """`echo TEXT > fifo`: blocks until a reader has it open (for at most 5 s)."""
    deadline = time.monotonic() + 5
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nobody reads {path}")
            time.sleep(0.02)
    os.set_blocking(fd, True)
    os.write(fd, text.encode())
    os.close(fd)
