"""The report's start-up tables: first paint, its cross-check, under load."""

from __future__ import annotations

import re
import shlex

from benchsuite.common import CROSS_CHECKED, PATCH, SCREEN_H, SCREEN_W, T_COLD_AHEAD, T_COLD_BUSY, T_COLD_FLOOR, T_COLD_NEW_FLOOR, T_WARM_FLOOR, f1, mark, md_table, mmm
from benchsuite.core import Suite


def startup_refs(res: dict) -> list[tuple[str, str, float]]:
    """The xhud figures that the alternatives are compared with: (name, key, median), warm first.
    A report from before the server (one xhud key, its own process) has that one."""
    refs = []
    for name, key in (("warm", "xhud-warm"), ("cold", "xhud-cold"), ("xhud", "xhud")):
        e = res.get(key, {})
        if key == "xhud-cold" and "--id" in e.get("cmd", []):
            continue  # an older report's cold start of a named HUD
        if e.get("times"):
            refs.append((name, key, mmm(e["times"])[1]))
    return refs


def fresh_runtimes(s: Suite) -> bool:
    """Whether the startup section's cold runs each had a new XDG_RUNTIME_DIR (a report from
    before they did has no such mark)."""
    return any(e.get("fresh_runtime") for res in s.results["startup"].values() for e in res.values())


def startup_section(s: Suite) -> list[str]:
    out = ["## 1. Start to first painted frame", "",
           "Milliseconds from fork+exec of the client until the screen where its window appears differs "
           "from the background: the untimed first run finds the client's first mapped window (`firstframe "
           f"--auto`, MapNotify on the root, then its area polled) and the first pixel that changed there; the "
           f"counted runs watch the {PATCH}x{PATCH} pixels around that one from the fork on, every 0.25 ms "
           "(`firstframe --from-fork`), whatever the client does meanwhile, as bench/pixwatch watches the "
           "screen's centre (below); *map* is the median to the MapNotify, noted on the way. Clients take turns "
           "run by run. "
           "*/ floor* is the client's median over the floor's; *xhud / this* is xhud's median over the "
           "client's, warm / cold (below 1: xhud is ahead).", "",
           "xhud draws every HUD in the display's server. **xhud --mode annular** is the warm case: a "
           "server runs (a foreground `xhud server`, started when none is up and then kept; after a start "
           "it first shows one untimed HUD, so that every warm run meets a server that has drawn before). "
           "*cold*: no server runs (any is ended before and after each run"
           + (", and each run has a new, empty `XDG_RUNTIME_DIR` on a tmpfs, as a user's `/run/user/UID` is at login: nothing is left there from the run before"
              if fresh_runtimes(s) else "") + "), so the invocation starts one "
           "(posix_spawn of xhud-host in a session of its own) and its HUD is the new server's first. "
           "A server keeps the font matches of its labels for the next (`$XDG_CACHE_HOME/xhud/fonts/matches`, "
           "checked against fontconfig's files with `stat`): the cold row opens its font from them (a server ran "
           "before on this account), the *no font match kept* row has them removed before each run (the first "
           "start ever, or after fonts or their configuration changed: fontconfig reads its configuration on "
           "the way to the first frame, in the font helper `xhud-fonts` that the client starts beside the server, "
           "while the server's libraries load).", ""]
    for setting, res in s.results["startup"].items():
        floor = res.get("floor", {})
        fmed = mmm(floor.get("times", []))[1] if floor.get("times") else None
        refs = startup_refs(res)
        medians = {k: mmm(e["times"])[1] for k, e in res.items() if e.get("times")}
        rows = []
        for key, e in res.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", ""])
                continue
            mn, med, mx = mmm(e["times"])
            ratio = f"{med / fmed:.2f}×" if fmed else "-"
            vs = " / ".join(f"{m / med:.2f}" for _, _, m in refs) if refs and not key.startswith("xhud") else ""
            cold = medians.get("xhud-cold") if any(k == "xhud-cold" for _, k, _ in refs) else None
            if key == "xhud-warm":
                target = f"warm ≤ {T_WARM_FLOOR:g}× floor: " + mark(med / fmed <= T_WARM_FLOOR if fmed else None)
            elif key in ("xhud-cold", "xhud-cold-new") and "--id" not in e.get("cmd", []):
                limit = T_COLD_FLOOR if key == "xhud-cold" else T_COLD_NEW_FLOOR
                target = f"cold ≤ {limit:g}× floor: " + mark(med / fmed <= limit if fmed else None)
                others = [k for k in T_COLD_AHEAD if k in medians]
                if others:
                    target += f"; ahead of {', '.join(others)}: " + mark(all(med < medians[k] for k in others))
            elif key.startswith("xhud") or key == "floor":
                target = ""
            elif key in T_COLD_AHEAD and cold:
                target = "cold xhud ahead: " + mark(cold < med)
            else:
                target = f"xhud ahead ({' / '.join(n for n, _, _ in refs)}): " \
                    + " / ".join(mark(m < med) for _, _, m in refs) if refs else "xhud ahead: n/a"
            rows.append([e["label"], str(len(e["times"])), f1(mn), f1(med), f1(mx), ratio, vs,
                         f1(mmm(e["maps"])[1]) if e["maps"] else "-", target])
        out += [f"### {setting}", "",
                md_table(["client", "runs", "min ms", "median ms", "max ms", "/ floor",
                          "xhud / this (" + " / ".join(n for n, _, _ in refs) + ")" if refs else "xhud / this",
                          "map ms", "target"], rows), ""]
        out += cross_check(res, setting)
    cmds = {}
    for res in s.results["startup"].values():
        for e in res.values():
            cmds.setdefault(re.sub(r"\*\*", "", e["label"]), e["cmd"])
    if cmds:
        out += ["Commands (osd_cat, aosd_cat, zenity, yad and xob get a pipe on stdin that holds the text shown, or "
                "nothing, and stays open; notify-send exits at once and dunst draws):", ""]
        out += [f"- {lab}: `{' '.join(shlex.quote(str(c)) for c in cmd)}`" for lab, cmd in cmds.items()] + [""]
    return out


