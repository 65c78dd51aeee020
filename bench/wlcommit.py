#!/usr/bin/env python3
"""A second measure of a warm Wayland HUD's start, independent of the screencopy poller
(bench/wlpoll.c): the time from the client's exec to the server's first commit of a surface with
a buffer attached, read from libwayland's own log of the server's requests (WAYLAND_DEBUG=client,
a realtime clock in microseconds). The compositor shows that commit on its next frame, so the
first pixel the poller sees is this plus up to a frame. Run as root or as the user sway runs as:

    bench/wlcommit.py [--runs 7] [--xhud .build/release/xhud]"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from harness.sway import Sway, sway_user  # noqa: E402

LINE = re.compile(rb"^\[\s*(\d+)\.(\d{3})\]\s+-> (wl_surface@\d+)\.(attach|commit)\((wl_buffer@\d+)?")
EXEC = ("import os, sys, time; open(sys.argv[1], 'w').write(str(time.clock_gettime_ns(time.CLOCK_REALTIME) // 1000)); "
        "os.execv(sys.argv[2], sys.argv[2:])")


def first_commit(log: bytes, since: int) -> int | None:
    """The first commit of a surface with a buffer attached at or after since (µs, as libwayland
    prints them: modulo 2^32)."""
    attached: set[bytes] = set()
    for line in log.splitlines():
        m = LINE.match(line)
        if not m:
            continue
        at = int(m.group(1)) * 1000 + int(m.group(2))
        if (at - since) % 2**32 > 2**31:
            continue  # before since
        if m.group(4) == b"attach" and m.group(5):
            attached.add(m.group(3))
        elif m.group(4) == b"commit" and m.group(3) in attached:
            return at
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--xhud", default=str(Path(__file__).resolve().parent.parent / ".build/release/xhud"))
    a = ap.parse_args()
    user, why = sway_user(make=True)
    if why:
        print(f"wlcommit: {why}", file=sys.stderr)
        return 2
    s = Sway("xhud-wlcommit.", user)
    try:
        s.start()
        log = s.directory / "server.log"
        s.own(s.directory)
        server = s.spawn_client(["sh", "-c", f'exec "$0" server 2>"{log}"', a.xhud], WAYLAND_DEBUG="client", NO_AT_BRIDGE="1")
        time.sleep(1.5)
        bar = [a.xhud, "--id", "vol", "--mode", "bar", "--progress", "0.5"]
        s.run(bar)
        time.sleep(1)
        figures = []
        for i in range(a.runs):
            s.run([a.xhud, "hide", "--id", "vol"])
            time.sleep(1)
            mark = s.directory / f"t0.{i}"
            s.run(["/usr/bin/python3", "-c", EXEC, mark, *bar])
            time.sleep(0.5)
            t0 = int(mark.read_text()) % 2**32
            at = first_commit(log.read_bytes(), t0)
            if at is None:
                print(f"wlcommit: run {i}: no commit after the exec", file=sys.stderr)
                continue
            figures.append(((at - t0) % 2**32) / 1000)
        server.terminate()
        if not figures:
            return 1
        print(f"warm exec to first commit, {len(figures)} runs: median {statistics.median(figures):.1f} ms "
              f"(min {min(figures):.1f}, max {max(figures):.1f})")
        return 0
    finally:
        s.end_clients()
        s.stop()
        s.remove()


if __name__ == "__main__":
    sys.exit(main())
