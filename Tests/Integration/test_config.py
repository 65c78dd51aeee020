"""The configuration file, themes, SVG images and icon names, on a real X server: what the file
says shows on screen, the command line wins over it, a bad file costs only what is bad (with
file, line and key), and a running server reads the file again when it changes."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from conftest import BACKGROUND, XHUD_BIN, longest_still, loop_witness, wait_until
from hud_pixels import bar_fill, bright_bands
from named_client import LINGER, hidden, nx, ok, one_window  # noqa: F401 (nx is a fixture)

RED_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<circle cx="32" cy="32" r="32" fill="#ff0000"/></svg>
"""


def write_config(x, text: str) -> Path:
    path = Path(x.env["XDG_CONFIG_HOME"]) / "xhud" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def xhud(x, *args, timeout=10, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(XHUD_BIN), *args], env=env or x.env, capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)


def bezel_edge_pixel(x, win, shot=None):
    """A pixel just inside the bezel's left edge, halfway down (no text, no corner)."""
    return (shot or x.screenshot()).pixel(win.x + 4, win.y + win.height // 2)


def drawn(x, win, whole=True):
    """A screenshot once the HUD is drawn and still: the whole window or, when a spinner turns
    in it (whole=False), its left edge."""
    return x.wait_still(win.rect if whole else (win.x, win.y, 8, win.height), unlike=BACKGROUND)


def near(p, q, tol=12) -> bool:
    return max(abs(a - b) for a, b in zip(p, q)) <= tol


def count(shot, rect, pred) -> int:
    x0, y0, w, h = rect
    return sum(1 for yy in range(y0, y0 + h) for xx in range(x0, x0 + w) if pred(shot.pixel(xx, yy)))


def is_red(p) -> bool:
    return p[0] > 200 and p[1] < 60 and p[2] < 60


# ---------------------------------------------------------------------------------------------
# The file


def test_a_keybinding_needs_only_the_name_and_value(nx):
    """[id.volume] gives the named HUD its mode, label and look: `xhud --id volume --progress 0.9`
    shows a labelled bar in the file's colour."""
    write_config(nx, """
[id.volume]
mode = "bar"
label = "Volume"
bezel-color = "#802020ff"
shadow = false
animation = "none"
""")
    ok(nx, "--id", "volume", "--progress", "0.9", "--hide-after", "30", *LINGER)
    win = one_window(nx)
    shot = nx.screenshot()
    fill, track, _ = bar_fill(shot, win.rect)
    assert track > 50 and fill > 0.8 * track, f"no 90 % bar: fill {fill} of {track}"
    assert len(bright_bands(shot, win.rect)) >= 2, "no label under the bar"
    assert near(bezel_edge_pixel(nx, win), (0x80, 0x20, 0x20)), "the bezel is not the file's colour"


def test_the_command_line_wins_and_a_bad_file_costs_only_what_is_bad(xplain):
    path = write_config(xplain, """bezel-color = "#ff0000ff"
colour = "blue"
margin = "wide"
shadow = false
animation = "none"
""")
    hud = xplain.start_xhud("--mode", "text", "--label", "Hello")
    win = xplain.visible_hud_windows()[0]
    assert near(bezel_edge_pixel(xplain, win, drawn(xplain, win)), (255, 0, 0)), "the file's bezel colour was not applied"
    hud.signal(15)
    assert hud.wait(5) == 0
    err = hud.stderr
    assert f"{path}:2: unknown key 'colour'" in err, err
    assert f"{path}:3: 'margin' must be a number" in err, err
    assert err.count("xhud:") == 2, f"each problem once: {err!r}"

    hud = xplain.start_xhud("--mode", "text", "--label", "Hello", "--bezel-color", "#00ff00ff")
    win = xplain.visible_hud_windows()[0]
    assert near(bezel_edge_pixel(xplain, win, drawn(xplain, win)), (0, 255, 0)), "the command line did not win over the file"


def test_a_file_that_does_not_parse_names_its_line_and_the_hud_shows(xplain):
    path = write_config(xplain, 'label = "x"\nmargin = = 3\n')
    res = xhud(xplain, "--mode", "text", "--label", "Still here", "--hide-after", "0.3")
    assert res.returncode == 0, res.stderr
    assert res.stderr.startswith(f"xhud: {path}:2:") and "ignored" in res.stderr, res.stderr


def test_a_number_out_of_its_range_in_the_file_is_named_and_ignored(xplain):
    """The file's numbers go through the option's entry: checked against its range, as the
    command line's are, the message naming the file, line and key; the rest still applies."""
    path = write_config(xplain, 'label = "x"\nmargin = 900\nfade-in = -1\n')
    res = xhud(xplain, "--mode", "text", "--label", "Still here", "--hide-after", "0.3")
    assert res.returncode == 0, res.stderr
    assert f"{path}:2: 'margin': --margin must be between 0 and 500, got 900.0; ignored" in res.stderr, res.stderr
    assert f"{path}:3: 'fade-in': --fade-in must be between 0 and 86400 seconds, got -1.0; ignored" in res.stderr, res.stderr
    out = xhud(xplain, "--print-config").stdout
    assert any(l.startswith("margin = 20") for l in out.splitlines()), out


def test_print_config_names_every_source(xplain):
    path = write_config(xplain, 'theme = "sv-light"\ncorner-radius = 7\n[notification]\nmin-duration = 2\n')
    out = xhud(xplain, "--print-config", "--margin", "9").stdout
    lines = {l.split("=")[0].strip(): l for l in out.splitlines() if "=" in l and not l.startswith("#")}
    assert "command line" in lines["margin"] and "= 9" in lines["margin"]
    assert f"{path}:2" in lines["corner-radius"] and "= 7" in lines["corner-radius"]
    assert "theme sv-light" in lines["style"] and '"light"' in lines["style"]
    assert "built-in" in lines["kill-timeout"]
    assert "= 5" in lines["min-duration"], "a [notification] key applies to notifications only"
    notif = xhud(xplain, "--print-config", "success", "Saved").stdout
    assert any(l.startswith("min-duration = 2") for l in notif.splitlines()), notif


def test_the_server_reads_the_file_again_when_it_changes(nx):
    write_config(nx, '[id.osd]\nmode = "text"\nlabel = "A"\nbezel-color = "#ff0000ff"\nshadow = false\nanimation = "none"\n')
    ok(nx, "--id", "osd", "--hide-after", "0.3", "--linger", "30")
    win = one_window(nx)
    assert near(bezel_edge_pixel(nx, win), (255, 0, 0))
    assert hidden(nx, 3)
    write_config(nx, '[id.osd]\nmode = "text"\nlabel = "A"\nbezel-color = "#0000ffff"\nshadow = false\nanimation = "none"\n')
    ok(nx, "--id", "osd", "--hide-after", "30")
    win = one_window(nx)
    assert near(bezel_edge_pixel(nx, win), (0, 0, 255)), "the server kept the old file"


# ---------------------------------------------------------------------------------------------
# Themes


def test_themes_draw_their_look(xplain):
    looks = {}
    for theme in ["sv-dark", "sv-light", "mb-classic", "osd"]:
        hud = xplain.start_xhud("--theme", theme, "--label", "Theme", "--animation", "none", "--no-shadow", "--blur", "0")
        win = xplain.visible_hud_windows()[0]
        looks[theme] = (win.width, win.height, bezel_edge_pixel(xplain, win, drawn(xplain, win, whole=False)))
        hud.signal(15)
        hud.wait(5)
        assert hud.stderr == "", f"{theme}: {hud.stderr}"
    lum = {t: sum(p) / 3 for t, (_, _, p) in looks.items()}
    assert lum["sv-light"] > 180 and lum["sv-dark"] < 90 and lum["mb-classic"] < 90, looks
    w, h, _ = looks["osd"]
    assert w == h and w >= 200, f"the OSD theme is a large square: {looks['osd']}"
    assert looks["sv-dark"][0] >= 100 and looks["sv-dark"][1] >= 100, "SVProgressHUD's 100x100 minimum"


def test_a_missing_theme_named_on_the_command_line_is_an_error(xplain):
    """Never the built-in look in its place: exit 2, the places looked in, the nearest name."""
    res = xhud(xplain, "--theme", "sv-drak", "--mode", "text", "--label", "x", "--hide-after", "0.2")
    assert res.returncode == 2, res
    assert "no theme 'sv-drak'" in res.stderr and "did you mean 'sv-dark'" in res.stderr, res.stderr
    assert "looked in" in res.stderr and "installed: mb-classic" in res.stderr, res.stderr
    assert xplain.visible_hud_windows() == []


def test_a_missing_theme_in_the_configuration_warns_and_shows(xplain):
    """A key press must still show its HUD: a configuration's theme that is gone is a warning."""
    write_config(xplain, 'theme = "no-such-theme"\n')
    res = xhud(xplain, "--mode", "text", "--label", "x", "--hide-after", "0.2")
    assert res.returncode == 0
    assert "no theme 'no-such-theme'" in res.stderr and "built-in look" in res.stderr, res.stderr


# ---------------------------------------------------------------------------------------------
# Images


def test_an_svg_is_drawn_at_the_device_size(xplain, tmp_path):
    svg = tmp_path / "dot.svg"
    svg.write_text(RED_SVG)
    areas = {}
    for scale in ["1", "2"]:
        hud = xplain.start_xhud("--mode", "custom", "--image", str(svg), "--image-size", "40", "--scale", scale,
                                "--animation", "none", "--no-shadow")
        win = xplain.visible_hud_windows()[0]
        areas[scale] = count(drawn(xplain, win), win.rect, is_red)
        hud.signal(15)
        hud.wait(5)
    # A 40 px disc: pi * 20^2 = 1257 px at scale 1, four times that at scale 2 (not upscaled).
    assert 1100 < areas["1"] < 1400, areas
    assert 3.6 < areas["2"] / areas["1"] < 4.4, areas


def test_an_invalid_svg_is_a_usage_error(xplain, tmp_path):
    bad = tmp_path / "bad.svg"
    bad.write_text("<svg xmlns='http://www.w3.org/2000/svg'><circle")
    res = xhud(xplain, "--mode", "custom", "--image", str(bad))
    assert res.returncode == 2 and "bad.svg" in res.stderr, res.stderr


def test_a_hostile_svg_is_refused_while_another_hud_keeps_turning(nx, tmp_path):
    """A 350-byte SVG asking for a million turbulence octaves once froze every HUD for minutes:
    it is refused at once (exit 2, saying why), and a spinner shown by the same server never
    stops turning meanwhile."""
    evil = tmp_path / "evil.svg"
    evil.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><filter id="t">'
                    '<feTurbulence baseFrequency="0.9" numOctaves="1000000"/></filter>'
                    '<rect width="400" height="400" filter="url(#t)"/></svg>')
    loop_witness(nx)
    ok(nx, "--id", "witness", "--label", "Witness", "--hide-after", "30", "--animation", "none", *LINGER)
    win = one_window(nx)
    t0 = time.monotonic()
    res = xhud(nx, "--id", "evil", "--mode", "custom", "--image", str(evil), "--label", "x")
    took = time.monotonic() - t0
    assert res.returncode == 2 and "octaves" in res.stderr, res.stderr
    assert took < 2, f"the refusal took {took:.2f} s"
    shots = []
    for _ in range(3):
        shot = nx.screenshot()
        shots.append(bytes(shot.data[(win.y + 30) * shot.width * 3:(win.y + 50) * shot.width * 3]))
        time.sleep(0.15)   # sampling: it must turn within these 0.45 s
    assert len(set(shots)) > 1, "the witness spinner stood still"


