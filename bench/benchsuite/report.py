"""The report: the summary of targets, latest.md and latest.json, the start-up chart."""

from __future__ import annotations

import datetime
import json
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path

from benchsuite.common import SCREEN_H, SCREEN_W, T_CLIENTS, T_CLIENT_MAP_MS, T_CLIENT_RSS_MIB, T_COLD_AHEAD, T_COLD_BUSY, T_COLD_FLOOR, T_COLD_NEW_FLOOR, T_GROWTH_MIB, T_KEEPUP_MS, T_PER_HUD_MIB, T_RENDER_MS, T_SERVER_RSS_MIB, T_SPIN_CPU, T_STATIC_CPU, T_STATIC_WAKE, T_WARM_FLOOR, T_WARM_XOB_MS, f1, mark, md_table, mmm
from benchsuite.core import Suite
from benchsuite.report_sections import clients_figures, clients_section, refresh_floor, render_section, steady_section, throughput_section, warm_section
from benchsuite.report_startup import busy_figures, busy_section, startup_refs, startup_section


def machine_info() -> dict:
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    debian = Path("/etc/debian_version").read_text().strip() if Path("/etc/debian_version").exists() else "?"
    versions = {}
    for pkg in ("xvfb", "xcompmgr", "xosd-bin", "aosd-cat", "zenity", "yad", "dunst", "libnotify-bin", "xob"):
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip():
            versions[pkg] = r.stdout.strip()
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "arch": platform.machine(), "cpu": cpu, "cores": os.cpu_count(), "kernel": platform.release(),
            "debian": debian, "versions": versions}


