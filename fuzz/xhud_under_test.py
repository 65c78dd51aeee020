"""The xhud binary the process fuzzers run: XHUD_BIN, or the debug build in the repository."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
XHUD = Path(os.environ.get("XHUD_BIN", REPO / ".build" / "debug" / "xhud")).resolve()
