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


def hostile_svg(rng: random.Random) -> bytes:
    """An SVG that asks much of its renderer: turbulence, text, entities, embedded bitmaps,
    nesting, compression, or bytes mutated from one of those."""
    body = rng.choice([
        f'<filter id="t"><feTurbulence baseFrequency="0.9" numOctaves="{rng.choice([1, 8, 9, 1000000])}"/></filter>'
        f'<rect width="{rng.choice([4, 400, 40000])}" height="400" filter="url(#t)"/>',
        "<text>" + "W" * rng.choice([10, 4000, 100000]) + "</text>",
        "<g>" * rng.choice([10, 1000, 20000]) + "</g>" * 10,
        '<image href="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAdTAAAHUwCAYAAAA"/>',
        '<filter id="b"><feGaussianBlur stdDeviation="' + rng.choice(["2", "1e9", "-1", "nan"]) + '"/></filter>'
        '<rect width="400" height="400" filter="url(#b)"/>',
        "<!DOCTYPE svg [<!ENTITY a \"" + "a" * 50 + "\">]>" + "<text>" + "&a;" * 2000 + "</text>",
    ])
    doc = f'<svg xmlns="http://www.w3.org/2000/svg" width="{rng.choice([48, 4096, 1e9])}" height="48">{body}</svg>'.encode()
    r = rng.random()
    if r < 0.15:
        import gzip
        return gzip.compress(doc)
    if r < 0.35:
        b = bytearray(doc)
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if r < 0.45:
        return b"<!-- " + b"x" * rng.choice([100, 5000, 70000]) + b" -->" + doc
    return doc


def hostile_theme(rng: random.Random, data: Path) -> str:
    """An icon theme whose index asks much of a lookup: thousands of parents (some of them
    cycles), thousands of directories, long and odd lines."""
    name = f"T{rng.randrange(1 << 30)}"
    theme = data / "icons" / name
    theme.mkdir(parents=True, exist_ok=True)
    parents = ",".join(rng.choice([name, "hicolor", "Adwaita", "../..", "x" * 300, f"p{i}"]) for i in range(rng.choice([3, 5000, 120000])))
    dirs = ",".join(f"d{i}" for i in range(rng.choice([1, 50, 3000])))
    groups = "".join(f"\n[d{i}]\nSize={rng.choice(['48', '-1', '99999999999', 'x'])}\nType={rng.choice(['Fixed', 'Scalable', 'Threshold', ''])}\n"
                     for i in range(min(60, rng.choice([1, 50]))))
    (theme / "index.theme").write_text(f"[Icon Theme]\nName={name}\nInherits={parents}\nDirectories={dirs}\n{groups}")
    return name


def hostile_png(rng: random.Random) -> bytes:
    """A PNG the image thread decodes (256x256 at most): any depth and colour type, interlaced
    or not, its data noise, cut short, or not zlib at all, and chunks it does not know."""
    import struct
    import zlib

    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
    w, h = rng.choice([1, 17, 255, 256, 257]), rng.choice([1, 64, 256, 300])
    depth, colour = rng.choice([(1, 0), (8, 0), (16, 0), (8, 2), (16, 2), (8, 3), (8, 4), (8, 6), (16, 6), (7, 6)])
    rows = os.urandom(min(w * h * 8 + h, 600_000))
    data = rng.choice([zlib.compress(rows, rng.choice([0, 9])), zlib.compress(rows)[: rng.randint(0, 200)], os.urandom(300)])
    extra = rng.choice([b"", chunk(b"zTXt", b"k\0\0" + zlib.compress(b"x" * 5_000_000)), chunk(b"iCCP", b"p\0\0" + os.urandom(4000)),
                        chunk(b"PLTE", os.urandom(rng.choice([0, 3, 768, 1000])))])
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, rng.choice([0, 1])))
            + extra + chunk(b"IDAT", data) + chunk(b"IEND", b""))


def hostile_markup(rng: random.Random) -> str:
    """Markup the text thread lays out: colours, backgrounds, alphas and underline colours of
    their own, nested deep, cut anywhere, up to the 16 KB of details."""
    spans = ['<span color="red">', '<span bgcolor="#0f08">', '<span alpha="40%">', '<span underline="single" underline_color="blue">',
             "<b>", '<span fgcolor="nonsense">', '<span font="Serif 40">']
    text, size = "", rng.choice([50, 2000, 16000])
    while len(text) < size:
        text += rng.choice(spans) * rng.choice([1, 30]) + rng.choice(["word ", "a\u0301" * 16, "W" * 300, "&amp;", "&bogus;", "<"])
    return text[: rng.randint(1, len(text))]


