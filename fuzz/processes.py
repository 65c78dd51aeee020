#!/usr/bin/env python3
"""Fuzzes xhud as a user and a client would reach it, on a private Xvfb:

- argv: random command lines built from every option with hostile values (huge, negative, NaN,
  control characters, long strings, unknown words). Each must end by itself with 0-3, never by a
  signal, within 10 s, and never echo a raw control character to stderr.
- socket: random, mutated and truncated messages to a live named-HUD server. The server must
  answer or drop each one, never die, and still answer `list` at the end.
- stdin: random protocol lines (and bytes) fed to a HUD. It must exit 0 or 1 within a few
  seconds of the end of its input.

    fuzz/processes.py [--seconds N] [--seed S] [--only argv|socket|stdin]

Prints one line a part with the inputs tried, crashes and hangs; exits 1 on any. XHUD_BIN names
the `xhud` binary (default .build/debug/xhud).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
XHUD = Path(os.environ.get("XHUD_BIN", REPO / ".build" / "debug" / "xhud")).resolve()
RAW_CONTROL = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]")

VALUE_OPTIONS = ["--mode", "--label", "--details", "--progress", "--button", "--image", "--image-size", "--spinner",
                 "--alternate-color", "--style", "--bezel-color", "--content-color", "--mask", "--margin",
                 "--corner-radius", "--min-size", "--offset", "--font", "--details-font", "--animation", "--grace",
                 "--min-show", "--hide-after", "--min-duration", "--max-duration", "--window", "--monitor",
                 "--geometry", "--scale", "--result-time", "--kill-timeout", "--delay", "--linger", "--text",
                 "--percentage", "--title", "--width", "--height"]
FLAGS = ["--show-value", "--alternate", "--markup", "--no-shadow", "--square", "--wait", "--click-through",
         "--pulsate", "--auto-close", "--no-cancel", "--progress", "--tint-image", "--no-tint-image"]
VERBS = ["success", "error", "info", "warning", "hide", "list", "push", "pop", "bogus"]
NUMBERS = ["0", "1", "-1", "0.5", "1e308", "-1e308", "1e-320", "nan", "inf", "-inf", "3e9", "99999999999",
           "2147483648", "-2147483649", "86400", "86401", "0x10", "1_000", "", " ", "٣", "1e", "--", "-0"]
WORDS = ["annular", "bar", "text", "custom", "pointer", "root", "active", "0x1", "999999", "eDP-1", "100x100+0+0",
         "99999999999x1+0+0", "1x1+-99999+0", "0,0", "1e9,1e9", "nan,0", "#fff", "rgba(1,2,3,4)", "red/2",
         "gradient", "none", "/dev/zero", "/tmp", "/nonexistent.png", "Sans 99999999px", "Sans -5px"]


def hostile_text(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(NUMBERS)
    if pick < 0.6:
        return rng.choice(WORDS)
    if pick < 0.8:
        return "".join(chr(rng.choice([0x1b, 0x07, 0x9b, 0x7f, 0x0d, 0x09, 0x41, 0x263a, 0x202e, 0x5b]))
                       for _ in range(rng.randint(1, 12)))
    return "x" * rng.choice([1, 100, 5000, 70000])


def random_argv(rng: random.Random) -> list[str]:
    argv = []
    if rng.random() < 0.2:
        argv.append(rng.choice(VERBS))
        if rng.random() < 0.5:
            argv.append(hostile_text(rng))
    for _ in range(rng.randint(1, 6)):
        r = rng.random()
        if r < 0.6:
            opt = rng.choice(VALUE_OPTIONS)
            val = hostile_text(rng)
            argv += [f"{opt}={val}"] if rng.random() < 0.3 else [opt, val]
        elif r < 0.9:
            argv.append(rng.choice(FLAGS))
        else:
            argv.append(hostile_text(rng))
    if "--id" not in argv and rng.random() < 0.2:
        argv += ["--id", rng.choice(["vol", "a" * 65, "../x", "ok-1"])]
    return [a for a in argv if a != "--"]   # never wrap a command


def start_xvfb() -> tuple[subprocess.Popen, str]:
    r, w = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(r, 16)
        if not chunk:
            break
        number += chunk
    os.close(r)
    return proc, ":" + number.decode().strip()


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


def frame(tag: bytes, fields: list[bytes]) -> bytes:
    payload = b"".join(f + b"\0" for f in fields)
    return tag + struct.pack("<I", len(payload)) + payload


def random_message(rng: random.Random) -> bytes:
    r = rng.random()
    if r < 0.6:
        return frame(b"xhq2", [b"/tmp", b""] + [a.encode("utf-8", "surrogatepass") for a in random_argv(rng)])
    good = frame(b"xhq2", [b"/tmp", b"", b"--id", b"f", b"--progress", b"0.5"])
    if r < 0.8:
        b = bytearray(good)
        for _ in range(rng.randint(1, 6)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if r < 0.9:
        return good[: rng.randrange(len(good))]
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 300)))


def server_pid(env: dict) -> int | None:
    """The live xhud-host started with this run's tag in its environment."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if open(f"/proc/{name}/comm").read().strip() != "xhud-host" or not alive(int(name)):
                continue
            if open(f"/proc/{name}/environ", "rb").read().find(env["XHUD_FUZZ_TAG"].encode()) >= 0:
                return int(name)
        except OSError:
            pass
    return None


def alive(pid: int | None) -> bool:
    try:
        return pid is not None and open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


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


def random_line(rng: random.Random) -> bytes:
    keys = [b"label=", b"details=", b"progress=", b"mode=", b"button=", b"alternate=", b"hide=", b"#", b"",
            b"pulsate:", b"show", b"success=", b"warning", b"frobnicate="]
    key = rng.choice(keys)
    if key in (b"success=", b"warning"):
        key = rng.choice(keys[:8])   # the endings are tested on their own; keep the HUD going
    val = hostile_text(rng).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        val += bytes([rng.choice([0, 0xff, 0xc3, 0x1b])])
    return key + val + b"\n"


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
    ap.add_argument("--only", choices=["argv", "socket", "stdin"])
    a = ap.parse_args()
    if not XHUD.exists():
        print(f"no xhud at {XHUD}", file=sys.stderr)
        return 2
    rng = random.Random(a.seed)
    xvfb, display = start_xvfb()
    runtime = Path(tempfile.mkdtemp(prefix="xhud-fuzz-"))
    os.chmod(runtime, 0o700)
    env = dict(os.environ, DISPLAY=display, XDG_RUNTIME_DIR=str(runtime), XHUD_FUZZ_TAG=f"xhud-fuzz-{os.getpid()}")
    failed = False
    try:
        for name, part in [("argv", run_argv), ("socket", run_socket), ("stdin", run_stdin)]:
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
        pid = server_pid(env)
        if pid:
            os.kill(pid, signal.SIGKILL)
        xvfb.terminate()
        shutil.rmtree(runtime, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
