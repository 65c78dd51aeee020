"""Exit codes and messages: 3 without a display, 2 on usage errors; never a hang."""

import os
import subprocess

import pytest

from conftest import XHUD_BIN


def run_xhud(args, env, timeout=5):
    try:
        return subprocess.run([str(XHUD_BIN), *args], env=env, capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"xhud {' '.join(args)} did not exit within {timeout} s")


def short(text: str, n: int = 400) -> str:
    text = text.strip()
    return repr(text if len(text) <= n else text[:n] + " ...")


def one_line(stderr: str) -> bool:
    lines = [l for l in stderr.splitlines() if l.strip()]
    return len(lines) == 1


def test_no_server_exits_3(xhud_bin, free_display):
    env = dict(os.environ, DISPLAY=free_display)
    res = run_xhud(["--label", "x"], env)
    assert res.returncode == 3, f"DISPLAY={free_display} (no server): exit {res.returncode}, stderr {short(res.stderr)}"
    assert one_line(res.stderr), f"want one line on stderr, got {short(res.stderr)}"


def test_display_unset_exits_3(xhud_bin):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    res = run_xhud(["--label", "x"], env)
    assert res.returncode == 3, f"DISPLAY unset: exit {res.returncode}, stderr {short(res.stderr)}"
    assert one_line(res.stderr), f"want one line on stderr, got {short(res.stderr)}"


@pytest.mark.parametrize("args", [
    ["--mask", "nonsense-colour"],
    ["--window", "0xdeadbeef"],
    ["--progress", "abc"],
    ["--hide-after", "soon"],
    ["--bogus-flag"],
    ["--mode", "nonsense"],
    ["--bezel-color", "notacolour"],
    ["--content-color", "#12345"],
    ["--mode", "custom", "--image", "/nonexistent/image.png"],
], ids=["mask-colour", "window-id", "progress", "hide-after", "unknown-flag", "mode", "bezel-color",
        "content-color", "image-missing"])
def test_usage_errors_exit_2(xplain, args):
    res = run_xhud(args, xplain.env)
    assert res.returncode == 2, f"xhud {' '.join(args)}: exit {res.returncode}, stderr {short(res.stderr)}"
    assert one_line(res.stderr), f"xhud {' '.join(args)}: want one line on stderr, got {short(res.stderr)}"
    assert not [w for w in xplain.hud_windows() if w.viewable], "a HUD window is on screen after a usage error"


def test_unreadable_image_exits_2(xplain, tmp_path):
    bad = tmp_path / "not-a.png"
    bad.write_bytes(b"this is not a PNG file\n")
    res = run_xhud(["--mode", "custom", "--image", str(bad)], xplain.env)
    assert res.returncode == 2, f"--image of a non-PNG: exit {res.returncode}, stderr {short(res.stderr)}"
    assert one_line(res.stderr), f"want one line on stderr, got {short(res.stderr)}"


def test_help_exits_0(xhud_bin):
    res = run_xhud(["--help"], dict(os.environ))
    assert res.returncode == 0, res.stderr
    assert "--mode" in res.stdout + res.stderr