def run_content(env: dict, seconds: float, rng: random.Random) -> tuple[int, list[str]]:
    """What a request names: hostile SVG and PNG files, markup, icon names and themes,
    configuration files and kept font matches, each sent while a spinner shown by the same
    server must keep turning: the longest its pixels stand still must stay under 0.5 s."""
    sys.path.insert(0, str(REPO / "Tests" / "Integration"))
    from test_liveness import Grabber   # XGetImage on a connection of its own
    import threading
    problems, tried = [], 0
    work = Path(tempfile.mkdtemp(prefix="xhud-content-"))
    data = work / "data"
    env = dict(env, XDG_DATA_DIRS=f"{data}:/usr/share", XDG_CACHE_HOME=str(work / "cache"))
    # The witness has a region of its own, the screen's top strip, and the requests' HUDs the
    # rest: a witness among them would be pushed out of any region watched, or covered by a
    # HUD of theirs that holds still (its pixels still while it spins elsewhere or beneath).
    first = subprocess.run([str(XHUD), "--id", "witness", "--label", "Witness", "--hide-after", "3600", "--linger", "3600",
                            "--animation", "none", "--geometry", "1280x200+0+0"], env=env, capture_output=True, timeout=10,
                           stdin=subprocess.DEVNULL)
    if first.returncode != 0:
        return 0, [f"cannot show the witness: {first.stderr!r}"]
    grabber = Grabber(env["DISPLAY"])
    stop = threading.Event()
    longest = [0.0]

    def watch():
        last, since = None, time.monotonic()
        while not stop.is_set():
            d = grabber.digest((0, 0, 1280, 200))
            now = time.monotonic()
            if d != last:
                last, since = d, now
            longest[0] = max(longest[0], now - since)
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    time.sleep(0.3)
    watcher.start()
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            tried += 1
            kind = rng.choice(["svg", "png", "markup", "icon", "config", "fontmatch"])
            args = ["--hide-after", "0.3", "--animation", "none", "--geometry", "1280x600+0+200"]
            run_env = env
            if kind == "svg":
                f = work / f"in{tried}.svg"
                f.write_bytes(hostile_svg(rng))
                args = ["--id", f"c{tried % 4}", "--mode", "custom", "--image", str(f), *args]
            elif kind == "png":
                f = work / f"in{tried}.png"
                f.write_bytes(hostile_png(rng))
                args = ["--id", f"c{tried % 4}", "--mode", "custom", "--image", str(f), *args]
            elif kind == "markup":
                args = ["--id", f"c{tried % 4}", "--mode", "text", "--label", "x", "--markup", "--details", hostile_markup(rng), *args]
            elif kind == "icon":
                theme = hostile_theme(rng, data)
                name = "-".join(["a"] * rng.choice([1, 10, 100])) if rng.random() < 0.5 else rng.choice(
                    ["audio-volume-high", "dialog-information", "x" * 200, "a-b-c-d-e-f-g-h-i-j-k-l"])
                args = ["--id", f"c{tried % 4}", "--mode", "custom", "--image", name, "--icon-theme", theme, *args]
            elif kind == "config":
                f = work / f"c{tried}.toml"
                f.write_text(rng.choice([
                    "margin = " + "9" * rng.choice([5, 5000]) + "\n",
                    "label = \"" + "x" * rng.choice([10, 70000]) + "\"\n",
                    "[notification]\n" * rng.choice([1, 5000]),
                    "offset = [" + ",".join(["1"] * rng.choice([2, 10000])) + "]\n",
                    "a = [" * rng.choice([10, 20000]) + "\n",
                ]))
                args = ["--id", f"c{tried % 4}", "--config", str(f), *args]
            else:
                # A fresh server (its own runtime directory) reads the kept matches at start.
                matches = work / "cache" / "xhud" / "fonts"
                matches.mkdir(parents=True, exist_ok=True)
                os.chmod(work / "cache" / "xhud", 0o700)
                os.chmod(matches, 0o700)
                target = rng.choice(["/dev/zero", str(work / "fifo"), "/nonexistent.ttf", "/usr/share/fonts"])
                if target.endswith("fifo") and not os.path.exists(target):
                    os.mkfifo(target)
                (matches / "matches").write_text("xhud font matches 1\n" + rng.choice(["", "env HOME\n"])
                                                 + f"stat - {target}\nfont Sans Bold 16px\tDejaVu Sans:file={target}\n")
                rt = work / f"rt{tried}"
                rt.mkdir(mode=0o700)
                run_env = dict(env, XDG_RUNTIME_DIR=str(rt))
                args = ["--label", "Fresh server", "--hide-after", "0.2", "--linger", "0.2"]
            try:
                p = subprocess.run([str(XHUD), *args], env=run_env, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                problems.append(f"hang: {kind} {args[:8]!r}")
                continue
            if p.returncode < 0 or p.returncode > 3:
                problems.append(f"exit {p.returncode}: {kind} {args[:8]!r}: {p.stderr[-300:]!r}")
    finally:
        stop.set()
        watcher.join()
        grabber.close()
        shutil.rmtree(work, ignore_errors=True)
    if longest[0] >= 0.5:
        problems.append(f"the witness spinner stood still for {longest[0]:.2f} s")
    print(f"    content: the witness's longest stand-still {longest[0]:.2f} s")
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
    xvfb, display = start_xvfb()
    runtime = Path(tempfile.mkdtemp(prefix="xhud-fuzz-"))
    os.chmod(runtime, 0o700)
    env = dict(os.environ, DISPLAY=display, XDG_RUNTIME_DIR=str(runtime), XHUD_FUZZ_TAG=f"xhud-fuzz-{os.getpid()}")
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
        pid = server_pid(env)
        if pid:
            os.kill(pid, signal.SIGKILL)
        xvfb.terminate()
        shutil.rmtree(runtime, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
