#!/usr/bin/env python3
"""A remote display (`ssh -X`, a build server far away): first paint through a latency proxy, and
the X round trips each client waits on, xhud beside the C floor, osd_cat and zenity, in one run.

    bench/remote.py [--rtt 20[,100]] [--runs N] [--compositor both|on|off] [--quick]
                    [--xhud PATH] [--helpers DIR] [--display N] [--out FILE] [--trace]

Xvfb listens on TCP (`-listen tcp -ac`); a proxy in this script (asyncio, one event loop thread)
forwards 127.0.0.1:(6000+P) to it and holds every byte half the round trip in each direction
(order kept: a FIFO per direction, each chunk sent at its arrival time + RTT/2). The measured
clients get DISPLAY=127.0.0.1:P; firstframe (bench/firstframe.c) watches the real display and
times exec to the first changed pixels (`--cmd-display`). xhud's HUD server connects through the
proxy too: warm, a `xhud server` started with the proxied DISPLAY (it has shown one HUD before);
cold, none runs and the invocation starts one (its font match kept from an earlier start, as on
any second start). With a compositor, xcompmgr runs locally on the real display: only the HUD's
processes are remote.

Round trips: the proxy parses the X11 protocol in both directions (the connection set-up, each
request's opcode and length with BIG-REQUESTS, the extensions' major opcodes from QueryExtension
replies, each reply's, error's and event's sequence number). A *wait* is a client falling silent
after a request batch until something from the server reaches it, at least 0.75 RTT later; it is
named by what arrived (the replies by the requests they answer: InternAtom _NET_WM_NAME,
QueryExtension RENDER, GetInputFocus = XSync, ...; events by name). Only the waits that end
before the first paint count: the first request batch that draws onto a mapped window (core
drawing, RENDER Composite/FillRectangles/Glyphs/Trapezoids onto a picture of it, MIT-SHM
PutImage), or maps a window with a background pixel, on any connection opened for the run (a
warm server's connection counts from the run's start).

Targets (issue #33): warm first paint within RTT + 5 ms; cold at most 1.0x the C floor's median.
Prints a markdown report (also to --out); exit 0 unless the bench itself could not run. The
proxy, the protocol it follows, the round trips and the report are in bench/remotebench/.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The processes of a run: the harness of the integration tests and the suite (harness/).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness.procs import end_hosts  # noqa: E402
from harness.xserver import answers, display_taken, private_dir, x_environment  # noqa: E402
from remotebench.proxy import Proxy  # noqa: E402
from remotebench.report import fmt, report  # noqa: E402
from remotebench.round_trips import first_paint_time, waits_of  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
BG = "3366cc"


# ---------------------------------------------------------------------------------------------
# Processes


def end_runtime_hosts(runtime: str) -> None:
    end_hosts("XDG_RUNTIME_DIR", runtime)


def stop(p: subprocess.Popen | None) -> None:
    if p is None or p.poll() is not None:
        return
    p.terminate()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()


class Bench:
    def __init__(self, a, helpers: Path, work: Path):
        self.a = a
        self.ff = str(helpers / "firstframe")
        self.floor = str(helpers / "floor")
        self.xhud = a.xhud
        self.work = work
        self.procs: list[subprocess.Popen] = []

    def free_display(self, start: int) -> int:
        """The first display number from start that is free, and free 100 higher (the proxy's)."""
        n = start
        while display_taken(n) or display_taken(n + 100):
            n += 1
        return n

    def session(self, composited: bool, rtt_ms: float):
        """Xvfb :n on TCP, maybe xcompmgr on it, the proxy as display n+100."""
        n = self.free_display(self.a.display)
        local = x_environment(f":{n}", dict(os.environ, NO_AT_BRIDGE="1"), drop_bus=True)
        xvfb = subprocess.Popen(["Xvfb", f":{n}", "-screen", "0", "1280x800x24", "-listen", "tcp", "-ac", "-noreset"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.procs.append(xvfb)
        if not answers(local, 10, xvfb):
            raise RuntimeError(f"Xvfb :{n} did not start")
        subprocess.run([self.ff, "setbg", BG], env=local, check=True)
        comp = None
        if composited:
            comp = subprocess.Popen(["xcompmgr"], env=local, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.procs.append(comp)
            if subprocess.run([self.ff, "waitcm", "5000"], env=local).returncode != 0:
                raise RuntimeError("xcompmgr did not start")
            time.sleep(0.3)
        proxy = Proxy(6000 + n + 100, 6000 + n, rtt_ms / 2000)
        runtime = private_dir(self.work / f"run{n}")
        remote = dict(local, DISPLAY=f"127.0.0.1:{n + 100}", XDG_RUNTIME_DIR=str(runtime),
                      XDG_CACHE_HOME=str(self.work / f"cache{n}"))
        local["XDG_RUNTIME_DIR"] = str(runtime)
        return {"n": n, "xvfb": xvfb, "comp": comp, "proxy": proxy, "local": local, "remote": remote,
                "runtime": str(runtime), "server": None,
                "font_matches": self.work / f"cache{n}" / "xhud" / "fonts" / "matches"}

    def close(self, s) -> None:
        stop(s.get("server"))
        end_runtime_hosts(s["runtime"])
        s["proxy"].close()
        for p in (s["comp"], s["xvfb"]):
            stop(p)

    def firstframe(self, s, cmd: list[str], stdin: str | None = None) -> tuple[float | None, str]:
        args = [self.ff, "--bg", BG, "--auto", "--timeout", "15000", "--settle", "5000",
                "--cmd-display", s["remote"]["DISPLAY"]]
        if stdin is not None:
            args += ["--stdin-text", stdin]
        env = dict(s["remote"], DISPLAY=s["local"]["DISPLAY"])
        r = subprocess.run(args + ["--", *cmd], env=env, capture_output=True, text=True, timeout=60)
        m = re.fullmatch(r"\s*([\d.]+) ([\d.]+)\s*", r.stdout)
        if r.returncode == 0 and m:
            return float(m.group(1)), ""
        return None, (r.stdout + r.stderr).strip()[-200:]

    def start_server(self, s, xhud: str) -> None:
        end_runtime_hosts(s["runtime"])
        s["server_bin"] = xhud
        p = subprocess.Popen([xhud, "server"], env=s["remote"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        self.procs.append(p)
        s["server"] = p
        sock = Path(s["runtime"]) / "xhud" / f"127.0.0.1_{s['n'] + 100}.sock"
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if p.poll() is not None:
                raise RuntimeError(f"`xhud server` exited {p.returncode}")
            if sock.exists():
                try:
                    r = subprocess.run([xhud, "list"], env=s["remote"], capture_output=True, timeout=10)
                    if os.environ.get("REMOTE_DEBUG"): print("list:", r.returncode, r.stderr[-300:], file=sys.stderr)
                    if r.returncode == 0:
                        return
                except subprocess.TimeoutExpired:
                    pass   # a busy machine: ask again until the deadline
            time.sleep(0.05)
        listing = sorted(os.listdir(Path(s["runtime"]) / "xhud")) if (Path(s["runtime"]) / "xhud").exists() else "no directory"
        raise RuntimeError(f"`xhud server` did not answer ({sock.name} expected; {listing})")

    def keep_font_matches(self, s, cmd) -> None:
        if s["font_matches"].exists():
            return
        subprocess.run([*cmd, "--hide-after", "0.3", "--linger", "1"], env=s["remote"], capture_output=True, timeout=60)
        deadline = time.monotonic() + 10
        while not s["font_matches"].exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        end_runtime_hosts(s["runtime"])

    def run_one(self, s, key: str, cmd, opt) -> tuple[float | None, list, str]:
        proxy: Proxy = s["proxy"]
        rtt = self.a.current_rtt / 1000
        if opt.get("server") == "warm":
            if s["server"] is None or s["server"].poll() is not None or s.get("server_bin") != cmd[0]:
                stop(s["server"])
                self.start_server(s, cmd[0])
                self.firstframe(s, cmd)  # a server that has shown one HUD before
                time.sleep(0.3)
        elif opt.get("server") == "cold":
            stop(s["server"])
            s["server"] = None
            end_runtime_hosts(s["runtime"])
            self.keep_font_matches(s, cmd)
        else:
            if s["server"] is not None:
                stop(s["server"])
                s["server"] = None
            end_runtime_hosts(s["runtime"])
        with proxy.lock:
            known = len(proxy.conns)
        since = time.monotonic()
        ms, err = self.firstframe(s, cmd, opt.get("stdin"))
        time.sleep(0.05)
        with proxy.lock:
            conns = proxy.conns[known:]
            if opt.get("server") == "warm":
                conns = proxy.conns[:]  # the server's connection is older than the run
        paint = first_paint_time(conns, since)
        waits = []
        for c in conns:
            waits += [(c.id, ms_, what) for ms_, what in waits_of(c, since, paint, rtt)]
        if opt.get("server") == "cold":
            end_runtime_hosts(s["runtime"])
        return ms, waits, err


def clients(b: Bench) -> list[tuple[str, str, list[str], dict]]:
    hud = [b.xhud, "--mode", "annular", "--label", "Loading", "--progress", "0.5"]
    c = [("floor", "floor (C, Xlib + Cairo)", [b.floor, "Loading"], {}),
         ("xhud-warm", "**xhud warm** (server running)", hud, {"server": "warm"}),
         ("xhud-cold", "**xhud cold** (no server: starts one)", hud, {"server": "cold"})]
    if b.a.compare:
        old = [b.a.compare, *hud[1:]]
        c += [("xhud-warm-before", "xhud warm, before (--compare)", old, {"server": "warm"}),
              ("xhud-cold-before", "xhud cold, before (--compare)", old, {"server": "cold"})]
    if shutil.which("osd_cat"):
        c.append(("osd_cat", "osd_cat", ["osd_cat", "--pos=middle", "--align=center", "--delay=600",
                                          "--font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-*", "--colour=white"],
                  {"stdin": "Loading\n"}))
    if shutil.which("zenity"):
        c.append(("zenity", "zenity --progress --pulsate", ["zenity", "--progress", "--pulsate", "--no-cancel",
                                                            "--text=Loading"], {"stdin": ""}))
    return c


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rtt", default="20,100", help="round trips in ms, comma-separated (default 20,100)")
    ap.add_argument("--runs", type=int, default=9, help="timed runs per client (default 9; alternating)")
    ap.add_argument("--compositor", default="both", choices=["both", "on", "off"])
    ap.add_argument("--quick", action="store_true", help="2 runs, 20 ms, no compositor: structure only")
    ap.add_argument("--xhud", default=os.environ.get("XHUD_BIN") or str(REPO / ".build" / "release" / "xhud"))
    ap.add_argument("--helpers", default=None, help="directory with firstframe and floor (else compiled here)")
    ap.add_argument("--compare", default=None, help="another xhud (e.g. before a change), measured alongside")
    ap.add_argument("--display", type=int, default=240)
    ap.add_argument("--only", default=None, help="some clients only, comma-separated keys (floor,xhud-warm,...)")
    ap.add_argument("--out", default=None, help="also write the report here")
    ap.add_argument("--trace", action="store_true", help="print every wait of every run on stderr")
    a = ap.parse_args()
    if a.quick:
        a.runs, a.rtt, a.compositor = 2, "20", "off"
    rtts = [float(x) for x in a.rtt.split(",") if x.strip()]
    if not Path(a.xhud).exists():
        print(f"remote: no xhud at {a.xhud}", file=sys.stderr)
        return 1
    for tool in ("Xvfb", "xdpyinfo", "cc", "pkg-config"):
        if not shutil.which(tool):
            print(f"remote: {tool} is missing", file=sys.stderr)
            return 1
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: detached servers come back here
    except (OSError, AttributeError):
        pass
    work = Path(tempfile.mkdtemp(prefix="xhud-remote-"))
    helpers = Path(a.helpers) if a.helpers else work
    if not a.helpers:
        for name, libs in (("firstframe", "x11"), ("floor", "x11 cairo")):
            flags = subprocess.run(["pkg-config", "--cflags", "--libs", *libs.split()], capture_output=True,
                                   text=True).stdout.split()
            subprocess.run(["cc", "-O2", "-o", str(work / name), str(REPO / "bench" / f"{name}.c"), *flags, "-lm"],
                           check=True)
    b = Bench(a, helpers, work)
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    comps = {"both": [False, True], "on": [True], "off": [False]}[a.compositor]
    results = []  # (rtt, composited, key, label, times, waits of the last run, counts, error)
    try:
        for rtt in rtts:
            a.current_rtt = rtt
            for composited in comps:
                s = b.session(composited, rtt)
                try:
                    cl = [c for c in clients(b) if not a.only or c[0] in a.only.split(",")]
                    rows = {k: {"label": lbl, "times": [], "counts": [], "waits": [], "error": ""} for k, lbl, _, _ in cl}
                    for rnd in range(a.runs + 1):  # round 0 warms caches up and is not counted
                        for key, _, cmd, opt in cl:
                            ms, waits, err = b.run_one(s, key, cmd, opt)
                            r = rows[key]
                            if ms is None:
                                r["error"] = err
                                continue
                            if a.trace:
                                print(f"remote: {rtt:g} ms {'xcompmgr' if composited else 'none'} {key} run {rnd}: "
                                      f"{ms:.1f} ms, {len(waits)} waits: " + "; ".join(f"[{c}] {w}" for c, _, w in waits),
                                      file=sys.stderr)
                            if rnd == 0:
                                continue
                            r["times"].append(ms)
                            r["counts"].append(len(waits))
                            r["waits"] = waits
                    for key, r in rows.items():
                        results.append((rtt, composited, key, r))
                    print(f"remote: {rtt:g} ms, {'xcompmgr' if composited else 'no compositor'}: " +
                          ", ".join(f"{k} {fmt(statistics.median(r['times']) if r['times'] else None)} ms"
                                    for k, r in rows.items()), file=sys.stderr)
                finally:
                    b.close(s)
    except KeyboardInterrupt:
        print("remote: interrupted", file=sys.stderr)
        return 130
    finally:
        for p in b.procs:
            stop(p)
        shutil.rmtree(work, ignore_errors=True)
    text = report(results, a)
    if a.out:
        Path(a.out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.out).write_text(text)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