def test_an_svg_that_takes_long_to_draw_is_drawn_aside_and_given_up(nx, tmp_path):
    """An SVG within every limit that still takes seconds to draw: drawn by a child process of
    the server's, given up after a second with a clear error, while a spinner shown by the same
    server turns on (sampled every 40 ms: never still for 0.3 s)."""
    import threading
    slow = tmp_path / "slow.svg"
    slow.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><filter id="t">'
                    + '<feTurbulence baseFrequency="0.9" numOctaves="8"/>' * 3
                    + '</filter><rect width="4000" height="4000" filter="url(#t)"/></svg>')
    loop_witness(nx)
    ok(nx, "--id", "witness", "--label", "Witness", "--hide-after", "30", "--animation", "none", *LINGER)
    win = one_window(nx)
    result = {}
    def request():
        t0 = time.monotonic()
        result["res"] = xhud(nx, "--id", "slow", "--mode", "custom", "--image", str(slow), "--image-size", "512",
                             "--scale", "2", "--label", "x")
        result["took"] = time.monotonic() - t0
    t = threading.Thread(target=request)
    t.start()
    frames = []
    while t.is_alive():
        shot = nx.screenshot(keep=False)
        frames.append((time.monotonic(), bytes(shot.data[(win.y + 20) * shot.width * 3:(win.y + 60) * shot.width * 3])))
        time.sleep(0.04)   # sampling interval
    t.join()
    res = result["res"]
    # Given up either way: the parent's wall-clock limit, or the child's CPU limit if it comes first.
    assert res.returncode == 2 and ("took more than" in res.stderr or "ran out of its time" in res.stderr), res.stderr
    assert result["took"] < 2.5, result["took"]
    longest = longest_still(frames)
    assert longest < 0.3, f"the witness stood still for {longest:.2f} s"


