"""README.md's benchmark table is what bench/readme-table writes from the committed figures of the
last full run (bench/results/last-full.json), and a full run's latest.json is recorded into them
as bench/check.py reads it. No X server: files and the script only."""

import json
import shutil
import statistics
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "bench" / "readme-table"
BEGIN = "<!-- bench:begin"
END = "<!-- bench:end -->"


def readme_table(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=60)


def block_of(text):
    start, end = text.index(BEGIN), text.index(END)
    return text[start:end + len(END)]


def test_the_readme_table_is_written_from_the_committed_figures():
    printed = readme_table("--print")
    assert printed.returncode == 0, printed.stderr
    readme = (REPO / "README.md").read_text()
    assert block_of(readme) == printed.stdout.rstrip("\n"), "README.md's table was edited by hand or the JSON " \
        "changed: run bench/readme-table"
    # The rows are the recorded figures: the named update's, and the run's commit above them.
    last = json.loads((REPO / "bench" / "results" / "last-full.json").read_text())
    named = next(f for f in last["figures"] if f["metric"] == "warm_ms:xhud-id")
    assert f"| named update, exec to the new value on screen | {named['value']:.2f} ms |" in printed.stdout
    assert f" at {last['run']['commit']}, " in printed.stdout
    assert len(readme.splitlines()) <= 400, "README.md is over 400 lines"


def test_check_fails_on_a_table_changed_by_hand(tmp_path):
    readme = tmp_path / "README.md"
    text = (REPO / "README.md").read_text()
    readme.write_text(text)
    assert readme_table("--check", "--readme", str(readme)).returncode == 0
    block = block_of(text)
    readme.write_text(text.replace(block, block.replace("| xhud | target |", "| xhud (by hand) | target |")))
    res = readme_table("--check", "--readme", str(readme))
    assert res.returncode == 1 and "run bench/readme-table" in res.stderr, res


def test_a_full_run_is_recorded_and_written_into_the_readme(tmp_path):
    """--record takes a run's latest.json (the shape bench/suite.py writes) to last-full.json, with
    each threshold's figure as bench/check.py reads it, and rewrites the README's table."""
    warm, cold, floor = [4.0, 5.0, 6.0], [10.0, 12.0, 30.0], [19.0, 20.0, 21.0]
    results = {
        "machine": {"date": "2030-01-02 03:04 UTC", "cpu": "Test CPU", "cores": 4, "debian": "12.99"},
        "meta": {"runs": 3, "xhud_note": "release build, --static-swift-stdlib, abc1234 + uncommitted changes"},
        "startup": {"no compositor": {"floor": {"times": floor}, "xhud-warm": {"times": warm},
                                      "xhud-cold": {"times": cold}}},
        "warm": {"no compositor": {"xhud-id": {"first": [2.0, 3.5, 9.0]}}},
        "steady": {"no compositor": {"xhud-spin": {"rss": [6.5, 6.0, 7.0], "cpu": [0.1], "xcpu": [0.2]}}},
    }
    latest = tmp_path / "latest.json"
    latest.write_text(json.dumps(results))
    readme = tmp_path / "README.md"
    shutil.copy(REPO / "README.md", readme)
    out = tmp_path / "last-full.json"
    res = readme_table("--record", str(latest), "--json", str(out), "--readme", str(readme))
    assert res.returncode == 0, res.stderr
    last = json.loads(out.read_text())
    assert last["run"]["commit"] == "abc1234" and last["run"]["runs"] == 3
    figures = {f["metric"]: f for f in last["figures"]}
    thresholds = json.loads((REPO / "bench" / "thresholds.json").read_text())["thresholds"]
    assert [f["metric"] for f in last["figures"]] == [t["metric"] for t in thresholds]
    w = figures["startup_ratio:xhud-warm"]
    assert (w["ms"], w["floor_ms"]) == (5.0, 20.0)
    assert w["value"] == round(statistics.median(warm) / statistics.median(floor), 3)
    assert figures["warm_ms:xhud-id"]["value"] == 3.5
    assert figures["steady_cpu_with_x:xhud-spin"]["value"] == 0.3
    assert figures["clients_max_ms"]["value"] is None, "not measured in this run"
    table = block_of(readme.read_text())
    assert "2030-01-02 at abc1234, 3 runs" in table
    assert "| first frame, server running (warm) | 5.0 ms, 0.25x the C floor's 20.0 ms | ≤ 1.0x the floor: met |" in table
    assert "| first frame, no server (cold) | 12.0 ms, 0.60x the C floor's 20.0 ms | ≤ 1.0x the floor: met |" in table
    assert "| server RSS with one HUD | 6.50 MiB | ≤ 12.0 MiB: met |" in table
    assert "| a value on stdin (FIFO) until it is on screen | not measured | ≤ 4.0 ms |" in table
    # Only the block changed.
    original = (REPO / "README.md").read_text()
    assert readme.read_text().replace(table, "") == original.replace(block_of(original), "")
