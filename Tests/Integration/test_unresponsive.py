"""A server that cannot serve never holds a client: one stopped (SIGSTOP) delays no wrapped
command, stdin-fed or plain HUD by more than a second, and once resumed it serves or exits, never
lingering with the socket and lock; one out of descriptors refuses the newest client with a clear
error instead of spinning. Bad environment and arguments are answered at once, as a shell would."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time

import pytest

from conftest import XHUD_BIN, wait_until
from harness.procs import alive
from named_client import named, nx, ok, servers, sock_path  # noqa: F401  (nx is a fixture)

PY = "/usr/bin/python3"
STAMP = [PY, "-c", "import time; print(time.monotonic(), flush=True)"]


def run(env, *args, timeout=15, **kw):
    if "input" not in kw:
        kw.setdefault("stdin", subprocess.DEVNULL)
    try:
        return subprocess.run([str(XHUD_BIN), *args], env=env, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        pytest.fail(f"xhud {' '.join(a[:60] for a in args)} did not exit within {timeout} s")


def stopped_server(x):
    """The display's server (lingering 0.5 s after a named HUD of 2 s), stopped."""
    ok(x, "--id", "base", "--label", "Up", "--hide-after", "2", "--animation", "none", "--linger", "0.5")
    [server] = servers(x)
    os.kill(server, signal.SIGSTOP)
    assert wait_until(lambda: open(f"/proc/{server}/stat").read().rsplit(")", 1)[1].split()[0] == "T", 2)
    return server


def resumed_server_goes(server) -> float | None:
    """SIGCONT, then how long the server took to exit (None: still alive after 10 s)."""
    os.kill(server, signal.SIGCONT)
    t0 = time.monotonic()
    return time.monotonic() - t0 if wait_until(lambda: not alive(server), 10) else None


def test_a_stopped_server_delays_no_wrapped_command(nx):
    server = stopped_server(nx)
    try:
        t0 = time.monotonic()
        res = run(nx.env, "--label", "Work", "--", "sh", "-c", f"{' '.join(repr(a) for a in STAMP)}; sleep 1.5; exit 7")
        took = time.monotonic() - t0
        started = float(res.stdout.split()[0]) - t0
        print(f"wrapped command started {started:.3f} s after xhud; xhud exited after {took:.2f} s")
        assert res.returncode == 7, f"the command's status is lost: {res.returncode} {res.stderr!r}"
        assert started < 1.0, f"the wrapped command started {started:.2f} s late"
        assert took < 5, f"xhud took {took:.2f} s"
        assert res.stderr.count("did not answer") == 1, f"want the reason once: {res.stderr!r}"
    finally:
        gone = resumed_server_goes(server)
    print(f"resumed server exited {gone} s after SIGCONT")
    assert gone is not None, "the resumed server lingers with nothing to show"
    assert not sock_path(nx).exists(), "the socket outlived its server"


def test_a_stopped_server_delays_no_stdin_fed_or_plain_hud(nx):
    server = stopped_server(nx)
    try:
        t0 = time.monotonic()
        res = run(nx.env, "--label", "Fed", input="label=one\n50\n")
        took = time.monotonic() - t0
        print(f"stdin-fed HUD over a stopped server: exit {res.returncode} after {took:.2f} s")
        assert res.returncode == 0, res.stderr
        assert took < 8, f"the stdin-fed client took {took:.2f} s"
        assert res.stderr.count("did not answer") == 1, f"want the reason once: {res.stderr!r}"
        t0 = time.monotonic()
        res = run(nx.env, "--label", "Plain", "--hide-after", "0.2", "--animation", "none")
        took = time.monotonic() - t0
        print(f"plain HUD over a stopped server: exit {res.returncode} after {took:.2f} s")
        assert res.returncode == 0 and took < 8, (res.returncode, took, res.stderr)
    finally:
        gone = resumed_server_goes(server)
    assert gone is not None, "the resumed server lingers with nothing to show"


def test_a_resumed_server_serves(nx):
    server = stopped_server(nx)
    os.kill(server, signal.SIGCONT)
    res, took = ok(nx, "--id", "again", "--label", "Again", "--hide-after", "1", "--linger", "0.5")
    assert servers(nx) == [server], "the resumed server was replaced"
    assert took < 2, f"answered after {took:.2f} s"


