"""xhud as a shell script runs it: sessions whose detached HUDs are found and killed by a tag in
their environment (the fixtures xs and xt), xhud run to its end, and the lines of its output."""

from __future__ import annotations

import subprocess
import uuid

import pytest

from conftest import TAG, XHUD_BIN, kill_tagged


@pytest.fixture
def xs(xplain):
    """xplain, with an environment tagged so that detached HUDs are found and killed."""
    tag = uuid.uuid4().hex
    xplain.env = dict(xplain.env, **{TAG: tag})
    try:
        yield xplain
    finally:
        kill_tagged(tag)


@pytest.fixture
def xt(x):
    """x (with and without xcompmgr), tagged like xs."""
    tag = uuid.uuid4().hex
    x.env = dict(x.env, **{TAG: tag})
    try:
        yield x
    finally:
        kill_tagged(tag)


def xhud(args, env, timeout=10, **kw) -> subprocess.CompletedProcess:
    try:
        return subprocess.run([str(XHUD_BIN), *args], env=env, capture_output=True, timeout=timeout,
                              stdin=kw.pop("stdin", subprocess.DEVNULL), **kw)
    except subprocess.TimeoutExpired:
        pytest.fail(f"xhud {' '.join(args)} did not exit within {timeout} s")


def lines_of(data) -> list[str]:
    if isinstance(data, bytes):
        data = data.decode(errors="replace")
    return [l for l in data.splitlines() if l.strip()]