def icon_theme(x, tmp_path) -> dict:
    """A private icon theme chosen the way GTK users choose one (gtk-3.0/settings.ini)."""
    data = tmp_path / "data"
    theme = data / "icons" / "XhudTest"
    (theme / "scalable" / "status").mkdir(parents=True)
    (theme / "index.theme").write_text("[Icon Theme]\nName=XhudTest\nInherits=hicolor\nDirectories=scalable/status\n\n"
                                       "[scalable/status]\nSize=48\nMinSize=8\nMaxSize=512\nType=Scalable\n")
    (theme / "scalable" / "status" / "xhud-test-dot.svg").write_text(RED_SVG)
    gtk = Path(x.env["XDG_CONFIG_HOME"]) / "gtk-3.0"
    gtk.mkdir(parents=True, exist_ok=True)
    (gtk / "settings.ini").write_text("[Settings]\ngtk-icon-theme-name=XhudTest\n")
    return dict(x.env, XDG_DATA_DIRS=f"{data}:/usr/share", XDG_DATA_HOME=str(tmp_path / "nothing"))


def test_an_icon_name_comes_from_the_users_icon_theme(xplain, tmp_path):
    xplain.env = icon_theme(xplain, tmp_path)
    hud = xplain.start_xhud("--mode", "custom", "--image", "xhud-test-dot", "--animation", "none", "--no-shadow")
    win = xplain.visible_hud_windows()[0]
    assert count(drawn(xplain, win), win.rect, is_red) > 600, "the theme's icon was not drawn"
    cfg = xhud(xplain, "--print-config", "--image", "xhud-test-dot").stdout
    assert "XhudTest/scalable/status/xhud-test-dot.svg" in cfg, cfg


