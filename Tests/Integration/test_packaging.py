"""Cheap checks of packaging/: the man page, the completions, the example scripts, build.sh.

No release build and no X server: the man page must render without groff warnings and mention
every long option `xhud-host --help` lists (the debug xhud-host next to $XHUD_BIN; skipped when
absent), the completions must know the same options, the example scripts must be valid POSIX sh
and compute the value they show from pactl's output, and packaging/deb/build.sh must be valid
bash.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from conftest import XHUD_BIN

REPO = Path(__file__).resolve().parents[2]
PACKAGING = REPO / "packaging"
MAN_PAGE = PACKAGING / "xhud.1"
EXAMPLES = PACKAGING / "examples"
SCRIPTS = [EXAMPLES / "xhud-volume", EXAMPLES / "xhud-brightness", PACKAGING / "completions" / "generate.sh",
           PACKAGING / "generate-manual.sh"]
COMPLETIONS = [PACKAGING / "completions" / n for n in ("xhud.bash", "_xhud", "xhud.fish")]
XHUD_HOST = XHUD_BIN.parent / "xhud-host"


def run(args, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=30, **kw)


def need(tool: str) -> str:
    path = shutil.which(tool)
    if not path:
        pytest.skip(f"{tool} is not installed")
    return path


def help_long_options() -> list[str]:
    """The long options in the OPTIONS section of `xhud-host --help` (hidden ones are not there)."""
    if not os.access(XHUD_HOST, os.X_OK):
        pytest.skip(f"no xhud-host next to XHUD_BIN ({XHUD_HOST})")
    r = run([str(XHUD_HOST), "--help"], env=dict(os.environ, COLUMNS="200"))
    assert r.returncode == 0, f"xhud-host --help exited {r.returncode}: {r.stderr.strip()}"
    section = r.stdout.split("\nOPTIONS:", 1)
    assert len(section) == 2, "no OPTIONS: section in xhud-host --help"
    options = []
    for line in section[1].splitlines():
        # Option lines start with the option; wrapped help text is indented further.
        m = re.match(r"\s{1,4}(-\S.*?)(\s{2,}|$)", line)
        if m:
            options += [o for o in re.findall(r"--[a-z][a-z0-9-]*", m.group(1)) if o not in options]
    assert len(options) > 20, f"too few options parsed from --help: {options}"
    return options


def man_text() -> str:
    """The man page source with roff's escaped hyphens and font changes undone."""
    text = MAN_PAGE.read_text()
    text = text.replace("\\-", "-")
    return re.sub(r"\\f[BIRP]", "", text)


def mentions(text: str, option: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


# ---------------------------------------------------------------------------------------------
# The man page


def test_man_page_has_no_groff_warnings():
    need("groff")
    r = run(["groff", "-man", "-ww", "-z", str(MAN_PAGE)])
    assert r.returncode == 0 and not r.stderr.strip(), f"groff warnings:\n{r.stderr}"


def test_man_page_renders_with_man_without_warnings():
    need("man")
    # What lintian runs (manpage-has-errors-from-man).
    env = dict(os.environ, LC_ALL="C.UTF-8", MANROFFSEQ="", MANWIDTH="80")
    r = run(["man", "--warnings", "-E", "UTF-8", "-l", "-Tutf8", "-Z", str(MAN_PAGE)], env=env)
    assert r.returncode == 0, r.stderr
    assert not r.stderr.strip(), f"man --warnings:\n{r.stderr}"


def test_man_page_has_the_expected_sections():
    text = MAN_PAGE.read_text()
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", '"THE STDIN PROTOCOL"',
                    '"WRAPPING A COMMAND"', "NOTIFICATIONS", '"NAMED HUDS"', '"EXIT STATUS"',
                    "ENVIRONMENT", "FILES", "EXAMPLES", '"SEE ALSO"']:
        assert re.search(rf"^\.SH {re.escape(section)}\s*$", text, re.M), f"no .SH {section}"
    for variable in ["DISPLAY", "XDG_RUNTIME_DIR", "XHUD_HOST", "XHUD_FONTS", "XHUD_STATS"]:
        assert mentions(text, variable), f"ENVIRONMENT does not mention {variable}"


