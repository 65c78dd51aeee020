"""`xhud server`: the display's HUD server in the foreground, as autostart and systemd run it."""

from __future__ import annotations

import subprocess
import time

from conftest import XHUD_BIN, wait_until
from named_client import hidden, named, nx, ok, one_window, servers, sock_path  # noqa: F401 (nx is a fixture)



def test_the_foreground_server_serves_and_stays(nx):
    server = nx.spawn([str(XHUD_BIN), "server"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert wait_until(lambda: sock_path(nx).exists(), 5), "the server did not listen"
    ok(nx, "--id", "vol", "--mode", "bar", "--progress", "0.5", "--hide-after", "0.3", "--linger", "0.2")
    one_window(nx)
    assert servers(nx) == [server.pid], f"the invocation started its own server: {servers(nx)} vs {server.pid}"
    assert hidden(nx, 3)
    time.sleep(1.0)                       # past --linger: a started-on-demand server would be gone
    assert server.poll() is None, "xhud server exited when its last HUD was hidden"
    assert named(nx, "list").returncode == 0

    second = subprocess.run([str(XHUD_BIN), "server"], env=nx.env, capture_output=True, text=True, timeout=10)
    assert second.returncode == 0 and "already serves" in second.stderr, second

    server.terminate()
    assert server.wait(5) == 0
    assert not sock_path(nx).exists(), "the socket outlived its server"


def test_autostart_and_systemd_files_run_the_server():
    import configparser
    from pathlib import Path
    resources = Path(__file__).resolve().parents[2] / "Resources"
    desktop = configparser.ConfigParser(interpolation=None)
    desktop.optionxform = str
    desktop.read(resources / "autostart" / "xhud.desktop")
    entry = desktop["Desktop Entry"]
    assert entry["Type"] == "Application" and entry["Exec"] == "xhud server"
    unit = (resources / "systemd" / "xhud.service").read_text()
    assert "ExecStart=/usr/bin/xhud server" in unit and "graphical-session.target" in unit
