"""Real-world `zenity --progress` scripts, with only the name changed: every zenity option is
accepted (honoured where it means something here, ignored otherwise), and lines zenity ignores
are ignored without a word."""

from __future__ import annotations

import shutil
import subprocess
import time

import pytest

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


# ---------------------------------------------------------------------------------------------
# Side by side with the real zenity: the same script, the dialog's name changed, the same exit
# statuses of every process in the pipeline (`PIPESTATUS`: the producer's first).

def side_by_side(x, script: str, timeout=20) -> tuple[str, str]:
    """The script's last line of output with $DIALOG as zenity, then as xhud."""
    if shutil.which("zenity") is None:
        pytest.skip("zenity not installed")
    out = []
    for dialog in ("zenity", str(XHUD_BIN)):
        # zenity's GTK warnings about the bus it lacks here are not what is compared.
        p = subprocess.run(["bash", "-c", script], env=dict(x.env, DIALOG=dialog, NO_AT_BRIDGE="1"),
                           capture_output=True, text=True, timeout=timeout)
        lines = p.stdout.strip().splitlines()
        out.append(lines[-1] if lines else f"(nothing; stderr {p.stderr[-300:]!r})")
    return out[0], out[1]


def test_xhud_words_are_not_commands_in_zenity_mode(xplain):
    """`done`, `cancel`, `success=...` and `label=...` from a producer mean nothing to zenity: the
    dialog goes on and the producer is never cut off (rc 141 would be SIGPIPE)."""
    z, h = side_by_side(xplain, '''
( echo 10; echo done; echo cancel; echo "success=Saved"; echo "label=x"; echo 50; sleep 0.3; echo "# still here"; echo 70 ) |
  "$DIALOG" --progress --pulsate --auto-close
echo "${PIPESTATUS[@]}"''')
    assert z == "0 0", z
    assert h == z


def test_a_line_starting_with_a_number_is_that_percentage(xplain):
    """zenity reads `100 files to go` as 100 % and, with --auto-close, closes there: before the
    producer's end (it sleeps 30 s after that line)."""
    for dialog in ("zenity", str(XHUD_BIN)):
        if dialog == "zenity" and shutil.which("zenity") is None:
            continue
        p = subprocess.Popen([dialog, "--progress", "--auto-close", "--text=Copying"], env=dict(xplain.env, NO_AT_BRIDGE="1"),
                             stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            p.stdin.write(b"42 files done\n# nearly\n100 files to go\n")
            p.stdin.flush()
            assert p.wait(timeout=10) == 0, dialog
        finally:
            p.kill()
            p.stdin.close()


def test_attach_to_a_window_that_is_not_there(xplain):
    """zenity ignores a bad --attach; so does xhud, with a word on stderr."""
    z, h = side_by_side(xplain, '''
( echo 30; sleep 0.2; echo 100 ) | "$DIALOG" --progress --attach=0x1 --auto-close --text=Copying
echo "${PIPESTATUS[@]}"''')
    assert z == "0 0", z
    assert h == z
    p = subprocess.run(["sh", "-c", f'echo 100 | "{XHUD_BIN}" --progress --attach=0x1 --auto-close'], env=xplain.env,
                       capture_output=True, text=True, timeout=10)
    assert p.returncode == 0
    assert "--attach" in p.stderr and "0x1" in p.stderr, p.stderr


def test_scripts_from_the_manual_and_packages(xplain):
    """The manual's log update, a download counter (percentages with '%'), a copy reporting
    `N of M` (zenity's digits: every digit of the line, so 100 once clamped), decimals with a
    comma, the end of input with --auto-close: the same statuses as zenity's."""
    scripts = [
        '( echo 10; echo "# Updating mail logs"; echo 50; echo "This line is ignored"; echo 100 ) |'
        ' "$DIALOG" --progress --title="Update System Logs" --text="Scanning mail logs..." --percentage=0 --auto-close',
        '( for i in 5 25 60 99; do echo "$i%"; sleep 0.05; done ) | "$DIALOG" --progress --auto-close --no-cancel',
        '( echo "3 of 200 files"; sleep 0.2; echo "# 3 of 200" ) | "$DIALOG" --progress --auto-close',
        '( echo "12,5"; echo "pulsate:true"; echo "pulsate:false"; echo 40 ) | "$DIALOG" --progress --auto-close',
        '( echo "  50"; echo "-10"; echo "pulsate"; echo 20 ) | "$DIALOG" --progress --pulsate --auto-close --auto-kill',
    ]
    for s in scripts:
        z, h = side_by_side(xplain, s + '\necho "${PIPESTATUS[@]}"')
        (zp, zd), (hp, hd) = z.split(), h.split()
        assert hd == zd, (s, z, h)
        # zenity leaves at once at 100 %, so a producer still writing dies of SIGPIPE (141);
        # xhud reads on while its HUD fades out: never worse than zenity, often better.
        assert hp == zp or (zp == "141" and hp == "0"), (s, z, h)