def cross_check(res: dict, setting: str) -> list[str]:
    """The suite's first-paint figures beside bench/pixwatch's, measured in the same rounds."""
    rows = []
    for key in CROSS_CHECKED:
        e = res.get(key) or {}
        if not e.get("times") or not e.get("pixwatch"):
            if e.get("times") and e.get("pixwatch_error"):
                rows.append([e["label"], "", "pixwatch failed: " + e["pixwatch_error"], "", "", ""])
            continue
        ours, theirs = mmm(e["times"])[1], mmm(e["pixwatch"])
        diff = ours / theirs[1] - 1
        rows.append([e["label"], f1(ours), f1(theirs[1]), f"{f1(theirs[0])}-{f1(theirs[2])}", f"{diff * 100:+.0f} %",
                     "yes" if abs(diff) <= 0.10 else "**no**"])
    fl, pw = (res.get(k) or {} for k in ("floor", "xhud-warm"))
    if not rows:
        return []
    ratio = ""
    if fl.get("pixwatch") and pw.get("pixwatch") and fl.get("times") and pw.get("times"):
        ratio = (f" Warm over the floor: {mmm(pw['times'])[1] / mmm(fl['times'])[1]:.2f}× in the suite, "
                 f"{mmm(pw['pixwatch'])[1] / mmm(fl['pixwatch'])[1]:.2f}× in pixwatch.")
    return [f"Cross-check ({setting}): bench/pixwatch, a second program, polls the screen's centre pixel from the "
            f"fork on every 0.25 ms (`pixwatch update 1x1+{SCREEN_W // 2}+{SCREEN_H // 2} --end -- CMD`), beside "
            "each counted run of these rows with the same set-up (before it in even rounds, after it in odd "
            "ones)." + ratio, "",
            md_table(["client", "suite median ms", "pixwatch median ms", "pixwatch min-max", "suite / pixwatch",
                      "within 10 %"], rows), ""]


def busy_figures(b: dict) -> tuple[float, float] | None:
    """(floor's median, xhud cold's median) under load, in ms, when both were measured."""
    rows = (b or {}).get("rows") or {}
    fl, xc = (rows.get(k, {}).get("times") for k in ("floor", "xhud-cold"))
    return (mmm(fl)[1], mmm(xc)[1]) if fl and xc else None


def busy_section(s: Suite) -> list[str]:
    busy = s.results.get("busy") or {}
    if not busy:
        return []
    out = ["### Under load: a busy loop on each core", "",
           "The same start to the first painted frame while a busy loop (`python3 -S -c 'while True: pass'`, "
           "at the niceness of the clients measured) runs on each online core, from before the first run to "
           "after the last: the floor and xhud cold (font matches kept, as in the cold row above) take turns "
           "run by run, one warm-up round not counted. Each cold run has a runtime directory of its own "
           "(`XDG_RUNTIME_DIR`, new and empty" + ("; so do the cold rows above" if fresh_runtimes(s) else "")
           + ") and no server is left from the run before. */ floor* is over the floor's median under the "
           "same load; *quiet* is the row's median in the table above, and *× quiet* what the load made of it. *load* is the share of the cores the "
           "loops had during the runs.", ""]
    for setting, b in busy.items():
        quiet = s.results["startup"].get(setting, {})
        rows_in = b.get("rows") or {}
        floor = rows_in.get("floor", {})
        fmed = mmm(floor["times"])[1] if floor.get("times") else None
        rows = []
        for key, e in rows_in.items():
            if e["status"] != "ok":
                rows.append([e["label"], e["status"], "", "", "", "", "", "", "", ""])
                continue
            mn, med, mx = mmm(e["times"])
            q = quiet.get(key, {}).get("times")
            qmed = mmm(q)[1] if q else None
            target = ""
            if key == "xhud-cold":
                target = f"≤ {T_COLD_BUSY:g}× floor under load: " + mark(med / fmed <= T_COLD_BUSY if fmed else None)
            rows.append([e["label"], str(len(e["times"])), f1(mn), f1(med), f1(mx),
                         f"{med / fmed:.2f}×" if fmed else "-", f1(qmed), f"{med / qmed:.2f}" if qmed else "-",
                         f1(mmm(e["maps"])[1]), target])
        load = b.get("load")
        out += [f"#### {setting}: {b.get('cores')} busy loops"
                + (f", load {load * 100:.0f} % of the cores" if load is not None else ""), "",
                md_table(["client", "runs", "min ms", "median ms", "max ms", "/ floor", "quiet median ms", "× quiet",
                          "map ms", "target"], rows), ""]
        if b.get("error"):
            out += [f"Not all runs were made: {b['error']}", ""]
    return out
