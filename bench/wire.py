#!/usr/bin/env python3
"""Bytes on the wire and CPU: what each client sends the X server, counted by a TCP proxy
between them (what `ssh -X` carries), with the CPU of the client and of the X server from /proc.
xhud, the C floor and zenity, in one run, without and with xcompmgr.

    bench/wire.py [--quick] [--floor PATH] [--xhud PATH] [--out FILE]

Cases (each client reaches the X server through the proxy only, as a remote client would, so
xhud takes its plain-request path, not MIT-SHM):
  static   `--mode annular --label Loading --progress 0.5`: bytes in the first 1.5 s, then B/s
  spinner  `--label Working` (zenity --progress --pulsate): B/s once shown
  bar      a bar fed 10 values a second on stdin (zenity --progress fed the same): B/s, and
           CPU % of one core of the client and of the X server
xhud draws every HUD in the display's server, which the `xhud` client starts when none runs
(detached: posix_spawn in a session of its own). The server inherits the client's DISPLAY, so its X traffic goes
through the proxy too; its CPU is added to the client's ("client + server"). It is found by its
comm (xhud-host) and the private XDG_RUNTIME_DIR in its environment, and ended between cases so
that each case starts the same way: no server running.
Targets (the drawing issue): static <= 250 KB and 0 B/s once shown; spinner <= 60 KB/s; bar
<= 60 KB/s; client + server + X server <= 1.5 % for the bar and <= 1 % for the spinner.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import signal
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# The processes of a run: the harness of the integration tests and the suite (harness/).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness.procs import end_hosts, hosts  # noqa: E402
from harness.xlib import set_root_background  # noqa: E402
from harness.xserver import answers  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
HZ = os.sysconf("SC_CLK_TCK")


class Proxy:
    """Forwards TCP connections from `listen` to `target`, counting client-to-server bytes."""

    def __init__(self, listen: int, target: int):
        self.sent = 0
        self.lock = threading.Lock()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", listen))
        self.server.listen(64)
        self.target = target
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                c, _ = self.server.accept()
            except OSError:
                return
            s = socket.create_connection(("127.0.0.1", self.target))
            for a, b, counted in ((c, s, True), (s, c, False)):
                threading.Thread(target=self.pump, args=(a, b, counted), daemon=True).start()

    def pump(self, a, b, counted):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                if counted:
                    with self.lock:
                        self.sent += len(data)
                b.sendall(data)
        except OSError:
            pass
        finally:
            for x in (a, b):
                try:
                    x.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def count(self) -> int:
        with self.lock:
            return self.sent


def cpu_seconds(pid: int) -> float:
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / HZ
    except (OSError, IndexError):
        return 0.0


def tree_cpu(pid: int) -> float:
    """CPU of a process and its children (xhud's front door execs the host; zenity is one)."""
    total = cpu_seconds(pid)
    try:
        for child in open(f"/proc/{pid}/task/{pid}/children").read().split():
            total += tree_cpu(int(child))
    except OSError:
        pass
    return total


def servers(runtime: str) -> list[int]:
    """The HUD servers that use XDG_RUNTIME_DIR=runtime (zombies left out)."""
    return hosts("XDG_RUNTIME_DIR", runtime)


def end_servers(runtime: str, timeout: float = 3.0) -> None:
    """SIGTERM to every server of `runtime`, then waits (SIGKILL after `timeout`)."""
    end_hosts("XDG_RUNTIME_DIR", runtime, timeout)


def start_x(number: int, composited: bool):
    xvfb = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-listen", "tcp", "-ac", "-noreset"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = dict(os.environ, DISPLAY=f":{number}")
    answers(env, 5, xvfb)
    set_root_background(f":{number}", (0x33, 0x66, 0xCC))
    comp = None
    if composited:
        comp = subprocess.Popen(["xcompmgr"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)
    return xvfb, comp


def measure(proxy: Proxy, xvfb: subprocess.Popen, cmd: list[str], env: dict, feed: bool, first: float, steady: float,
            served: bool = False):
    """Bytes in the first `first` seconds, then bytes/s and CPU % over `steady` seconds. `served`:
    the client's HUD is drawn by the display's server, whose CPU is counted with the client's."""
    runtime = env["XDG_RUNTIME_DIR"]
    end_servers(runtime)  # each case starts with no server
    p = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE if feed else subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    stop = threading.Event()

    def feeder():
        i = 0
        while not stop.is_set():
            i += 1
            try:
                p.stdin.write(f"{(i * 7) % 100}\n".encode())
                p.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                return
            time.sleep(0.1)

    base = proxy.count()
    if feed:
        threading.Thread(target=feeder, daemon=True).start()
    time.sleep(first)
    at_first = proxy.count() - base
    server = None
    if served:
        found = servers(runtime)
        server = found[0] if len(found) == 1 else None

    def server_cpu() -> float:
        return cpu_seconds(server) if server else 0.0

    c0, s0, x0, b0, t0 = tree_cpu(p.pid), server_cpu(), cpu_seconds(xvfb.pid), proxy.count(), time.monotonic()
    time.sleep(steady)
    c1, s1, x1, b1, t1 = tree_cpu(p.pid), server_cpu(), cpu_seconds(xvfb.pid), proxy.count(), time.monotonic()
    stop.set()
    alive = p.poll() is None and (not served or (server is not None and server in servers(runtime)))
    try:
        os.killpg(p.pid, 15)
    except ProcessLookupError:
        pass
    try:
        p.wait(timeout=3)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
    end_servers(runtime)
    dt = t1 - t0
    return {"first_kb": at_first / 1000, "steady_kbs": (b1 - b0) / dt / 1000,
            "client_cpu": 100 * (c1 - c0 + s1 - s0) / dt, "server_cpu": 100 * (s1 - s0) / dt if served else None,
            "x_cpu": 100 * (x1 - x0) / dt, "alive": alive, "server": server is not None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one short pass, no compositor")
    ap.add_argument("--xhud", default=str(REPO / ".build" / "release" / "xhud"))
    ap.add_argument("--floor", default=None, help="the C floor binary (bench/floor.c)")
    ap.add_argument("--out", default=str(REPO / "bench" / "results" / "wire.md"))
    ap.add_argument("--display", type=int, default=71)
    a = ap.parse_args()
    try:  # a child subreaper: the servers the clients start are re-parented here, and reaped here
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        pass
    xhud = Path(a.xhud)
    if not xhud.exists():
        xhud = REPO / ".build" / "debug" / "xhud"
    floor = a.floor
    tmp = Path(tempfile.mkdtemp(prefix="xhud-wire-"))
    if floor is None and shutil.which("cc"):
        floor = str(tmp / "floor")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "x11", "cairo"], capture_output=True, text=True).stdout.split()
        if subprocess.run(["cc", "-O2", "-o", floor, str(REPO / "bench" / "floor.c"), *flags, "-lm"]).returncode != 0:
            floor = None
    first, steady = (1.5, 1.5) if a.quick else (1.5, 4.0)
    rows = []
    for composited in ([False] if a.quick else [False, True]):
        n = a.display + (1 if composited else 0)
        xvfb, comp = start_x(n, composited)
        proxy = None
        try:
            proxy = Proxy(6000 + n + 100, 6000 + n)
            env = dict(os.environ, DISPLAY=f"127.0.0.1:{n + 100}", XDG_RUNTIME_DIR=str(tmp))
            env.pop("XAUTHORITY", None)
            cases = [
                ("static", "xhud", [str(xhud), "--mode", "annular", "--label", "Loading", "--progress", "0.5"], False),
                ("spinner", "xhud", [str(xhud), "--label", "Working"], False),
                ("bar 10/s", "xhud", [str(xhud), "--mode", "bar", "--label", "Copying"], True),
            ]
            if floor:
                cases.insert(1, ("static", "C floor", [floor, "Loading"], False))
            if shutil.which("zenity"):
                cases += [("static", "zenity", ["zenity", "--progress", "--percentage=50", "--text=Loading"], False),
                          ("spinner", "zenity", ["zenity", "--progress", "--pulsate", "--text=Working"], False),
                          ("bar 10/s", "zenity", ["zenity", "--progress", "--text=Copying"], True)]
            for case, client, cmd, feed in cases:
                try:
                    r = measure(proxy, xvfb, cmd, env, feed, first, steady, served=client == "xhud")
                finally:
                    end_servers(str(tmp))
                rows.append((("xcompmgr" if composited else "none"), case, client, r))
                srv = "" if r["server_cpu"] is None else f" (server {r['server_cpu']:.2f})" if r["server"] else " (no server found)"
                print(f"wire: {'xcompmgr' if composited else 'no compositor'} {case:9} {client:8} first {r['first_kb']:8.1f} KB, "
                      f"steady {r['steady_kbs']:7.2f} KB/s, CPU {r['client_cpu']:.2f}{srv} + X {r['x_cpu']:.2f} %", file=sys.stderr)
        finally:
            end_servers(str(tmp))
            if proxy is not None:
                proxy.server.close()
            for proc in (comp, xvfb):
                if proc is not None:
                    proc.terminate()
                    try:
                        proc.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
    targets = {("static", "first"): 250, ("static", "steady"): 0.05, ("spinner", "steady"): 60, ("bar 10/s", "steady"): 60}
    lines = [f"# Bytes on the wire, {time.strftime('%Y-%m-%d %H:%M')}", "",
             "Client-to-server bytes through a counting TCP proxy (what `ssh -X` carries); CPU % of one core "
             f"over the steady window ({steady:g} s) for the client and for Xvfb. xhud's HUD is drawn by the "
             "display's server, which the client starts (none runs when a case begins): its X traffic goes "
             "through the proxy as well, and its CPU is added to the client's (*client + server*; the "
             "server's share in brackets).", "",
             "| compositor | case | client | first 1.5 s (KB) | steady (KB/s) | client + server CPU % | X server CPU % | target |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    for comp, case, client, r in rows:
        target = ""
        if client == "xhud":
            if case == "static":
                ok = r["first_kb"] <= 250 and r["steady_kbs"] <= 0.05
                target = f"<= 250 KB, 0 B/s: {'met' if ok else 'missed'}"
            elif case == "spinner":
                ok = r["steady_kbs"] <= 60 and r["client_cpu"] + r["x_cpu"] <= 1.0
                target = f"<= 60 KB/s, <= 1 % CPU: {'met' if ok else 'missed'}"
            else:
                ok = r["steady_kbs"] <= 60 and r["client_cpu"] + r["x_cpu"] <= 1.5
                target = f"<= 60 KB/s, <= 1.5 % CPU: {'met' if ok else 'missed'}"
        cpu = f"{r['client_cpu']:.2f}"
        if r["server_cpu"] is not None:
            cpu += f" ({r['server_cpu']:.2f})" if r["server"] else " (no server found)"
        lines.append(f"| {comp} | {case} | {client} | {r['first_kb']:.1f} | {r['steady_kbs']:.2f} | {cpu} | "
                     f"{r['x_cpu']:.2f} | {target} |")
    text = "\n".join(lines) + "\n"
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(text)
    print(text)
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
