"""Seeded, chunked Monte Carlo over whole games, aggregated into win rates and histograms.

A chunk is a pure function of (variant, policy, seed, chunk index): its decks and random
numbers come from numpy's generator seeded with [seed, chunk index], and each game depends
only on its own deck, so the numbers are the same for any thread count or chunk order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from cribsolve.errors import CribsolveError, Partial
from cribsolve.games.solitaire.facts import PATIENCES, SOLITAIRES, SQUARES
from cribsolve.infra.runner import Job, Local, chunks, run
from cribsolve.infra.stats import wilson
from cribsolve.infra.store import expect, load, register

MAX_DEAL = 256  # more than any deal can score
TABLE_POLICIES = ("win", "lookahead", "deck")  # Patience policies that play by the win table


@dataclass
class SimResult:
    variant: str
    policy: str
    n: int
    seed: int
    win_at: int
    wins: int = 0
    histogram: dict = field(default_factory=dict)  # final score -> games
    deal_histograms: np.ndarray | None = None  # [deal, points] -> games
    exact_scores: bool = True  # False: scores are bounds (win-only)
    games: dict | None = None  # each game as columns (games_table), where asked

    @property
    def win_rate(self) -> float:
        return self.wins / self.n

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)

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
        d = {
            "variant": self.variant,
            "policy": self.policy,
            "n": self.n,
            "seed": self.seed,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "win_rate_ci": [lo, hi],
            "mean": None,
            "std": None,
            "mean_per_deal": None,
            "histogram": None,
        }
        if self.exact_scores:
            d.update(
                mean=self.mean,
                std=self.std,
                mean_per_deal=self.mean_per_deal,
                histogram={str(k): v for k, v in sorted(self.histogram.items())},
            )
        return d

    def csv_row(self):
        """The win-rate table's row (infra.export.WIN_RATE_HEADER), saying what it counts."""
        d = self.as_dict()
        what = f"wins: a final score of {self.win_at} or more; " + (
            "mean and std: the final score" if self.exact_scores else "no mean or std (--win-only)"
        )
        return [
            self.variant,
            self.policy,
            self.n,
            self.seed,
            self.wins,
            self.win_rate,
            *d["win_rate_ci"],
            d["mean"],
            d["std"],
            what,
        ]


def chunk_decks(seed: int, index: int, games: int):
    """(generator, decks) of chunk ``index``: ``games`` shuffled decks (rows, top first) from
    the generator seeded with [seed, index], which goes on to draw the chunk's other numbers."""
    rng = np.random.default_rng([seed, index])
    return rng, rng.permuted(np.tile(np.arange(52, dtype=np.int64), (games, 1)), axis=1)


