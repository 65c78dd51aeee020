"""The report's other measuring sections: warm update, steady state, render, throughput, clients."""

from __future__ import annotations


from benchsuite.common import T_CLIENTS, T_CLIENT_MAP_MS, T_CLIENT_RSS_MIB, T_GROWTH_MIB, T_KEEPUP_MS, T_PER_HUD_MIB, T_RENDER_MS, T_SERVER_RSS_MIB, T_SPIN_CPU, T_STATIC_CPU, T_STATIC_WAKE, T_WARM_XOB_MS, f1, mark, md_table, mmm
from benchsuite.core import Suite


def warm_section(s: Suite) -> list[str]:
    out = ["## 2. Warm update", "",
           "A HUD is up showing 30 %; milliseconds from the start of the updating invocation (exec of the "
           "command, or the open+write of `echo 70 > fifo`) until the region that differs between the two "
           "values shows the new value exactly (*new value*, `pixwatch update --until`), and until its first "
           "pixel changes (*first change*). Updates go 30 -> 70 -> 30 ...; one warm-up pair not counted. "
           "*returned* is when the invocation exited.", ""]
    for setting, res in s.results["warm"].items():
        ref = None
        if res.get("xob", {}).get("final"):
            ref = ("xob", mmm(res["xob"]["final"])[1])
        rows = []
        xmeds = {k: mmm(e["final"])[1] for k, e in res.items() if k.startswith("xhud") and e.get("final")}
        best_x = min(xmeds.values()) if xmeds else None
        for key, e in res.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", ""])
                continue
            mn, med, mx = mmm(e["final"])
            first = mmm(e["first"])
            ret = mmm([v for v in e["returned"] if v >= 0])
            if key == "xhud-dbus":
                # The same OSD through D-Bus: measured against dunst doing the same, and beside --id.
                dunst = res.get("dunst", {}).get("final")
                target = "no slower than notify-send + dunst: " + mark(med <= mmm(dunst)[1] if dunst else None)
                vs = f"--id: {xmeds['xhud-id'] / med:.2f}" if "xhud-id" in xmeds else ""
            elif key.startswith("xhud"):
                limit = ref[1] if ref else T_WARM_XOB_MS
                what = "xob's median" if ref else f"xob's ~{T_WARM_XOB_MS:g} ms (performance notes; xob not installed)"
                target = f"≤ {what}: " + mark(med <= limit)
                vs = ""
            else:
                target = "xhud no slower: " + mark(best_x <= med if best_x is not None else None)
                vs = f"{best_x / med:.2f}" if best_x else ""
            rows.append([e["label"], str(len(e["final"])), f1(mn), f1(med), f1(mx),
                         f"{f1(first[0])} / {f1(first[1])} / {f1(first[2])}", f1(ret[1] if ret else None), vs,
                         target])
        out += [f"### {setting}", "",
                md_table(["client", "runs", "min ms", "median ms (new value)", "max ms",
                          "first change min / med / max", "returned ms", "best xhud / this", "target"], rows), ""]
    return out


def refresh_floor(res: dict) -> float | None:
    """The X server's CPU % while bench/vblank.c presents a pixel each refresh (its wake-up at
    each refresh, which any animation costs it), from one setting's steady results."""
    e = res.get("vblank") or {}
    return mmm(e["xcpu"])[1] if e.get("status") == "ok" and e.get("xcpu") else None