def summary_section(s: Suite) -> list[str]:
    """One line per target, from the run without a compositor (and with, where it differs)."""
    rows = []
    for setting in s.results.get("settings", []):
        st = s.results["startup"].get(setting, {})
        fl = st.get("floor", {}).get("times")
        refs = {name: (key, m) for name, key, m in startup_refs(st)}
        if fl:
            f = mmm(fl)[1]
            for name, limit in (("warm", T_WARM_FLOOR), ("cold", T_COLD_FLOOR)):
                if name in refs:
                    x = refs[name][1]
                    what = "the server running" if name == "warm" else "no server running"
                    rows.append([f"{name} first paint ({what}) ≤ {limit:g}× floor ({setting})",
                                 f"{x:.1f} ms = {x / f:.2f}× {f:.1f} ms", mark(x / f <= limit)])
                    new = st.get("xhud-cold-new", {}).get("times")
                    if name == "cold" and new:
                        y = mmm(new)[1]
                        rows.append([f"cold first paint, no font match kept (the first start ever) ≤ {T_COLD_NEW_FLOOR:g}× floor ({setting})",
                                     f"{y:.1f} ms = {y / f:.2f}× {f:.1f} ms", mark(y / f <= T_COLD_NEW_FLOOR)])
                elif st.get(f"xhud-{name}") and "--id" not in st[f"xhud-{name}"].get("cmd", []):
                    rows.append([f"{name} first paint ≤ {limit:g}× floor ({setting})", st[f"xhud-{name}"]["status"],
                                 "n/a"])
            if "xhud" in refs:  # a report from before the server
                x = refs["xhud"][1]
                rows.append([f"start-up, own process ({setting})", f"{x:.1f} ms = {x / f:.2f}× {f:.1f} ms", "n/a"])
        bf = busy_figures((s.results.get("busy") or {}).get(setting))
        if bf:
            f, x = bf
            rows.append([f"cold first paint, a busy loop on each core ≤ {T_COLD_BUSY:g}× floor under the same load "
                         f"({setting})", f"{x:.1f} ms = {x / f:.2f}× {f:.1f} ms", mark(x / f <= T_COLD_BUSY)])
        if "cold" in refs:
            cold = refs["cold"][1]
            ahead = [(k, mmm(st[k]["times"])[1]) for k in T_COLD_AHEAD if st.get(k, {}).get("times")]
            rows.append([f"cold first paint ahead of {' and '.join(T_COLD_AHEAD)} ({setting})",
                         f"{cold:.1f} ms vs " + (", ".join(f"{k} {m:.1f} ms" for k, m in ahead) or "neither measured"),
                         mark(all(cold < m for _, m in ahead) if ahead else None)])
        if refs:
            name, (_, x) = next(iter(refs.items()))
            others = [(e["label"], mmm(e["times"])[1]) for k, e in st.items()
                      if not k.startswith("xhud") and k != "floor" and e.get("times")]
            behind = [lab for lab, m in others if m <= x]
            if others:
                rows.append([f"start-up ({name}) ahead of the alternatives ({setting})",
                             "behind: " + ", ".join(behind) if behind else f"ahead of all {len(others)} measured",
                             mark(not behind)])
        w = s.results["warm"].get(setting, {})
        for key, what in (("xhud-id", "xhud --id"), ("xhud-fifo", "xhud fed by a FIFO")):
            e = w.get(key)
            if e and e.get("final"):
                xob = w.get("xob", {}).get("final")
                ref = mmm(xob)[1] if xob else T_WARM_XOB_MS
                med, first = mmm(e["final"])[1], mmm(e["first"])[1]
                rows.append([f"warm update ≤ xob: {what} ({setting})",
                             f"new value {med:.1f} ms (first change {first:.1f} ms) vs {ref:.1f} ms"
                             + ("" if xob else " (xob's figure from the performance notes)"), mark(med <= ref)])
            elif e and key == "xhud-id":
                rows.append([f"warm update ≤ xob: {what} ({setting})", e["status"], "n/a"])
        sd = s.results["steady"].get(setting, {})
        for key, lim, what in (("xhud-bar", T_STATIC_CPU, "static bar CPU 0.0 %"),
                               ("xhud-spin", T_SPIN_CPU, f"spinner ≤ {T_SPIN_CPU:g} % CPU, the server + the X server")):
            e = sd.get(key)
            if e and e.get("cpu"):
                c = mmm(e["cpu"])[1]
                if key == "xhud-bar":
                    rows.append([f"{what} ({setting})", f"{c:.2f} %", mark(c < lim)])
                else:
                    xc = mmm(e["xcpu"])[1] if e.get("xcpu") else None
                    total = c + (xc or 0)
                    vx = refresh_floor(sd)
                    beside = f" (the X server for a pixel presented each refresh: {vx:.2f} %)" if vx is not None else ""
                    rows.append([f"{what} ({setting})", (f"{c:.2f} + {xc:.2f} %" if xc is not None else f"{c:.2f} %") + beside,
                                 mark(total <= lim if xc is not None else None)])
        e = sd.get("xhud-bar")
        if e and e.get("wake"):
            wk = mmm(e["wake"])[1]
            rows.append([f"static bar ≤ {T_STATIC_WAKE:g} wake-up/s ({setting})", f"{wk:.1f}/s", mark(wk <= T_STATIC_WAKE)])
        # The target is the RSS of a server showing one HUD (what bench/check.py checks); its
        # start-up's peak, before it gives pages back, is beside it.
        e = sd.get("xhud-spin")
        if e and e.get("rss") and e.get("hwm"):
            rss, peak = mmm(e["rss"])[1], mmm(e["hwm"])[2]
            rows.append([f"server RSS with one HUD ≤ {T_SERVER_RSS_MIB:g} MiB, steady ({setting})",
                         f"{rss:.1f} MiB (peak {peak:.1f})", mark(rss <= T_SERVER_RSS_MIB)])
        cpeaks = [mmm(e["client_hwm"])[2] for k, e in sd.items() if e.get("client_hwm")]
        if cpeaks:
            rows.append([f"client peak RSS ≤ {T_CLIENT_RSS_MIB:g} MiB, steady ({setting})",
                         f"{max(cpeaks):.1f} MiB", mark(max(cpeaks) <= T_CLIENT_RSS_MIB)])
        t = s.results["throughput"].get(setting)
        if t and t.get("ups"):
            lags = [v for v in t["lag"] if v is not None]
            warm = s.results["warm"].get(setting, {}).get("xhud-id", {}).get("final")
            limit = (mmm(warm)[1] if warm else 0) + T_KEEPUP_MS
            growth = (t["rss_after"] - t["rss_before"]) if t["rss_after"] is not None and t["rss_before"] is not None else None
            ok = bool(lags) and len(lags) == len(t["lag"]) and max(lags) <= limit and (growth is None or growth < T_GROWTH_MIB)
            rows.append([f"named HUD keeps up with 4 loops, no growth ({setting})",
                         f"{mmm(t['ups'])[1]:.0f} updates/s, last value {f1(max(lags) if lags else None)} ms, "
                         f"RSS {f1(t['rss_before'])} -> {f1(t['rss_after'])} MiB", mark(ok)])
        ce = (s.results.get("clients") or {}).get(setting)
        cf = clients_figures(ce) if ce and ce["status"] == "ok" else None
        if cf:
            n = cf["n"]
            stacked = cf["visible"] == n and cf["on_screen"] == n and cf["overlaps"] == 0 and cf["mapped"] == n
            rows.append([f"{n} HUDs from {n} clients: all visible, stacked ({setting})",
                         f"{cf['mapped']} mapped, {cf['visible']} viewable, {cf['on_screen']} inside the screen, "
                         f"{cf['overlaps']} overlapping pairs", mark(stacked)])
            if cf["lat"]:
                rows.append([f"{n} HUDs: each mapped ≤ {T_CLIENT_MAP_MS:g} ms after its client's spawn ({setting})",
                             f"median {cf['lat'][1]:.1f} ms, max {cf['lat'][2]:.1f} ms ({cf['count']} clients)",
                             mark(cf["lat"][2] <= T_CLIENT_MAP_MS and cf["count"] == n * cf["rounds"])])
            if cf["rss1"]:
                # At its first HUD's map: the start-up's pages, given back within a second (the
                # target is the steady figure above).
                rows.append([f"server RSS at its first HUD's map ({setting})", f"{cf['rss1'][1]:.1f} MiB", ""])
            if cf["per"]:
                rows.append([f"each further HUD ≤ {T_PER_HUD_MIB:g} MiB ({setting})",
                             f"{cf['per'][1]:.2f} MiB ({cf['rss1'][1]:.1f} -> {cf['rss_n'][1]:.1f} MiB for {n})",
                             mark(cf["per"][1] <= T_PER_HUD_MIB)])
            if cf["client"]:
                rows.append([f"a client ≤ {T_CLIENT_RSS_MIB:g} MiB ({setting})", f"max {cf['client']:.1f} MiB",
                             mark(cf["client"] <= T_CLIENT_RSS_MIB)])
            rows.append([f"{n} clients exit 0 on SIGTERM, their HUDs hidden ({setting})",
                         f"{cf['exit0']} of {cf['exits']} exit 0" + (f" (others: {', '.join(cf['bad_exits'])})"
                                                                     if cf["bad_exits"] else "")
                         + ("; the screen shows the background again" if cf["hidden"]
                            else "; HUDs still on screen 5 s later"),
                         mark(cf["exits"] > 0 and cf["exit0"] == cf["exits"] and cf["hidden"])])
        elif ce:
            rows.append([f"{T_CLIENTS} HUDs from {T_CLIENTS} clients ({setting})", ce["status"], "n/a"])
    r = s.results.get("render")
    if r and r["rows"]:
        worst = max((row["median"], row["mode"]) for row in r["rows"] if row["scale"] == 1)
        rows.append([f"render ≤ {T_RENDER_MS} ms/frame at scale 1", f"worst median {worst[0]:.3f} ms ({worst[1]})",
                     mark(worst[0] <= T_RENDER_MS)])
    if not rows:
        return []
    return ["## Targets", "", md_table(["target", "figure", "met?"], rows, ["---", "---", "---"]), ""]