def test_a_missing_icon_warns_and_the_hud_shows_without_it(xplain):
    res = xhud(xplain, "--mode", "custom", "--image", "no-such-icon-name", "--label", "x", "--hide-after", "0.2")
    assert res.returncode == 0, res.stderr
    assert "no icon 'no-such-icon-name'" in res.stderr, res.stderr


def test_print_config_of_a_named_hud_prints_and_shows_nothing(nx):
    """`xhud --id volume --print-config` is answered by the command, not sent to the server as
    an update (the front door sends named updates straight to the server)."""
    write_config(nx, '[id.volume]\nlabel = "Vol"\n')
    ok(nx, "--id", "other", "--mode", "text", "--label", "x", "--hide-after", "30", *LINGER)   # a server runs
    res = xhud(nx, "--id", "volume", "--print-config")
    assert res.returncode == 0 and any(l.startswith('label = "Vol"') for l in res.stdout.splitlines()), res
    assert "volume" not in named_list(nx), "--print-config showed the HUD"


def named_list(x) -> str:
    return xhud(x, "list").stdout


def test_each_warning_is_given_once_whatever_the_invocation(nx):
    """A bad key is reported once for each version of the file, by whichever invocation reads it
    first: a plain HUD, a wrapped command, a notification (the server shows them all)."""
    runs = {
        "plain": ["--mode", "annular", "--label", "x", "--hide-after", "0.2", *LINGER],
        "wrap": ["--label", "x", *LINGER, "--", "true"],
        "notification": ["success", "Saved", "--hide-after", "0.2", *LINGER],
    }
    for n, (name, args) in enumerate(runs.items()):
        path = write_config(nx, f'colour = "red"\nmargin = {20 + n}\n')   # a new version of the file
        res = xhud(nx, *args)
        assert res.returncode == 0, (name, res.stderr)
        assert res.stderr.count("unknown key 'colour'") == 1, f"{name}: {res.stderr!r}"
        assert str(path) in res.stderr
        again = xhud(nx, *args)
        assert again.returncode == 0 and "colour" not in again.stderr, f"{name}, same file again: {again.stderr!r}"

