"""Warm update: a HUD already up, to the new value on screen."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

from benchsuite.common import FULL, KEEP, sh_quote, write_fifo
from benchsuite.session import XSession
from harness.procs import comm, descendants


class WarmMixin:
    """Warm update: a HUD already up, to the new value on screen: the suite's methods."""

    def check_named(self, x: XSession) -> bool:
        """Whether this xhud serves named HUDs (`--id`); the result is kept for every section."""
        if self.named:
            return self.named["ok"]
        if not os.access(self.xhud, os.X_OK):
            self.named = {"ok": False, "why": "xhud not built"}
            return False
        r = x.run([self.xhud, "--id", "benchprobe", "--mode", "bar", "--progress", "0.1", "--label", "probe"],
                  timeout=5)
        if r.returncode == -999:
            self.named = {"ok": False, "why": "`xhud --id NAME ...` did not return within 5 s"}
        elif r.returncode != 0:
            msg = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[0]
            self.named = {"ok": False, "why": f"this xhud rejects --id ({msg[:100]})"}
        else:
            self.named = {"ok": True, "why": ""}
            x.run([self.xhud, "hide", "--id", "benchprobe"], timeout=5)
            time.sleep(0.5)
            self.procs.end_orphans()
        return self.named["ok"]

    def named_server(self) -> int | None:
        """The process serving a named HUD: something this suite started that outlived its
        invocation (re-parented here), preferably named xhud*."""
        cands = self.procs.orphans()
        for pid in cands:
            if comm(pid).startswith("xhud"):
                return pid
        for pid in cands:
            for d in descendants(pid):
                if comm(d).startswith("xhud"):
                    return d
        return cands[0] if cands else None

    def warm_clients(self, x: XSession):
        """(key, label, status, setup, action, teardown): setup() shows the value 30 and returns a
        state; action(state, value) returns the pixwatch arguments that make the update."""
        clients = []
        fifo_dir = self.work

        def fifo_client(key, label, reader_cmd):
            fifo = fifo_dir / f"{key}.fifo"

            def setup():
                if fifo.exists():
                    fifo.unlink()
                os.mkfifo(fifo)
                cmd = "tail -f " + sh_quote(str(fifo)) + " | exec " + " ".join(sh_quote(c) for c in reader_cmd)
                p = self.procs.spawn(["sh", "-c", cmd], x.env, log_name=key)
                write_fifo(fifo, "30\n")
                return {"p": p, "fifo": fifo}

            def action(st, v, timed=True):
                return ["--write", str(st["fifo"]), f"{v}\n"]

            def teardown(st):
                self.procs.stop(st["p"])
                st["fifo"].unlink(missing_ok=True)

            return (key, label, "ok", setup, action, teardown)

        # xhud: named HUD
        if not os.access(self.xhud, os.X_OK):
            clients.append(("xhud-id", "**xhud --id (named HUD)**", f"not built ({self.xhud})", None, None, None))
        elif not self.check_named(x):
            clients.append(("xhud-id", "**xhud --id (named HUD)**", "not available: " + self.named["why"],
                            None, None, None))
        else:
            def setup():
                r = x.run([self.xhud, "--id", "bench", "--mode", "bar", "--progress", "0.30", "--label", "Volume"]
                          + KEEP)
                if r.returncode != 0:
                    raise RuntimeError(f"xhud --id bench exit {r.returncode}: {r.stderr.strip()[:150]}")
                return {}

            def action(st, v, timed=True):
                # the timed update is exactly `xhud --id bench --progress 0.70`
                return ["--", self.xhud, "--id", "bench", "--progress", f"{v / 100:.2f}"] + ([] if timed else KEEP)

            def teardown(st):
                x.run([self.xhud, "hide", "--id", "bench"], timeout=5)
                time.sleep(0.5)
                self.procs.end_orphans()

            clients.append(("xhud-id", "**xhud --id (named HUD)**", "ok", setup, action, teardown))
        # xhud: progress line into a FIFO read on stdin, as xob is used
        if os.access(self.xhud, os.X_OK):
            clients.append(fifo_client("xhud-fifo", "**xhud, `echo 70 > fifo`** (tail -f fifo / xhud --mode bar)",
                                       [self.xhud, "--mode", "bar", "--label", "Volume"]))
        # xob
        if self.have("xob"):
            clients.append(fifo_client("xob", "xob, `echo 70 > fifo` (tail -f fifo / xob)", ["xob"]))
        else:
            clients.append(("xob", "xob, `echo 70 > fifo`", "not installed (xob is not in Debian 12)",
                            None, None, None))
        # dunst
        if not (self.have("notify-send") and self.have("dunst")):
            clients.append(("dunst", "notify-send -r ID (dunst)", "not installed (dunst libnotify-bin)",
                            None, None, None))
        elif not x.dunst:
            clients.append(("dunst", "notify-send -r ID (dunst)", "not measured: dunst is not running",
                            None, None, None))
        else:
            def setup():
                x.dunst_clear()
                r = x.run(["notify-send", "-p", "-t", "0", "-h", "int:value:30", "Volume"])
                if r.returncode != 0 or not r.stdout.strip().isdigit():
                    raise RuntimeError(f"notify-send -p: exit {r.returncode} {r.stdout.strip()} {r.stderr.strip()}")
                return {"id": r.stdout.strip()}

            def action(st, v, timed=True):
                return ["--", "notify-send", "-r", st["id"], "-t", "0", "-h", f"int:value:{v}", "Volume"]

            def teardown(st):
                x.dunst_clear()

            clients.append(("dunst", "notify-send -r ID (dunst)", "ok", setup, action, teardown))
        # xhud as the notification daemon: the same OSD through D-Bus (notify-send with the
        # synchronous hint, which updates the named HUD of its tag), on a bus of its own (dunst
        # keeps the display's).
        dbus_label = "**notify-send -h synchronous (xhud server --notifications)**"
        if not os.access(self.xhud, os.X_OK):
            clients.append(("xhud-dbus", dbus_label, f"not built ({self.xhud})", None, None, None))
        elif not (self.have("notify-send") and self.have("dbus-daemon")):
            clients.append(("xhud-dbus", dbus_label, "not installed (libnotify-bin dbus-daemon)", None, None, None))
        else:
            def osd(v):
                return ["notify-send", "-t", "600000", "-h", f"int:value:{v}",
                        "-h", "string:x-canonical-private-synchronous:bench-dbus", "Volume"]

            def setup():
                bus, address = self.spawn_bus(x, "xhud-dbus-bus")
                # The display's clients talk to this bus meanwhile (notify-send runs as dunst's
                # does, with no wrapper in front of it to time).
                st = {"bus": bus, "saved": x.env.get("DBUS_SESSION_BUS_ADDRESS")}
                x.env["DBUS_SESSION_BUS_ADDRESS"] = address
                server = self.start_server(x, log_name="xhud-dbus-server", args=("--notifications",))
                deadline = time.monotonic() + 5
                while "serving" not in Path(server.log_path).read_text(errors="replace"):
                    if time.monotonic() > deadline:
                        raise RuntimeError("xhud server --notifications did not take the name")
                    time.sleep(0.02)
                if x.run(osd(30)).returncode != 0:
                    raise RuntimeError("notify-send failed")
                return st

            def action(st, v, timed=True):
                return ["--"] + osd(v)

            def teardown(st):
                x.run([self.xhud, "hide", "--id", "bench-dbus"], timeout=5)
                self.stop_servers(x)
                self.procs.stop(st["bus"])
                if st["saved"] is None:
                    x.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
                else:
                    x.env["DBUS_SESSION_BUS_ADDRESS"] = st["saved"]

            clients.append(("xhud-dbus", dbus_label, "ok", setup, action, teardown))
        return clients

    def untimed(self, x: XSession, args: list[str]) -> None:
        if args[0] == "--write":
            write_fifo(Path(args[1]), args[2])
        else:
            x.run(args[1:], timeout=10)

    def bench_warm(self, x: XSession) -> None:
        res: dict = {}
        for key, label, status, setup, action, teardown in self.warm_clients(x):
            e = {"label": label, "status": status, "first": [], "final": [], "returned": [], "error": None}
            res[key] = e
            if status != "ok":
                continue
            st = None
            try:
                st = setup()
                time.sleep(self.ui_settle + 0.3)
                a_full = self.work / f"warm-{key}-a-full.raw"
                x.run([self.pw, "snap", FULL, a_full], check=True)
                self.untimed(x, action(st, 70, False))
                time.sleep(self.ui_settle)
                d = x.run([self.pw, "diff", FULL, a_full, "0"], check=True).stdout.split()
                if not d or d[0] == "none":
                    raise RuntimeError("the update 30 -> 70 changed nothing on screen")
                region = d[0]
                refs = {70: self.work / f"warm-{key}-70.raw", 30: self.work / f"warm-{key}-30.raw"}
                x.run([self.pw, "snap", region, refs[70]], check=True)
                self.untimed(x, action(st, 30, False))
                time.sleep(self.ui_settle)
                x.run([self.pw, "snap", region, refs[30]], check=True)
                e["region"] = region
                fails = 0
                for i in range(2 * (self.runs + 1)):  # 30 -> 70, 70 -> 30, ...; the first pair warms up
                    target = 70 if i % 2 == 0 else 30
                    r = x.run([self.pw, "update", region, "--until", refs[target], "--timeout", "3000"]
                              + action(st, target), timeout=20)
                    m = re.fullmatch(r"\s*([\d.]+) ([\d.]+) (-?[\d.]+)\s*", r.stdout)
                    if r.returncode == 0 and m:
                        if i >= 2:
                            e["first"].append(float(m.group(1)))
                            e["final"].append(float(m.group(2)))
                            e["returned"].append(float(m.group(3)))
                    else:
                        fails += 1
                        e["error"] = (r.stdout.strip() + " " + r.stderr.strip()).strip()[:200]
                        # back to a known state
                        self.untimed(x, action(st, target, False))
                        time.sleep(self.ui_settle)
                        if fails >= 3:
                            break
                    time.sleep(0.1)
            except (RuntimeError, OSError, subprocess.SubprocessError) as ex:
                e["error"] = str(ex)[:200]
            finally:
                if st is not None:
                    teardown(st)
            if not e["final"]:
                e["status"] = "failed: " + (e["error"] or "no run succeeded")
        self.results["warm"][x.name] = res
