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


def test_cpu_bench_runs():
    """bench/cpu.sh --seconds 1 prints its table with the three xhud rows, all numbers (what the
    numbers are is not checked: this is a benchmark, not a test of performance)."""
    if shutil.which("Xvfb") is None or shutil.which("python3") is None:
        pytest.skip("Xvfb or python3 not installed")
    if not XHUD_BIN.exists():
        pytest.skip(f"xhud binary not found at {XHUD_BIN}")
    env = dict(os.environ, XHUD_BIN=str(XHUD_BIN))
    res = subprocess.run(["bash", str(REPO / "bench" / "cpu.sh"), "--seconds", "1"], capture_output=True,
                         text=True, timeout=120, stdin=subprocess.DEVNULL, env=env)
    out = res.stdout
    assert res.returncode == 0, f"cpu.sh --seconds 1 exit {res.returncode}:\n{out}\n{res.stderr}"
    assert "| client | CPU % | wake-ups/s | peak RSS MiB | frames/s |" in out, out
    number = re.compile(r"\d+(\.\d+)?")
    for name in ("xhud spinner", "xhud static", "xhud flood"):
        cells = row(out, name)
        assert cells is not None, f"no {name} row:\n{out}"
        assert len(cells) == 5 and all(number.fullmatch(c) for c in cells[1:]), f"{name}: {cells}"
    assert row(out, "zenity") or "zenity: not installed" in out, out
