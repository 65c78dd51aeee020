"""What a newcomer's script hits first: each of these once trapped a script (an endless HUD that
swallowed clicks, a button that could not be clicked) or refused what zenity takes."""

from __future__ import annotations

import subprocess
import time

from conftest import XHUD_BIN, wait_steady, wait_until


def test_an_icon_no_theme_has_shows_the_text_alone(xplain):
    """`--mode custom --image no-such-icon`: the label, no spinner, no full-screen window, and
    clicks pass through to the window beneath, as any text notification's."""
    xev = xplain.start_xev("600x400+340+200")
    hud = xplain.start_xhud("--mode", "custom", "--image", "no-such-icon-anywhere", "--label", "Nothing to show",
                            "--animation", "none")
    wins = xplain.visible_hud_windows()
    assert len(wins) == 1, wins
    w = wins[0]
    assert w.width < 400 and w.height < 200, f"a bezel, not a region: {w}"
    assert "no icon 'no-such-icon-anywhere'" in hud.stderr
    # Nothing turns: two screenshots of the bezel a quarter second apart are the same.
    region = (w.x, w.y, w.width, w.height)
    a = xplain.screenshot().bbox_not((0, 0, 0), region=region)
    first = xplain.screenshot()
    time.sleep(0.25)   # time passing is what is tested
    second = xplain.screenshot()
    rows = [first.data[(y * first.width + w.x) * 3:(y * first.width + w.x + w.width) * 3] for y in range(w.y, w.y + w.height)]
    rows2 = [second.data[(y * second.width + w.x) * 3:(y * second.width + w.x + w.width) * 3] for y in range(w.y, w.y + w.height)]
    assert a is not None and rows == rows2, "a static bezel with its label"
    xev.clear()
    xplain.click(w.x + w.width // 2, w.y + w.height // 2)
    assert wait_until(lambda: xev.button_presses() > 0, 2), "the click reaches the window beneath"
    assert hud.proc.poll() is None


def _button_point(w):
    """The button's centre: the bezel's bottom margin (20) and half the button (13) above its
    bottom edge, inside the window's 2-pixel border."""
    return w.x + w.width // 2, w.y + w.height - 2 - 20 - 13


def test_a_button_given_on_stdin_to_a_click_through_hud_is_clickable(xplain):
    """`--mask none` lets clicks through; a button added later takes them: Cancel exits 1."""
    p = subprocess.Popen([str(XHUD_BIN), "--label", "Working", "--mask", "none", "--animation", "none"],
                         env=xplain.env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_until(lambda: xplain.visible_hud_windows(), 5)
        before = xplain.visible_hud_windows()[0]
        p.stdin.write(b"button=Cancel\n")
        p.stdin.flush()
        assert wait_until(lambda: xplain.visible_hud_windows() and xplain.visible_hud_windows()[0].height > before.height + 20, 3)
        from test_material import bounding_shape

        def takes_the_click():
            """Its size once two reads in a row agree, and its input shape holds the button."""
            w = wait_steady(lambda: (v := xplain.visible_hud_windows()) and v[0], 3, 0.05)
            if not w:
                return None
            bx, by = _button_point(w)
            inside = any(x0 <= bx - w.x < x0 + rw and y0 <= by - w.y < y0 + rh
                         for x0, y0, rw, rh in bounding_shape(xplain.display, w.id, 2))   # ShapeInput
            return inside and w

        w = wait_until(takes_the_click, 3) or xplain.visible_hud_windows()[0]
        xplain.click(*_button_point(w))
        assert p.wait(timeout=3) == 1, "Cancel ends the HUD with status 1"
    finally:
        p.kill()
        p.wait()


def test_a_named_huds_button_dismisses_it(xplain):
    xplain.run(str(XHUD_BIN), "--id", "trap", "--label", "Update ready", "--button", "Close", "--hide-after", "60",
               "--animation", "none")
    assert wait_until(lambda: xplain.visible_hud_windows(), 5)
    w = xplain.visible_hud_windows()[0]
    xplain.click(*_button_point(w))
    assert wait_until(lambda: not xplain.visible_hud_windows(), 3), "the button dismissed the named HUD"


def test_zenity_text_is_markup_unless_no_markup(xplain):
    """zenity shows --text as Pango markup; --no-markup shows the tags as written."""
    widths = {}
    for extra in ([], ["--no-markup"]):
        p = subprocess.Popen([str(XHUD_BIN), "--progress", "--text=<b>Copying</b> &amp; checking", "--animation", "none",
                              *extra], env=xplain.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert wait_until(lambda: xplain.visible_hud_windows(), 5)
            # Laid out: two reads in a row agree.
            wait_steady(lambda: (v := xplain.visible_hud_windows()) and v[0].width, 3, 0.05)
            widths[tuple(extra)] = xplain.visible_hud_windows()[0].width
        finally:
            p.stdin.close()
            p.wait(timeout=5)
        assert wait_until(lambda: not xplain.visible_hud_windows(), 3)
    assert widths[("--no-markup",)] > widths[()] + 30, f"the literal tags are wider than the markup: {widths}"


def test_zenity_clamps_percentage_and_takes_gtk_options(xplain):
    p = subprocess.run([str(XHUD_BIN), "--progress", "--percentage=150", "--gtk-module=canberra-gtk-module",
                        "--auto-close", "--text=Done"], env=xplain.env, input=b"100\n", capture_output=True, timeout=10)
    assert p.returncode == 0, p.stderr


def test_mode_names_of_the_command_line_and_stdin_agree(xplain):
    for name in ("spinner", "pie", "ring", "annular-determinate", "determinate-horizontal-bar"):
        p = subprocess.run([str(XHUD_BIN), "--mode", name, "--label", name, "--hide-after", "0"],
                           env=xplain.env, stdin=subprocess.DEVNULL, capture_output=True, timeout=10)
        assert p.returncode == 0, (name, p.stderr)


def test_an_extra_button_prints_its_title_and_exits_1(xplain):
    """`--extra-button` (repeatable), as zenity's: the buttons make a row beside `--button`, and
    a click on one prints its title on stdout and exits 1; the first button still cancels."""
    from conftest import button_row
    for pick, expected in ((2, "Empty Trash\n"), (0, "")):
        p = subprocess.Popen([str(XHUD_BIN), "--label", "Low disk space", "--mask", "none", "--animation", "none",
                              "--button", "Help", "--extra-button", "Ignore", "--extra-button", "Empty Trash"],
                             env=xplain.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert wait_until(lambda: xplain.visible_hud_windows(), 5)
            w = xplain.visible_hud_windows()[0]
            row = wait_until(lambda: (r := button_row(xplain.screenshot(keep=False), w)) and len(r) == 3 and r, 3)
            assert row, f"a row of three buttons: {button_row(xplain.screenshot(), w)}"
            left, right, y = row[pick]
            xplain.click((left + right) // 2, y - 10)
            out, err = p.communicate(timeout=5)
            assert p.returncode == 1, (p.returncode, err)
            assert out.decode() == expected
        finally:
            p.kill()
            p.wait()


def test_a_mask_lies_under_the_huds_already_shown(xplain):
    """`--mask blur` (or any mask that paints its region) over a screen with an OSD already up:
    the mask's window went on top and hid the OSD. It lies under every other HUD: the OSD's
    label is as bright after the mask appears as before (its bezel may rise to opaque: what is
    beneath it changed)."""
    from test_liveness import Grabber
    assert subprocess.run([str(XHUD_BIN), "--id", "osd", "--mode", "text", "--label", "Volume 40 %", "--position", "top",
                           "--hide-after", "30", "--animation", "none"], env=xplain.env, timeout=10).returncode == 0
    osd = wait_until(lambda: xplain.visible_hud_windows(), 5)
    assert osd
    w = osd[0]
    grab = Grabber(xplain.display)
    try:
        region = (w.x, w.y, w.width, w.height)
        before = wait_steady(lambda: grab.raw(region), 5, 0.1)
        mask = xplain.start_xhud("--mask", "black/0.6", "--label", "Busy", "--animation", "none")
        assert wait_until(lambda: len(xplain.visible_hud_windows()) == 2, 5)
        time.sleep(0.2)   # the mask's frames are drawn: time passing is what is tested
        def bright(raw):   # the label's glyphs: light pixels (BGRX)
            return sum(1 for i in range(0, len(raw) - 3, 4) if min(raw[i], raw[i + 1], raw[i + 2]) > 190)
        assert bright(before) > 20, f"premise: the OSD's label is drawn: {bright(before)}"
        assert bright(grab.raw(region)) >= bright(before) * 0.8, \
            f"the mask covers the OSD that was shown before it: {bright(grab.raw(region))} of {bright(before)} light pixels"
        mask.signal(15)
        assert mask.wait(5) == 0
    finally:
        grab.close()
