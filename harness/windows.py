"""An X window as xwininfo describes it: where it is, how large, whether it is mapped."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class WinInfo:
    id: int
    x: int
    y: int
    width: int
    height: int
    depth: int
    viewable: bool
    override_redirect: bool
    input_only: bool
    border: int = 0

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.width / 2.0, self.y + self.height / 2.0)

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.width, self.height)


def parse_xwininfo(wid: int, text: str) -> WinInfo:
    """What `xwininfo -id WID` printed; absolute coordinates (those of the root)."""
    def field(name, default=None):
        m = re.search(r"^\s*" + re.escape(name) + r":\s*(.+)$", text, re.M)
        return m.group(1).strip() if m else default

    return WinInfo(
        id=wid,
        x=int(field("Absolute upper-left X", "0")),
        y=int(field("Absolute upper-left Y", "0")),
        width=int(field("Width", "0")),
        height=int(field("Height", "0")),
        depth=int(field("Depth", "0")),
        viewable=field("Map State") == "IsViewable",
        override_redirect=field("Override Redirect State") == "yes",
        input_only=field("Class") == "InputOnly",
        border=int(field("Border width", "0")),
    )
