#!/usr/bin/env python3
"""Checks a benchmark run (bench/run's results.json) against the committed targets
(bench/thresholds.json) and prints one table: figure, value, target, met or missed.

    bench/check.py RESULTS.json [--thresholds FILE] [--strict]

--strict exits 1 when a figure misses its target (a figure the run did not measure is neither).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path


def median(values):
    values = [v for v in values or [] if v is not None]
    return statistics.median(values) if values else None


def ratio_parts(results: dict, name: str):
    """The two medians (ms) of a ratio metric (`startup_ratio`, `busy_ratio`): xhud's and the C
    floor's in the same run, without a compositor; None for another metric. Either may be None."""
    kind, _, subject = name.partition(":")
    if kind == "startup_ratio":
        rows = (results.get("startup") or {}).get("no compositor") or {}
    elif kind == "busy_ratio":
        # Under a busy loop on each core: over the floor's median under the same load.
        rows = ((results.get("busy") or {}).get("no compositor") or {}).get("rows") or {}
    else:
        return None
    return median((rows.get(subject) or {}).get("times")), median((rows.get("floor") or {}).get("times"))


def metric(results: dict, name: str):
    """The value of a metric of `thresholds.json` in a run's results (no compositor); None when the
    run did not measure it."""
    kind, _, subject = name.partition(":")
    plain = lambda section: (results.get(section) or {}).get("no compositor") or {}
    parts = ratio_parts(results, name)
    if parts is not None:
        x, floor = parts
        return x / floor if x is not None and floor else None
    if kind == "warm_ms":
        return median((plain("warm").get(subject) or {}).get("first"))
    if kind.startswith("steady"):
        row = plain("steady").get(subject) or {}
        field = {"steady_rss": "rss", "steady_client_rss": "client_rss", "steady_cpu": "cpu", "steady_wake": "wake"}.get(kind)
        if kind == "steady_cpu_with_x":
            cpu, xcpu = median(row.get("cpu")), median(row.get("xcpu"))
            return cpu + xcpu if cpu is not None and xcpu is not None else None
        return median(row.get(field))
    if kind == "clients_max_ms":
        rounds = plain("clients").get("rounds") or []
        lat = [v for r in rounds for v in r.get("lat") or []]
        return max(lat) if lat else None
    if kind == "clients_overlaps":
        rounds = plain("clients").get("rounds") or []
        return max((len(r.get("overlaps") or []) for r in rounds), default=None)
    if kind == "throughput_growth":
        t = plain("throughput")
        # From the end of the first round (the flood's code resident) to the end of the last: the
        # start-up's peak (VmHWM) and pages given back and faulted in again are no growth.
        before = t.get("rss_warm") if t.get("rss_warm") is not None else t.get("rss_before")
        after = t.get("rss_after")
        return after - before if before is not None and after is not None else None
    raise SystemExit(f"bench/check.py: unknown metric '{name}' in the thresholds")


def check(results: dict, thresholds: dict) -> tuple[list[str], int]:
    lines = ["| figure | value | target | |", "|---|---:|---:|---|"]
    missed = 0
    for t in thresholds["thresholds"]:
        value = metric(results, t["metric"])
        if value is None:
            lines.append(f"| {t['figure']} | not measured | ≤ {t['max']} | |")
            continue
        ok = value <= t["max"] + 1e-9
        missed += not ok
        lines.append(f"| {t['figure']} | {value:.2f} | ≤ {t['max']} | {'met' if ok else '**missed**'} |")
    return lines, missed


def main() -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", type=Path)
    ap.add_argument("--thresholds", type=Path, default=here / "thresholds.json")
    ap.add_argument("--strict", action="store_true")
    a = ap.parse_args()
    lines, missed = check(json.loads(a.results.read_text()), json.loads(a.thresholds.read_text()))
    print("\n".join(lines))
    return 1 if a.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
