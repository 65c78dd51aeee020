"""The content part of the process fuzzers: hostile SVG and PNG files, markup, icon names and
index.theme files, configuration files and kept font matches, each named in a request while a
spinner shown by the same server keeps turning (its pixels read back every 20 ms: never still
for 0.5 s); each request ends by itself with 0-3 within 10 s."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from xhud_under_test import REPO, XHUD


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