def mentions_option(text: str, option: str) -> bool:
    """`--name`, or a switch's `--[no-]name` standing for `--name` and `--no-name`."""
    name = option[2:]
    forms = [option, f"--[no-]{name}"] + ([f"--[no-]{name[3:]}"] if name.startswith("no-") else [])
    return any(mentions(text, f) for f in forms)


def test_man_page_mentions_every_long_option_of_help():
    text = man_text()
    missing = [o for o in help_long_options() if not mentions_option(text, o)]
    assert not missing, f"packaging/xhud.1 does not mention {missing} (listed by xhud-host --help)"


# ---------------------------------------------------------------------------------------------
# Completions


@pytest.mark.parametrize("script", COMPLETIONS, ids=lambda p: p.name)
def test_completion_knows_every_long_option_of_help(script):
    text = script.read_text()
    if script.suffix == ".fish":   # fish names long options `-l NAME`
        text = re.sub(r"(?<![\w-])-l '?([a-z][a-z0-9-]*)", r"--\1", text)
    missing = [o for o in help_long_options() if o != "--help" and not mentions(text, o)]
    assert not missing, (f"{script.relative_to(REPO)} lacks {missing}: regenerate with "
                         f"packaging/completions/generate.sh {XHUD_HOST}")


def test_bash_completion_loads():
    need("bash")
    script = PACKAGING / "completions" / "xhud.bash"
    r = run(["bash", "-c", f'source "{script}" && complete -p xhud'])
    assert r.returncode == 0 and "-F _xhud xhud" in r.stdout, r.stdout + r.stderr


# ---------------------------------------------------------------------------------------------
# Scripts


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_is_valid_posix_sh(script):
    r = run(["sh", "-n", str(script)])
    assert r.returncode == 0, f"sh -n {script.name}: {r.stderr}"
    assert script.stat().st_mode & stat.S_IXUSR, f"{script.name} is not executable"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_script_passes_shellcheck(script):
    need("shellcheck")
    r = run(["shellcheck", "-s", "sh", str(script)])
    assert r.returncode == 0, r.stdout + r.stderr


def test_build_sh_is_valid_bash():
    r = run(["bash", "-n", str(PACKAGING / "deb" / "build.sh")])
    assert r.returncode == 0, r.stderr


def test_build_sh_help_prints_help_and_builds_nothing():
    r = run(["bash", str(PACKAGING / "deb" / "build.sh"), "--help"])
    assert r.returncode == 0 and "Builds a Debian package" in r.stdout and "NO_BUILD" in r.stdout, r.stdout + r.stderr
    r = run(["bash", str(PACKAGING / "deb" / "build.sh"), "--frobnicate"])
    assert r.returncode == 2 and "see --help" in r.stderr


MAX_INSTALLED_KIB = 20480   # issue #30: the installed package is at most 20 MiB


def test_build_sh_packs_two_programs_and_the_font_helper():
    """xhud and xhud-host: help and the TOML reader are xhud-host's own (no xhud-help, no
    xhud-config, no Foundation); xhud-fonts is the C helper a first start runs."""
    build = (PACKAGING / "deb" / "build.sh").read_text()
    assert re.findall(r"for product in ([\w -]+); do", build) == ["xhud xhud-host xhud-fonts"]
    assert "/usr/lib/xhud/xhud-fonts" in build
    for gone in ["xhud-help", "xhud-config"]:
        assert gone not in build, f"build.sh still packs {gone}"
    package = (REPO / "Package.swift").read_text()
    for gone in ["TOMLKit", "swift-argument-parser"]:
        assert gone not in package, f"Package.swift still depends on {gone}"


