"""Round trips from the proxy's log of a connection: a *wait* is a client falling silent after a
request batch until something from the server reaches it, at least 0.75 RTT later, named by
what arrived; the first paint is the earliest batch that draws onto a mapped window."""

from __future__ import annotations

from remotebench.x11 import Conn


def summarize(labels: list[str]) -> str:
    """"InternAtom A, InternAtom B, ..." as "InternAtom x12 (A, B, ...)"; repeats counted."""
    groups: dict[str, list[str]] = {}
    for lbl in labels:
        head, _, arg = lbl.partition(" ")
        if head in ("InternAtom", "GetProperty", "QueryExtension") and arg:
            groups.setdefault(head, []).append(arg)
        else:
            groups.setdefault(lbl, [])
    parts = []
    for head, args in groups.items():
        if not args:
            n = labels.count(head)
            parts.append(head + (f" x{n}" if n > 1 else ""))
        elif len(args) == 1:
            parts.append(f"{head} {args[0]}")
        else:
            shown = ", ".join(args[:3]) + (", ..." if len(args) > 3 else "")
            parts.append(f"{head} x{len(args)} ({shown})")
    return ", ".join(parts) or "?"


def waits_of(conn: Conn, since: float, until: float | None, rtt: float) -> list[tuple[float, str]]:
    """The waits of one connection between `since` and `until`: (time waited ms, what for)."""
    log = [e for e in list(conn.log) if e[0] >= since]
    out = []
    last_c = None
    delivered: list = []
    for t, side, items in log:
        if until is not None and t > until:
            break
        if side == "s":
            if last_c is not None:
                delivered.append((t, items))
            continue
        if last_c is not None and delivered and t - last_c >= 0.75 * rtt and delivered[-1][0] - last_c >= 0.75 * rtt:
            replies = [lbl for _, its in delivered for k, _, lbl in its if k in ("reply", "error")]
            events = [lbl for _, its in delivered for k, _, lbl in its if k == "event"]
            what = summarize(replies or events)
            if not replies and events:
                what = "event " + what
            out.append(((delivered[-1][0] - last_c) * 1000, what))
        last_c = t
        delivered = []
    return out


def first_paint_time(conns: list[Conn], since: float) -> float | None:
    """The earliest batch that draws onto a mapped window (or maps one that has a background
    pixel), on any connection."""
    best = None
    for c in conns:
        for t, side, items in list(c.log):
            if t < since or side != "c":
                continue
            if any(k in ("map", "draw") for _, _, k in items):
                best = t if best is None else min(best, t)
                break
    return best
