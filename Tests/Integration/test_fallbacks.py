"""No silent fallback: what the user named and cannot be had is a clear error with a non-zero
exit, and xhud's own files are found wherever its binaries are."""

from __future__ import annotations

import shutil
import subprocess

from conftest import REPO, XHUD_BIN, kill_tagged


def xhud(x, *args, binary=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(binary or XHUD_BIN), *args], env=env or x.env, capture_output=True, text=True,
                          timeout=10, stdin=subprocess.DEVNULL)


def test_an_unknown_option_suggests_the_nearest(xplain):
    cases = {"--lable": "--label", "--frobnicat": None, "-label": "--label", "--hide": "--hide-after",
             "--no-markp": "--no-markup", "--detials": "--details"}
    for typed, meant in cases.items():
        res = xhud(xplain, typed, "x")
        assert res.returncode == 2, (typed, res)
        assert f"Unknown option '{typed}'" in res.stderr, res.stderr
        if meant:
            assert f"did you mean '{meant}'?" in res.stderr, res.stderr
        else:
            assert "did you mean" not in res.stderr and "--help" in res.stderr, res.stderr
    res = xhud(xplain, "sucess", "Saved")
    assert res.returncode == 2 and "did you mean 'success'?" in res.stderr, res.stderr


def test_a_missing_configuration_file_is_an_error(xplain, tmp_path):
    res = xhud(xplain, "--config", str(tmp_path / "nonexistent.toml"), "--label", "x", "--hide-after", "0.2")
    assert res.returncode == 2, res
    assert "nonexistent.toml: No such file or directory" in res.stderr, res.stderr
    res = xhud(xplain, "--config", str(tmp_path), "--label", "x", "--hide-after", "0.2")
    assert res.returncode == 2, res
    assert "Is a directory" in res.stderr, res.stderr
    assert xplain.visible_hud_windows() == []


def test_an_empty_notification_is_an_error(xplain):
    for args in (["success"], ["error", ""], ["--mode", "text"], ["info", "--label", ""]):
        res = xhud(xplain, *args)
        assert res.returncode == 2, (args, res)
        assert "needs a text" in res.stderr, res.stderr
    res = xhud(xplain, "success", "--details", "report.pdf", "--hide-after", "0.1")
    assert res.returncode == 0, res.stderr


def test_themes_are_found_wherever_the_binaries_are(xplain, tmp_path):
    """Binaries copied to a folder of their own, with the themes beside them; then without, the
    themes in $XDG_DATA_HOME/xhud; then nowhere: an error that says where to put them."""
    host = XHUD_BIN.parent / "xhud-host"
    themes = REPO / "Resources" / "themes"
    setups = {}
    beside = tmp_path / "beside" / "bin"
    beside.mkdir(parents=True)
    shutil.copytree(themes, beside / "themes")
    setups["beside"] = (beside, {})
    data = tmp_path / "data"
    shutil.copytree(themes, data / "xhud" / "themes")
    alone = tmp_path / "alone" / "bin"
    alone.mkdir(parents=True)
    setups["data"] = (alone, {"XDG_DATA_HOME": str(data)})
    setups["nowhere"] = (alone, {"XDG_DATA_HOME": str(tmp_path / "empty"), "XDG_DATA_DIRS": str(tmp_path / "empty")})
    for d in (beside, alone):
        shutil.copy2(XHUD_BIN, d / "xhud")
        shutil.copy2(host, d / "xhud-host")
    for name, (bindir, extra) in setups.items():
        # A server of its own for each (the theme is read where the server runs).
        env = dict(xplain.env, XDG_RUNTIME_DIR=str(tmp_path / ("run-" + name)), **extra)
        (tmp_path / ("run-" + name)).mkdir(mode=0o700)
        res = xhud(xplain, "--theme", "sv-dark", "--label", "x", "--hide-after", "0.1", binary=bindir / "xhud", env=env)
        if name == "nowhere":
            assert res.returncode == 2, res
            assert "no themes found" in res.stderr and "XDG_DATA_HOME" in res.stderr, res.stderr
        else:
            assert res.returncode == 0 and res.stderr == "", (name, res.stderr)
        kill_tagged(xplain.tag)
