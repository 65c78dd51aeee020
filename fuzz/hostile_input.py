"""Hostile input for xhud as a user and a client reach it: command lines built from every option
with hostile values (huge, negative, NaN, control characters, long strings, unknown words),
messages to the named-HUD server (random, mutated, truncated) and lines of the stdin protocol."""

from __future__ import annotations

import random
import struct


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
