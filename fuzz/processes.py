#!/usr/bin/env python3
"""Fuzzes xhud as a user and a client would reach it, on a private Xvfb:

- argv: random command lines built from every option with hostile values (huge, negative, NaN,
  control characters, long strings, unknown words). Each must end by itself with 0-3, never by a
  signal, within 10 s, and never echo a raw control character to stderr.
- socket: random, mutated and truncated messages to a live named-HUD server. The server must
  answer or drop each one, never die, and still answer `list` at the end.
- stdin: random protocol lines (and bytes) fed to a HUD. It must exit 0 or 1 within a few
  seconds of the end of its input.
- content: hostile SVG and PNG files, markup, icon names and index.theme files, configuration
  files and kept font matches, each named in a request while a spinner shown by the same server
  keeps turning (its pixels read back every 20 ms: never still for 0.5 s); each request ends by
  itself with 0-3 within 10 s.

    fuzz/processes.py [--seconds N] [--seed S] [--only argv|socket|stdin|content]

Prints one line a part with the inputs tried, crashes and hangs; exits 1 on any. XHUD_BIN names
the `xhud` binary (default .build/debug/xhud). The hostile command lines, messages and lines are
made in fuzz/hostile_input.py; the content part is fuzz/content.py; the X server is harness/'s.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from content import run_content
from hostile_input import random_argv, random_line, random_message
from xhud_under_test import REPO, XHUD

# The X server and the processes of a run: the harness of the integration tests (harness/).
sys.path.insert(0, str(REPO))
from harness.procs import alive, end_hosts, hosts, kill_group  # noqa: E402
from harness.xserver import private_dir, start_xvfb  # noqa: E402

RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")
TAG = "XHUD_FUZZ_TAG"   # in the environment of everything a run starts


def run_argv(env: dict, seconds: float, rng: random.Random) -> tuple[int, list[str]]:
    """Option parsing and validation: DISPLAY points at a display that does not exist, so a valid
    command line ends with 3 once it has parsed and checked everything."""
    env = dict(env, DISPLAY=":987654")
    problems, tried, deadline = [], 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        argv = random_argv(rng)
        tried += 1
        try:
            p = subprocess.run([str(XHUD), *argv], env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
        except subprocess.TimeoutExpired:
            problems.append(f"hang: {argv!r}")
            continue
        if p.returncode < 0 or p.returncode > 3:
            problems.append(f"exit {p.returncode}: {argv!r}: {p.stderr[-300:]!r}")
        elif RAW_CONTROL.search(p.stderr):
            problems.append(f"raw control character on stderr: {argv!r}: {p.stderr[-200:]!r}")
    return tried, problems


def server_pid(env: dict) -> int | None:
    """The live xhud-host started with this run's tag in its environment."""
    found = hosts(TAG, env[TAG])
    return found[0] if found else None


def run_socket(env: dict, seconds: float, rng: random.Random) -> tuple[int, list[str]]:
    problems = []
    first = subprocess.run([str(XHUD), "--id", "base", "--mode", "bar", "--hide-after", "3600", "--linger", "3600"],
                           env=env, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
    if first.returncode != 0:
        return 0, [f"cannot start the server: {first.stderr!r}"]
    pid = server_pid(env)
    if pid is None:
        return 0, ["the server is not running after its first request"]
    sock = Path(env["XDG_RUNTIME_DIR"], "xhud", env["DISPLAY"].lstrip(":").split(".")[0] + ".sock")
    tried, deaths, deadline = 0, 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        msg = random_message(rng)
        tried += 1
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(5)
        try:
            s.connect(str(sock))
            s.sendall(msg)
            s.shutdown(socket.SHUT_WR)
            while s.recv(65536):
                pass
        except socket.timeout:
            problems.append(f"no answer within 5 s to {msg[:120]!r}")
        except (ConnectionRefusedError, FileNotFoundError):
            problems.append(f"the server's socket refused a connection after {tried - 1} messages")
            break
        except OSError:
            pass
        finally:
            s.close()
        if not alive(pid):
            deaths += 1
            problems.append(f"server died after {msg[:200]!r}")
            break
    t0 = time.monotonic()
    res = subprocess.run([str(XHUD), "list"], env=env, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
    if res.returncode != 0 or time.monotonic() - t0 > 1:
        problems.append(f"list after fuzzing: exit {res.returncode} in {time.monotonic() - t0:.2f} s")
    if pid:
        os.kill(pid, signal.SIGTERM)
    return tried, problems


def save(data: bytes) -> Path:
    """Keeps a failing input for reproduction, in .build/fuzz/."""
    out = REPO / ".build" / "fuzz"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"stdin-{abs(hash(data)):x}.input"
    path.write_bytes(data)
    return path


def run_stdin(env: dict, seconds: float, rng: random.Random) -> tuple[int, list[str]]:
    problems, tried, deadline = [], 0, time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = b"".join(random_line(rng) for _ in range(rng.randint(10, 400)))
        tried += lines.count(b"\n")
        p = subprocess.Popen([str(XHUD), "--mode", "bar", "--animation", "none", "--mask", "none"], env=env,
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            _, err = p.communicate(lines, timeout=8)
        except subprocess.TimeoutExpired:
            p.kill()
            saved = save(lines)
            problems.append(f"still running 8 s after its input ended (input in {saved}): {lines[:300]!r}")
            continue
        if p.returncode not in (0, 1):
            problems.append(f"exit {p.returncode} (input in {save(lines)}): {lines[:300]!r}: {err[-300:]!r}")
        elif RAW_CONTROL.search(err):
            problems.append(f"raw control character on stderr: {err[-200:]!r}")
    return tried, problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=10, help="seconds for each part (default 10)")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--only", choices=["argv", "socket", "stdin", "content"])
    a = ap.parse_args()
    if not XHUD.exists():
        print(f"no xhud at {XHUD}", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    work = Path(tempfile.mkdtemp(prefix="xhud-fuzz-"))
    try:
        xvfb, env = start_xvfb(1280, 800, work / "xvfb.log")
    except RuntimeError as e:
        shutil.rmtree(work, ignore_errors=True)
        print(e, file=sys.stderr)
        return 2
    runtime = private_dir(work / "run")
    env = dict(env, XDG_RUNTIME_DIR=str(runtime), **{TAG: f"xhud-fuzz-{os.getpid()}"})
    failed = False
    try:
        for name, part in [("argv", run_argv), ("socket", run_socket), ("stdin", run_stdin), ("content", run_content)]:
            if a.only and a.only != name:
                continue
            tried, problems = part(env, a.seconds, rng)
            hangs = sum(1 for p in problems if "hang" in p or "within" in p or "still running" in p)
            print(f"fuzz {name}: {tried} inputs in {a.seconds:g} s (seed {a.seed}), "
                  f"{len(problems) - hangs} crashes or errors, {hangs} hangs")
            for p in problems[:5]:
                print("   ", p)
            failed |= bool(problems)
    finally:
        end_hosts(TAG, env[TAG])
        kill_group(xvfb)
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
