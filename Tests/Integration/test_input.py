"""Input: `--mask clear` swallows clicks in the parent region; `--mask none` is click-through."""

import time

import pytest

from conftest import wait_until

# Inside xev's window (400x300+100+100), far from the bezel centred on the 1280x800 screen.
CLICK = (150, 330)


def xev_sees_clicks(x, xev):
    """Without a HUD, a click at CLICK reaches xev: the premise of the tests below."""
    x.click(*CLICK)
    assert wait_until(lambda: xev.button_presses() >= 1, 3), "xev logged no ButtonPress without a HUD: " + xev.text()
    xev.clear()


@pytest.mark.parametrize("args", [
    ["--mask", "clear"],
    [],                                   # indeterminate: clear by default
    ["--mode", "annular", "--progress", "0.3"],
    ["--mask", "black"],
], ids=["explicit-clear", "default-indeterminate", "default-annular", "black"])
def test_mask_blocks_clicks(x, args):
    xev = x.start_xev("400x300+100+100")
    xev_sees_clicks(x, xev)
    hud = x.start_xhud("--label", "Busy", "--animation", "none", *args)
    assert wait_until(lambda: [w for w in x.hud_windows() if w.viewable and w.input_only], 5), (
        "no input-only window blocks the monitor: " + hud.describe())
    for _ in range(2):
        x.click(*CLICK)
    time.sleep(0.8)  # time passing is what is tested: no click comes through meanwhile
    assert xev.button_presses() == 0, f"a click went through the HUD ({' '.join(args)}): {xev.text()}"
    assert hud.proc.poll() is None, "xhud ended on a click: " + hud.describe()

    # ... and once the HUD is gone, clicks reach the window again.
    hud.signal(15)
    assert hud.wait(3) == 0, hud.describe()
    # Gone from the screen: the HUD's windows may outlive the process that asked for them a moment.
    assert wait_until(lambda: not [w for w in x.hud_windows() if w.viewable], 3), "the HUD's windows stay mapped"
    x.click(*CLICK)
    assert wait_until(lambda: xev.button_presses() >= 1, 3), "clicks stay blocked after xhud exited"


@pytest.mark.parametrize("args", [
    ["--mode", "text", "--label", "Hi"],  # notifications: none by default
    ["--mask", "none", "--label", "Busy"],
    ["--mode", "success", "--label", "Done"],
], ids=["default-text", "explicit-none", "default-success"])
def test_no_mask_is_click_through(x, args):
    xev = x.start_xev("400x300+100+100")
    xev_sees_clicks(x, xev)
    hud = x.start_xhud("--animation", "none", *args)   # its input shape is set before it is mapped
    x.click(*CLICK)
    assert wait_until(lambda: xev.button_presses() >= 1, 3), (
        f"the click did not reach the window below ({' '.join(args)}): {xev.text()!r}; {hud.describe()}")
    assert hud.proc.poll() is None, hud.describe()


def test_no_mask_click_on_bezel_goes_through(x):
    """With `--mask none` the input shape is empty: even a click on the bezel itself reaches
    the window below it."""
    xev = x.start_xev("400x300+100+100")
    hud = x.start_xhud("--mode", "text", "--label", "Through", "--no-shadow", "--animation", "none",
                       "--geometry", "400x300+100+100")
    x.click(300, 250)  # the bezel's centre
    assert wait_until(lambda: xev.button_presses() >= 1, 3), (
        f"a click on the bezel did not reach the window below: {xev.text()!r}; {hud.describe()}")
