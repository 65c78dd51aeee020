#!/usr/bin/env python3
"""The benchmark suite behind bench/run: xhud next to what Linux users use today, in one run.

bench/run installs the alternatives, builds xhud and the C helpers, then calls this script, which
starts its own X servers (Xvfb, display numbers from --display-base up; one without and one with
xcompmgr), a private D-Bus session bus and dunst on each, measures, tears everything down (also on
Ctrl-C or SIGTERM) and writes OUT/latest.md, OUT/latest.json and OUT/startup.png.

Every HUD is drawn by the display's server (`xhud server`, or one that an `xhud` invocation starts
when none runs); `xhud` itself is a thin client that stays for its HUD's life. Each X session has
its own XDG_RUNTIME_DIR, so the server's socket is the suite's own.

xhud's executables are dropped from the page cache first (`read_as_installed`), so that their
pages are read back from the disk as an installed program's are, not mapped as the linker wrote
them; that changes the resident figures, not the times that follow the untimed first round.

Sections (each figure is min / median / max over repeated runs, clients interleaved round by
round so that drift spreads evenly):
  startup     exec to the first changed pixels where the client's window appears, watched from the
              fork on (firstframe --from-fork), with bench/pixwatch's figures beside for the floor
              and xhud cold (no server running: the invocation starts one) and warm (a server running)
  busy        the floor and xhud cold, taking turns, with a busy loop on each core all along
  warm        an update of a HUD that is already up, to the new value on screen (pixwatch)
  steady      CPU % of one core, wake-ups/s and peak RSS while up (/proc); for xhud, of the server
              drawing the one HUD, with the client's RSS beside
  render      xhud-render-bench's table (one frame per mode at scale 1 and 2)
  throughput  updates/s that a named HUD absorbs from 4 parallel loops of `xhud --id`
  clients     20 HUDs from 20 clients at once: spawn to map of each, stacking, the server's RSS
  wayland     xhud beside wob and mako on a headless sway: first pixel (bench/wlpoll, screencopy),
              CPU, wake-ups and peak RSS of the drawing process (benchsuite/wayland.py)
No figure ever fails the run: exit status 0 unless the suite itself could not run.

The sections live in bench/benchsuite/, a module each (startup, warm, steady, load, wayland) beside
the session (session), the processes (procs) and the report (report, report_startup,
report_sections), on the repository's harness/ (the X server, the headless sway, /proc) that the
integration tests share; this script parses the options and runs them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchsuite.common import Interrupted, _on_signal, log  # noqa: E402
from benchsuite.core import Suite  # noqa: E402
from benchsuite.report import write_plot, write_report  # noqa: E402
from benchsuite.session import watch_maps  # noqa: E402


def main() -> int:
    if sys.argv[1:2] == ["--watch-maps"]:
        return watch_maps()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--helpers", default="", help="directory with firstframe, pixwatch and floor")
    ap.add_argument("--xhud", default="")
    ap.add_argument("--xhud-note", default="", help="how it was built, for the report")
    ap.add_argument("--render-bench", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--work", default="", help="a scratch directory (default: a temporary one)")
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--steady-runs", type=int, default=0)
    ap.add_argument("--window", type=float, default=0)
    ap.add_argument("--compositor", choices=["both", "on", "off"], default="both")
    ap.add_argument("--only", default="", help="comma-separated sections: startup,busy,warm,steady,render,"
                    "throughput,clients,wayland")
    ap.add_argument("--display-base", type=int, default=200)
    ap.add_argument("--from-json", default="", help="no measuring: write the report and the plot again from a "
                    "latest.json (after a change of the report's layout)")
    args = ap.parse_args()
    if not args.work:
        import atexit
        import tempfile
        args.work = tempfile.mkdtemp(prefix="xhud-benchrun.")
        atexit.register(shutil.rmtree, args.work, True)
    if args.from_json:
        out_dir = Path(args.out)
        out_dir.mkdir(parents=True, exist_ok=True)
        Path(args.work).mkdir(parents=True, exist_ok=True)
        results = json.loads(Path(args.from_json).read_text())
        meta = results.get("meta", {})
        args.runs, args.quick = meta.get("runs", args.runs), meta.get("quick", False)
        args.xhud, args.xhud_note = meta.get("xhud", args.xhud), meta.get("xhud_note", "")
        suite = Suite(args)
        suite.results = results
        suite.steady_runs, suite.window = meta.get("steady_runs", 0), meta.get("window", 0)
        suite.settle = meta.get("settle", 0)
        suite.notes = [n for n in meta.get("notes", []) if "gnuplot" not in n]
        write_report(suite, out_dir)
        why = write_plot(suite, out_dir)
        if why:
            suite.notes.append(why)
            write_report(suite, out_dir)
        return 0
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _on_signal)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    suite = Suite(args)
    try:
        suite.run()
    except (KeyboardInterrupt, Interrupted) as ex:
        log(f"interrupted ({ex}): ending what the suite started")
        suite.procs.teardown()
        return 130
    finally:
        suite.procs.teardown()
    write_report(suite, out_dir)
    why = write_plot(suite, out_dir)
    if why:
        log(why)
        suite.notes.append(why)
        write_report(suite, out_dir)
    log(f"wrote {out_dir / 'latest.md'}" + ("" if why else f" and {out_dir / 'startup.png'}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
