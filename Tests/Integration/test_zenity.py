"""Real-world `zenity --progress` scripts, with only the name changed: every zenity option is
accepted (honoured where it means something here, ignored otherwise), and lines zenity ignores
are ignored without a word."""

from __future__ import annotations

import subprocess
import time

from conftest import XHUD_BIN


def run(x, script: str, timeout=20):
    t0 = time.monotonic()
    p = subprocess.run(["sh", "-c", script], env=dict(x.env, XHUD=str(XHUD_BIN)), capture_output=True, text=True,
                       timeout=timeout)
    return p, time.monotonic() - t0


def test_the_classic_log_update_script(xplain):
    p, _ = run(xplain, '''
(
echo "10" ; sleep 0.2
echo "# Updating mail logs" ; sleep 0.2
echo "50" ; sleep 0.2
echo "This line is ignored" ; sleep 0.2
echo "# Resetting cron jobs" ; sleep 0.2
echo "100"
) |
"$XHUD" --progress --title="Update System Logs" --text="Scanning mail logs..." --percentage=0 \\
  --auto-close --window-icon=info --width=400 --height=100 --modal --no-markup --ok-label=Close \\
  --cancel-label=Stop --time-remaining --ellipsize
echo "status $?"
''')
    assert p.stdout.strip() == "status 0", (p.stdout, p.stderr)
    assert p.stderr == "", f"zenity is silent about lines it ignores: {p.stderr!r}"


def test_timeout_exits_5_as_zenity(xplain):
    """Input that never ends: --timeout=1 closes it after a second, exit 5."""
    t0 = time.monotonic()
    p = subprocess.Popen([str(XHUD_BIN), "--progress", "--pulsate", "--no-cancel", "--timeout=1", "--text=Waiting"],
                         env=xplain.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert p.wait(timeout=5) == 5
        assert time.monotonic() - t0 < 4
    finally:
        p.stdin.close()


def test_attach_and_cancel_label(xplain):
    """--attach names the parent window; --cancel-label titles the button, which cancels (1)."""
    root = xplain.run("xdotool", "search", "--maxdepth", "0", "--name", "").stdout.split()
    hud = xplain.start_xhud("--progress", "--attach=root", "--cancel-label=Stop it", "--text=Copying", "--animation=none")
    xplain.run("xdotool", "key", "Escape")   # its grab is requested with the map
    assert hud.wait(3) == 1
    assert root is not None
