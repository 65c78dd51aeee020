"""The named HUDs' journal: a log a crashed server's replacement reads off its loop and replays
between frames; appended to, never rewritten per update; bounded; a HUD of any length comes back
with its time; a write that fails is said once and brings back nothing hidden; a server killed
again and again during updates restores only states that were written.

The helpers (`plant`, `storm`, `crash_loop`, `recovery`) are bench/soak's too."""

from __future__ import annotations

import os
import random
import signal
import struct
import subprocess
import threading
import time
import zlib
from pathlib import Path

import pytest

from conftest import XHUD_BIN, loop_witness, longest_still, wait_steady, wait_until
from named_client import named, private_runtime, servers, sock_path

LINGER = ["--linger", "2"]
PLACES = ["top", "bottom", "right", "top-right"]   # the witness is at the left
MARKER = b"\xd7JR\x01"


@pytest.fixture
def nx(xplain):
    yield from private_runtime(xplain)


# ---------------------------------------------------------------------------------------------
# The file (JournalRecord.swift): marker, payload length, CRC-32 of the payload, payload.


def journal_path(x) -> Path:
    return sock_path(x).with_suffix(".named")


def wire_request(cwd: str, args: list[str], flags: str = "") -> bytes:
    payload = b"".join(f.encode() + b"\0" for f in [cwd, flags, *args])
    return b"xhq2" + struct.pack("<I", len(payload)) + payload


def framed(payload: bytes) -> bytes:
    return MARKER + struct.pack("<II", len(payload), zlib.crc32(payload)) + payload


def shown(key: str, args: list[str], deadline: float, hide_after: float | None, cwd: str = "/") -> bytes:
    k = key.encode()
    return framed(b"\x01" + struct.pack("<I", len(k)) + k + struct.pack("<dd", deadline, -1 if hide_after is None else hide_after)
                  + wire_request(cwd, args))


def hidden(key: str) -> bytes:
    k = key.encode()
    return framed(b"\x02" + struct.pack("<I", len(k)) + k)


def records(data: bytes) -> list[tuple]:
    """(kind, key, deadline) of each whole record, as the server reads them."""
    out, at = [], 0
    while at + 12 <= len(data):
        if data[at:at + 4] == MARKER:
            n, crc = struct.unpack_from("<II", data, at + 4)
            p = data[at + 12:at + 12 + n]
            if len(p) == n and zlib.crc32(p) == crc:
                kn = struct.unpack_from("<I", p, 1)[0]
                key = p[5:5 + kn].decode()
                deadline = struct.unpack_from("<d", p, 5 + kn)[0] if p[0] == 1 else None
                out.append(("shown" if p[0] == 1 else "hidden", key, deadline))
                at += 12 + n
                continue
        at += 1
    return out


def plant(x, data: bytes) -> Path:
    path = journal_path(x)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    path.write_bytes(data)
    os.chmod(path, 0o600)
    return path


def kill_servers(x) -> None:
    for pid in servers(x):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    wait_until(lambda: not servers(x), 5)


def listed(x) -> set[str]:
    return set(named(x, "list", timeout=300).stdout.split())


# ---------------------------------------------------------------------------------------------
# Helpers shared with bench/soak


def storm(x, huds: int = 40, updates: int = 16, cwd: str | None = None) -> list[float]:
    """`huds` named HUDs in four regions, each updated `updates` times (from `cwd`: a long one
    makes large records); the time each invocation took, in order."""
    took = []
    for u in range(updates):
        for h in range(huds):
            args = ["--id", f"s{h}", "--progress", f"{(u * 7 + h) % 100 / 100:.2f}", "--hide-after", "120", *LINGER]
            if u == 0:
                args += ["--mode", "bar", "--label", f"HUD {h}", "--position", PLACES[h % 4], "--animation", "none"]
            t0 = time.monotonic()
            res = subprocess.run([str(XHUD_BIN), *args], env=x.env, capture_output=True, text=True, timeout=20,
                                 stdin=subprocess.DEVNULL, cwd=cwd)
            took.append(time.monotonic() - t0)
            assert res.returncode in (0, 69), res.stderr   # 69: no room on that monitor
    return took


