"""bench/startup.sh runs, quickly, with --runs 2."""

import os
import re
import shutil
import subprocess

import pytest

from conftest import REPO, XHUD_BIN

SCRIPT = REPO / "bench" / "startup.sh"


def run_bench(*args, timeout=180):
    for tool in ("cc", "pkg-config", "Xvfb"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed")
    env = dict(os.environ, XHUD_BIN=str(XHUD_BIN))
    res = subprocess.run(["bash", str(SCRIPT), "--runs", "2", *args], capture_output=True, text=True,
                         timeout=timeout, stdin=subprocess.DEVNULL, env=env)
    assert res.returncode == 0, f"startup.sh {' '.join(args)} exit {res.returncode}:\n{res.stdout}\n{res.stderr}"
    return res.stdout


def row(out, name):
    for line in out.splitlines():
        if line.startswith("| " + name):
            return [c.strip() for c in line.strip().strip("|").split("|")]
    return None


@pytest.mark.parametrize("args", [[], ["--compositor"]], ids=["plain", "composited"])
def test_startup_bench(args):
    if args and shutil.which("xcompmgr") is None:
        pytest.skip("xcompmgr not installed")
    out = run_bench(*args)
    assert "| client | runs | min ms | median ms | max ms | median / floor |" in out, out
    floor = row(out, "floor")
    assert floor is not None, out
    assert floor[1] == "2", floor
    mn, med, mx = (float(v) for v in floor[2:5])
    assert 0 < mn <= med <= mx < 2000, floor
    assert floor[5] == "1.00×", floor
    if XHUD_BIN.exists():
        xhud = row(out, "xhud")
        assert xhud is not None, out
        assert not xhud[1].startswith("failed"), f"xhud never drew the screen centre: {xhud}"
        assert re.fullmatch(r"\d+\.\d\d×", xhud[5]), xhud
    for name in ("osd_cat", "aosd_cat", "zenity", "yad"):
        assert row(out, name) or f"{name}" in out, f"{name}: neither measured nor reported as not installed"
