"""Summaries of repeated measurements: median with min–max, and per-pair ratios.

Runs comparing two brokers alternate (A B A B ...); pair ``i`` is run ``i``
of each, adjacent in time, so ``ratio`` divides pair by pair before taking
the median, which cancels slow drift of the machine's load.
"""

from __future__ import annotations

import statistics


def summary(values: list[float]) -> dict:
    """``{"median", "min", "max", "runs"}``; None-valued runs are left out."""
    vals = [v for v in values if v is not None]
    if not vals:
        return {"median": None, "min": None, "max": None, "runs": list(values)}
    return {"median": statistics.median(vals), "min": min(vals), "max": max(vals),
            "runs": list(values)}


def ratio(a: list[float], b: list[float]) -> dict:
    """Summary of ``a[i] / b[i]`` over the pairs where both exist and ``b[i]`` is non-zero."""
    pairs = [x / y for x, y in zip(a, b) if x is not None and y]
    return summary(pairs)
