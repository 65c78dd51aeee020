"""A named HUD's throughput, and 20 HUDs from 20 clients at once."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from benchsuite.common import FULL, KEEP, SCREEN_H, SCREEN_W, T_CLIENTS
from benchsuite.session import XSession, window_info
from harness.procs import alive, comm, status_kib

# The watcher runs as `suite.py --watch-maps`, a process of its own.
SUITE_SCRIPT = Path(__file__).resolve().parents[1] / "suite.py"


class LoadMixin:
    """A named HUD's throughput, and 20 HUDs from 20 clients at once: the suite's methods."""

    def bench_throughput(self, x: XSession) -> None:
        e = {"status": "ok", "ups": [], "failed": [], "lag": [], "rss_before": None, "rss_warm": None, "rss_after": None,
             "hwm_after": None, "error": None, "workers": 4, "seconds": self.flood_seconds}
        self.results["throughput"][x.name] = e
        if not os.access(self.xhud, os.X_OK):
            e["status"] = f"not built ({self.xhud})"
            return
        if not self.check_named(x):
            e["status"] = "not available: " + self.named["why"]
            return
        try:
            r = x.run([self.xhud, "--id", "bench", "--mode", "bar", "--progress", "0.10", "--label", "Volume"] + KEEP)
            if r.returncode != 0:
                raise RuntimeError(f"xhud --id bench exit {r.returncode}: {r.stderr.strip()[:150]}")
            time.sleep(self.ui_settle + 0.3)
            server = self.named_server()
            a_full = self.work / "tp-a.raw"
            x.run([self.pw, "snap", FULL, a_full], check=True)
            x.run([self.xhud, "--id", "bench", "--progress", "0.90"] + KEEP)
            time.sleep(self.ui_settle)
            d = x.run([self.pw, "diff", FULL, a_full, "0"], check=True).stdout.split()
            if not d or d[0] == "none":
                raise RuntimeError("--progress 0.90 changed nothing on screen")
            region = d[0]
            ref = self.work / "tp-55.raw"
            x.run([self.xhud, "--id", "bench", "--progress", "0.55"] + KEEP)
            time.sleep(self.ui_settle)
            x.run([self.pw, "snap", region, ref], check=True)
            x.run([self.xhud, "--id", "bench", "--progress", "0.10"] + KEEP)
            time.sleep(self.ui_settle)
            if server:
                e["rss_before"] = (status_kib(server, "VmRSS") or 0) / 1024
                e["server"] = comm(server)
            rounds = 1 if self.quick else 3
            for _ in range(rounds):
                r = x.run([self.pw, "flood", str(self.flood_seconds), "4", "0.10", "0.90", "--", self.xhud, "--id",
                           "bench", "--progress", "%"], timeout=self.flood_seconds + 120)
                m = re.fullmatch(r"\s*(\d+) (\d+) ([\d.]+)\s*", r.stdout)
                if not m:
                    raise RuntimeError("flood: " + (r.stdout + r.stderr).strip()[:150])
                ok, failed, el = int(m.group(1)), int(m.group(2)), float(m.group(3))
                e["ups"].append(ok / el)
                e["failed"].append(failed)
                u = x.run([self.pw, "update", region, "--until", ref, "--timeout", "10000", "--", self.xhud, "--id",
                           "bench", "--progress", "0.55"], timeout=30)
                m = re.fullmatch(r"\s*([\d.]+) ([\d.]+) (-?[\d.]+)\s*", u.stdout)
                e["lag"].append(float(m.group(2)) if m else None)
                if not m:
                    e["error"] = "last value not on screen: " + (u.stdout + u.stderr).strip()[:120]
                x.run([self.xhud, "--id", "bench", "--progress", "0.10"] + KEEP)
                time.sleep(1.0)
                if server and e["rss_warm"] is None and alive(server):
                    # After the first round: what serving updates needs is resident (a server
                    # gives back the pages of its files it no longer runs, and faults them in
                    # again when it does); growth from here on is memory kept per update.
                    e["rss_warm"] = (status_kib(server, "VmRSS") or 0) / 1024
            if server and alive(server):
                e["rss_after"] = (status_kib(server, "VmRSS") or 0) / 1024
                e["hwm_after"] = (status_kib(server, "VmHWM") or 0) / 1024
        except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
            e["status"] = "failed: " + str(ex)[:200]
        finally:
            x.run([self.xhud, "hide", "--id", "bench"], timeout=5)
            time.sleep(0.5)
            self.procs.end_orphans()

    def hud_windows(self, x: XSession, known: dict) -> dict:
        """The HUD windows on the root now: {window id: info} of the children of class "xhud"
        that are InputOutput (a HUD's InputOnly input blocker is left out). `known` caches what
        xwininfo said about each window's class."""
        r = x.run(["xwininfo", "-root", "-children"], timeout=10)
        out = {}
        for m in re.finditer(r'^\s*(0x[0-9a-f]+) .*?\("([^"]*)" "[^"]*"\)', r.stdout, re.M):
            wid, instance = int(m.group(1), 16), m.group(2)
            if instance != "xhud":
                continue
            if wid not in known:
                known[wid] = window_info(x, wid)
            if known[wid] and not known[wid].input_only:
                out[wid] = known[wid]
        return out

    def clients_round(self, x: XSession, n: int) -> dict:
        """A foreground server with no HUD; one client, then n - 1 more at once. Returns the
        round's figures; every process it starts is ended before it returns."""
        rd: dict = {"lat": [], "first_ms": None, "rss1": None, "rss_n": None, "client_rss": [], "visible": 0,
                    "on_screen": 0, "overlaps": [], "exits": [], "mapped": 0, "rects": []}
        self.stop_servers(x)
        x.wait_background()
        server = self.start_server(x, log_name="clients-server")
        watcher = self.procs.spawn([sys.executable, str(SUITE_SCRIPT), "--watch-maps"], x.env,
                                   log_name="mapwatch")
        clients: list[tuple[subprocess.Popen, float]] = []
        known: dict = {}
        mapped_so_far: dict = {}

        def maps() -> dict[int, float]:
            """First MapNotify time of each child of the root, from the watcher's lines."""
            first: dict[int, float] = {}
            for m in re.finditer(r"^map ([\d.]+) (\d+)$", Path(watcher.log_path).read_text(errors="replace"), re.M):
                first.setdefault(int(m.group(2)), float(m.group(1)))
            return first

        def wait_mapped(count: int, timeout: float) -> tuple[dict, dict]:
            """Until `count` HUD windows are mapped. The watcher's lines are read every 20 ms; the
            windows are asked for (xwininfo) only once enough maps have come, and then at most
            every 0.25 s, so that the waiting takes little from the server being measured."""
            deadline = time.monotonic() + timeout
            before = len(maps())
            need = count - len(mapped_so_far)
            last = time.monotonic() - 0.25
            while True:
                mp = maps()  # before the windows: a window mapped by then is listed by then
                now = time.monotonic()
                if (len(mp) - before >= need and now - last >= 0.25) or now - last >= 2.0 or now > deadline:
                    last = now
                    huds = self.hud_windows(x, known)
                    mapped = {w: mp[w] for w in huds if w in mp}
                    if len(mapped) >= count or now > deadline:
                        mapped_so_far.update(mapped)
                        return mapped, huds
                time.sleep(0.02)

        def spawn(i: int) -> None:
            cmd = [self.xhud, "--mode", "annular", "--label", f"Client {i}", "--progress", "0.5"]
            t = time.monotonic()
            clients.append((self.procs.spawn(cmd, x.env, log_name=f"client{i}"), t))

        try:
            deadline = time.monotonic() + 10
            while "ready" not in Path(watcher.log_path).read_text(errors="replace"):
                if watcher.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the MapNotify watcher did not start: "
                                       + Path(watcher.log_path).read_text(errors="replace")[-200:])
                time.sleep(0.02)
            spawn(1)
            mapped, _ = wait_mapped(1, 30)
            if not mapped:
                raise RuntimeError("client 1's HUD was not mapped within 30 s")
            first_win = min(mapped, key=mapped.get)
            rd["first_ms"] = 1000 * (mapped[first_win] - clients[0][1])
            time.sleep(self.ui_settle)
            rd["rss1"] = (status_kib(server.pid, "VmRSS") or 0) / 1024
            rd["client1_rss"] = (status_kib(clients[0][0].pid, "VmRSS") or 0) / 1024
            for i in range(2, n + 1):  # as fast as this process can fork
                spawn(i)
            mapped, huds = wait_mapped(n, 60)
            rd["mapped"] = len(mapped)
            # The server maps the windows in the order it accepts the requests: the clients' order.
            later = sorted((t, w) for w, t in mapped.items() if w != first_win)
            rd["lat"] = [1000 * (mapped[first_win] - clients[0][1])] + \
                [1000 * (t - clients[i + 1][1]) for i, (t, _) in enumerate(later[:n - 1])]
            time.sleep(self.ui_settle + 0.3)  # the group settles into its stack
            rd["rss_n"] = (status_kib(server.pid, "VmRSS") or 0) / 1024
            rd["client_rss"] = [(status_kib(p.pid, "VmRSS") or 0) / 1024 for p, _ in clients]
            # Where they are now: visible, on screen, and no two overlapping.
            rects = []
            for w in mapped:
                info = window_info(x, w)
                if info and info.viewable:
                    rects.append(info.rect)
            rd["rects"] = rects
            rd["visible"] = len(rects)
            rd["on_screen"] = sum(1 for (rx, ry, rw, rh) in rects
                                  if rx >= 0 and ry >= 0 and rx + rw <= SCREEN_W and ry + rh <= SCREEN_H)
            rd["overlaps"] = [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:]
                              if min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0])
                              and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1])]
        finally:
            # SIGTERM to each client hides its HUD; each exits 0.
            for p, _ in clients:
                if p.poll() is None:
                    try:
                        os.kill(p.pid, signal.SIGTERM)
                    except ProcessLookupError:
                        pass
            for p, _ in clients:
                try:
                    rd["exits"].append(p.wait(timeout=5))
                except subprocess.TimeoutExpired:
                    rd["exits"].append(None)
                self.procs.stop(p)
            self.procs.stop(watcher)
            rd["hidden"] = x.wait_background(5) if clients else None  # every HUD gone from the screen
            self.stop_servers(x)
        return rd

    def bench_clients(self, x: XSession) -> None:
        n = T_CLIENTS
        e = {"status": "ok", "clients": n, "rounds": [], "error": None}
        self.results["clients"][x.name] = e
        if not os.access(self.xhud, os.X_OK):
            e["status"] = f"not built ({self.xhud})"
            return
        if not self.have("xwininfo"):
            e["status"] = "not measured: xwininfo is not installed (x11-utils)"
            return
        for _ in range(1 if self.quick else 3):
            try:
                e["rounds"].append(self.clients_round(x, n))
            except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
                e["error"] = str(ex)[:300]
                break
        if not e["rounds"]:
            e["status"] = "failed: " + (e["error"] or "no round finished")
