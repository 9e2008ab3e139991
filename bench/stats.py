"""Summaries shared by the benchmarks: percentiles of timings, in milliseconds, and the
process's peak memory."""

from __future__ import annotations

import resource
import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` from 0 to 1) of a non-empty sequence."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def summary_ms(seconds: Sequence[float]) -> dict[str, float | int]:
    """Count, median, p99 and maximum of durations given in seconds, shown in ms."""
    if not seconds:
        return {"count": 0}
    return {
        "count": len(seconds),
        "median_ms": round(statistics.median(seconds) * 1000, 2),
        "p99_ms": round(percentile(seconds, 0.99) * 1000, 2),
        "max_ms": round(max(seconds) * 1000, 2),
    }


def peak_rss_mib() -> float:
    """This process's peak resident set size so far (Linux reports it in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def cpu_seconds() -> float:
    """User plus system CPU time this process has used so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
