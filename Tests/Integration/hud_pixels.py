"""What the HUDs on an X screen show, read back from screenshots: the rows that hold bright
pixels (label, bar, button), a bar's fill, the HUD windows shown, and whether two rectangles
overlap."""

from __future__ import annotations


def bright(px, threshold=185) -> bool:
    return min(px) >= threshold


def bright_bands(shot, rect):
    """Runs of consecutive rows of rect that hold bright pixels (label, bar, button), top down."""
    x0, y0, w, h = rect
    rows = [y for y in range(max(0, y0), min(shot.height, y0 + h))
            if any(bright(shot.pixel(xx, y)) for xx in range(max(0, x0), min(shot.width, x0 + w)))]
    bands = []
    for y in rows:
        if bands and y <= bands[-1][1] + 3:   # a thin outline's gaps do not split a band
            bands[-1][1] = y
        else:
            bands.append([y, y])
    return [tuple(b) for b in bands]


def bar_fill(shot, rect):
    """The bar's fill inside rect (a HUD window in bar mode, where the bar is the topmost
    content): on the middle row of the first band of bright rows, the bright pixels (the fill
    and the track's outline) and the extent of the track; returns (fill, track width, row)."""
    x0, y0, w, h = rect
    bands = bright_bands(shot, rect)
    if not bands:
        return 0, 0, None
    top, bottom = bands[0]
    y = (top + bottom) // 2
    xs_ = [xx for xx in range(max(0, x0), min(shot.width, x0 + w)) if bright(shot.pixel(xx, y))]
    if not xs_:   # the first band is no bar (a label between two frames, while the mode changes)
        return 0, 0, None
    return len(xs_), xs_[-1] - xs_[0] + 1, y


def visible(x):
    return x.visible_hud_windows()


def any_hud_viewable(x) -> bool:
    return bool([w for w in x.hud_windows() if w.viewable])


def intersect(a, b) -> bool:
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
