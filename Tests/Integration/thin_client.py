"""The thin `xhud` client in a test: one started and left running, the HUDs the display shows,
and the shared libraries a process has mapped."""

from __future__ import annotations

import os
import subprocess

from conftest import XHUD_BIN


def loaded_libraries(pid: int) -> set[str]:
    libs = set()
    for line in open(f"/proc/{pid}/maps"):
        path = line.split()[-1] if len(line.split()) >= 6 else ""
        if ".so" in path:
            libs.add(os.path.basename(path))
    return libs


def hud_rects(x) -> list[tuple[int, int, int, int]]:
    return [w.rect for w in x.visible_hud_windows()]


def start(x, *args, stdin=subprocess.DEVNULL, stdout=None):
    return x.spawn([str(XHUD_BIN), *args], stdin=stdin, stdout=stdout or subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
