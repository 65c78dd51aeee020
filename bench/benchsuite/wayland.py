"""The `wayland` section: xhud beside wob and mako on a headless sway (benchsuite/wayland_sway.py),
first pixel, CPU and memory, every client measured the same way.

First pixel: bench/wlpoll forks and execs the client (or writes a value into wob's FIFO) and
captures the output with wlr-screencopy until a pixel differs from the background. A capture
completes with the compositor's next frame, so the output runs at 1000 Hz while first pixels are
timed; each client's region is the box it drew in an untimed run (at most 320x200 around its
centre), captured alone (about 1 ms a capture). CPU and memory are measured at 60 Hz, a
monitor's refresh (a spinner turns once a frame)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

from benchsuite.common import f1, log, md_table, mmm
from benchsuite.wayland_sway import BG, H, W, Sway, bench_user
from harness.procs import alive, comm, delta, descendants, sample, status_kib

TIMED_HZ, STEADY_HZ = 1000, 60
CAP_W, CAP_H = 320, 200
OSD = ["--id", "vol", "--mode", "bar", "--progress", "0.5", "--label", "Volume"]


# -- first pixel -----------------------------------------------------------------------------------

def first_pixel_clients(s, w: Sway):
    """(key, label, status, prepare(), command or ('write', path, text), tidy()) per row."""
    xhud, rows = s.xhud, []
    ok_xhud = os.access(xhud, os.X_OK) and w.run(["test", "-x", xhud]).returncode == 0
    built = "ok" if ok_xhud else f"not reachable by the bench user ({xhud})"
    state: dict = {}

    def cold():
        w.end_servers()

    def warm():
        if not state.get("server") or state["server"].poll() is not None or not w.processes("xhud-host"):
            w.end_servers()
            state["server"] = w.spawn([xhud, "server"], "wl-xhud-server")
            deadline = time.monotonic() + 10
            while w.run([xhud, "list"], timeout=5).returncode != 0:
                if time.monotonic() > deadline:
                    raise RuntimeError("`xhud server` did not answer")
                time.sleep(0.05)
            w.run([xhud, *OSD])  # a server that has drawn before, as in the X sections
            w.run([xhud, "hide", "--id", "vol"])
            w.background()

    def hide_osd():
        w.run([xhud, "hide", "--id", "vol"])

    rows.append(("xhud-cold", "**xhud --id vol --mode bar, cold** (no server: starts one)", built, cold,
                 [xhud, *OSD], lambda: w.end_servers()))
    rows.append(("xhud-warm", "**xhud --id vol --mode bar** (server running)", built, warm, [xhud, *OSD], hide_osd))
    fifo = w.directory / "wob.fifo"
    if shutil.which("wob"):
        def wob_up():
            if not state.get("wob") or state["wob"].poll() is not None:
                fifo.unlink(missing_ok=True)
                os.mkfifo(fifo)
                w.chown(fifo)
                state["wob"] = w.spawn(["sh", "-c", f"tail -f {fifo} | exec wob -c {w.directory}/config/wob/fast.ini"], "wob")
                time.sleep(0.3)
        (w.directory / "config" / "wob" / "fast.ini").write_text("timeout = 300\n")
        w.chown(w.directory / "config" / "wob" / "fast.ini")
        rows.append(("wob", "wob, `echo 50 > fifo` (tail -f fifo / wob)", "ok", wob_up, ("write", str(fifo), "50\n"),
                     lambda: None))
    else:
        rows.append(("wob", "wob", "not installed (wob)", None, None, None))
    for key, label, daemon, pkg in (("mako", "notify-send (mako running)", "mako", "mako-notifier"),
                                    ("notify-xhud", "**notify-send (xhud server --notifications running)**", "xhud", "")):
        if not (shutil.which("notify-send") and shutil.which("dbus-daemon")):
            rows.append((key, label, "not installed (libnotify-bin dbus-daemon)", None, None, None))
        elif daemon == "mako" and not shutil.which("mako"):
            rows.append((key, label, f"not installed ({pkg})", None, None, None))
        elif daemon == "xhud" and not ok_xhud:
            rows.append((key, label, built, None, None, None))
        else:
            rows.append((key, label, "ok", *notification_row(s, w, state, daemon)))
    return rows, state


def notification_row(s, w: Sway, state: dict, daemon: str):
    """prepare, command, tidy for notify-send to a daemon on a session bus of its own."""
    def prepare():
        if state.get(daemon) and state[daemon][0].poll() is None:
            return
        if daemon == "xhud":
            w.end_servers()
        bus = w.spawn(["dbus-daemon", "--session", "--nofork", "--print-address=1"], f"wl-bus-{daemon}")
        deadline = time.monotonic() + 5
        while not Path(bus.log_path).read_text().strip() and time.monotonic() < deadline:
            time.sleep(0.02)
        address = Path(bus.log_path).read_text().split("\n")[0].strip()
        p = w.spawn(["mako"] if daemon == "mako" else [s.xhud, "server", "--notifications"], f"wl-{daemon}",
                    DBUS_SESSION_BUS_ADDRESS=address)
        state[daemon] = (p, bus, address)
        deadline = time.monotonic() + 10
        while w.run(["notify-send", "-t", "300", "Warm"], DBUS_SESSION_BUS_ADDRESS=address).returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{daemon} did not take the notifications' name")
            time.sleep(0.1)
        time.sleep(0.5)
        tidy()
    def tidy():
        address = state[daemon][2]
        if daemon == "mako":
            w.run(["makoctl", "dismiss", "-a"], DBUS_SESSION_BUS_ADDRESS=address)
        else:
            w.run([s.xhud, "notifications", "close-all"], DBUS_SESSION_BUS_ADDRESS=address)
    return prepare, ["notify-send", "-t", "0", "Loading"], tidy


def bench_first_pixel(s, w: Sway) -> dict:
    rows, state = first_pixel_clients(s, w)
    res = {k: {"label": lab, "status": st, "times": [], "interval": [], "error": None, "region": None}
           for k, lab, st, *_ in rows}
    live = [r for r in rows if r[2] == "ok"]
    fails = {r[0]: 0 for r in live}
    w.refresh(TIMED_HZ)
    try:
        for rnd in range(s.runs + 1):  # round 0 finds each client's region and is not counted
            for key, _, _, prepare, cmd, tidy in live:
                e = res[key]
                if fails[key] >= 2:
                    continue
                extra = {}
                try:
                    prepare()
                    if key in ("mako", "notify-xhud"):
                        extra["DBUS_SESSION_BUS_ADDRESS"] = state["mako" if key == "mako" else "xhud"][2]
                    w.background()
                    args = [w.poll, "--bg", BG, "--timeout", "5000"]
                    args += ["--locate", "700"] if e["region"] is None else ["--region", e["region"]]
                    args += ["--write", cmd[1], cmd[2]] if isinstance(cmd, tuple) else ["--", *cmd]
                    r = w.run(args, timeout=30, **extra)
                    m = re.fullmatch(r"\s*([\d.]+) (\d+) ([\d.]+)(?: (\S+))?\s*", r.stdout)
                    if r.returncode != 0 or not m:
                        raise RuntimeError((r.stdout + " " + r.stderr).strip()[:200] or f"exit {r.returncode}")
                    if e["region"] is None:
                        e["region"] = capped(m.group(4))
                    else:
                        e["times"].append(float(m.group(1)))
                        e["interval"].append(float(m.group(3)))
                except (RuntimeError, OSError) as ex:
                    fails[key] += 1
                    e["error"] = str(ex)[:200]
                finally:
                    try:
                        tidy()
                    except (KeyError, RuntimeError, OSError):
                        pass  # nothing to tidy: prepare() failed
                    w.background()
    finally:
        for daemon in ("mako", "xhud"):
            if state.get(daemon):
                s.procs.stop(state[daemon][0])
                s.procs.stop(state[daemon][1])
        for key in ("wob", "server"):
            s.procs.stop(state.get(key))
        w.end_servers()
    for e in res.values():
        if e["status"] == "ok" and not e["times"]:
            e["status"] = "failed: " + (e["error"] or "no run succeeded")
    return res


def capped(box: str | None) -> str:
    """The box, at most CAP_W x CAP_H around its centre (the whole output when nothing was seen)."""
    m = re.fullmatch(r"(\d+)x(\d+)\+(\d+)\+(\d+)", box or "")
    if not m:
        return f"{W}x{H}+0+0"
    bw, bh, bx, by = map(int, m.groups())
    cw, ch = min(bw, CAP_W), min(bh, CAP_H)
    return f"{cw}x{ch}+{bx + (bw - cw) // 2}+{by + (bh - ch) // 2}"


# -- CPU, wake-ups and memory ------------------------------------------------------------------------

def steady_clients(s, w: Sway):
    """(key, label, status, start() -> (pid of the drawing process, handles to stop))."""
    out = []
    xhud = s.xhud

    def served(args):
        def start():
            w.end_servers()
            server = w.spawn([xhud, "server"], "wl-steady-server")
            # Up once its socket is (`xhud list` succeeds with no server at all): a client
            # started before would start a server of its own, and this one would leave.
            deadline = time.monotonic() + 10
            while not any((w.runtime / "xhud").glob("*.sock")):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("`xhud server` did not start")
                time.sleep(0.02)
            client = w.spawn([xhud, *args], "wl-steady-client")
            pid = next((d for d in [server.pid, *descendants(server.pid)] if comm(d) == "xhud-host"), None)
            return pid, [client, server]
        return start

    reach = os.access(xhud, os.X_OK) and w.run(["test", "-x", xhud]).returncode == 0
    for key, label, args in (("xhud-spin", "**xhud spinner** (--mode indeterminate; the server drawing it)",
                              ["--mode", "indeterminate", "--label", "Loading"]),
                             ("xhud-bar", "**xhud --id vol --mode bar** (the server drawing it)", OSD + ["--hide-after", "600"])):
        out.append((key, label, "ok" if reach else f"not reachable by the bench user ({xhud})", served(args)))
    if shutil.which("wob"):
        def start_wob():
            fifo = w.directory / "wob-steady.fifo"
            fifo.unlink(missing_ok=True)
            os.mkfifo(fifo)
            w.chown(fifo)
            p = w.spawn(["sh", "-c", f"tail -f {fifo} | exec wob"], "wob-steady")
            time.sleep(0.3)
            w.run(["sh", "-c", f"echo 50 > {fifo}"])
            return next(iter(w.processes("wob")), None), [p]
        out.append(("wob", "wob showing a bar (timeout 10 s, its longest)", "ok", start_wob))
    else:
        out.append(("wob", "wob", "not installed (wob)", None))
    if shutil.which("mako") and shutil.which("notify-send") and shutil.which("dbus-daemon"):
        def start_mako():
            state: dict = {}
            prepare, _, _ = notification_row(s, w, state, "mako")
            prepare()
            p, bus, address = state["mako"]
            w.run(["notify-send", "-t", "0", "-h", "int:value:50", "Volume"], DBUS_SESSION_BUS_ADDRESS=address)
            return next(iter(w.processes("mako")), None), [p, bus]
        out.append(("mako", "mako showing a notification with a bar (int:value:50)", "ok", start_mako))
    else:
        out.append(("mako", "mako", "not installed (mako-notifier libnotify-bin)", None))
    return out


def bench_steady(s, w: Sway) -> dict:
    res = {}
    clients = steady_clients(s, w)
    for key, label, status, _ in clients:
        res[key] = {"label": label, "status": status, "cpu": [], "wake": [], "hwm": [], "rss": [], "swaycpu": [],
                    "error": None}
    w.refresh(STEADY_HZ)
    sway_pid = next(iter(w.processes("sway")), None)
    for _ in range(s.steady_runs):
        for key, _, status, start in clients:
            e = res[key]
            if status != "ok" or (e["error"] and not e["cpu"]):
                continue
            handles = []
            try:
                pid, handles = start()
                time.sleep(s.settle)
                if pid is None or not alive(pid):
                    raise RuntimeError("its drawing process is not running")
                a, sa, t0 = sample(pid), sample(sway_pid) if sway_pid else None, time.monotonic()
                time.sleep(s.window)
                b, sb, t1 = sample(pid), sample(sway_pid) if sway_pid else None, time.monotonic()
                hwm, rss = status_kib(pid, "VmHWM"), status_kib(pid, "VmRSS")
                if a is None or b is None or hwm is None:
                    raise RuntimeError("exited during the window")
                ns, sw = delta(a, b)
                e["cpu"].append(100 * ns / 1e9 / (t1 - t0))
                e["wake"].append(sw / (t1 - t0))
                e["hwm"].append(hwm / 1024)
                e["rss"].append(rss / 1024)
                if sa and sb:
                    e["swaycpu"].append(100 * delta(sa, sb)[0] / 1e9 / (t1 - t0))
            except (RuntimeError, OSError) as ex:
                e["error"] = str(ex)[:200]
            finally:
                for p in handles:
                    s.procs.stop(p)
                w.end_servers()
                w.background(3)
    for e in res.values():
        if e["status"] == "ok" and not e["cpu"]:
            e["status"] = "failed: " + (e["error"] or "no run succeeded")
    return res


def bench_wayland(s) -> None:
    out: dict = {"status": "ok", "first": {}, "steady": {}}
    s.results["wayland"] = out
    missing = [t for t in ("sway", "swaybg") if not shutil.which(t)]
    user, why = bench_user()
    if missing:
        out["status"] = f"not installed ({' '.join(missing)})"
        return
    if why:
        out["status"] = "not measured: " + why
        return
    if not s.wlpoll or not os.access(s.wlpoll, os.X_OK):
        out["status"] = "not measured: bench/wlpoll is not built (libwayland-dev)"
        return
    w = Sway(s, user)
    try:
        w.start()
        out["sway"] = (subprocess.run(["sway", "--version"], capture_output=True, text=True).stdout.strip())
        log(f"wayland: first pixel, {s.runs} runs")
        out["first"] = bench_first_pixel(s, w)
        log(f"wayland: CPU and memory, {s.steady_runs} x {s.window:g} s")
        out["steady"] = bench_steady(s, w)
    except (RuntimeError, OSError) as ex:
        out["status"] = "failed: " + str(ex)[:300]
    finally:
        w.stop()


# -- report ----------------------------------------------------------------------------------------

ANCHORS = ("wob", "mako")


def wayland_section(s) -> list[str]:
    r = s.results.get("wayland")
    if not r:
        return []
    out = ["## 7. Wayland: xhud beside wob and mako (headless sway)", ""]
    if r["status"] != "ok":
        return out + [f"Not measured: {r['status']}", ""]
    out += [f"{r.get('sway', 'sway')}, headless, pixman, one {W}x{H} output. *First pixel*: ms from the fork+exec "
            "of the client (for wob: the open+write of `echo 50 > fifo` into the FIFO its `tail -f` reads) to the "
            "arrival of the first screencopy capture in which a pixel of the client's region differs from the "
            f"background (bench/wlpoll; the output at {TIMED_HZ} Hz, so a capture completes within about a "
            "millisecond: *capture ms* is the mean interval, the figures' resolution). Each client's region is "
            f"where it drew in an untimed first run, at most {CAP_W}x{CAP_H}. *cold*: no xhud server (any is ended "
            "and its socket's directory removed before each run; the font matches are kept); *warm*: `xhud server` "
            "running, having drawn once. wob, mako and `xhud server --notifications` are daemons already running "
            "(each notification daemon on a session bus of its own). */ fastest anchor* is the median over the "
            "fastest of wob's and mako's medians.", ""]
    first = r.get("first") or {}
    meds = {k: mmm(e["times"])[1] for k, e in first.items() if e.get("times")}
    anchor = min(((meds[k], k) for k in ANCHORS if k in meds), default=None)
    rows = []
    for key, e in first.items():
        if e["status"] != "ok":
            rows.append([e["label"], e["status"], "", "", "", "", ""])
            continue
        mn, med, mx = mmm(e["times"])
        rows.append([e["label"], str(len(e["times"])), f1(mn), f1(med), f1(mx),
                     f"{med / anchor[0]:.2f}× {anchor[1]}" if anchor else "-", f1(mmm(e["interval"])[1], 2)])
    out += ["### First pixel", "", md_table(["client", "runs", "min ms", "median ms", "max ms", "/ fastest anchor",
                                             "capture ms"], rows), ""]
    steady = r.get("steady") or {}

    def cell(vals, nd=2):
        t = mmm(vals)
        return "-" if not t else (f"{t[1]:.{nd}f} ({t[0]:.{nd}f}-{t[2]:.{nd}f})" if len(vals) > 1 else f"{t[1]:.{nd}f}")

    rows = []
    for key, e in steady.items():
        if e["status"] != "ok":
            rows.append([e["label"], e["status"], "", "", "", ""])
            continue
        rows.append([e["label"], cell(e["cpu"]), cell(e["wake"], 1), cell(e["hwm"], 1), cell(e["rss"], 1),
                     cell(e["swaycpu"])])
    out += ["### CPU, wake-ups and memory", "",
            f"The output at {STEADY_HZ} Hz. Each shown {s.steady_runs} time{'s' if s.steady_runs > 1 else ''}; after "
            f"{s.settle:g} s, a {s.window:g} s window: CPU % of one core of the process that draws (all its threads, "
            "/proc/PID/task/*/schedstat; for xhud the server), its wake-ups/s (context switches), its peak RSS "
            "(VmHWM) and RSS at the end, and sway's CPU meanwhile.", "",
            md_table(["client", "CPU %", "wake-ups/s", "peak RSS MiB", "RSS MiB", "sway CPU %"], rows), ""]
    return out