def steady_section(s: Suite) -> list[str]:
    out = ["## 3. Steady state", "",
           f"Each client started {s.steady_runs} time{'s' if s.steady_runs > 1 else ''}; after {s.settle:g} s to settle, a {s.window:g} s window: "
           "CPU % of one core (all threads, /proc/PID/task/*/schedstat), wake-ups/s (voluntary + "
           "nonvoluntary context switches of all threads), peak RSS (VmHWM at the end), and what the X "
           "server (and xcompmgr) spent meanwhile. Cells: median (min-max) over the runs.", "",
           "xhud's rows are the figures of the process that draws the HUD: the display's server. For the "
           "spinner and the bar, a fresh foreground `xhud server` (XHUD_STATS=1, its stderr in a log) "
           "serves that one HUD of a plain `xhud` client; *client peak RSS* is that client's (its CPU is "
           "~0 and not counted). frames/s: the HUD's frame count, which the server sends back to a client "
           "with XHUD_STATS=1 when its HUD ends (the client prints it), over the HUD's life (the client's "
           "spawn to its exit after SIGTERM). For `--id`, the server that the invocation started (no "
           "frames/s: that client returns at once). *a pixel presented each refresh*: bench/vblank.c, "
           "a 1x1 window given a new pixmap at each MSC with Present and nothing else; its Xvfb figure is "
           "what waking at every refresh costs the X server, which any animation at the refresh rate costs it.", ""]

    def cell(vals, nd=2):
        t = mmm(vals)
        if not t:
            return "-"
        return f"{t[1]:.{nd}f} ({t[0]:.{nd}f}-{t[2]:.{nd}f})" if len(vals) > 1 else f"{t[1]:.{nd}f}"

    for setting, res in s.results["steady"].items():
        rows = []
        for key, e in res.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", ""])
                continue
            cpu, wake, hwm = mmm(e["cpu"])[1], mmm(e["wake"])[1], mmm(e["hwm"])[2]
            chwm = mmm(e.get("client_hwm", []))
            targets = []
            if key in ("xhud-bar", "xhud-id"):
                targets.append(f"CPU 0.0 %: {mark(cpu < T_STATIC_CPU)}")
                targets.append(f"≤ {T_STATIC_WAKE:g} wake-up/s: {mark(wake <= T_STATIC_WAKE)}")
            if key == "xhud-spin":
                xc = mmm(e["xcpu"])[1] if e.get("xcpu") else None
                targets.append(f"with the X server ≤ {T_SPIN_CPU:g} %: {mark(cpu + xc <= T_SPIN_CPU if xc is not None else None)}")
                vx = refresh_floor(res)
                if xc is not None and vx is not None:
                    targets.append(f"the X server {xc - vx:+.2f} % beside a pixel presented each refresh")
            if key.startswith("xhud"):
                rss = mmm(e["rss"])[1]
                targets.append(f"server ≤ {T_SERVER_RSS_MIB:g} MiB (RSS, not the start's peak): {mark(rss <= T_SERVER_RSS_MIB)}")
            if chwm:
                targets.append(f"client ≤ {T_CLIENT_RSS_MIB:g} MiB: {mark(chwm[2] <= T_CLIENT_RSS_MIB)}")
            rows.append([e["label"], cell(e["cpu"]), cell(e["wake"], 1), cell(e["hwm"], 1),
                         cell(e["client_hwm"], 1) if e.get("client_hwm") else "",
                         cell(e["fps"], 1) if e["fps"] else "", cell(e["xcpu"]),
                         cell(e["cmcpu"]) if e["cmcpu"] else "", "; ".join(targets)])
        out += [f"### {setting}", "",
                md_table(["client", "CPU %", "wake-ups/s", "peak RSS MiB", "client peak RSS MiB", "frames/s",
                          "Xvfb CPU %", "xcompmgr CPU %", "target"], rows), ""]
    return out


def render_section(s: Suite) -> list[str]:
    r = s.results["render"]
    out = ["## 4. Render cost per frame", ""]
    if r is None:
        return []
    if r["status"] != "ok":
        return out + [f"xhud-render-bench: {r['status']}", ""]
    out += [f"`xhud-render-bench {r['frames']}`: one HUD frame per mode into a reused image surface, "
            f"{r['frames']} frames each (in-process, no X server).", ""]
    rows = []
    for row in r["rows"]:
        target = f"≤ {T_RENDER_MS} ms: {mark(row['median'] <= T_RENDER_MS)}" if row["scale"] == 1 else ""
        rows.append([row["mode"], str(row["scale"]), f"{row['min']:.3f}", f"{row['median']:.3f}", target])
    return out + [md_table(["mode", "scale", "min ms", "median ms", "target"], rows), ""]


