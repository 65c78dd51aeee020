"""The remote-display benchmark's report in markdown: first paint per round trip, compositor and
client against the C floor and the targets, and the round trips each client waited on."""

from __future__ import annotations

import statistics
import time


def fmt(v, nd=1):
    return "–" if v is None else f"{v:.{nd}f}"


def report(results, a) -> str:
    lines = [f"# A remote display: first paint through a latency proxy, {time.strftime('%Y-%m-%d %H:%M')}", "",
             "Exec to the first changed pixels on the real display (firstframe), the client and xhud's HUD server "
             "reaching Xvfb through a proxy that holds each byte RTT/2 in each direction; min / median / max of "
             f"{a.runs} alternating runs. *Waits*: the round trips a client waited on before its first paint "
             "(median over the runs). xcompmgr, where on, runs on the real display.", ""]
    lines += ["| RTT | compositor | client | min ms | median ms | max ms | / floor | waits | target |",
              "|---:|---|---|---:|---:|---:|---:|---:|---|"]
    for rtt, comp, key, r in results:
        t = sorted(r["times"])
        floor = next((x for x in results if x[0] == rtt and x[1] == comp and x[2] == "floor"), None)
        fmed = statistics.median(floor[3]["times"]) if floor and floor[3]["times"] else None
        med = statistics.median(t) if t else None
        ratio = f"{med / fmed:.2f}" if med and fmed else "–"
        target = ""
        if key.startswith("xhud-warm") and med:
            target = f"≤ RTT + 5 = {rtt + 5:g} ms: " + ("met" if med <= rtt + 5 else "missed")
        elif key.startswith("xhud-cold") and med and fmed:
            target = "≤ 1.0× floor: " + ("met" if med <= fmed else "missed")
        waits = f"{statistics.median(r['counts']):g}" if r["counts"] else "–"
        if not t:
            lines.append(f"| {rtt:g} | {'xcompmgr' if comp else 'none'} | {r['label']} | – | – | – | – | – | "
                         f"failed: {r['error'][:80]} |")
            continue
        lines.append(f"| {rtt:g} | {'xcompmgr' if comp else 'none'} | {r['label']} | {t[0]:.1f} | {med:.1f} | "
                     f"{t[-1]:.1f} | {ratio} | {waits} | {target} |")
    lines += ["", "## Round trips waited on before the first paint (the last run)", "",
              "| RTT | path | compositor | round trips | what each waited for (connection: reply or event) |",
              "|---:|---|---|---:|---|"]
    for rtt, comp, key, r in results:
        if not r["times"]:
            continue
        what = "; ".join(f"{i + 1}. [{c}] {w}" for i, (c, _, w) in enumerate(r["waits"])) or "none"
        lines.append(f"| {rtt:g} | {key} | {'xcompmgr' if comp else 'none'} | {len(r['waits'])} | {what} |")
    return "\n".join(lines) + "\n"