def cpu_seconds(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_a_server_out_of_descriptors_refuses_the_newest_client_and_does_not_spin(nx):
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    first = subprocess.run([str(XHUD_BIN), "--id", "base", "--label", "Up", "--hide-after", "60", "--linger", "0.5"],
                           env=nx.env, capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL,
                           preexec_fn=limit)
    assert first.returncode == 0, first.stderr
    [server] = servers(nx)
    holders, refused = [], None
    try:
        # Plain HUDs, each holding a connection, until the server has no descriptor left.
        for i in range(80):
            err = nx.tmp / f"holder{i}.err"
            p = subprocess.Popen([str(XHUD_BIN), "--label", f"H{i}", "--mode", "bar", "--progress", "0.5", "--mask", "none", "--animation", "none",
                                  "--geometry", f"40x40+{(i % 30) * 42}+{(i // 30) * 42}"],
                                 env=nx.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=open(err, "w"), start_new_session=True)
            holders.append(p)
            nx.procs.append(p)
            before = len(os.listdir(f"/proc/{server}/fd"))
            wait_until(lambda: "cannot take" in err.read_text() or len(os.listdir(f"/proc/{server}/fd")) > before, 3)
            if "cannot take" in err.read_text():
                refused = err.read_text()
                break
        assert refused, f"the server took {len(holders)} clients with 64 descriptors"
        print(f"refused after {len(holders)} clients: {refused.strip()!r}")
        assert "Too many open files" in refused and refused.count("cannot take") == 1, refused

        c0, t0 = cpu_seconds(server), time.monotonic()
        time.sleep(1)   # the interval the server's CPU time is measured over
        busy = (cpu_seconds(server) - c0) / (time.monotonic() - t0)
        print(f"server at its descriptor limit: {busy:.0%} of a core")
        assert busy < 0.5, f"the server spins at its descriptor limit ({busy:.0%} of a core)"

        t0 = time.monotonic()
        res = run(nx.env, "--label", "Late", "--", "sh", "-c", "exit 4")
        took = time.monotonic() - t0
        print(f"wrapped command beside a full server: exit {res.returncode} after {took:.2f} s")
        assert res.returncode == 4, res.stderr
        assert took < 5, f"took {took:.2f} s"
        assert "cannot take another client" in res.stderr, res.stderr
        assert alive(server), "the server died of its descriptor limit"
    finally:
        for p in holders:
            p.send_signal(signal.SIGTERM)
        for p in holders:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
    # Descriptors back: the server serves again.
    res, took = ok(nx, "--id", "after", "--label", "After", "--hide-after", "1", "--linger", "0.5")
    assert servers(nx) == [server], "the server was replaced"


# Bad environment and arguments: answered at once.

@pytest.mark.parametrize("display,why", [(":" + "9" * 5000, "bytes long"), ("x" * 5000 + ":0", "bytes long"),
                                         ("nocolon", "no ':'"), ("host:zero", "':NUMBER'")],
                         ids=["5000-digit", "5000-host", "no-colon", "no-number"])
def test_a_bad_display_is_refused_at_once(nx, display, why):
    env = dict(nx.env, DISPLAY=display)
    t0 = time.monotonic()
    res = run(env, "--label", "x")
    took = time.monotonic() - t0
    assert res.returncode == 3, f"exit {res.returncode}: {res.stderr[:300]!r}"
    assert took < 2, f"took {took:.2f} s"
    assert why in res.stderr and res.stderr.count("\n") == 1 and len(res.stderr) < 300, res.stderr[:400]
    # A wrapped command runs all the same.
    res = run(env, "--", "sh", "-c", "exit 6")
    assert res.returncode == 6, res.stderr[:300]


def test_a_command_that_cannot_run_exits_as_a_shell_says(nx, tmp_path):
    plain = tmp_path / "not-executable"
    plain.write_text("echo hi\n")
    cases = [(["no-such-command-xhud"], 127, "command not found"),
             (["a" * 70000], 127, "(70000 bytes)"),
             (["/no/such/" + "b" * 70000], 127, "too long"),
             ([str(plain)], 126, "Permission denied"),
             ([str(tmp_path)], 126, "Permission denied")]
    for command, status, message in cases:
        t0 = time.monotonic()
        res = run(nx.env, "--label", "x", "--", *command)
        took = time.monotonic() - t0
        shown = command[0][:40]
        assert res.returncode == status, f"{shown}: exit {res.returncode}, want {status}: {res.stderr[:300]!r}"
        assert message in res.stderr, f"{shown}: {res.stderr[:300]!r}"
        assert res.stderr.count("\n") == 1 and len(res.stderr) < 400, f"{shown}: {res.stderr[:500]!r}"
        assert took < 5, f"{shown}: took {took:.2f} s"