def throughput_section(s: Suite) -> list[str]:
    out = ["## 5. Throughput of a named HUD", ""]
    any_e = next(iter(s.results["throughput"].values()), None)
    if any_e is None:
        return []
    out += [f"{any_e['workers']} parallel loops of `xhud --id bench --progress X` (X random in 0.10-0.90) for "
            f"{any_e['seconds']:g} s per round, then one `--progress 0.55`: *last value* is the ms from its start "
            "until the bar shows exactly 0.55 (a backlog would show here; compare the warm update of the idle "
            "HUD in section 2). RSS of the serving process before the first round, 1 s after it (what serving "
            "the flood needs is resident) and 1 s after the last; growth is from the first round's end to the last's.", ""]
    rows = []
    for setting, e in s.results["throughput"].items():
        if e["status"] != "ok":
            rows.append([setting, e["status"], "", "", "", "", ""])
            continue
        ups = mmm(e["ups"])
        lags = [v for v in e["lag"] if v is not None]
        lag = mmm(lags)
        base = e.get("rss_warm") if e.get("rss_warm") is not None else e["rss_before"]
        growth = (e["rss_after"] - base) if e["rss_after"] is not None and base is not None else None
        warm = s.results["warm"].get(setting, {}).get("xhud-id", {}).get("final")
        limit = (mmm(warm)[1] if warm else 0) + T_KEEPUP_MS
        keep = lag is not None and len(lags) == len(e["lag"]) and lag[2] <= limit
        target = f"keeps up (last value ≤ idle warm update + {T_KEEPUP_MS:g} ms = {limit:.0f} ms): {mark(keep)}"
        if growth is not None:
            target += f"; RSS growth < {T_GROWTH_MIB:g} MiB: {mark(growth < T_GROWTH_MIB)}"
        rows.append([setting, f"{ups[1]:.0f} ({ups[0]:.0f}-{ups[2]:.0f})", str(sum(e["failed"])),
                     f"{f1(lag[1])} ({f1(lag[0])}-{f1(lag[2])})" if lag else (e["error"] or "-"),
                     f"{f1(e['rss_before'])} -> {f1(e.get('rss_warm'))} -> {f1(e['rss_after'])}", f1(e["hwm_after"]), target])
    return out + [md_table(["setting", "updates/s median (min-max)", "failed invocations", "last value ms",
                            "server RSS MiB before -> after a round -> at the end", "server peak RSS MiB", "target"], rows), ""]


def clients_figures(e: dict) -> dict | None:
    """The figures of section 6 for one setting, over its rounds; None when none finished."""
    rounds = e.get("rounds") or []
    if not rounds:
        return None
    n = e.get("clients", T_CLIENTS)
    lat = [v for rd in rounds for v in rd["lat"]]
    per = [(rd["rss_n"] - rd["rss1"]) / (n - 1) for rd in rounds if rd["rss_n"] and rd["rss1"]]
    exits = [c for rd in rounds for c in rd["exits"]]
    return {"n": n, "rounds": len(rounds), "lat": mmm(lat), "count": len(lat),
            "first": mmm([rd["first_ms"] for rd in rounds if rd["first_ms"] is not None]),
            "mapped": min(rd["mapped"] for rd in rounds), "visible": min(rd["visible"] for rd in rounds),
            "on_screen": min(rd["on_screen"] for rd in rounds),
            "overlaps": max(len(rd["overlaps"]) for rd in rounds),
            "rss1": mmm([rd["rss1"] for rd in rounds if rd["rss1"]]),
            "rss_n": mmm([rd["rss_n"] for rd in rounds if rd["rss_n"]]), "per": mmm(per),
            "client": max((v for rd in rounds for v in rd["client_rss"] + [rd.get("client1_rss") or 0]), default=None),
            "exit0": sum(1 for c in exits if c == 0), "exits": len(exits),
            "hidden": all(rd.get("hidden") is not False for rd in rounds),
            "bad_exits": sorted({str(c) for c in exits if c != 0})}


