"""Seeded, chunked Monte Carlo over whole games, aggregated into win rates and histograms.

A chunk is a pure function of (variant, policy, seed, chunk index): its decks and random
numbers come from numpy's generator seeded with [seed, chunk index], and each game depends
only on its own deck, so the numbers are the same for any thread count or chunk order.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from .cards import CardError
from .runner import Job, Local, chunks, run
from .tables import expect, load, register
from .variants.spec import CribbageSpec

MAX_DEAL = 256      # more than any deal can score


@dataclass
class SimResult:
    variant: str
    policy: str
    n: int
    seed: int
    win_at: int
    wins: int = 0
    histogram: dict = field(default_factory=dict)    # final score -> games
    deal_histograms: np.ndarray | None = None        # [deal, points] -> games
    exact_scores: bool = True                        # False: scores are bounds (win-only)

    @property
    def win_rate(self) -> float:
        return self.wins / self.n

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        return _wilson(self.wins, self.n)

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
        points = np.arange(self.deal_histograms.shape[1])
        return (self.deal_histograms @ points / self.n).tolist()

    def as_dict(self) -> dict:
        lo, hi = self.win_rate_ci
        d = {"variant": self.variant, "policy": self.policy, "n": self.n, "seed": self.seed,
             "wins": self.wins, "win_rate": self.win_rate, "win_rate_ci": [lo, hi],
             "mean": None, "std": None, "mean_per_deal": None, "histogram": None}
        if self.exact_scores:
            d.update(mean=self.mean, std=self.std, mean_per_deal=self.mean_per_deal,
                     histogram={str(k): v for k, v in sorted(self.histogram.items())})
        return d

    def csv_row(self):
        d = self.as_dict()
        return [self.variant, self.policy, self.n, self.seed, self.wins, self.win_rate,
                *d["win_rate_ci"], d["mean"], d["std"]]


CSV_HEADER = ["variant", "policy", "n", "seed", "wins", "win_rate", "ci_low", "ci_high", "mean",
              "std"]


VARIANTS = {  # deals per game, winning score, policies (the first is the default), chunk size
    "patience": (5, 80, ("ev", "win", "random", "clairvoyant"), 20_000),
    "patience2": (4, 80, ("ev", "win", "lookahead", "random", "clairvoyant"), 20_000),
    "shuffle": (1, 61, ("optimal", "heuristic"), 200),
}


def chunk_points(variant: str, policy: str, seed: int, index: int, games: int,
                 wins: np.ndarray | None = None, win_only: bool = False) -> np.ndarray:
    """Points per deal of ``games`` games of chunk ``index``: (games, deals)."""
    from .scoring.table import rank_table
    from .variants import patience, shuffle

    rng = np.random.default_rng([seed, index])
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.int64), (games, 1)), axis=1)
    if variant == "shuffle":   # 16 grid cards, then the starter
        best, heuristic = shuffle.solve_many(decks[:, :17], rank_table(15),
                                             shuffle.WIN_AT if win_only else 0)
        return (heuristic if policy == "heuristic" else best)[:, None]
    rand = rng.random((games, 8))
    if policy == "lookahead":   # after the 8 the other policies use, which stay as they were
        rand = np.hstack([rand, rng.random((games, patience.LOOK_RAND - 8))])
    if wins is None:
        wins = (win_table(variant) if policy in ("win", "lookahead")
                else np.zeros((6, patience.WIN_AT + 1)))
    return patience.play_games(decks, variant == "patience2", patience.POLICIES[policy], rand,
                               rank_table(15), wins)


def chunk_counts(variant: str, policy: str, seed: int, index: int, games: int,
                 wins: np.ndarray | None, win_only: bool) -> dict:
    """Chunk ``index``'s counts, to be added up: games by final score, by points in each deal,
    and games won."""
    deals, win_at = VARIANTS[variant][:2]
    pts = chunk_points(variant, policy, seed, index, games, wins, win_only)
    total = pts.sum(axis=1)
    return {"scores": np.bincount(total, minlength=MAX_DEAL * deals),
            "deals": np.stack([np.bincount(pts[:, d], minlength=MAX_DEAL) for d in range(deals)]),
            "wins": np.array([(total >= win_at).sum()])}


WIN_TABLE_GAMES = 200_000
WIN_TABLE_SEED = 80


def win_probabilities(deal_histograms: np.ndarray, win_at: int) -> np.ndarray:
    """W[k, s]: P(reaching win_at from score s with the last k deals still to play), the deals
    independent with the given point distributions (row d = deal d)."""
    deals = deal_histograms.shape[0]
    w = np.zeros((deals + 1, win_at + 1))
    w[0, win_at] = 1.0
    for k in range(1, deals + 1):
        p = deal_histograms[deals - k] / deal_histograms[deals - k].sum()
        for s in range(win_at + 1):
            reach = np.minimum(s + np.arange(len(p)), win_at)
            w[k, s] = p @ w[k - 1, reach]
    return w


def _check_win_table(arrays, params):
    from .variants import patience
    w = arrays.get("w")
    expect(w is not None and w.shape == (patience.DEALS[params["variant"]] + 1, patience.WIN_AT + 1),
           "not a win table")
    expect(float(w.min()) >= -1e-9 and float(w.max()) <= 1 + 1e-9, "probabilities outside [0, 1]")
    expect(bool((np.diff(w, axis=1) >= -1e-12).all()), "P(win) falls as the score rises")
    expect(bool((np.abs(w[:, -1] - 1) < 1e-9).all()), "a won game is not won")


register("wintable", __name__, _check_win_table)


def win_table(variant: str, progress=None, games: int = WIN_TABLE_GAMES) -> np.ndarray:
    """W for ``variant`` from ``games`` games of the EV policy (shipped, or built and kept)."""
    from .variants import patience

    def compute():
        res = simulate(variant, "ev", games, WIN_TABLE_SEED, progress=progress)
        return {"w": win_probabilities(res.deal_histograms, patience.WIN_AT)}
    return load("wintable", {"variant": variant, "games": games, "seed": WIN_TABLE_SEED},
                compute)["w"]


def simulate(variant: str, policy: str | None, n: int, seed: int = 0, jobs: int | None = None,
             progress=None, win_only: bool = False, where=None,
             checkpoint: str | None = None) -> SimResult:
    """Play ``n`` games; ``progress(k)`` is called as each chunk of k games finishes.

    Cribbage Shuffle with ``win_only``: each deal is only decided at 61 (won or proven lost),
    which is faster; the scores are then not all optima, so no histogram is kept. The chunks
    run ``where`` (runner.connect; default: here on ``jobs`` threads), kept in ``checkpoint``."""
    if variant not in VARIANTS:
        raise CardError(f"unknown variant {variant!r} (expected {', '.join(VARIANTS)})")
    deals, win_at, policies, chunk = VARIANTS[variant]
    policy = policy or policies[0]
    if policy not in policies:
        raise CardError(f"unknown policy {policy!r} for {variant} "
                        f"(expected {', '.join(policies)})")
    if win_only and (variant, policy) != ("shuffle", "optimal"):
        raise CardError("--win-only is for --variant shuffle with the optimal policy")
    if n < 1:
        raise CardError("-n must be at least 1")
    res = SimResult(variant, policy, n, seed, win_at,
                    deal_histograms=np.zeros((deals, MAX_DEAL), dtype=np.int64),
                    exact_scores=not win_only)
    hist = np.zeros(MAX_DEAL * deals, dtype=np.int64)
    wins = win_table(variant) if policy in ("win", "lookahead") else None
    parts = chunks(n, chunk)
    job = Job(chunk_counts, [(variant, policy, seed, i, games, wins, win_only)
                             for i, games in parts], [games for _, games in parts],
              {"variant": variant, "policy": policy, "n": n, "seed": seed,
               "win_only": win_only, "chunk": chunk})
    for counts in run(job, where or Local(jobs), progress, checkpoint):
        hist += counts["scores"]
        res.deal_histograms += counts["deals"]
        res.wins += int(counts["wins"][0])
    res.histogram = {int(s): int(hist[s]) for s in np.flatnonzero(hist)}
    return res


CRIBBAGE_POLICIES = {"greedy": (1, 1), "lookahead": (1, 2), "expert": (2, 3), "random": (0, 0)}
CRIBBAGE_CHUNK = 2_000


@dataclass
class CribbageResult:
    """Whole two-player games: player 0 plays ``policy``, player 1 ``opponent_policy``."""
    policy: str
    opponent_policy: str
    n: int
    seed: int
    spec: CribbageSpec
    rows: np.ndarray            # one row per game, twoplayer.play_game's ``out``

    def as_dict(self) -> dict:
        from .variants.twoplayer import NP, TIE

        r = self.rows
        first_wins = int((r[:, 0] == r[:, 1]).sum())
        deals = r[:, 5].sum()
        per_deal = r[:, 6:6 + NP].sum(axis=0) / max(deals, 1)
        heels, dpeg, ppeg, phand, dhand, crib, pcrib = per_deal.tolist()
        lo, hi = _wilson(first_wins, self.n)
        loser = r[:, 4]
        length = self.spec.game_length
        skunk = (None, None) if self.spec.lowball else (
            float((loser < length - 30).mean()), float((loser < length - 60).mean()))
        return {"variant": "cribbage", "policy": self.policy,
                "opponent_policy": self.opponent_policy, "n": self.n, "seed": self.seed,
                "game_length": length, "rules": asdict(self.spec), "wins": first_wins,
                "win_rate": first_wins / self.n, "win_rate_ci": [lo, hi],
                "player_win_rate": float((r[:, 0] == 0).mean()),
                "ties": int((r[:, 0] == TIE).sum()),
                "dealer_points": heels + dpeg + dhand + crib,
                "pone_points": ppeg + phand + pcrib,
                "dealer_pegging": dpeg, "pone_pegging": ppeg, "dealer_hand": dhand,
                "pone_hand": phand, "crib": crib, "pone_crib": pcrib, "heels": heels,
                "deals_per_game": float(r[:, 2].mean()),
                "skunk_rate": skunk[0], "double_skunk_rate": skunk[1],
                "largest_hand": int(r[:, 6 + NP].max())}

    def csv_row(self):
        d = self.as_dict()
        return ["cribbage", f"{self.policy}/{self.opponent_policy}", self.n, self.seed,
                d["wins"], d["win_rate"], *d["win_rate_ci"], None, None]


def _wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval, 95%."""
    z, p = 1.959964, wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def cribbage_games(policies: tuple[str, str], spec: CribbageSpec, seed, games: int,
                   start=(0, 0, -1)) -> np.ndarray:
    """play_game's rows of ``games`` games from ``start`` (twoplayer.play_game), each game's
    seed drawn from numpy's generator seeded with ``seed``."""
    from .scoring.table import rank_table
    from .variants.twoplayer import NO_EXPERT, play_games

    seeds = np.random.default_rng(seed).integers(0, 2 ** 62, size=games)
    pol = np.array([CRIBBAGE_POLICIES[p] for p in policies])
    expert = expert_tables(spec) if "expert" in policies else NO_EXPERT
    return play_games(seeds, pol, rank_table(spec.target), spec.as_array(), expert, start)


