"""Waiting for a condition that another process makes true."""

from __future__ import annotations

import time


def wait_until(predicate, timeout: float, interval: float = 0.02):
    """Polls predicate until it returns something truthy (returned) or timeout passes (None)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            return None
        time.sleep(interval)
