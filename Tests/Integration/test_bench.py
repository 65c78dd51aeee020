"""The benchmarks run on a tiny setting: bench/startup.sh and bench/cpu.sh, and the whole suite,
bench/run --quick (what the figures are is never checked: these are benchmarks, not tests of
performance)."""

import os
import re
import shutil
import signal
import subprocess
import warnings

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


def test_bench_run_quick(tmp_path):
    """bench/run --quick --no-install --out DIR runs the whole suite on a tiny setting (2 runs,
    1-second steady-state windows) against $XHUD_BIN, with and without xcompmgr, and writes its
    tables (latest.md, latest.json) and its plot (startup.png, when gnuplot is installed)."""
    for tool in ("cc", "pkg-config", "Xvfb", "xdpyinfo", "python3"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed")
    if not XHUD_BIN.exists():
        pytest.skip(f"xhud binary not found at {XHUD_BIN}")
    out = tmp_path / "results"
    log = tmp_path / "run.log"
    env = dict(os.environ, XHUD_BIN=str(XHUD_BIN))
    with open(log, "wb") as f:  # a file, not a pipe: nothing the suite leaves running can hold it
        # Every section but remote and wayland, which test_remote_bench_quick and
        # test_bench_run_wayland_quick run on their own.
        proc = subprocess.Popen(["bash", str(REPO / "bench" / "run"), "--quick", "--no-install", "--out", str(out),
                                 "--only", "startup,busy,warm,steady,render,throughput,clients"],
                                stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)  # the suite tears down what it started
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            pytest.fail("bench/run --quick took more than 300 s:\n" + log.read_text(errors="replace")[-3000:])
    text = log.read_text(errors="replace")
    assert rc == 0, f"bench/run --quick exit {rc}:\n{text[-3000:]}"
    md = (out / "latest.md").read_text()
    for heading in ("## 1. Start to first painted frame", "## 2. Warm update", "## 3. Steady state",
                    "## 4. Render cost per frame", "## 5. Throughput of a named HUD"):
        assert heading in md, f"{heading} missing:\n{md}"
    assert "### no compositor" in md, md
    if shutil.which("xcompmgr"):
        assert "### xcompmgr" in md, md
    assert re.search(r"^\| floor \(C, Xlib \+ Cairo, text line\) \| 2 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| 1\.00×", md, re.M), md
    assert re.search(r"^\| \*\*xhud --mode annular\*\* \| 2 \|", md, re.M), f"xhud's start-up not measured:\n{md}"
    # The X server's cost of a refresh with nothing drawn, measured beside the spinner.
    assert re.search(r"^\| a pixel presented each refresh \(C, bench/vblank\.c\) \| [\d.]+ \|", md, re.M), md
    assert re.search(r"the X server [+-][\d.]+ % beside a pixel presented each refresh", md), md
    for name in ("osd_cat", "aosd_cat", "zenity", "yad", "notify-send", "xob"):
        assert re.search(r"^\| " + re.escape(name), md, re.M), f"{name}: no row (measured or not installed)"
    assert (out / "latest.json").stat().st_size > 0
    if shutil.which("gnuplot"):
        assert (out / "startup.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", text[-2000:]
    # bench/check.py's table of the figures against bench/thresholds.json: shown at the end of the
    # test run, advisory (--quick figures mean nothing, and a miss never fails a test).
    targets = (out / "targets.md").read_text()
    assert targets.startswith("| figure | value | target | |"), targets
    warnings.warn(UserWarning("bench/check.py on the --quick run (advisory):\n" + targets))


def test_remote_bench_quick(tmp_path):
    """bench/remote.py --quick: first paint through its latency proxy (20 ms round trip), xhud warm
    and cold beside the C floor, and the round trips each waited on, named; structure only (a
    benchmark, not a test of performance)."""
    for tool in ("cc", "pkg-config", "Xvfb", "xdpyinfo"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed")
    if not XHUD_BIN.exists():
        pytest.skip(f"xhud binary not found at {XHUD_BIN}")
    out_file = tmp_path / "remote.md"
    res = subprocess.run(["python3", str(REPO / "bench" / "remote.py"), "--quick", "--xhud", str(XHUD_BIN),
                          "--out", str(out_file)], capture_output=True, text=True, timeout=300,
                         stdin=subprocess.DEVNULL)
    out = res.stdout
    assert res.returncode == 0, f"remote.py --quick exit {res.returncode}:\n{out}\n{res.stderr}"
    assert out_file.read_text() == out
    assert "| RTT | compositor | client | min ms | median ms | max ms | / floor | waits | target |" in out, out
    figures = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and cells[0] == "20" and cells[1] == "none":
            figures[cells[2]] = cells
    number = re.compile(r"\d+(\.\d+)?")
    for label in ("floor (C, Xlib + Cairo)", "**xhud warm** (server running)", "**xhud cold** (no server: starts one)"):
        cells = figures.get(label)
        assert cells is not None, f"no row for {label}:\n{out}"
        assert all(number.fullmatch(c) for c in cells[3:8]), cells
        assert float(cells[3]) <= float(cells[4]) <= float(cells[5]), cells
    assert figures["**xhud warm** (server running)"][8].startswith("≤ RTT + 5 = 25 ms: ")
    assert figures["**xhud cold** (no server: starts one)"][8].startswith("≤ 1.0× floor: ")
    for name in ("osd_cat", "zenity --progress --pulsate"):
        if shutil.which(name.split()[0]):
            assert name in figures, f"{name} is installed but not measured:\n{out}"
    # The round trips: a row per path, a count, and what each was for.
    assert "| RTT | path | compositor | round trips | what each waited for" in out, out
    trips = {}
    for line in out.split("## Round trips", 1)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[0] == "20":
            trips[cells[1]] = cells
    for path in ("floor", "xhud-warm", "xhud-cold"):
        assert path in trips, f"no round-trip row for {path}:\n{out}"
        count = int(trips[path][3])
        listed = trips[path][4]
        assert (listed == "none") == (count == 0), trips[path]
        if count:
            assert f"{count}. " in listed and f"{count + 1}. " not in listed, trips[path]
    # Every client's first round trip is its connection's set-up.
    assert "1. [" in trips["floor"][4] and "connection set-up" in trips["floor"][4], trips["floor"]
    assert "connection set-up" in trips["xhud-cold"][4], trips["xhud-cold"]
    # A cold server asks every extension it uses at once, with its atoms, while XOpenDisplay waits
    # for BIG-REQUESTS' answer (one wait for what Xlib and the extension libraries ask one after
    # another); what needs their answers goes with XOpenDisplay's last question, and its monitors
    # and compositor come with RENDER's answer, libXrender's first question. Four round trips:
    # the set-up, the extensions, XOpenDisplay's RESOURCE_MANAGER, RENDER's formats.
    cold = trips["xhud-cold"][4]
    assert "2. [" in cold and "QueryExtension x8 (BIG-REQUESTS, RANDR, Generic Event Extension, ...), InternAtom x13" in cold, cold
    rounds = [r.split("] ", 1)[1] for r in cold.split("; ")]
    assert len(rounds) == int(trips["xhud-cold"][3]) == 4, cold
    assert "RESOURCE_MANAGER" in rounds[2] and "RENDER QueryPictFormats" in rounds[3], cold
    for name in ("BIG-REQUESTS Enable", "Generic Event Extension QueryVersion", "XFIXES QueryVersion", "GetSelectionOwner"):
        assert not any(r == name for r in rounds), f"{name} waited on alone: {cold}"
    assert "RANDR GetMonitors" in rounds[3], cold


def test_bench_run_wayland_quick(tmp_path):
    """bench/run --quick --only wayland: xhud cold and warm, wob, notify-send to mako and to xhud on a
    headless sway, first pixel by screencopy, then CPU and memory; the tables' shape only."""
    for tool in ("cc", "pkg-config", "sway", "swaybg", "python3"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} not installed (scripts/deps.sh installs it)")
    if subprocess.run(["pkg-config", "--exists", "wayland-client"]).returncode != 0:
        pytest.skip("libwayland-dev not installed (bench/wlpoll.c needs its headers)")
    if not XHUD_BIN.exists():
        pytest.skip(f"xhud binary not found at {XHUD_BIN}")
    user = os.environ.get("BENCH_WAYLAND_USER", "xhudtest")
    if os.geteuid() == 0:
        if shutil.which("runuser") is None or subprocess.run(["id", user], capture_output=True).returncode != 0:
            pytest.skip(f"sway refuses root and there is no user {user} to run it as (test_wayland.py makes it)")
        if subprocess.run(["runuser", "-u", user, "--", "test", "-x", str(XHUD_BIN)]).returncode != 0:
            pytest.skip(f"the user {user} cannot reach {XHUD_BIN}")
    out = tmp_path / "results"
    log = tmp_path / "run.log"
    env = dict(os.environ, XHUD_BIN=str(XHUD_BIN))
    with open(log, "wb") as f:
        proc = subprocess.Popen(["bash", str(REPO / "bench" / "run"), "--quick", "--no-install", "--only", "wayland",
                                 "--out", str(out)], stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        try:
            rc = proc.wait(timeout=300)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
            pytest.fail("bench/run --only wayland took more than 300 s:\n" + log.read_text(errors="replace")[-3000:])
    text = log.read_text(errors="replace")
    assert rc == 0, f"bench/run --only wayland exit {rc}:\n{text[-3000:]}"
    md = (out / "latest.md").read_text()
    section = md.split("## 7. Wayland", 1)[1] if "## 7. Wayland" in md else pytest.fail(f"no Wayland section:\n{md}")
    assert "Not measured" not in section.split("###", 1)[0], section[:600]
    assert "| client | runs | min ms | median ms | max ms | / fastest anchor | capture ms |" in section, section
    assert "| client | CPU % | wake-ups/s | peak RSS MiB | RSS MiB | sway CPU % |" in section, section
    number = r"[\d.]+"
    for label in (r"\*\*xhud --id vol --mode bar, cold\*\*", r"\*\*xhud --id vol --mode bar\*\* \(server running\)"):
        assert re.search(rf"^\| {label}[^|]* \| 2 \| {number} \| {number} \| {number} \| {number}× \w+ \| {number} \|$",
                         section, re.M), f"{label}: not measured:\n{section}"
    for name in ("wob", "notify-send (mako running)", "**notify-send (xhud server --notifications running)**"):
        assert re.search(r"^\| " + re.escape(name), section, re.M), f"{name}: no row (measured or not installed)"
    for label in ("**xhud spinner**", "**xhud --id vol --mode bar** (the server"):
        assert re.search(r"^\| " + re.escape(label) + rf"[^|]* \| {number} \| {number} \| {number} \|", section, re.M), \
            f"{label}: no CPU row:\n{section}"
    for name in ("wob showing", "mako showing"):
        assert re.search(r"^\| " + re.escape(name), section, re.M), f"{name}: no CPU row"