def test_the_package_built_here_is_at_most_20_mib_installed():
    """The newest out/xhud_*.deb (packaging/deb/build.sh), when it is as new as the sources."""
    need("dpkg-deb")
    debs = sorted((REPO / "out").glob("xhud_*.deb"), key=lambda p: p.stat().st_mtime)
    if not debs:
        pytest.skip("no package built in out/ (packaging/deb/build.sh)")
    deb = debs[-1]
    newest_source = max(p.stat().st_mtime for p in (REPO / "Sources").rglob("*.swift"))
    if deb.stat().st_mtime < newest_source:
        pytest.skip(f"{deb.name} is older than the sources: rebuild it")
    r = run(["dpkg-deb", "-f", str(deb), "Installed-Size"])
    assert r.returncode == 0, r.stderr
    size = int(r.stdout.strip())
    assert size <= MAX_INSTALLED_KIB, f"{deb.name}: Installed-Size {size} KiB > {MAX_INSTALLED_KIB} KiB"
    r = run(["dpkg-deb", "-c", str(deb)])
    assert "xhud-help" not in r.stdout and "xhud-config" not in r.stdout, r.stdout


def test_licence_is_mit_in_the_tree_and_the_package():
    assert "MIT License" in (REPO / "LICENSE").read_text()
    assert "License: MIT" in (PACKAGING / "deb" / "copyright").read_text()


def fake_bin(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


@pytest.mark.parametrize("volume,muted,expected", [
    ("front-left: 29491 /  45% / -20.81 dB,   front-right: 29491 /  45% / -20.81 dB", "no",
     ["--progress", "0.45", "--label", "Volume", "--show-value", "--no-alternate", "--image", "audio-volume-medium-symbolic"]),
    ("front-left: 98304 / 150% / 10.57 dB,   front-right: 98304 / 150% / 10.57 dB", "no",
     ["--progress", "1", "--label", "Volume 150%", "--show-value", "--no-alternate", "--image", "audio-volume-high-symbolic"]),
    ("mono: 0 /   0% / -inf dB", "yes",
     ["--progress", "0.00", "--label", "Muted", "--show-value", "--alternate", "--image", "audio-volume-muted-symbolic"]),
    ("front-left: 6553 /  10% / -60.00 dB,   front-right: 9830 /  15% / -49.44 dB", "no",
     ["--progress", "0.13", "--label", "Volume", "--show-value", "--no-alternate", "--image", "audio-volume-low-symbolic"]),
])
def test_volume_script_reads_pactl(tmp_path, volume, muted, expected):
    """xhud-volume show with a fake pactl and a fake xhud that prints its arguments."""
    fake_bin(tmp_path, "pactl", f"""case "$1" in
get-sink-volume) echo "Volume: {volume}"; echo "        balance 0.00" ;;
get-sink-mute) echo "Mute: {muted}" ;;
esac
""")
    fake_bin(tmp_path, "xhud", 'for a; do echo "$a"; done\n')
    env = dict(os.environ, PATH=f"{tmp_path}:/usr/bin:/bin", XHUD=str(tmp_path / "xhud"))
    r = run(["sh", str(EXAMPLES / "xhud-volume"), "show"], env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["--id", "volume", "--mode", "bar", *expected]


def test_brightness_script_reads_brightnessctl(tmp_path):
    fake_bin(tmp_path, "brightnessctl", 'case "$*" in *get) echo 19200 ;; *max) echo 96000 ;; esac\n')
    fake_bin(tmp_path, "xhud", 'for a; do echo "$a"; done\n')
    env = dict(os.environ, PATH=f"{tmp_path}:/usr/bin:/bin", XHUD=str(tmp_path / "xhud"))
    r = run(["sh", str(EXAMPLES / "xhud-brightness"), "up"], env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["--id", "brightness", "--mode", "bar", "--progress", "0.20",
                                     "--label", "Brightness", "--show-value", "--image", "display-brightness-symbolic"]
