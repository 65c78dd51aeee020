"""What the integration tests (Tests/Integration) and the benchmarks (bench/) both stand on: an X
server (xserver, xlib, windows), a headless sway run as another user (sway), screenshots
(screens) and processes read through /proc (procs). Each side keeps its own bookkeeping (the
tests' fixtures, the suite's logs) on top of these pieces.

At the repository root, beside Tests/ and bench/, because neither owns it: each puts the root on
sys.path (Tests/Integration/conftest.py, bench/benchsuite/__init__.py)."""