def write_report(s: Suite, out_dir: Path) -> None:
    from benchsuite.wayland import wayland_section
    info = s.results.get("machine") or machine_info()
    s.results["machine"] = info
    s.results["meta"] = {"runs": s.runs, "steady_runs": s.steady_runs, "window": s.window, "settle": s.settle,
                         "quick": s.quick, "xhud": s.xhud, "xhud_note": s.args.xhud_note, "notes": s.notes}
    lines = ["# xhud benchmarks", "",
             f"{info['date']}; `uname -m` {info['arch']}; {info['cpu']}; {info['cores']} cores; Linux "
             f"{info['kernel']}; Debian {info['debian']}.", "",
             f"xhud: `{s.xhud}` ({s.args.xhud_note}). Xvfb {SCREEN_W}x{SCREEN_H}x24, each setting on its own "
             f"server, without and with xcompmgr. {s.runs} runs per start-up and warm-update figure"
             f"{' (--quick: figures are not meaningful)' if s.quick else ''}. Ratios within this run hold; "
             "absolute times drift between runs.", ""]
    if info["versions"]:
        lines += ["Versions: " + ", ".join(f"{k} {v}" for k, v in info["versions"].items()) + ".", ""]
    lines += summary_section(s) + startup_section(s) + busy_section(s) + warm_section(s) + steady_section(s) \
        + render_section(s) + throughput_section(s) + clients_section(s) + wayland_section(s)
    if s.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in s.notes] + [""]
    lines += ["![start-up](startup.png)", ""]
    (out_dir / "latest.md").write_text("\n".join(lines))
    (out_dir / "latest.json").write_text(json.dumps(s.results, indent=1, default=str))


