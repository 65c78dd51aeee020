"""Steady state: CPU, wake-ups and memory while a HUD is up."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

from benchsuite.common import KEEP, sh_quote, write_fifo
from benchsuite.session import XSession
from harness.procs import alive, comm, delta, descendants, sample, status_kib


class SteadyMixin:
    """Steady state: CPU, wake-ups and memory while a HUD is up: the suite's methods."""

    def steady_clients(self, x: XSession):
        """(key, label, status, start) where start() returns (handle, pid to measure)."""
        out = []

        def simple(key, label, cmd, stdin_text=None, env_extra=None, pick=None, pkg=None, served=False):
            if cmd[0] in (self.xhud,) and not os.access(self.xhud, os.X_OK):
                out.append((key, label, f"not built ({self.xhud})", None))
                return
            if cmd[0] == self.vblank and not os.access(self.vblank, os.X_OK):
                out.append((key, label, f"not built ({self.vblank})", None))
                return
            if cmd[0] not in (self.xhud, self.floor, self.vblank, "sh") and not self.have(cmd[0]):
                out.append((key, label, f"not installed ({pkg or cmd[0]})", None))
                return

            def start():
                env = dict(x.env, **(env_extra or {}))
                server = None
                if served:
                    # The HUD is drawn by the display's server: a fresh foreground one, with its
                    # stderr (XHUD_STATS) in a log, serving this HUD only. It is what is measured.
                    server = self.start_server(x, env_extra=env_extra, log_name=key + "-server")
                p = self.procs.spawn(cmd, env, stdin=subprocess.PIPE if stdin_text is not None else subprocess.DEVNULL,
                                     log_name=key)
                if server is not None:
                    return {"p": p, "server": server}, server.pid
                if stdin_text is not None:
                    p.stdin.write(stdin_text.encode())
                    p.stdin.flush()
                pid = p.pid
                if pick:
                    time.sleep(0.2)
                    pid = next((d for d in descendants(p.pid) if comm(d) == pick), None)
                return {"p": p}, pid

            out.append((key, label, "ok", start))

        stats = {"XHUD_STATS": "1"}
        simple("floor", "floor (C, Xlib + Cairo)", [self.floor, "Loading"])
        # What any animation at the refresh rate costs the X server: its wake-up each refresh.
        simple("vblank", "a pixel presented each refresh (C, bench/vblank.c)", [self.vblank, "1"])
        simple("xhud-spin", "**xhud spinner** (--mode indeterminate; the server drawing it)",
               [self.xhud, "--mode", "indeterminate", "--label", "Loading"], env_extra=stats, served=True)
        simple("xhud-bar", "**xhud static bar** (--mode bar --progress 0.5; the server drawing it)",
               [self.xhud, "--mode", "bar", "--progress", "0.5", "--label", "Volume"], env_extra=stats, served=True)
        # the named HUD's server
        label = "**xhud --id static bar** (server)"
        if not os.access(self.xhud, os.X_OK):
            out.append(("xhud-id", label, f"not built ({self.xhud})", None))
        elif not self.check_named(x):
            out.append(("xhud-id", label, "not available: " + self.named["why"], None))
        else:
            def start_named():
                self.stop_servers(x)  # the invocation starts the server that is measured
                r = x.run([self.xhud, "--id", "bench", "--mode", "bar", "--progress", "0.5", "--label", "Volume"]
                          + KEEP, env=dict(x.env, **stats))
                if r.returncode != 0:
                    raise RuntimeError(f"xhud --id exit {r.returncode}: {r.stderr.strip()[:100]}")
                time.sleep(0.2)
                return {"named": True}, self.named_server()
            out.append(("xhud-id", label, "ok", start_named))
        simple("osd_cat", "osd_cat (text)", ["osd_cat", "--pos=middle", "--align=center", "--delay=600",
                                             "--font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-*", "--colour=white"],
               stdin_text="Loading\n", pkg="xosd-bin")
        simple("aosd_cat", "aosd_cat", ["aosd_cat", "--position=4", "--fade-full=600000", "--fore-color=white",
                                        "--font=Sans Bold 16"], stdin_text="Loading\n", pkg="aosd-cat")
        simple("zenity", "zenity --progress --pulsate", ["zenity", "--progress", "--pulsate", "--no-cancel",
                                                         "--text=Loading"], stdin_text="", pkg="zenity")
        simple("yad", "yad --progress --pulsate", ["yad", "--progress", "--pulsate", "--no-buttons",
                                                   "--undecorated", "--center", "--text=Loading"],
               stdin_text="", pkg="yad")
        # dunst showing a notification with a bar
        label = "dunst showing a bar (int:value:50)"
        if not (self.have("dunst") and self.have("notify-send")):
            out.append(("dunst", label, "not installed (dunst libnotify-bin)", None))
        elif not x.dunst:
            out.append(("dunst", label, "not measured: dunst is not running", None))
        else:
            def start_dunst():
                x.dunst_clear()
                x.run(["notify-send", "-t", "0", "-h", "int:value:50", "Volume"])
                return {"dunst": True}, x.dunst.pid
            out.append(("dunst", label, "ok", start_dunst))
        if self.have("xob"):
            fifo = self.work / "xob-steady.fifo"

            def start_xob():
                fifo.unlink(missing_ok=True)
                os.mkfifo(fifo)
                p = self.procs.spawn(["sh", "-c", f"tail -f {sh_quote(str(fifo))} | exec xob"], x.env, log_name="xob")
                write_fifo(fifo, "50\n")
                time.sleep(0.2)
                return {"p": p}, next((d for d in descendants(p.pid) if comm(d) == "xob"), None)
            out.append(("xob", "xob (bar, via tail -f fifo)", "ok", start_xob))
        else:
            out.append(("xob", "xob", "not installed (xob is not in Debian 12)", None))
        return out

    def stop_steady(self, x: XSession, handle: dict) -> None:
        if handle.get("p"):
            self.procs.stop(handle["p"])
        if handle.get("server"):
            self.stop_servers(x)
        if handle.get("named"):
            x.run([self.xhud, "hide", "--id", "bench"], timeout=5)
            time.sleep(0.5)
            self.stop_servers(x)
        if handle.get("dunst"):
            x.dunst_clear()

    def bench_steady(self, x: XSession) -> None:
        res: dict = {}
        clients = self.steady_clients(x)
        for key, label, status, _ in clients:
            res[key] = {"label": label, "status": status, "cpu": [], "wake": [], "hwm": [], "rss": [], "fps": [],
                        "xcpu": [], "cmcpu": [], "client_hwm": [], "client_rss": [], "error": None}
        for _ in range(self.steady_runs):
            for key, label, status, start in clients:
                e = res[key]
                if status != "ok" or (e["error"] and not e["cpu"]):
                    continue
                handle: dict = {}
                try:
                    handle, pid = start()
                    t_start = time.monotonic()
                    time.sleep(self.settle)
                    if pid is None or not alive(pid):
                        log_tail = Path(handle["p"].log_path).read_text(errors="replace")[-150:] if handle.get("p") else ""
                        raise RuntimeError("not running when the window opened " + log_tail)
                    xs = [self.xvfb_pid(x), x.xcm.pid if x.xcm else None]
                    a, t0 = sample(pid), time.monotonic()
                    xa = [sample(p) if p else None for p in xs]
                    time.sleep(self.window)
                    b, t1 = sample(pid), time.monotonic()
                    xb = [sample(p) if p else None for p in xs]
                    hwm, rss = status_kib(pid, "VmHWM"), status_kib(pid, "VmRSS")
                    if a is None or b is None or hwm is None or not alive(pid):
                        raise RuntimeError("exited during the window")
                    dt = t1 - t0
                    ns, sw = delta(a, b)
                    e["cpu"].append(100 * ns / 1e9 / dt)
                    e["wake"].append(sw / dt)
                    e["hwm"].append(hwm / 1024)
                    e["rss"].append(rss / 1024)
                    if xa[0] and xb[0]:
                        e["xcpu"].append(100 * delta(xa[0], xb[0])[0] / 1e9 / dt)
                    if xa[1] and xb[1]:
                        e["cmcpu"].append(100 * delta(xa[1], xb[1])[0] / 1e9 / dt)
                    p, server = handle.get("p"), handle.get("server")
                    if server is not None and p is not None:
                        # The client beside the server that draws its HUD.
                        chwm, crss = status_kib(p.pid, "VmHWM"), status_kib(p.pid, "VmRSS")
                        if chwm is not None and crss is not None:
                            e["client_hwm"].append(chwm / 1024)
                            e["client_rss"].append(crss / 1024)
                        # With XHUD_STATS in the client's environment the server sends the HUD's
                        # frame count back to the client when the HUD ends; the client prints it.
                        self.procs.stop(p, grace=3.0)
                        t_end = time.monotonic()
                        m = re.findall(r"xhud-stats: frames=(\d+)", Path(p.log_path).read_text(errors="replace"))
                        if m:
                            e["fps"].append(int(m[-1]) / (t_end - t_start))
                    elif p is not None and key.startswith("xhud"):
                        self.procs.stop(p)
                        t_end = time.monotonic()
                        m = re.findall(r"xhud-stats: frames=(\d+)", Path(p.log_path).read_text(errors="replace"))
                        if m:
                            e["fps"].append(int(m[-1]) / (t_end - t_start))
                except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
                    e["error"] = str(ex)[:200]
                finally:
                    self.stop_steady(x, handle)
                x.wait_background(3)
        for e in res.values():
            if e["status"] == "ok" and not e["cpu"]:
                e["status"] = "failed: " + (e["error"] or "no run succeeded")
        self.results["steady"][x.name] = res

    def xvfb_pid(self, x: XSession) -> int | None:
        return x.xvfb.pid if x.xvfb else None
