"""Seeded, chunked Monte Carlo over whole games, aggregated into win rates and histograms.

A chunk is a pure function of (variant, policy, seed, chunk index): its decks and random
numbers come from numpy's generator seeded with [seed, chunk index], and each game depends
only on its own deck, so the numbers are the same for any thread count or chunk order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numba
import numpy as np

from .cards import CardError

CHUNK = 20_000


@dataclass
class SimResult:
    variant: str
    policy: str
    n: int
    seed: int
    win_at: int
    wins: int = 0
    histogram: dict = field(default_factory=dict)    # final score -> games
    deal_sums: np.ndarray | None = None              # total points of each deal over all games

    @property
    def win_rate(self) -> float:
        return self.wins / self.n

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """Wilson score interval, 95%."""
        z, n, p = 1.959964, self.n, self.win_rate
        mid = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, mid - half), min(1.0, mid + half)

    def _moments(self):
        s = np.array(list(self.histogram), dtype=float)
        c = np.array(list(self.histogram.values()), dtype=float)
        mean = float((s * c).sum() / c.sum())
        return mean, float(math.sqrt(((s - mean) ** 2 * c).sum() / c.sum()))

    @property
    def mean(self) -> float:
        return self._moments()[0]

    @property
    def std(self) -> float:
        return self._moments()[1]

    @property
    def mean_per_deal(self) -> list[float]:
        return (self.deal_sums / self.n).tolist()

    def as_dict(self) -> dict:
        lo, hi = self.win_rate_ci
        return {"variant": self.variant, "policy": self.policy, "n": self.n, "seed": self.seed,
                "wins": self.wins, "win_rate": self.win_rate, "win_rate_ci": [lo, hi],
                "mean": self.mean, "std": self.std, "mean_per_deal": self.mean_per_deal,
                "histogram": {str(k): v for k, v in sorted(self.histogram.items())}}

    def csv_row(self):
        lo, hi = self.win_rate_ci
        return [self.variant, self.policy, self.n, self.seed, self.wins, self.win_rate, lo, hi,
                self.mean, self.std]


CSV_HEADER = ["variant", "policy", "n", "seed", "wins", "win_rate", "ci_low", "ci_high", "mean",
              "std"]


def chunk_points(variant: str, policy: str, seed: int, index: int, games: int) -> np.ndarray:
    """Points per deal of ``games`` games of chunk ``index``: (games, deals)."""
    from .scoring.table import rank_table
    from .variants import patience

    rng = np.random.default_rng([seed, index])
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (games, 1)), axis=1)
    rand = rng.random((games, 8))
    return patience.play_games(decks, variant == "patience2", patience.POLICIES[policy], rand,
                               rank_table(15))


def simulate(variant: str, policy: str, n: int, seed: int = 0, jobs: int | None = None,
             progress=None) -> SimResult:
    """Play ``n`` games; ``progress(k)`` is called as each chunk of k games finishes."""
    from .variants import patience

    if variant not in patience.DEALS:
        raise CardError(f"unknown variant {variant!r} (expected {', '.join(patience.DEALS)})")
    if policy not in patience.POLICIES:
        raise CardError(f"unknown policy {policy!r} for {variant} "
                        f"(expected {', '.join(patience.POLICIES)})")
    if n < 1:
        raise CardError("-n must be at least 1")
    if jobs:
        numba.set_num_threads(max(1, min(jobs, numba.config.NUMBA_NUM_THREADS)))
    res = SimResult(variant, policy, n, seed, patience.WIN_AT,
                    deal_sums=np.zeros(patience.DEALS[variant], dtype=np.int64))
    hist = np.zeros(200, dtype=np.int64)
    for index, start in enumerate(range(0, n, CHUNK)):
        games = min(CHUNK, n - start)
        pts = chunk_points(variant, policy, seed, index, games)
        final = pts.sum(axis=1)
        hist += np.bincount(final, minlength=200)[:200]
        res.deal_sums += pts.sum(axis=0)
        res.wins += int((final >= res.win_at).sum())
        if progress:
            progress(games)
    res.histogram = {int(s): int(hist[s]) for s in np.flatnonzero(hist)}
    return res
