"""The benchmark suite behind bench/run, by section; bench/suite.py runs it. It stands on the
repository's harness/ (the X server, the headless sway, /proc), shared with the integration
tests: the repository root goes on sys.path here, for whoever imports the suite."""

import sys
from pathlib import Path

_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
