"""Named HUDs as a keybinding reaches them: `xhud --id NAME ...` run to its end against the
display's server, in a session with a private runtime directory (the fixture nx); the servers of
the session, its socket, the one HUD window shown, a HUD hidden."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from conftest import TAG, XHUD_BIN, kill_tagged, tagged_hosts, wait_until
from hud_pixels import visible

LINGER = ["--linger", "0.5"]   # servers go away on their own soon after their last HUD
OTHER_UID = 54321   # a user that is not this one, for the tests that act as another user


@pytest.fixture
def nx(xplain):
    """xplain with a private XDG_RUNTIME_DIR (0700, under /tmp so that the other-uid test can
    reach it when it opens it up) and a tag on the environment; every server started is killed
    at the end."""
    yield from private_runtime(xplain)


def private_runtime(xplain):
    rt = Path(tempfile.mkdtemp(prefix="xhud-rt-", dir="/tmp"))
    os.chmod(rt, 0o700)
    tag = uuid.uuid4().hex
    xplain.env = dict(xplain.env, XDG_RUNTIME_DIR=str(rt), **{TAG: tag})
    xplain.rt = rt
    xplain.tag = tag
    try:
        yield xplain
    finally:
        kill_tagged(tag)
        shutil.rmtree(rt, ignore_errors=True)


def sock_path(x) -> Path:
    return x.rt / "xhud" / (x.display.lstrip(":").split(".")[0] + ".sock")


def named(x, *args, timeout=10) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([str(XHUD_BIN), *args], env=x.env, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"xhud {' '.join(args)} did not return within {timeout} s")


def ok(x, *args):
    t0 = time.monotonic()
    res = named(x, *args)
    took = time.monotonic() - t0
    assert res.returncode == 0, f"xhud {' '.join(args)}: exit {res.returncode}, stderr {res.stderr.strip()!r}"
    return res, took


def servers(x) -> list[int]:
    return tagged_hosts(x.tag)


def one_window(x, timeout=2.0):
    wins = wait_until(lambda: visible(x), timeout)
    assert wins, "no xhud window"
    time.sleep(0.15)   # a second window, if there is one, shows meanwhile: time passing is what is tested
    wins = visible(x)
    assert len(wins) == 1, f"want exactly one xhud window, got {[w.rect for w in wins]}"
    return wins[0]


def hidden(x, timeout):
    return wait_until(lambda: not [w for w in x.hud_windows() if w.viewable], timeout, 0.02)