def chunk_points(
    variant: str,
    policy: str,
    seed: int,
    index: int,
    games: int,
    wins: np.ndarray | None = None,
    win_only: bool = False,
    coefs: np.ndarray | None = None,
) -> np.ndarray:
    """Points per deal of ``games`` games of chunk ``index``: (games, deals). ``wins`` and
    ``coefs`` (the deck value's, for the deck policy) are loaded where not given."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire import deckvalue, patience, shuffle

    rng, decks = chunk_decks(seed, index, games)
    if variant == "shuffle":  # 16 grid cards, then the starter
        best, heuristic = shuffle.solve_many(
            decks[:, :17], rank_table(15), shuffle.WIN_AT if win_only else 0
        )
        return (heuristic if policy == "heuristic" else best)[:, None]
    rand = rng.random((games, 8))
    if policy == "lookahead":  # after the 8 the other policies use, which stay as they were
        rand = np.hstack([rand, rng.random((games, patience.LOOK_RAND - 8))])
    if wins is None:
        wins = (
            win_table(variant) if policy in TABLE_POLICIES else np.zeros((6, patience.WIN_AT + 1))
        )
    if coefs is None:
        coefs = deck_value() if policy == "deck" else deckvalue.SCORE_ONLY
    return patience.play_games(
        decks, variant == "patience2", patience.POLICIES[policy], rand, rank_table(15), wins, coefs
    )


def chunk_counts(
    variant: str,
    policy: str,
    seed: int,
    index: int,
    games: int,
    wins: np.ndarray | None,
    win_only: bool,
    points=None,
    coefs=None,
    per_game: bool = False,
) -> dict:
    """Chunk ``index``'s counts, to be added up: games by final score, by points in each deal,
    and games won; with ``per_game`` each game's points per deal too. ``points`` plays the chunk
    where chunk_points does not (Cribbage Square's own, square.chunk_points)."""
    deals, win_at = SOLITAIRES[variant].deals, SOLITAIRES[variant].win_at
    pts = (
        points(variant, policy, seed, index, games, wins, win_only)
        if points
        else chunk_points(variant, policy, seed, index, games, wins, win_only, coefs)
    )
    total = pts.sum(axis=1)
    return {
        "scores": np.bincount(total, minlength=MAX_DEAL * deals),
        "deals": np.stack([np.bincount(pts[:, d], minlength=MAX_DEAL) for d in range(deals)]),
        "wins": np.array([(total >= win_at).sum()]),
    } | ({"points": pts.astype(np.int16)} if per_game else {})


def games_table(points: np.ndarray, win_at: int, exact: bool = True) -> dict:
    """Each game as columns (simulate --games): its index from 0, its final score, whether it
    won, and with more than one deal each deal's points (deal1, ...); with ``exact`` False
    (--win-only, whose scores are bounds) the win alone."""
    total = points.sum(axis=1, dtype=np.int64)
    table = {"game": np.arange(len(points))}
    if exact:
        table["score"] = total
    table["win"] = total >= win_at
    if exact and points.shape[1] > 1:
        table |= {f"deal{d + 1}": points[:, d] for d in range(points.shape[1])}
    return table


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
    from cribsolve.games.solitaire import patience

    w = arrays.get("w")
    expect(
        w is not None and w.shape == (SOLITAIRES[params["variant"]].deals + 1, patience.WIN_AT + 1),
        "not a win table",
    )
    expect(float(w.min()) >= -1e-9 and float(w.max()) <= 1 + 1e-9, "probabilities outside [0, 1]")
    expect(bool((np.diff(w, axis=1) >= -1e-12).all()), "P(win) falls as the score rises")
    expect(bool((np.abs(w[:, -1] - 1) < 1e-9).all()), "a won game is not won")


register("wintable", 1, _check_win_table)


def win_table(variant: str, progress=None, games: int = WIN_TABLE_GAMES) -> np.ndarray:
    """W for ``variant`` from ``games`` games of the EV policy (shipped, or built and kept)."""
    from cribsolve.games.solitaire import patience

    def compute():
        res = simulate(variant, "ev", games, WIN_TABLE_SEED, progress=progress)
        return {"w": win_probabilities(res.deal_histograms, patience.WIN_AT)}

    return load("wintable", {"variant": variant, "games": games, "seed": WIN_TABLE_SEED}, compute)[
        "w"
    ]


DECK_VALUE_GAMES = 200_000
DECK_VALUE_SEED = 81  # not the win table's 80: other games


def ev_games(seed: int, games: int, progress=None):
    """(decks, points per deal) of ``games`` games of Patience played by ``ev``, simulate's
    for ``seed``, chunk by chunk; ``progress(k)`` as each chunk of k games ends."""
    decks, points = [], []
    for index, n in chunks(games, SOLITAIRES["patience"].chunk):
        decks.append(chunk_decks(seed, index, n)[1])
        points.append(chunk_points("patience", "ev", seed, index, n))
        if progress:
            progress(n)
    return np.vstack(decks), np.vstack(points)


def _check_deck_value(arrays, params):
    from cribsolve.games.solitaire.deckvalue import N_COEF

    for name in ("coefs", "after"):
        c = arrays.get(name)
        expect(
            c is not None and c.shape == (SOLITAIRES["patience"].deals, N_COEF),
            "not a deck value table",
        )
        expect(bool((c[1:, 0] > 0).all()), "P(win) falls as the score rises")


register("deckvalue", 1, _check_deck_value)


def deck_value(progress=None, games: int = DECK_VALUE_GAMES, after: bool = False) -> np.ndarray:
    """Patience's deck value (deckvalue.py): its coefficients, fitted on ``games`` ev games
    (shipped, or fitted and kept); ``after``: the after value's, fitted on the same games."""
    from cribsolve.games.solitaire.deckvalue import fit

    def compute():
        decks, points = ev_games(DECK_VALUE_SEED, games, progress)
        wins = win_table("patience")
        return {"coefs": fit(decks, points, wins), "after": fit(decks, points, wins, True)}

    return load(
        "deckvalue", {"variant": "patience", "games": games, "seed": DECK_VALUE_SEED}, compute
    )["after" if after else "coefs"]


def simulate(
    variant: str,
    policy: str | None,
    n: int,
    seed: int = 0,
    jobs: int | None = None,
    progress=None,
    win_only: bool = False,
    where=None,
    checkpoint: str | None = None,
    points=None,
    games: bool = False,
) -> SimResult:
    """Play ``n`` games; ``progress(k)`` is called as each chunk of k games finishes.

    Cribbage Shuffle with ``win_only`` (or Square's clairvoyant bound, the same search): each
    deal is only decided at 61 (won or proven lost), which is faster; the scores are then not
    all optima, so no histogram is kept. The chunks
    run ``where`` (runner.connect; default: here on ``jobs`` threads), kept in ``checkpoint``.
    Cribbage Square's games are played by ``points`` (square.simulate passes its own): this
    module never imports square, so its win tables are not keyed by Square's code. ``games``:
    the result also holds each game as a dict of numpy columns (games_table)."""
    if variant not in SOLITAIRES:
        raise CribsolveError(f"unknown variant {variant!r} (expected {', '.join(SOLITAIRES)})")
    if (variant in SQUARES) != (points is not None):
        raise CribsolveError(f"{variant}: simulate Cribbage Square with square.simulate")
    game = SOLITAIRES[variant]
    deals, win_at, chunk = game.deals, game.win_at, game.chunk
    policy = policy or game.policies[0]
    if policy not in game.policies:
        raise CribsolveError(
            f"unknown policy {policy!r} for {variant} (expected {', '.join(game.policies)})"
        )
    if win_only and (variant, policy) not in (("shuffle", "optimal"), ("square", "clairvoyant")):
        raise CribsolveError(
            "--win-only is for --variant shuffle with the optimal policy (or "
            "square's clairvoyant bound, the same search)"
        )
    if n < 1:
        raise CribsolveError("-n must be at least 1")
    res = SimResult(
        variant,
        policy,
        n,
        seed,
        win_at,
        deal_histograms=np.zeros((deals, MAX_DEAL), dtype=np.int64),
        exact_scores=not win_only,
    )
    hist = np.zeros(MAX_DEAL * deals, dtype=np.int64)
    wins = win_table(variant) if variant in PATIENCES and policy in TABLE_POLICIES else None
    coefs = deck_value() if policy == "deck" else None
    parts = chunks(n, chunk)
    job = Job(
        chunk_counts,
        [
            (variant, policy, seed, i, size, wins, win_only, points, coefs, games)
            for i, size in parts
        ],
        [size for _, size in parts],
        {
            "variant": variant,
            "policy": policy,
            "n": n,
            "seed": seed,
            "win_only": win_only,
            "chunk": chunk,
            **({"games": True} if games else {}),
        },
    )
    played = []  # each chunk's points per game, with ``games``

    def ended():
        res.histogram = {int(s): int(hist[s]) for s in np.flatnonzero(hist)}
        if games:
            res.games = games_table(np.concatenate(played), win_at, not win_only)
        return res

    try:
        for counts in run(job, where or Local(jobs), progress, checkpoint):
            hist += counts["scores"]
            res.deal_histograms += counts["deals"]
            res.wins += int(counts["wins"][0])
            if games:
                played.append(counts["points"])
    except KeyboardInterrupt as stop:
        res.n = int(hist.sum())
        if not res.n or checkpoint:
            raise
        raise Partial(ended(), n) from stop
    return ended()