def test_svprogresshuds_knobs_are_configuration_keys(xplain, tmp_path):
    """Ring thickness and radius, fade lengths and a result icon's image, from the file: listed by
    --print-config with their source, and the success image (an icon name) drawn."""
    xplain.env = icon_theme(xplain, tmp_path)
    path = write_config(xplain, 'ring-thickness = 3\nring-radius = 24\nfade-in = 0.15\nfade-out = 0.2\n'
                                'success-image = "xhud-test-dot"\n')
    out = xhud(xplain, "--print-config").stdout
    lines = {l.split("=")[0].strip(): l for l in out.splitlines() if "=" in l and not l.startswith("#")}
    for key, value, line in (("ring-thickness", "3", 1), ("ring-radius", "24", 2), ("fade-in", "0.15", 3), ("fade-out", "0.2", 4)):
        assert f"= {value}" in lines[key] and f"{path}:{line}" in lines[key], lines.get(key)
    assert "xhud-test-dot.svg" in lines["success-image"], lines["success-image"]
    hud = xplain.start_xhud("success", "Saved", "--animation", "none", "--no-shadow", "--image-size", "40")
    win = xplain.visible_hud_windows()[0]
    assert count(drawn(xplain, win), win.rect, is_red) > 600, "the theme's icon replaced the check mark"
    assert hud.proc.poll() is None


def test_a_relative_config_is_the_callers_file(nx, tmp_path):
    """The server runs in another directory: `--config ./mine.toml` still means the caller's file."""
    (tmp_path / "mine.toml").write_text('bezel-color = "#ff0000"\n')
    res = subprocess.run([str(XHUD_BIN), "--config", "mine.toml", "--id", "rel", "--label", "Red", "--no-shadow",
                          "--animation", "none", "--hide-after", "20", *LINGER], env=nx.env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
    assert res.returncode == 0, res.stderr
    win = one_window(nx)
    assert count(drawn(nx, win, whole=False), win.rect, is_red) > 400, "the caller's file set the bezel's colour"


def test_a_file_of_many_bad_lines_gives_a_readable_warning(nx, tmp_path):
    """A hundred unknown keys and a value of 100 KB: twenty warnings of at most 1 000
    characters, then how many more there were; the HUD shows."""
    bad = tmp_path / "many.toml"
    bad.write_text("".join(f"bogus{i} = 1\n" for i in range(100)) + 'margin = "' + "z" * 100_000 + '"\n')
    res = xhud(nx, "--config", str(bad), "--id", "many", "--hide-after", "0.3", *LINGER)
    assert res.returncode == 0, res.stderr[:500]
    lines = res.stderr.splitlines()
    assert len(lines) == 21 and lines[-1].startswith("xhud: and ") and "more warnings" in lines[-1], lines[-3:]
    assert max(len(l) for l in lines) < 1100


def test_a_configuration_slow_to_read_is_read_off_the_loop(nx, tmp_path):
    """A configuration file the server has not read before is read and parsed; one that takes
    a second and a half (a slow disk: XHUD_TEST_SLOW_SETTINGS) is read on a thread of its own:
    a spinner shown by the same server keeps turning, and the request is answered once read."""
    import threading
    from test_liveness import Grabber
    nx.env = dict(nx.env, XHUD_TEST_SLOW_SETTINGS="1.5")
    loop_witness(nx)
    ok(nx, "--id", "witness", "--label", "Witness", "--hide-after", "30", "--animation", "none", *LINGER)
    win = one_window(nx)
    conf = tmp_path / "new.toml"
    conf.write_text('label = "From the slow file"\n')
    grabber = Grabber(nx.display)
    digests = []
    result = {}
    t = threading.Thread(target=lambda: result.update(res=xhud(nx, "--config", str(conf), "--id", "other",
                                                               "--hide-after", "5", *LINGER)))
    t0 = time.monotonic()
    t.start()
    while t.is_alive():
        digests.append((time.monotonic(), grabber.digest((win.x, win.y, win.width, win.height))))
        time.sleep(0.02)   # sampling interval
    grabber.close()
    assert result["res"].returncode == 0, result["res"].stderr
    assert time.monotonic() - t0 > 1.4, "the file was not read slowly (XHUD_TEST_SLOW_SETTINGS ignored?)"
    longest, since = 0.0, digests[0]
    for at, d in digests[1:]:
        if d != since[1]:
            since = (at, d)
        longest = max(longest, at - since[0])
    assert longest < 0.3, f"the witness stood still for {longest:.2f} s while the file was read"
