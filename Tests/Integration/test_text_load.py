"""Text one request gives (up to 16 KB of details) is laid out on the server's loop: whatever it
is, every other HUD keeps moving. A details label of one 16,000-letter word made Pango look for a
break to the end of the word on every line, a quarter of a second with every HUD of the display
frozen; combining marks, an eighth."""

from __future__ import annotations

import threading
import time

import pytest

from conftest import longest_still, loop_witness, wait_until
from test_liveness import Grabber
from test_named import LINGER, named, nx, ok, one_window  # noqa: F401 (nx is a fixture)


@pytest.mark.parametrize("details", ["W" * 16000, "a\u0301" * 8000, "word " * 3200],
                         ids=["one-long-word", "combining", "words"])
def test_long_details_never_stall_a_spinner_beside_them(nx, details):
    # The witness and the long HUD each in a region of their own: neither moves for the other.
    loop_witness(nx)
    ok(nx, "--id", "witness", "--label", "Witness", "--hide-after", "30", "--animation", "none",
       "--geometry", "600x800+0+0", *LINGER)
    win = one_window(nx)
    grabber = Grabber(nx.env["DISPLAY"])   # the witness's pixels alone, a few hundred µs a look
    rect = (win.x, win.y, win.width, win.height)
    first = grabber.digest(rect)
    assert wait_until(lambda: grabber.digest(rect) != first, 3), "the witness spinner does not turn"
    result = {}

    def request():
        result["res"] = named(nx, "--id", "long", "--mode", "text", "--label", "Long", "--details", details,
                              "--geometry", "600x800+680+0", "--animation", "none")
    t = threading.Thread(target=request)
    frames = []
    t.start()
    deadline = time.monotonic() + 1.0   # the request, and the frames right after it
    while t.is_alive() or time.monotonic() < deadline:
        frames.append((time.monotonic(), grabber.digest(rect)))
        time.sleep(0.005)   # the sampling interval
    t.join()
    grabber.close()
    assert result["res"].returncode == 0, result["res"].stderr
    longest = longest_still(frames)
    assert longest < 0.15, f"the witness stood still for {longest:.2f} s while the details were laid out"
