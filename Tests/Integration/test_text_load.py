"""Text one request gives (up to 16 KB of details) never holds up the server's loop: what Pango
lays out is laid out on a thread of its own, and every other HUD keeps moving. A details label of
one 16,000-letter word made Pango look for a break to the end of the word on every line, a
quarter of a second with every HUD of the display frozen; combining marks, an eighth."""

from __future__ import annotations

import os
import threading
import time

import pytest

from conftest import longest_still, loop_witness, tagged_hosts, wait_until
from named_client import LINGER, named, nx, ok, one_window  # noqa: F401 (nx is a fixture)
from test_liveness import Grabber


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


def thread_cpu(pid: int) -> dict[str, int]:
    """CPU time (ns) of each thread of pid by name; the main thread is "main"."""
    out: dict[str, int] = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = "main" if tid == str(pid) else open(f"/proc/{pid}/task/{tid}/comm").read().strip()
            ns = int(open(f"/proc/{pid}/task/{tid}/schedstat").read().split()[0])
        except OSError:
            continue
        out[name] = out.get(name, 0) + ns
    return out


def process_age(pid: int) -> float:
    """Seconds since pid started."""
    start = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19]) / os.sysconf("SC_CLK_TCK")
    return float(open("/proc/uptime").read().split()[0]) - start


@pytest.mark.parametrize("details", ["a\u0301" * 8000, '<span color="#e33">Failed:</span> ' + "a\u0301" * 8000,
                                     '<span alpha="50%" underline="single" underline_color="red">Failed:</span> ' + "a\u0301" * 8000],
                         ids=["combining", "coloured-markup", "alpha-underline-colour-markup"])
def test_long_details_are_laid_out_on_the_text_thread(nx, details):
    # A server with a HUD that does not move, so that its loop does nothing else meanwhile.
    ok(nx, "--id", "first", "--mode", "text", "--label", "First", "--hide-after", "30", "--animation", "none",
       "--geometry", "300x200+0+0", *LINGER)
    [pid] = tagged_hosts(nx.tag)
    # Past its start's work (the pages it gives back a second after it starts): the loop's time
    # below is the request's.
    assert wait_until(lambda: process_age(pid) > 1.5, 5)
    markup = ["--markup"] if details.startswith("<") else []
    spent = cpu_while_shown(nx, pid, "--id", "long", "--mode", "text", "--label", "Long", "--details", details, *markup,
                            "--geometry", "600x800+680+0", "--animation", "none")
    text, loop = spent.get("xhud-text", 0), spent["main"]
    # Pango's layout of 8,000 accented letters takes milliseconds in any build: on its thread,
    # with colours, alphas and underline colours of the markup's own or without.
    assert text > 2e6, f"the text thread took {text / 1e6:.1f} ms, the loop {loop / 1e6:.1f} ms (threads: {sorted(spent)})"


def cpu_while_shown(x, pid: int, *args) -> dict[str, int]:
    """CPU time (ns) each thread of the server pid spent from the request `args` until its HUD
    (placed at 680,0 or to the right of it) was on screen."""
    grabber = Grabber(x.env["DISPLAY"])
    area = (700, 200, 560, 400)
    empty = grabber.digest(area)
    before = thread_cpu(pid)
    try:
        res = named(x, *args)
        assert res.returncode == 0, res.stderr
        assert wait_until(lambda: grabber.digest(area) != empty, 5), "the HUD never showed"
    finally:
        grabber.close()
    after = thread_cpu(pid)
    return {name: ns - before.get(name, 0) for name, ns in after.items()}
