"""A cold server draws its first label from a kept font match (FontMatchCache): no fontconfig
configuration on the first frame's path; the server checks the kept matches once its HUD is up
and writes them anew when they no longer hold; a change to what they were made from is seen
before they are used."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

from conftest import XHUD_BIN, kill_tagged, region_bytes, tagged_hosts, wait_steady, wait_until
from named_client import nx  # noqa: F401 (a fixture)

SANS_BOLD = re.compile(r"^font system-ui Semibold 16px\t.*:file=([^:]*DejaVuSans-Bold\.ttf)", re.M)


def private_fonts(x, tmp: Path) -> Path:
    """A private cache directory and a fontconfig configuration of the test's own that includes
    the system's: the test can change what the kept matches were made from. The kept file."""
    conf = tmp / "fontconfig"
    conf.mkdir()
    (conf / "fonts.conf").write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">\n'
                                     "<fontconfig><include>/etc/fonts/fonts.conf</include></fontconfig>\n")
    x.env = dict(x.env, XDG_CACHE_HOME=str(tmp / "cache"), FONTCONFIG_FILE=str(conf / "fonts.conf"))
    return tmp / "cache" / "xhud" / "fonts" / "matches"


def cold_label(x, *extra: str) -> bytes:
    """A cold HUD's pixels (no server before it, none after it): its bounding box's RGB."""
    assert not tagged_hosts(x.tag), "a server runs already"
    client = x.spawn([str(XHUD_BIN), "--mode", "text", "--label", "Kept Match 42", *extra],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wins = wait_until(lambda: x.visible_hud_windows(), 5)
    assert wins, "no HUD"
    # Faded in: two reads a fade's length (0.3 s) apart agree.
    assert wait_steady(lambda: region_bytes(x.screenshot(keep=False), wins[0].rect), 5, 0.3), "the HUD never came to rest"
    (left, top, right, bottom), shot = x.hud_bbox()
    rows = [shot.data[(y * shot.width + left) * 3:(y * shot.width + right + 1) * 3] for y in range(top, bottom + 1)]
    client.send_signal(signal.SIGTERM)
    assert client.wait(5) == 0
    return b"|".join(rows)


def tamper(kept: Path) -> None:
    """The kept match of the label's font made to name a serif font, with a stamp of that file
    as a server would have written it (a match naming a file no stamp covers is not read)."""
    lines = kept.read_text().splitlines(keepends=True)
    for i, line in enumerate(lines):
        if SANS_BOLD.match(line):
            serif = SANS_BOLD.match(line).group(1).replace("Sans-Bold", "Serif-Bold")
            lines[i] = line.replace("DejaVuSans-Bold.ttf", "DejaVuSerif-Bold.ttf")
            break
    else:
        raise AssertionError("no kept match for the label's font")
    st = os.stat(serif)
    stamp = f"stat {st.st_dev},{st.st_ino},{st.st_size},{st.st_mtime_ns // 10**9},{st.st_mtime_ns % 10**9} {serif}\n"
    first_font = next(i for i, line in enumerate(lines) if line.startswith("font "))
    lines.insert(first_font, stamp)
    kept.write_text("".join(lines))


def end_server(x) -> None:
    kill_tagged(x.tag)
    assert wait_until(lambda: not tagged_hosts(x.tag) and not x.visible_hud_windows(), 5), "the server stayed"


def test_a_kept_match_is_drawn_without_the_configuration_and_checked_after(nx, tmp_path):
    kept = private_fonts(nx, tmp_path)
    first = cold_label(nx)
    # The server writes what it matched once its first HUD is up.
    assert wait_until(lambda: kept.exists() and SANS_BOLD.search(kept.read_text()), 5), "no kept match"
    end_server(nx)
    text = kept.read_text()
    assert str(tmp_path / "fontconfig" / "fonts.conf") in text and "\nstat " in text

    # The kept match is what the next cold server draws with, before any configuration: made to
    # name a serif font, the label is drawn in it.
    assert Path(SANS_BOLD.search(text).group(1).replace("Sans-Bold", "Serif-Bold")).exists()
    tamper(kept)
    wrong = cold_label(nx)
    assert wrong != first, "the kept match was not used"
    # ... and the server's check finds it no longer holds and keeps the right one.
    assert wait_until(lambda: SANS_BOLD.search(kept.read_text()), 5), "the wrong match stayed"
    end_server(nx)
    assert cold_label(nx) == first
    end_server(nx)

    # A change to what the matches were made from (a file beside the configuration) is seen
    # before they are used: the wrong match is not drawn.
    tamper(kept)
    (tmp_path / "fontconfig" / "99-local.conf").write_text("<fontconfig/>\n")
    assert cold_label(nx) == first
    end_server(nx)


def test_a_cold_server_opens_its_font_before_reading_the_configuration(nx, tmp_path):
    kept = private_fonts(nx, tmp_path)
    cold_label(nx)
    assert wait_until(lambda: kept.exists() and SANS_BOLD.search(kept.read_text()), 5), "no kept match"
    end_server(nx)
    r = subprocess.run(["strace", "-f", "-e", "trace=openat", "-o", str(tmp_path / "trace"), str(XHUD_BIN),
                        "--mode", "text", "--label", "Kept Match 42", "--hide-after", "0.2", "--linger", "1"],
                       env=nx.env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr[-800:]
    opens = [line for line in (tmp_path / "trace").read_text().splitlines() if "openat(" in line and "= -1" not in line]
    font = next(i for i, line in enumerate(opens) if "DejaVuSans-Bold.ttf" in line)
    configuration = next(i for i, line in enumerate(opens) if "/etc/fonts/fonts.conf" in line)
    assert any("fonts/matches" in line for line in opens[:font])
    assert font < configuration, "\n".join(opens[font - 3:configuration + 1])


def traced_cold_start(x, tmp: Path) -> dict[str, list[str]]:
    """A cold HUD under strace: each program's opened files (xhud, xhud-fonts, xhud-host), in order."""
    trace = tmp / "trace"
    r = subprocess.run(["strace", "-ff", "-e", "trace=openat,execve", "-o", str(trace), str(XHUD_BIN),
                        "--mode", "text", "--label", "Kept Match 42", "--hide-after", "0.2", "--linger", "1"],
                       env=x.env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr[-800:]
    opens: dict[str, list[str]] = {}
    for per_process in tmp.glob("trace.*"):
        lines = per_process.read_text().splitlines()
        programs = [m.group(1) for line in lines if (m := re.search(r'execve\("[^"]*/(xhud[\w-]*)".* = 0$', line))]
        if programs:
            opens.setdefault(programs[-1], []).extend(
                line for line in lines if "openat(" in line and "= -1" not in line)
    return opens


def test_a_first_start_draws_with_the_font_helpers_matches(nx, tmp_path):
    """No match kept: the client starts xhud-fonts beside the server, which reads fontconfig's
    configuration; the server opens the label's font before reading any of it, draws the label as
    a server with kept matches does, and keeps the helper's very matches."""
    kept = private_fonts(nx, tmp_path)
    opens = traced_cold_start(nx, tmp_path)
    assert "xhud-fonts" in opens, "no font helper ran"
    assert any("fonts.conf" in line for line in opens["xhud-fonts"]), "the helper read no configuration"
    server = opens["xhud-host"]
    font = next(i for i, line in enumerate(server) if "DejaVuSans-Bold.ttf" in line)
    assert not any("fonts.conf" in line for line in server[:font]), "\n".join(server[:font + 1])
    assert wait_until(lambda: kept.exists() and SANS_BOLD.search(kept.read_text()), 5), "no kept match"
    end_server(nx)

    # The helper's matches are the ones the server makes itself (the program's name included):
    # the file the server kept after checking them is the one a server that matched alone keeps.
    with_helper = kept.read_text()
    kept.unlink()
    nx.env = dict(nx.env, XHUD_FONTS="/bin/false")
    first = cold_label(nx)
    assert wait_until(lambda: kept.exists() and SANS_BOLD.search(kept.read_text()), 5), "no kept match"
    end_server(nx)
    assert kept.read_text() == with_helper

    # Drawn alike: by the helper's matches, by the server's own, by kept ones.
    kept.unlink()
    nx.env = {k: v for k, v in nx.env.items() if k != "XHUD_FONTS"}
    assert cold_label(nx) == first
    end_server(nx)
    assert cold_label(nx) == first
    end_server(nx)


def test_a_font_helper_that_fails_hangs_or_lies_leaves_the_server_to_match_itself(nx, tmp_path):
    """Whatever the helper does (exits with nothing, hangs, names a FIFO or a device, says
    nonsense), the HUD shows with its label as ever, within the helper's deadline."""
    kept = private_fonts(nx, tmp_path)
    first = cold_label(nx)
    end_server(nx)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    helpers = {
        "nothing": "exit 1",
        "hangs": "exec sleep 30",
        "fifo": f"printf 'font system-ui Semibold 16px\\tDejaVu Sans:style=Bold:pixelsize=16:file={fifo}:index=0\\n'",
        "device": "printf 'font system-ui Semibold 16px\\tDejaVu Sans:style=Bold:pixelsize=16:file=/dev/zero:index=0\\n'",
        "nonsense": "head -c 4096 /dev/urandom; printf '\\nfont system-ui Semibold 16px\\n\\tx\\n'",
    }
    try:
        for name, body in helpers.items():
            script = tmp_path / f"helper-{name}"
            script.write_text(f"#!/bin/sh\n{body}\n")
            script.chmod(0o755)
            kept.unlink(missing_ok=True)
            nx.env = dict(nx.env, XHUD_FONTS=str(script))
            start = time.monotonic()
            assert cold_label(nx) == first, f"a helper that {name}: the label is not the server's own"
            assert time.monotonic() - start < 6, f"a helper that {name}: the HUD waited"
            end_server(nx)
    finally:
        subprocess.run(["pkill", "-f", str(tmp_path / "helper-hangs")], check=False)


def test_a_first_start_in_a_font_of_its_own_is_drawn_in_it(nx, tmp_path):
    """The helper matches the default fonts; a first HUD in another font is matched by the
    server itself (it does not wait for the helper's lines) and drawn in it, as when kept."""
    kept = private_fonts(nx, tmp_path)
    serif = cold_label(nx, "--font", "Serif Bold 16px")
    assert wait_until(lambda: kept.exists() and "Serif Bold 16px" in kept.read_text(), 5), "no kept match"
    end_server(nx)
    assert cold_label(nx, "--font", "Serif Bold 16px") == serif
    end_server(nx)
    kept.unlink()
    assert cold_label(nx) != serif, "the default font drew the same pixels: the test tells nothing"
    end_server(nx)

    # With a helper that never answers, the default font waits for its deadline; the font of its
    # own does not wait at all.
    hangs = tmp_path / "helper-hangs"
    hangs.write_text("#!/bin/sh\nexec sleep 30\n")
    hangs.chmod(0o755)
    nx.env = dict(nx.env, XHUD_FONTS=str(hangs))
    took = {}
    try:
        for name, extra in [("own", ("--font", "Serif Bold 16px")), ("default", ())]:
            kept.unlink(missing_ok=True)
            # The client's answer comes once its HUD is drawn.
            start = time.monotonic()
            r = subprocess.run([str(XHUD_BIN), "--mode", "text", "--label", "Kept Match 42", "--hide-after", "0.1", *extra],
                               env=nx.env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
            took[name] = time.monotonic() - start
            assert r.returncode == 0, r.stderr
            end_server(nx)
    finally:
        subprocess.run(["pkill", "-f", str(hangs)], check=False)
    assert took["own"] + 1.0 < took["default"], took


def test_the_servers_loop_does_not_wait_for_a_slow_font_helper(nx, tmp_path):
    """The server checks its font matches once its first HUD is up; with a helper still reading
    (a slow one: fontconfig building its caches anew), that check must not hold up the loop: a
    request sent meanwhile is answered at once."""
    kept = private_fonts(nx, tmp_path)
    hangs = tmp_path / "helper-slow"
    hangs.write_text("#!/bin/sh\nexec sleep 30\n")
    hangs.chmod(0o755)
    nx.env = dict(nx.env, XHUD_FONTS=str(hangs))
    try:
        client = nx.spawn([str(XHUD_BIN), "--mode", "text", "--label", "Own font", "--font", "Serif Bold 16px"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(lambda: nx.visible_hud_windows(), 5), "no HUD"
        time.sleep(0.6)   # past the check's timer (0.4 s), well before the helper's deadline (2 s)
        start = time.monotonic()
        # In a font of its own too: one of the helper's would wait for its line, by design.
        r = subprocess.run([str(XHUD_BIN), "--id", "probe", "--mode", "text", "--label", "Probe", "--font", "Serif Bold 16px"],
                           env=nx.env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
        took = time.monotonic() - start
        assert r.returncode == 0, r.stderr
        assert took < 1.0, f"a request waited {took:.2f} s behind the font check"
        client.send_signal(signal.SIGTERM)
        client.wait(5)
        assert not kept.exists() or "Serif Bold 16px" in kept.read_text()
        end_server(nx)
    finally:
        subprocess.run(["pkill", "-f", str(hangs)], check=False)