PLOT_LABELS = {"xhud-warm": "xhud, warm (server running)", "xhud-cold": "xhud, cold (starts the server)",
               "xhud-cold-new": "xhud, cold, no font match kept"}


def write_plot(s: Suite, out_dir: Path) -> str | None:
    """A horizontal bar chart of the start-up medians with min-max whiskers, per client and setting.
    Returns why there is none, or None."""
    st = s.results["startup"]
    settings = [k for k in s.results.get("settings", []) if k in st]
    if not settings:
        return "no start-up figures"
    keys = []
    for setting in settings:
        for k, e in st[setting].items():
            if e.get("times") and k not in keys:
                keys.append(k)
    if not keys:
        return "no start-up figures"
    # slowest at the top
    keys.sort(key=lambda k: -next((mmm(st[s_][k]["times"])[1] for s_ in settings if st[s_].get(k, {}).get("times")), 0))
    def label_of(k):
        e = next(st[s_][k] for s_ in settings if k in st[s_])
        if k in PLOT_LABELS and "--id" not in e.get("cmd", []):
            return PLOT_LABELS[k]
        return re.sub(r'[*`"]', "", e["label"])

    dat = s.work / "startup.dat"
    width = 0.8 / len(settings)
    with open(dat, "w") as f:
        for si, setting in enumerate(settings):
            f.write(f"# {setting}\n")
            for i, k in enumerate(keys):
                e = st[setting].get(k, {})
                if not e.get("times"):
                    continue
                mn, med, mx = mmm(e["times"])
                y = len(keys) - 1 - i + 0.4 - width * (si + 0.5)
                colour = (0x1a3d8f, 0xa04c00)[si % 2] if k.startswith("xhud") else (0x6f95e0, 0xf0a04b)[si % 2]
                f.write(f"{y:.3f} {med:.3f} {mn:.3f} {mx:.3f} {y - width * 0.45:.3f} {y + width * 0.45:.3f} "
                        f"{colour}\n")
            f.write("\n\n")
    tics = ", ".join(f'"{label_of(k)}" {len(keys) - 1 - i}' for i, k in enumerate(keys))
    xmax = max(mmm(st[s_][k]["times"])[2] for s_ in settings for k in keys if st[s_].get(k, {}).get("times"))
    plots = []
    for si, setting in enumerate(settings):
        plots.append(f"'{dat}' index {si} using (0):1:(0):2:5:6:7 with boxxyerror fill solid 1 noborder "
                     "lc rgb variable notitle")
        plots.append(f"keyentry with boxes fill solid 1 noborder lc rgb '{('#6f95e0', '#f0a04b')[si % 2]}' "
                     f"title '{setting}: median (xhud darker)'")
        plots.append(f"'' index {si} using 2:1:3:4 with xerrorbars pt -1 lw 1.2 lc rgb '#222222' "
                     + ("title 'min-max'" if si == 0 else "notitle"))
        plots.append(f"'' index {si} using 4:1:(sprintf('%.1f', $2)) with labels left offset 0.6,0 "
                     "font ',9' notitle")
    h = 170 + 30 * len(keys) * len(settings)
    title = (f"xhud: start to first painted frame, ms ({s.runs} runs per client; "
             f"{s.results['machine']['date']}; {s.results['machine']['cpu']}, {s.results['machine']['cores']} cores)")
    gp = s.work / "startup.gp"
    gp.write_text(f"""set terminal pngcairo size 1000,{h} font 'DejaVu Sans,10' noenhanced
set output '{out_dir / "startup.png"}'
set title "{title}"
set xlabel 'milliseconds from exec to the first painted pixels (bars: median; whiskers: min to max; lower is better)'
set xrange [0:{xmax * 1.12:.1f}]
set yrange [-0.6:{len(keys) - 0.4}]
set ytics ({tics}) nomirror
set xtics nomirror
set grid xtics lc rgb '#dddddd'
set key inside right center box opaque
set errorbars small
plot {', '.join(plots)}
""")
    if not shutil.which("gnuplot"):
        return "gnuplot is not installed (apt-get install gnuplot-nox): no plot"
    r = subprocess.run(["gnuplot", str(gp)], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or not (out_dir / "startup.png").exists():
        return "gnuplot failed: " + r.stderr.strip()[:300]
    return None
