"""Confidence intervals for the rates cribsolve reports."""

import math


def wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval, 95%."""
    z, p = 1.959964, wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)