def expert_tables(spec: CribbageSpec) -> tuple:
    """What the expert player reads in the game engine (twoplayer.play_deal's ``expert``):
    its pegging table and its throw model."""
    from .inference import throw_model
    from .pegsearch import peg_table

    return peg_table(spec), throw_model(spec)


def cribbage_chunk(policies: tuple[str, str], spec: CribbageSpec, seed: int, index: int,
                   games: int) -> dict:
    """The rows of chunk ``index``'s games: each game's seed drawn from [seed, index]."""
    return {"rows": cribbage_games(policies, spec, [seed, index], games)}


def simulate_cribbage(n: int, policy: str = "greedy", opponent_policy: str | None = None,
                      seed: int = 0, jobs: int | None = None, progress=None,
                      spec: CribbageSpec = CribbageSpec(), where=None,
                      checkpoint: str | None = None) -> CribbageResult:
    """Play ``n`` seeded games under ``spec``; the same seed gives the same games for any
    thread count, and wherever the chunks run (``where``, as for simulate)."""
    opponent_policy = opponent_policy or policy
    for p in (policy, opponent_policy):
        if p not in CRIBBAGE_POLICIES:
            raise CardError(f"unknown policy {p!r} for cribbage "
                            f"(expected {', '.join(CRIBBAGE_POLICIES)})")
    if n < 1:
        raise CardError("-n must be at least 1")
    parts = chunks(n, CRIBBAGE_CHUNK)
    job = Job(cribbage_chunk, [((policy, opponent_policy), spec, seed, i, games)
                               for i, games in parts], [games for _, games in parts],
              {"variant": "cribbage", "policy": policy, "opponent_policy": opponent_policy,
               "n": n, "seed": seed, "spec": asdict(spec), "chunk": CRIBBAGE_CHUNK})
    rows = [c["rows"] for c in run(job, where or Local(jobs), progress, checkpoint)]
    return CribbageResult(policy, opponent_policy, n, seed, spec, np.concatenate(rows))
