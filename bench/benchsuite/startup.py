"""Start to first painted frame, quiet and under load."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

from benchsuite.common import BG, CROSS_CHECKED, HZ, SCREEN_H, SCREEN_W, patch_around
from benchsuite.session import XSession
from harness.procs import read_stat


class StartupMixin:
    """Start to first painted frame, quiet and under load: the suite's methods."""

    def startup_clients(self):
        xhud = [self.xhud, "--mode", "annular", "--label", "Loading", "--progress", "0.5"]
        c = [
            ("floor", "floor (C, Xlib + Cairo, text line)", [self.floor, "Loading"], {}, None),
            # The display's server is up (a foreground `xhud server`): the client only asks it.
            ("xhud-warm", "**xhud --mode annular**", xhud, {"server": "warm"}, None),
            # No server runs: the invocation starts one (which then lingers; ended after the run).
            # It opens its label's font from the match an earlier server kept; the second row
            # has none kept (the first start ever, or after fonts or their configuration changed).
            ("xhud-cold", "**xhud --mode annular, cold** (no server: starts one)", xhud,
             {"server": "cold", "fonts": "kept"}, None),
            ("xhud-cold-new", "xhud --mode annular, cold, no font match kept", xhud,
             {"server": "cold", "fonts": "none"}, None),
            ("osd_cat", "osd_cat", ["osd_cat", "--pos=middle", "--align=center", "--delay=600",
                                    "--font=-*-*-bold-r-*-*-24-*-*-*-*-*-*-*", "--colour=white"],
             {"stdin": "Loading\n"}, "xosd-bin"),
            ("aosd_cat", "aosd_cat", ["aosd_cat", "--position=4", "--fade-full=600000", "--fore-color=white",
                                      "--font=Sans Bold 16"], {"stdin": "Loading\n"}, "aosd-cat"),
            ("zenity", "zenity --progress --pulsate", ["zenity", "--progress", "--pulsate", "--no-cancel",
                                                       "--text=Loading"], {"stdin": ""}, "zenity"),
            ("yad", "yad --progress --pulsate", ["yad", "--progress", "--pulsate", "--no-buttons", "--undecorated",
                                                 "--center", "--text=Loading"], {"stdin": ""}, "yad"),
            # The same notify-send to each daemon, each on its own session bus (through `env`
            # alike: the command names the bus).
            ("notify-send", "notify-send (dunst running)", ["env", "notify-send", "-t", "0", "Loading"],
             {"exit_ok": True, "dunst": True}, "dunst libnotify-bin"),
            ("notify-xhud", "**notify-send (xhud server --notifications running)**",
             ["env", "notify-send", "-t", "0", "Loading"], {"exit_ok": True, "daemon": True}, "libnotify-bin dbus-daemon"),
            ("xob", "xob", ["xob"], {"stdin": "30\n"}, "xob; not in Debian 12"),
        ]
        return c

    def ff_args(self, opt: dict, pixel: str | None = None) -> list[str]:
        """firstframe's arguments for a start-up run of a client with these options: with no
        pixel known, the window the client maps first (--auto, the untimed first round), which
        tells where its first changed pixel was; then the patch around that pixel, watched from
        the fork on (--from-fork), as pixwatch watches the screen's centre."""
        where = ["--from-fork", "--region", patch_around(pixel)] if pixel else ["--auto"]
        ffargs = [self.ff, "--bg", BG, *where, "--timeout", "10000", "--settle", "5000"]
        if opt.get("exit_ok"):
            ffargs.append("--exit-ok")
        if "stdin" in opt:
            ffargs += ["--stdin-text", opt["stdin"]]
        return ffargs

    def cold_run(self, x: XSession, ffargs: list[str], cmd: list[str],
                 fonts: str | None) -> subprocess.CompletedProcess:
        """One cold start: no server for the display before (any is ended) and a fresh runtime
        directory, so that nothing is left from the run before; the font matches kept ("kept") or
        removed ("none"); no server afterwards either."""
        self.stop_servers(x)
        if fonts == "kept":
            self.keep_font_matches(x, cmd)
        elif fonts == "none":
            x.font_matches.unlink(missing_ok=True)
        x.wait_background()
        with x.fresh_runtime():
            r = x.run(ffargs + ["--"] + cmd, timeout=30)
            # The server this run started lingers: end it (its socket is in the fresh directory).
            self.stop_servers(x)
        x.wait_background()
        return r

    def pixwatch_run(self, x: XSession, e: dict, cmd: list[str], opt: dict) -> None:
        """The second harness beside the suite's run: bench/pixwatch polls the screen's centre
        from the fork on (`pixwatch update 1x1+CX+CY --end`), a program of its own; the same
        set-up as the run before it (a cold run's, or the server kept up)."""
        x.wait_background()
        pwargs = [self.pw, "update", f"1x1+{SCREEN_W // 2}+{SCREEN_H // 2}", "--timeout", "10000", "--end"]
        if opt.get("server") == "cold":
            r = self.cold_run(x, pwargs, cmd, opt.get("fonts"))
        else:
            r = x.run(pwargs + ["--"] + cmd, timeout=30)
        m = re.fullmatch(r"\s*([\d.]+) ([\d.]+) (-?[\d.]+)\s*", r.stdout)
        if r.returncode == 0 and m:
            e.setdefault("pixwatch", []).append(float(m.group(1)))
        else:
            e["pixwatch_error"] = (r.stdout + " " + r.stderr).strip()[:200]
        x.wait_background()

    def record_run(self, e: dict, r: subprocess.CompletedProcess, counted: bool) -> bool:
        """Adds firstframe's figures (first frame, map; ms) to a row's entry; False when the run failed."""
        m = re.fullmatch(r"\s*([\d.]+) (-?[\d.]+)\s*", r.stdout)
        if r.returncode == 0 and m:
            if counted:
                e["times"].append(float(m.group(1)))
                if float(m.group(2)) >= 0:
                    e["maps"].append(float(m.group(2)))
            e["region"] = (re.findall(r"watching (\S+)", r.stderr) or [e.get("region") or "?"])[-1]
            e["first_pixel"] = (re.findall(r"first change at (\d+,\d+)", r.stderr) or [e.get("first_pixel")])[-1]
            return True
        e["error"] = (r.stdout.strip() + " " + r.stderr.strip()).strip()[:200] or f"exit {r.returncode}"
        return False

    def bench_startup(self, x: XSession) -> None:
        res: dict = {}
        clients = []
        for key, label, cmd, opt, pkg in self.startup_clients():
            tool = cmd[0]
            entry = {"label": label, "times": [], "maps": [], "error": None, "status": "ok", "cmd": cmd}
            if opt.get("server") == "cold":
                entry["fresh_runtime"] = True  # cold_run's; the report says so only for runs that had it
            res[key] = entry
            if tool == "env":
                tool = cmd[1]
            if (key.startswith("xhud") or opt.get("daemon")) and not os.access(self.xhud, os.X_OK):
                entry["status"] = f"not built ({self.xhud})"
            elif opt.get("daemon") and not self.have("dbus-daemon"):
                entry["status"] = f"not installed ({pkg})"
            elif key not in ("floor", "xhud-warm", "xhud-cold", "xhud-cold-new") and not self.have(tool):
                entry["status"] = f"not installed ({pkg})"
            elif opt.get("dunst") and not x.dunst:
                entry["status"] = "not measured: dunst is not running (" + "; ".join(x.notes or ["not installed"]) + ")"
            else:
                clients.append((key, cmd, opt))
        failures = {k: 0 for k, _, _ in clients}
        for rnd in range(self.runs + 1):  # round 0 warms caches and daemons up; it is not counted
            for key, cmd, opt in clients:
                e = res[key]
                if failures[key] >= 2:
                    continue
                if opt.get("dunst"):
                    x.dunst_clear()
                if opt.get("daemon"):
                    x.dunst_clear()   # the row before's notification, which never expires
                    try:
                        cmd = ["env", f"DBUS_SESSION_BUS_ADDRESS={self.ensure_daemon(x)}"] + cmd[1:]
                    except RuntimeError as ex:
                        failures[key] += 1
                        e["error"] = str(ex)[:200]
                        continue
                ffargs = self.ff_args(opt, e.get("first_pixel") if rnd > 0 else None)
                # Cold and warm runs set the display's server up themselves, whatever ran before.
                if opt.get("server") == "warm":
                    try:
                        if self.ensure_server(x):
                            # A server that has just started has never drawn: one untimed HUD first,
                            # so that every warm run meets a server that has shown one before.
                            x.run(ffargs + ["--"] + cmd, timeout=30)
                    except RuntimeError as ex:
                        failures[key] += 1
                        e["error"] = str(ex)[:200]
                        continue
                # The second harness takes turns with the suite's: first in even rounds, second in odd.
                checked = rnd > 0 and key in CROSS_CHECKED
                if checked and rnd % 2 == 0:
                    self.pixwatch_run(x, e, cmd, opt)
                if opt.get("server") == "cold":
                    r = self.cold_run(x, ffargs, cmd, opt.get("fonts"))
                else:
                    r = x.run(ffargs + ["--"] + cmd, timeout=30)
                if not self.record_run(e, r, counted=rnd > 0):
                    failures[key] += 1
                elif checked and rnd % 2 == 1:
                    self.pixwatch_run(x, e, cmd, opt)
            if clients and any(o.get("dunst") for _, _, o in clients):
                x.dunst_clear()
            if clients and any(o.get("daemon") for _, _, o in clients) and self.daemon_bus is not None:
                x.run([self.xhud, "notifications", "close-all"], timeout=5)
                x.wait_background()
        self.stop_servers(x)
        if self.daemon_bus is not None:
            self.procs.stop(self.daemon_bus[0])
            self.daemon_bus = None
        for key, e in res.items():
            if e["status"] == "ok" and not e["times"]:
                e["status"] = "failed: " + (e["error"] or "no run succeeded")
        self.results["startup"][x.name] = res

    def start_busy_loops(self) -> list[subprocess.Popen]:
        """One busy loop per online core, at the suite's own niceness (that of every measured
        client), once each is running."""
        loops = [self.procs.spawn([sys.executable, "-S", "-c", "while True: pass"], dict(os.environ),
                                  log_name=f"busy{i}") for i in range(os.cpu_count() or 1)]
        # Running once each has been on a CPU for a tick past its interpreter's start.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in loops):
                raise RuntimeError("a busy loop exited")
            if all((read_stat(p.pid) or ("", 0, 0))[2] > 2 for p in loops):
                break
            time.sleep(0.02)
        time.sleep(self.settle / 3)
        return loops

    def bench_busy(self, x: XSession) -> None:
        """The floor and xhud cold (font matches kept, as the startup section's cold row), taking
        turns run by run, with a busy loop on each core from the first run to the last."""
        xhud = [self.xhud, "--mode", "annular", "--label", "Loading", "--progress", "0.5"]
        rows = {key: {"label": label, "times": [], "maps": [], "error": None, "status": "ok", "cmd": cmd,
                      "fresh_runtime": key == "xhud-cold"}
                for key, label, cmd in (("floor", "floor, busy loop on each core", [self.floor, "Loading"]),
                                        ("xhud-cold", "xhud cold, busy loop on each core", xhud))}
        res = {"cores": os.cpu_count(), "rows": rows, "load": None}
        self.results["busy"][x.name] = res
        if not os.access(self.xhud, os.X_OK):
            rows["xhud-cold"]["status"] = f"not built ({self.xhud})"
        # Kept before the load starts: the untimed HUD that writes them is no part of the figures.
        if rows["xhud-cold"]["status"] == "ok":
            self.stop_servers(x)
            self.keep_font_matches(x, xhud)
        failures = {k: 0 for k in rows}
        loops = []
        try:
            loops = self.start_busy_loops()
            before = {p.pid: (read_stat(p.pid) or ("", 0, 0))[2] for p in loops}
            t0 = time.monotonic()
            for rnd in range(self.runs + 1):  # round 0 is not counted, as in the startup section
                for key, e in rows.items():
                    if e["status"] != "ok" or failures[key] >= 2:
                        continue
                    ffargs = self.ff_args({}, e.get("first_pixel") if rnd > 0 else None)
                    if key == "floor":
                        r = x.run(ffargs + ["--"] + e["cmd"], timeout=30)
                    else:
                        r = self.cold_run(x, ffargs, e["cmd"], "kept")
                    if not self.record_run(e, r, counted=rnd > 0):
                        failures[key] += 1
            # What the loops had of the CPUs: a loop that did not get its core is no load.
            spent = [(read_stat(p.pid) or ("", 0, before[p.pid]))[2] - before[p.pid] for p in loops]
            res["load"] = sum(spent) / HZ / (time.monotonic() - t0) / len(loops)
            if any(p.poll() is not None for p in loops):
                res["error"] = "a busy loop exited during the runs"
        except RuntimeError as ex:
            res["error"] = str(ex)[:200]
        finally:
            for p in loops:
                self.procs.stop(p)
            self.stop_servers(x)
        for e in rows.values():
            if e["status"] == "ok" and not e["times"]:
                e["status"] = "failed: " + (e["error"] or res.get("error") or "no run succeeded")
