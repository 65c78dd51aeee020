"""Scripts: notifications that return at once (and --wait), how clicks treat them, and the exit
codes of usage errors and of no display. Progress on stdin: test_script_progress.py; wrapping a
command: test_wrapped_commands.py."""

from __future__ import annotations

import time

from conftest import wait_until
from hud_pixels import any_hud_viewable, visible
from script_client import lines_of, xhud, xs  # noqa: F401 (a fixture)


# ---------------------------------------------------------------------------------------------
# 1. Notifications


def test_notification_returns_at_once_and_hides_itself(xs):
    x = xs
    t0 = time.monotonic()
    res = xhud(["success", "Saved", "--min-duration", "1"], x.env)
    took = time.monotonic() - t0
    assert res.returncode == 0, res
    assert took < 0.5, f"`xhud success` took {took:.2f} s to return"
    assert wait_until(lambda: visible(x), 0.5), "no HUD window after `xhud success` returned"
    time.sleep(max(0, t0 + 0.6 - time.monotonic()))
    assert visible(x), "the notification was gone at 0.6 s (min-duration 1)"
    assert wait_until(lambda: not any_hud_viewable(x), max(0.1, t0 + 2.5 - time.monotonic()), 0.05), (
        "the notification is still on screen 2.5 s after it appeared (1 s + fade)")

    t0 = time.monotonic()
    res = xhud(["info", "Half a second", "--hide-after", "0.5"], x.env)
    assert res.returncode == 0 and time.monotonic() - t0 < 0.5, res
    assert wait_until(lambda: visible(x), 0.5), "no HUD window for --hide-after 0.5"
    time.sleep(max(0, t0 + 0.3 - time.monotonic()))
    assert visible(x), "--hide-after 0.5: gone at 0.3 s"
    assert wait_until(lambda: not any_hud_viewable(x), max(0.1, t0 + 1.8 - time.monotonic()), 0.05), (
        "--hide-after 0.5: still on screen at 1.8 s")


def test_notification_wait_lasts_until_hidden(xs):
    x = xs
    t0 = time.monotonic()
    res = xhud(["success", "Saved", "--min-duration", "1", "--wait"], x.env)
    took = time.monotonic() - t0
    assert res.returncode == 0, res
    assert 0.95 <= took <= 2.5, f"--wait returned after {took:.2f} s (1 s + fade expected)"
    assert not any_hud_viewable(x), "--wait returned while the HUD was still on screen"


def test_icon_notification_dismissed_by_click(xs):
    x = xs
    t0 = time.monotonic()
    res = xhud(["info", "Hello", "--min-duration", "3", "--animation", "none"], x.env)
    assert res.returncode == 0, res
    wins = wait_until(lambda: visible(x), 1)
    assert wins, "no HUD window for `xhud info`"
    cx, cy = wins[0].centre
    x.click(int(cx), int(cy))
    t_click = time.monotonic()
    assert wait_until(lambda: not any_hud_viewable(x), 1.2), "a click on the bezel did not dismiss `xhud info`"
    assert time.monotonic() - t0 < 2.2, "dismissed, but not well before its 3 s"


def test_text_notification_lets_clicks_through(xs):
    x = xs
    xev = x.start_xev("400x300+440+250")   # under the centred bezel
    x.click(460, 270)
    assert wait_until(lambda: xev.button_presses() >= 1, 3), "premise: xev gets clicks"
    xev.clear()
    res = xhud(["--mode", "text", "--label", "Hi", "--min-duration", "2", "--animation", "none"], x.env)
    assert res.returncode == 0, res
    wins = wait_until(lambda: visible(x), 1)
    assert wins, "no HUD window for --mode text"
    cx, cy = wins[0].centre
    x.click(int(cx), int(cy))
    assert wait_until(lambda: xev.button_presses() >= 1, 2), "the click on a text HUD did not reach the window below"
    time.sleep(0.4)   # a dismissal, had there been one, shows meanwhile: time passing is what is tested
    assert visible(x), "a click dismissed the text-only HUD (it should pass through)"


# ---------------------------------------------------------------------------------------------
# 2. Exit codes


def test_usage_errors_and_no_display(xs, tmp_path):
    x = xs
    bad_png = tmp_path / "bad.png"
    bad_png.write_bytes(b"GIF89a not a png at all")
    cases = [
        (["--frobnicate"], 2, True),
        (["--bezel-color", "nope", "--label", "x"], 2, True),
        (["success", "Saved", "--bezel-color", "nope"], 2, True),
        (["--mode", "custom", "--image", str(bad_png)], 2, True),
        (["--mode", "custom", "--image", str(tmp_path / "missing.png")], 2, True),
        (["--mode", "nonsense"], 2, True),
        (["--frobnicate", "--", "true"], 2, True),
        (["frobnicate", "text"], 2, True),
    ]
    for args, want, one in cases:
        t0 = time.monotonic()
        res = xhud(args, x.env, timeout=5)
        err = res.stderr.decode(errors="replace")
        assert res.returncode == want, f"xhud {' '.join(args)}: exit {res.returncode}, stderr {err!r}"
        if one:
            assert len(lines_of(err)) == 1, f"xhud {' '.join(args)}: want one line on stderr, got {err!r}"
        assert res.stdout == b"", f"xhud {' '.join(args)}: stdout {res.stdout!r}"
        assert time.monotonic() - t0 < 3
    assert not any_hud_viewable(x), "a HUD window appeared for a usage error"

    env = {k: v for k, v in x.env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    for args in (["--label", "x"], ["success", "Saved"], ["--mode", "text", "--label", "x"]):
        res = xhud(args, env, timeout=5)
        err = res.stderr.decode(errors="replace")
        assert res.returncode == 3, f"no DISPLAY, xhud {' '.join(args)}: exit {res.returncode}, {err!r}"
        assert len(lines_of(err)) == 1, f"no DISPLAY: want one line, got {err!r}"