def large_journal(kind: str) -> tuple[bytes, str]:
    """A journal of 4 MB (40 HUDs of 16 records of 6.5 kB) or of 3 000 records (200 HUDs of 15),
    and its newest HUD's name."""
    now = time.time()
    data = b""
    if kind == "4 MB":
        pad = "/tmp/" + "p" * 6400
        for u in range(16):
            for h in range(40):
                args = ["--id", f"j{h}", "--progress", f"{u / 16:.2f}"]
                if u == 0:
                    args += ["--mode", "bar", "--label", f"HUD {h}", "--position", PLACES[h % 4]]
                data += shown(f"j{h}", args, now + 120, 120, cwd=pad)
        return data, "j39"
    for u in range(15):
        for h in range(200):
            args = ["--id", f"j{h}", "--progress", f"{u / 15:.2f}"]
            if u == 0:
                args += ["--mode", "bar", "--label", f"HUD {h}", "--position", PLACES[h % 4]]
            data += shown(f"j{h}", args, now + 120, 120)
    return data, "j199"


def recovery(x, newest: str) -> dict:
    """A server started by a key press (a witness spinner at the left, a region the journal's
    HUDs do not use) over the journal a dead one left, a second request sent at once: how long
    each waited, the longest time the witness stood still until `newest` is back and the
    restored HUDs are steady, and the names listed then."""
    from test_liveness import Grabber
    def run(*args):   # a server that replays on its loop took minutes: waited for, and timed
        return subprocess.run([str(XHUD_BIN), *args], env=x.env, capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
    t0 = time.monotonic()
    res = run("--id", "witness", "--label", "Witness", "--position", "left", "--hide-after", "600", "--animation", "none",
              *LINGER)
    first = time.monotonic() - t0
    assert res.returncode == 0, res.stderr
    win = wait_until(lambda: min(x.visible_hud_windows(), key=lambda w: (w.x, w.y), default=None), 5)
    assert win is not None, "the witness did not show"
    grabber = Grabber(x.display)
    frames, stop = [], threading.Event()

    def sample():
        while not stop.is_set():
            frames.append((time.monotonic(), grabber.digest(win.rect)))
            time.sleep(0.005)   # sampling interval
    t = threading.Thread(target=sample)
    t.start()
    t0 = time.monotonic()
    res = run("--id", "probe", "--label", "Probe", "--position", "bottom-left", "--hide-after", "600", "--animation", "none",
              *LINGER)
    second = time.monotonic() - t0
    assert res.returncode == 0, res.stderr
    wait_until(lambda: newest in listed(x), 120)
    steady = wait_steady(lambda: len(x.visible_hud_windows()), 60, 0.5)
    stop.set()
    t.join()
    grabber.close()
    return {"first": first, "second": second, "still": longest_still(frames), "restored": steady,
            "listed": listed(x)}


def crash_loop(x, rounds: int, keys: int = 6, seed: int = 1) -> dict:
    """Named HUDs shown, updated and hidden by a writer while the server is killed (SIGKILL)
    again and again at random moments; then one last kill and a server that takes over. Every
    HUD it shows must be one whose last state written was shown, and every HUD whose last
    acknowledged request showed it (with nothing unacknowledged after) must be back."""
    rng = random.Random(seed)
    history: dict[str, list[list]] = {f"k{i}": [] for i in range(keys)}   # [state, acknowledged]
    kills = 0
    for _ in range(rounds):
        stop = threading.Event()

        def write():
            while not stop.is_set():
                key = f"k{rng.randrange(keys)}"
                hide = rng.random() < 0.25
                op = ["show", True] if not hide else ["hidden", False]
                entry = [op[0], False]
                history[key].append(entry)
                args = ["hide", "--id", key] if hide else [
                    "--id", key, "--mode", "bar", "--progress", f"{rng.random():.2f}", "--position", "top",
                    "--hide-after", "120", "--animation", "none", *LINGER]
                try:
                    res = subprocess.run([str(XHUD_BIN), *args], env=x.env, capture_output=True, timeout=20,
                                         stdin=subprocess.DEVNULL)
                    entry[1] = res.returncode == 0
                except subprocess.TimeoutExpired:
                    pass
        t = threading.Thread(target=write)
        t.start()
        time.sleep(rng.uniform(0.2, 0.8))   # the kill's random moment
        for pid in servers(x):
            os.kill(pid, signal.SIGKILL)
            kills += 1
        stop.set()
        t.join()
    kill_servers(x)
    # A server takes over (started by a request of a key the writer never used).
    res = named(x, "--id", "probe", "--label", "Probe", "--position", "bottom", "--hide-after", "120", *LINGER)
    assert res.returncode == 0, res.stderr
    wait_steady(lambda: len(x.visible_hud_windows()), 30, 0.5)
    shown_now = listed(x) - {"probe"}
    wrong = []
    for key, ops in history.items():
        acked = [i for i, (_, ok) in enumerate(ops) if ok]
        last = acked[-1] if acked else -1
        allowed = {ops[last][0] if last >= 0 else "hidden"} | {state for state, _ in ops[last + 1:]}
        state = "show" if key in shown_now else "hidden"
        if state not in allowed:
            wrong.append(f"{key}: {state}, allowed {sorted(allowed)} (ops {ops[-4:]})")
    return {"kills": kills, "requests": sum(len(o) for o in history.values()), "wrong": wrong,
            "shown": sorted(shown_now)}


# ---------------------------------------------------------------------------------------------
# Tests


@pytest.mark.parametrize("kind", ["4 MB", "3000 records"])
def test_a_replacement_server_answers_at_once_and_no_hud_stands_still(nx, kind):
    """A journal of 4 MB (40 HUDs of 16 large records each) or of 3 000 records (200 HUDs)
    took a replacement server seconds to replay, on its loop: every HUD stood still and every
    client waited. Read on a thread and replayed between frames, the newest first: the
    requests are answered at once and a witness spinner never stands still for long."""
    loop_witness(nx)
    data, newest = large_journal(kind)
    plant(nx, data)
    r = recovery(nx, newest)
    print(f"\n{kind} ({len(data) / 1e6:.1f} MB): first request {r['first'] * 1000:.0f} ms, the next "
          f"{r['second'] * 1000:.0f} ms, witness still at most {r['still'] * 1000:.0f} ms, "
          f"{r['restored']} HUDs shown, {len(r['listed'])} listed")
    assert r["second"] < 0.5, f"a request waited {r['second']:.2f} s for the replay"
    assert r["still"] < 0.3, f"the witness stood still for {r['still']:.2f} s"
    assert newest in r["listed"], f"the newest HUD did not come back: {sorted(r['listed'])}"
    assert len(r["listed"]) >= 12, sorted(r["listed"])


def test_a_hud_of_a_day_comes_back_with_its_day(nx):
    """`--hide-after` over an hour never came back (its deadline was on a monotonic clock, and
    refused past an hour): a day-long HUD is back after a crash, with most of its day left."""
    res = named(nx, "--id", "day", "--label", "A day", "--hide-after", "86400", *LINGER)
    assert res.returncode == 0, res.stderr
    [(kind, key, deadline)] = records(journal_path(nx).read_bytes())
    assert (kind, key) == ("shown", "day")
    assert 86_000 < deadline - time.time() <= 86_400
    kill_servers(nx)
    assert named(nx, "--id", "other", "--hide-after", "30", *LINGER).returncode == 0
    assert wait_until(lambda: "day" in listed(nx), 10), "the day-long HUD did not come back"
    assert wait_until(lambda: len(nx.visible_hud_windows()) == 2, 5)


def test_an_update_appends_a_record_and_never_rewrites_the_file(nx, tmp_path):
    """Each update rewrote the whole journal (38 MB a write at 4 MB): it appends one record to
    the same file, whose size is bounded by compaction; figures printed."""
    deep = tmp_path
    while len(str(deep)) < 3800:
        deep = deep / ("d" * 200)
    deep.mkdir(parents=True)
    path = journal_path(nx)
    took = storm(nx, huds=8, updates=2, cwd=str(deep))
    inodes, sizes = [], []
    for u in range(30):
        took += storm(nx, huds=1, updates=1, cwd=str(deep))
        st = path.stat()
        inodes.append(st.st_ino)
        sizes.append(st.st_size)
    grew = sum(1 for a, b in zip(sizes, sizes[1:]) if b > a)
    same = sum(1 for a, b in zip(inodes, inodes[1:]) if a == b)
    print(f"\nupdates: median {sorted(took)[len(took) // 2] * 1000:.1f} ms, journal {sizes[-1] / 1000:.0f} kB")
    assert same >= 25, f"the file was replaced {29 - same} times in 29 updates"
    assert grew >= 25
    assert sizes[-1] < 4 * 24 * 4100, "the log was not compacted"


def test_a_journal_that_cannot_be_written_is_said_once_and_brings_back_nothing_hidden(nx, tmp_path):
    """On a full disk the journal silently stopped changing: a HUD the user hid came back after
    a crash. A write that fails (here past a file size limit) is said once on the server's
    stderr, the stale file is removed, and the hidden HUD stays hidden."""
    deep = tmp_path
    while len(str(deep)) < 3800:   # requests sent from here are 4 kB records
        deep = deep / ("d" * 200)
    deep.mkdir(parents=True)
    (nx.rt / "xhud").mkdir(mode=0o700, exist_ok=True)
    server = subprocess.Popen(["prlimit", "--fsize=6000", str(XHUD_BIN), "server"], env=nx.env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: sock_path(nx).exists() and servers(nx), 10), "the server did not start"
        assert named(nx, "--id", "a", "--label", "Hidden later", "--position", "top", "--hide-after", "60").returncode == 0
        assert [k for _, k, _ in records(journal_path(nx).read_bytes())] == ["a"]
        for i in range(3):   # past the limit from the second on
            res = subprocess.run([str(XHUD_BIN), "--id", f"b{i}", "--mode", "bar", "--position", "bottom",
                                  "--hide-after", "60"], env=nx.env, cwd=str(deep), capture_output=True, text=True,
                                 timeout=10, stdin=subprocess.DEVNULL)
            assert res.returncode == 0, res.stderr
        assert not journal_path(nx).exists(), "the journal that no longer says what shows was left"
        assert named(nx, "hide", "--id", "a").returncode == 0
        assert named(nx, "list").returncode == 0
        kill_servers(nx)
        err = server.communicate(timeout=5)[1]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert err.count("cannot be written") == 1, err
    assert named(nx, "--id", "probe", "--hide-after", "30", *LINGER).returncode == 0
    time.sleep(0.5)   # what would come back shows meanwhile: time passing is what is tested
    assert "a" not in listed(nx), "a HUD hidden after the journal failed came back"


def test_a_torn_record_is_dropped_and_the_rest_restored(nx):
    """A crash in the middle of a write leaves a record cut short: it is dropped on reading,
    the records before it restored."""
    now = time.time()
    data = shown("a", ["--id", "a", "--label", "A", "--position", "top"], now + 60, 60) + \
        shown("b", ["--id", "b", "--label", "B", "--position", "bottom"], now + 60, 60)
    torn = shown("c", ["--id", "c", "--label", "C"], now + 60, 60)
    plant(nx, data + torn[:len(torn) - 7])
    assert named(nx, "--id", "probe", "--hide-after", "30", *LINGER).returncode == 0
    assert wait_until(lambda: listed(nx) == {"a", "b", "probe"}, 10), listed(nx)
    assert wait_until(lambda: {k for _, k, _ in records(journal_path(nx).read_bytes())} == {"a", "b", "probe"}, 5)


def test_a_server_killed_again_and_again_during_updates_restores_what_was_written(nx):
    """SIGKILL at random moments while HUDs are shown, updated and hidden, eight times: the
    server that takes over shows exactly the HUDs whose last written state was shown."""
    r = crash_loop(nx, rounds=int(os.environ.get("XHUD_CRASH_ROUNDS", "8")))
    print(f"\ncrash loop: {r['kills']} kills, {r['requests']} requests, restored {r['shown']}")
    assert r["kills"] >= 4
    assert not r["wrong"], "\n".join(r["wrong"])


@pytest.mark.parametrize("verb", ["hide", "pop"])
def test_a_hide_with_no_server_left_is_heard_by_the_next_one(nx, verb):
    """The server dies under a named HUD; `xhud hide --id K` (or `pop`) finds no server. Without
    one nothing shows, but the dead server's journal still has K: the client starts a server,
    which takes over and hears the hide, so K never comes back."""
    push = ["push"] if verb == "pop" else []
    res = named(nx, *push, "--id", "gone", "--mode", "text", "--label", "Gone", "--hide-after", "120", *LINGER)
    assert res.returncode == 0, res.stderr
    assert wait_until(lambda: "gone" in listed(nx), 5)
    kill_servers(nx)
    res = named(nx, verb, "--id", "gone")
    assert res.returncode == 0, res.stderr
    # Whatever server serves next: K is not among what it shows.
    res = named(nx, "--id", "probe", "--label", "Probe", "--hide-after", "120", *LINGER)
    assert res.returncode == 0, res.stderr
    assert wait_until(lambda: "probe" in listed(nx), 5)
    # `list` names what the replay is still to show too: nothing to wait for.
    assert "gone" not in listed(nx), "a HUD hidden while no server ran came back"
    wait_steady(lambda: len(nx.visible_hud_windows()), 5, 0.3)
    assert not any("Gone" in nx.xprop(w.id, "_NET_WM_NAME") for w in nx.visible_hud_windows())
