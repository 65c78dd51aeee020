"""`xhud --help` works, without a display, and lists the options a user looks for.

xhud runs xhud-host for help, which writes it from the option table the command parses with
(no helper program, no argument parser). No X server needed.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from conftest import XHUD_BIN

REPO = Path(__file__).resolve().parents[2]

# zenity's options that xhud honours, and the settings of MBProgressHUD and SVProgressHUD.
EXPECTED = ["--cancel-label", "--attach", "--timeout", "--gtk-module", "--text", "--percentage",
            "--ring-thickness", "--ring-radius", "--success-image", "--error-image", "--info-image",
            "--warning-image", "--fade-in", "--fade-out", "--mask", "--mode", "--no-markup"]
MODE_ALIASES = ["spinner", "pie", "ring", "annular-determinate", "determinate-horizontal-bar", "custom-view"]


def builds() -> list[Path]:
    """XHUD_BIN, and the release build scripts/run leaves, when it is there."""
    out = [XHUD_BIN]
    release = REPO / ".build" / "release" / "xhud"
    if release.exists() and release.resolve() != XHUD_BIN.resolve():
        out.append(release)
    return out


def help_text(xhud: Path) -> str:
    if not os.access(xhud, os.X_OK):
        pytest.skip(f"no xhud at {xhud}")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XHUD_HOST")}
    env["COLUMNS"] = "200"
    r = subprocess.run([str(xhud), "--help"], capture_output=True, text=True, timeout=30, env=env)
    assert r.returncode == 0, (f"{xhud} --help exited {r.returncode}: {r.stderr.strip()} "
                               f"(is xhud-host built beside xhud? scripts/run builds it)")
    return r.stdout


def options_section(text: str) -> dict[str, str]:
    """Each long option in OPTIONS: -> its whole entry, wrapped lines joined."""
    section = text.split("\nOPTIONS:\n", 1)
    assert len(section) == 2, "no OPTIONS: section"
    entries: list[tuple[list[str], str]] = []
    for line in section[1].splitlines():
        m = re.match(r"\s{1,4}(-\S.*?)(\s{2,}|$)", line)
        if m:   # an option's first line; its wrapped help is indented further
            entries.append((re.findall(r"--[a-z][a-z0-9-]*", m.group(1)), line.strip()))
        elif entries and line.strip():
            names, entry = entries[-1]
            entries[-1] = (names, entry + " " + line.strip())
    return {name: entry for names, entry in entries for name in names}


@pytest.mark.parametrize("xhud", builds(), ids=lambda p: p.parent.name)
def test_help_works_without_a_display(xhud):
    text = help_text(xhud)
    assert text.startswith("OVERVIEW:") and "USAGE:" in text, text[:200]


@pytest.mark.parametrize("xhud", builds(), ids=lambda p: p.parent.name)
def test_help_lists_the_options(xhud):
    entries = options_section(help_text(xhud))
    missing = [o for o in EXPECTED if o not in entries]
    assert not missing, f"xhud --help does not list {missing}"
    mode = entries["--mode"]
    assert all(re.search(rf"(?<![\w-]){a}(?![\w-])", mode) for a in MODE_ALIASES), mode
    assert "blur" in entries["--mask"], entries["--mask"]
    for option in ["--cancel-label", "--attach", "--timeout"]:
        assert "<" in entries[option], f"{option} takes a value: {entries[option]}"


def test_version():
    if not os.access(XHUD_BIN, os.X_OK):
        pytest.skip(f"no xhud at {XHUD_BIN}")
    r = subprocess.run([str(XHUD_BIN), "--version"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0 and re.fullmatch(r"\d+\.\d+\.\d+\n", r.stdout), r.stdout + r.stderr


def test_every_helper_program_is_built_and_packaged():
    """The programs xhud and xhud-host run beside themselves are built by scripts/run and
    packed by packaging/deb/build.sh; the helpers that are gone (help and the TOML reader are
    xhud-host's own now) are neither."""
    helpers = set()
    for source in (REPO / "Sources").rglob("*.swift"):
        helpers |= set(re.findall(r'companion\("([\w-]+)"\)', source.read_text()))
    assert "xhud-help" not in helpers and "xhud-config" not in helpers, helpers
    run = (REPO / "scripts" / "run").read_text()
    build = (REPO / "packaging" / "deb" / "build.sh").read_text()
    built = re.search(r"for product in ([\w -]+); do", build)
    assert built, "build.sh builds no products"
    for helper in sorted(helpers | {"xhud-host"}):
        assert re.search(rf"(?<![\w-]){helper}(?![\w-])", run), f"scripts/run does not build {helper}"
        assert helper in built.group(1).split(), f"build.sh does not build {helper}"
        assert f'"$root/usr/lib/xhud/{helper}"' in build, f"build.sh does not install {helper}"
    for gone in ["xhud-help", "xhud-config"]:
        assert gone not in run and gone not in build, f"{gone} is still built or packaged"


def test_help_is_wrapped_at_the_terminal_width():
    if not os.access(XHUD_BIN, os.X_OK):
        pytest.skip(f"no xhud at {XHUD_BIN}")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "XHUD_HOST", "COLUMNS")}
    for columns, width in [(None, 80), ("60", 60), ("132", 132)]:
        e = dict(env, COLUMNS=columns) if columns else env
        r = subprocess.run([str(XHUD_BIN), "--help"], capture_output=True, text=True, timeout=30, env=e)
        assert r.returncode == 0, r.stderr
        options = r.stdout.split("\nOPTIONS:\n", 1)[1]
        long = [l for l in options.splitlines() if len(l) >= width and " " in l.strip()]
        assert not long, f"COLUMNS={columns}: lines past {width} columns: {long[:3]}"
        assert "\nOPTIONS:\n Content:\n" in r.stdout and "\n Zenity compatibility:\n" in options, "options are not grouped"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts_are_the_packaged_ones(shell):
    """`xhud --generate-completion-script SHELL` writes what packaging/completions holds
    (regenerate with packaging/completions/generate.sh)."""
    if not os.access(XHUD_BIN, os.X_OK):
        pytest.skip(f"no xhud at {XHUD_BIN}")
    r = subprocess.run([str(XHUD_BIN), "--generate-completion-script", shell], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    packaged = {"bash": "xhud.bash", "zsh": "_xhud", "fish": "xhud.fish"}[shell]
    assert r.stdout == (REPO / "packaging" / "completions" / packaged).read_text(), \
        f"packaging/completions/{packaged} is stale: run packaging/completions/generate.sh"
    r = subprocess.run([str(XHUD_BIN), "--generate-completion-script=tcsh"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 2 and "bash, zsh, fish" in r.stderr, r.stderr


def test_the_man_page_options_are_the_generated_ones():
    """`xhud --generate-manual-options` writes what packaging/xhud.1 holds between its OPTIONS
    markers (regenerate with packaging/generate-manual.sh, which generate.sh runs)."""
    if not os.access(XHUD_BIN, os.X_OK):
        pytest.skip(f"no xhud at {XHUD_BIN}")
    r = subprocess.run([str(XHUD_BIN), "--generate-manual-options"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(".SH OPTIONS\n") and "\n.SS General\n" in r.stdout, r.stdout[:200]
    page = (REPO / "packaging" / "xhud.1").read_text()
    m = re.search(r'^\.\\" OPTIONS begin[^\n]*\n(.*?)^\.\\" OPTIONS end$', page, re.M | re.S)
    assert m, "packaging/xhud.1 has no OPTIONS begin/end markers"
    assert m.group(1) == r.stdout, "packaging/xhud.1's OPTIONS are stale: run packaging/generate-manual.sh"


def test_the_readme_options_table_names_every_configuration_key(tmp_path):
    """The configuration keys are the option table's (`--print-config` lists them): the README's
    table of options names each, so that a new option is documented where users look."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    options = readme[readme.index("## Options"):readme.index("### Exit status")]
    env = dict(os.environ, HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path), XDG_CONFIG_DIRS=str(tmp_path))
    env.pop("XHUD_CONFIG", None)
    out = subprocess.run([str(XHUD_BIN), "--print-config"], env=env, capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    keys = [m.group(1) for m in re.finditer(r"^(?:# )?([a-z][a-z-]*)(?: = | \(not set\))", out.stdout, re.M)]
    assert len(keys) > 40, out.stdout
    missing = [k for k in keys if f"--{k}" not in options and f"--[no-]{k}" not in options]
    assert not missing, f"README.md's options table does not name {missing}"