def clients_section(s: Suite) -> list[str]:
    res = s.results.get("clients") or {}
    if not res:
        return []
    n = next(iter(res.values())).get("clients", T_CLIENTS)
    out = [f"## 6. {n} HUDs from {n} clients at once", "",
           f"A foreground `xhud server` with no HUD; one client (`xhud --mode annular --label \"Client 1\" "
           f"--progress 0.5`) until its HUD is mapped: the server's VmRSS with one HUD, the client's; then "
           f"{n - 1} more clients (\"Client 2\" ...) spawned as fast as the suite can fork. *spawn to map*: ms "
           "from just before each client's fork until the MapNotify of its HUD window (a separate watcher "
           "process with SubstructureNotify on the root; windows of class \"xhud\" that are InputOutput, "
           "the InputOnly input blockers left out), windows paired with clients in map order, which is the "
           "order the server accepts them in; over all clients of all rounds (client 1 included, alone: "
           "the server's first HUD). Then where the windows are (xwininfo): viewable, inside the screen, "
           "and overlapping pairs; the server's VmRSS with all of them and per further HUD; the largest "
           "client VmRSS. At the end SIGTERM to every client: each hides its HUD and should exit 0.", ""]
    rows = []
    for setting, e in res.items():
        f = clients_figures(e)
        if e["status"] != "ok" or f is None:
            rows.append([setting, e["status"] if e["status"] != "ok" else "no round finished"] + [""] * 10)
            continue
        lat, first = f["lat"], f["first"]
        stacked = f["visible"] == n and f["on_screen"] == n and f["overlaps"] == 0 and f["mapped"] == n
        targets = [f"all visible, stacked: {mark(stacked)}",
                   f"each ≤ {T_CLIENT_MAP_MS:g} ms: {mark(lat[2] <= T_CLIENT_MAP_MS and f['count'] == n * f['rounds'] if lat else False)}",
                   f"≤ {T_PER_HUD_MIB:g} MiB/HUD: {mark(f['per'][1] <= T_PER_HUD_MIB if f['per'] else None)}",
                   f"client ≤ {T_CLIENT_RSS_MIB:g} MiB: {mark(f['client'] <= T_CLIENT_RSS_MIB if f['client'] else None)}"]
        rows.append([setting, str(f["rounds"]),
                     f"{f['mapped']} / {f['visible']} / {f['on_screen']}", str(f["overlaps"]),
                     f"{lat[1]:.1f} / {lat[2]:.1f} ({f['count']})" if lat else "-",
                     f1(first[1]) if first else "-",
                     f1(f["rss1"][1] if f["rss1"] else None), f1(f["rss_n"][1] if f["rss_n"] else None),
                     f1(f["per"][1] if f["per"] else None, 2), f1(f["client"]),
                     f"{f['exit0']} / {f['exits']}" + (f" (others: {', '.join(f['bad_exits'])})" if f["bad_exits"] else "")
                     + ("" if f["hidden"] else "; HUDs left on screen"),
                     "; ".join(targets)])
    out += [md_table(["setting", "rounds", f"mapped / visible / on screen (of {n})", "overlapping pairs",
                      "spawn to map ms median / max (clients)", "client 1 alone ms", "server RSS MiB, 1 HUD",
                      f"server RSS MiB, {n} HUDs", "MiB per further HUD", "client RSS MiB, max",
                      "exit 0 on SIGTERM", "target"], rows), ""]
    errors = [f"{setting}: {e['error']}" for setting, e in res.items() if e.get("error") and e["status"] == "ok"]
    if errors:
        out += ["Rounds that did not finish: " + "; ".join(errors), ""]
    return out
