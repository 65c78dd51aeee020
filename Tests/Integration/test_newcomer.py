"""What a newcomer meets first: scripts/deps.sh on a stock Debian 12, and the README's first examples.

No X server and no build. deps.sh runs against fake dpkg-query, apt-get, sudo, id and python3
first on PATH, which record what it asked for: Debian 12's Python refuses `pip install` outside
a virtual environment (PEP 668), so pytest must come from apt, and scripts/run, which needs no
pytest, must not ask for it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DEPS = REPO / "scripts" / "deps.sh"


def fake(directory: Path, name: str, body: str) -> None:
    path = directory / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def deps(tmp_path: Path, *args: str, missing: str = "", uid: int = 0, pytest_importable: bool = False,
         python_named: bool = True):
    """Runs deps.sh with fakes; returns (result, apt-get calls, sudo calls, python3 calls). The
    fake python3 is named in XHUD_PYTHON unless python_named is false: then it is only first on
    PATH, as a pyenv or virtual environment's python3 is."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "log"
    # dpkg-query -W -f=... PACKAGE: installed unless named in $MISSING.
    fake(bin_dir, "dpkg-query", f"""for p; do :; done
case " {missing} " in *" $p "*) exit 1 ;; esac
printf 'install ok installed'
""")
    fake(bin_dir, "apt-get", f'echo "apt-get $*" >> "{log}"\n')
    fake(bin_dir, "sudo", f'echo "sudo $*" >> "{log}"\nexec "$@"\n')
    fake(bin_dir, "id", f'echo {uid}\n')
    fake(bin_dir, "python3", f'echo "python3 $*" >> "{log}"\nexit {0 if pytest_importable else 1}\n')
    env = {"PATH": f"{bin_dir}:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": str(tmp_path)}
    if python_named:
        env["XHUD_PYTHON"] = str(bin_dir / "python3")
    r = subprocess.run(["bash", str(DEPS), *args], capture_output=True, text=True, timeout=30, env=env)
    calls = log.read_text().splitlines() if log.exists() else []
    return r, calls


def test_deps_never_uses_pip():
    code = re.sub(r"#.*", "", DEPS.read_text())
    assert not re.search(r"\bpip3?\b", code), "Debian 12's Python refuses pip installs (PEP 668)"


def test_everything_installed_installs_nothing(tmp_path):
    r, calls = deps(tmp_path, pytest_importable=True)
    assert r.returncode == 0, r.stderr
    assert not [c for c in calls if c.startswith(("apt-get", "sudo"))], calls


def test_pytest_comes_from_debian(tmp_path):
    r, calls = deps(tmp_path, missing="python3-pytest", uid=0)
    installs = [c for c in calls if c.startswith("apt-get") and " install " in c]
    assert installs and "python3-pytest" in installs[0].split(), calls
    assert "apt-get update -qq" in calls
    assert not any("pip" in c for c in calls), calls
    # The fake python3 still cannot import pytest: deps.sh says which python3, and fails.
    assert r.returncode == 1 and "cannot import pytest" in r.stderr


def test_a_python3_first_on_path_is_not_the_one_used(tmp_path):
    """A pyenv or virtual environment's python3 first on PATH has none of apt's python3-* packages
    (dbus, gi, pyatspi): the tests would skip what needs them. Debian's /usr/bin/python3 is used."""
    if subprocess.run(["/usr/bin/python3", "-c", "import pytest"], capture_output=True).returncode != 0:
        pytest.skip("/usr/bin/python3 cannot import pytest here")
    r, calls = deps(tmp_path, python_named=False)
    assert r.returncode == 0, r.stderr
    assert not any(c.startswith("python3") for c in calls), calls
    assert "python.sh" in (REPO / "scripts" / "test").read_text()


def test_run_needs_no_pytest(tmp_path):
    r, calls = deps(tmp_path, "run", missing="xvfb")
    assert r.returncode == 0, r.stderr
    installs = [c for c in calls if c.startswith("apt-get") and " install " in c]
    assert installs and installs[0].split()[-1] == "xvfb", calls
    assert not any(c.startswith("python3") for c in calls), "scripts/run needs no Python"


def test_not_root_uses_sudo_and_keeps_noninteractive(tmp_path):
    r, calls = deps(tmp_path, "run", missing="imagemagick", uid=1000)
    assert r.returncode == 0, r.stderr
    assert any(c.startswith("sudo apt-get update") for c in calls), calls
    # sudo resets the environment: DEBIAN_FRONTEND must be passed inside it.
    assert any(c.startswith("sudo env DEBIAN_FRONTEND=noninteractive apt-get install") for c in calls), calls


def test_unknown_argument_is_a_usage_error(tmp_path):
    r, _ = deps(tmp_path, "frobnicate")
    assert r.returncode == 2 and "usage" in r.stderr


def test_run_installs_no_test_only_tools():
    text = DEPS.read_text()
    run_list = re.search(r"^run=\((.*?)\)", text, re.S | re.M)
    assert run_list, "deps.sh has no run=( ... ) list"
    for tool in ["python3-pytest", "picom", "xcompmgr", "shellcheck", "gnuplot-nox"]:
        assert tool not in run_list.group(1).split(), f"scripts/run does not need {tool}"


# ---------------------------------------------------------------------------------------------
# Examples show what their words say: an annular ring stands still at progress 0, so an
# example without progress is a spinner.


def example_lines() -> list[tuple[str, str]]:
    """(file, line) for every line of a code block in the README and every .EX block of the man page."""
    out = []
    readme = (REPO / "README.md").read_text()
    for block in re.findall(r"```(?:sh|bash)?\n(.*?)```", readme, re.S):
        out += [("README.md", line) for line in block.splitlines()]
    man = (REPO / "packaging" / "xhud.1").read_text()
    for block in re.findall(r"^\.EX\n(.*?)^\.EE", man, re.M | re.S):
        out += [("xhud.1", line.replace("\\-", "-")) for line in block.splitlines()]
    return out


def test_examples_show_a_ring_only_with_progress():
    lines = example_lines()
    assert len(lines) > 20
    still = [f"{f}: {line.strip()}" for f, line in lines
             if re.search(r"--mode[ =](annular|ring)\b", line)
             and not re.search(r"--progress\b|--show-value|\|\s*$|^\s*\|", line)]
    assert not still, "a ring without progress is a static, nearly invisible ring:\n" + "\n".join(still)


def test_readme_first_example_is_a_spinner():
    readme = (REPO / "README.md").read_text()
    first = re.search(r"```sh\n(.*?)\n", readme).group(1)
    assert first.startswith("xhud ") and "--mode annular" not in first and "--mode ring" not in first, first
