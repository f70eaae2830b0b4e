"""How good is optimal play in Cribbage Patience and Patience II (``bracket``): on simulate's
decks, the best policy's win rate below, and above it the penalised bound (bracket_bound.py)
and the clairvoyant one, each with its 95% interval. Cribbage Square's is square.bracket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cribsolve.errors import CribsolveError
from cribsolve.games.solitaire.bracket_bound import bound_games
from cribsolve.games.solitaire.facts import NEXT_HANDS, PATIENCES, SOLITAIRES
from cribsolve.games.solitaire.patience import WIN_AT
from cribsolve.infra.runner import Job, Local, chunks, run

# as_dict's measures, each with its 95% CI (``<measure>_ci``): the policies' win rates, the
# bounds, and the differences between them; COLUMNS is --csv's header, named as as_dict is
MEASURES = (
    "win_rate",
    "charged_rate",
    "win_policy_rate",
    "gain",
    "upper_bound",
    "clairvoyant",
    "width",
    "width_penalised",
    "width_clairvoyant",
)
COLUMNS = ["variant", "n", "seed", "next_hands", "policy", "measure", "value", "ci_low", "ci_high"]


@dataclass
class Bracket:
    """The win rate of the best policy and the bounds above it, all on the same decks."""

    variant: str
    n: int
    seed: int
    next_hands: int  # hands drawn per look-ahead charge (Patience)
    wins: int = 0  # the best policy's
    win_policy_wins: int = 0  # the win policy's, where it is not the best
    gain_sq: int = 0  # (best policy's win - win policy's win) squared, summed
    clairvoyant_wins: int = 0
    bound_sum: float = 0.0  # per-deck penalised values: sum and sum of squares
    bound_sq: float = 0.0
    path_sum: float = 0.0  # per-deck best policy's path (chunk_bracket): sum, squares
    path_sq: float = 0.0
    gap_sq: float = 0.0  # (penalised value - path) squared, summed

    def _mean_ci(self, total, squares):
        mean = total / self.n
        var = max(0.0, squares / self.n - mean * mean) * self.n / max(1, self.n - 1)
        half = 1.959964 * math.sqrt(var / self.n)
        return mean, [mean - half, mean + half]

    def as_dict(self) -> dict:
        """The measures, with ``width`` against the tighter upper side (``upper_side``): the
        bound of the lower mean, each valid alone (a deck's lesser of the two is not); both
        widths are given too, each paired deck by deck: the penalised bound less the best
        policy's path; the share of decks only clairvoyance wins (it wins every deck any
        policy wins), with Wilson's interval."""
        from cribsolve.infra.stats import wilson

        upper, upper_ci = self._mean_ci(self.bound_sum, self.bound_sq)
        only = self.clairvoyant_wins - self.wins  # the decks only clairvoyance wins
        widths = {
            "penalised": self._mean_ci(self.bound_sum - self.path_sum, self.gap_sq),
            "clairvoyant": (only / self.n, list(wilson(only, self.n))),
        }
        clairvoyant = self.clairvoyant_wins / self.n
        side = "penalised" if upper <= clairvoyant else "clairvoyant"  # the tighter bound
        d = {
            "variant": self.variant,
            "n": self.n,
            "seed": self.seed,
            "policy": SOLITAIRES[self.variant].best,
            "next_hands": self.next_hands,
            "win_rate": self.wins / self.n,
            "win_rate_ci": list(wilson(self.wins, self.n)),
            "upper_bound": upper,
            "upper_bound_ci": upper_ci,
            "clairvoyant": clairvoyant,
            "clairvoyant_ci": list(wilson(self.clairvoyant_wins, self.n)),
            "upper_side": side,
            "width": widths[side][0],
            "width_ci": widths[side][1],
        }
        for name, (w, ci) in widths.items():
            d[f"width_{name}"], d[f"width_{name}_ci"] = w, ci
        if self.variant == "patience":
            d["charged_rate"], d["charged_rate_ci"] = self._mean_ci(self.path_sum, self.path_sq)
        if SOLITAIRES[self.variant].best != "win":
            gain, gain_ci = self._mean_ci(self.wins - self.win_policy_wins, self.gain_sq)
            d.update(
                win_policy_rate=self.win_policy_wins / self.n,
                win_policy_rate_ci=list(wilson(self.win_policy_wins, self.n)),
                gain=gain,
                gain_ci=gain_ci,
            )
        return d

    def csv_rows(self) -> list[list]:
        """COLUMNS: one row per measure of as_dict (MEASURES, those it has), its CI beside it."""
        d = self.as_dict()
        return [
            [d["variant"], d["n"], d["seed"], d["next_hands"], d["policy"], m, d[m], *d[m + "_ci"]]
            for m in MEASURES
            if m in d
        ]


def chunk_bracket(
    variant: str,
    seed: int,
    index: int,
    games: int,
    next_hands: int,
    wins: np.ndarray,
    coefs: np.ndarray,
    after: np.ndarray,
) -> dict:
    """Chunk ``index`` of a bracket, per deck: whether the best, the win and the clairvoyant
    policies won (simulate's games of the same chunk), the penalised bound (charged with
    the deck value of ``coefs`` and the after value of ``after``; none: W alone) and the best
    policy's ``path`` (Patience: its path_value; Patience II: its win, uncharged). A pure
    function of its arguments, so a chunk can run anywhere or be read back from a
    checkpoint."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.solitaire.simulate import chunk_decks, chunk_points

    best = SOLITAIRES[variant].best

    def won(policy):
        return (
            chunk_points(
                variant,
                policy,
                seed,
                index,
                games,
                wins,
                False,
                coefs if policy == "deck" else None,
            ).sum(axis=1)
            >= WIN_AT
        )

    decks = chunk_decks(seed, index, games)[1]  # as simulate.chunk_points deals
    looks = np.random.default_rng([seed, index, 1]).random((games, 4, next_hands, 6))
    bound, path = bound_games(
        decks, variant == "patience2", wins, coefs, after, rank_table(15), looks
    )
    out = {"best": won(best), "clairvoyant": won("clairvoyant"), "bound": bound}
    out["path"] = out["best"].astype(float) if variant == "patience2" else path
    out["win"] = out["best"] if best == "win" else won("win")
    return out


def bracket(
    variant: str,
    n: int,
    seed: int = 0,
    jobs: int | None = None,
    progress=None,
    next_hands: int = NEXT_HANDS,
    where=None,
    checkpoint: str | None = None,
) -> Bracket:
    """Play the best and the clairvoyant policies and compute the penalised bound on ``n``
    decks: simulate's decks for the same seed (so ``win_rate`` is simulate --policy P's for
    P = SOLITAIRES[variant].best; where that is not ``win``, ``win`` is played too, for the
    gain). Patience charges each deal for the next hand with ``next_hands`` drawn hands (0:
    not at all). Chunks as simulate's, run ``where`` (runner.connect; default: here on ``jobs``
    threads), kept in ``checkpoint``; ``progress(k)`` is called as each chunk of k decks ends.
    Patience's deck policy uses the deck value, its charges the after value (deckvalue.py)."""
    from cribsolve.games.solitaire.deckvalue import SCORE_ONLY
    from cribsolve.games.solitaire.simulate import (
        DECK_VALUE_SEED,
        WIN_TABLE_SEED,
        deck_value,
        win_table,
    )

    if variant not in PATIENCES:
        raise CribsolveError(f"unknown variant {variant!r} (expected patience or patience2)")
    if seed in (WIN_TABLE_SEED, DECK_VALUE_SEED):  # phi would be fitted on the decks it charges
        raise CribsolveError(
            f"--seed {seed} deals the games the win table and the deck value "
            "were fitted on: choose another seed for a bound"
        )
    if next_hands < 0:
        raise CribsolveError("--next-hands must be at least 0")
    if n < 1:
        raise CribsolveError("-n must be at least 1")
    res = Bracket(variant, n, seed, 0 if variant == "patience2" else next_hands)
    wins, chunk = win_table(variant), SOLITAIRES[variant].chunk
    coefs = deck_value() if variant == "patience" else SCORE_ONLY
    after = deck_value(after=True) if variant == "patience" else SCORE_ONLY
    parts = chunks(n, chunk)
    job = Job(
        chunk_bracket,
        [(variant, seed, i, games, res.next_hands, wins, coefs, after) for i, games in parts],
        [games for _, games in parts],
        {
            "run": "bracket",
            "variant": variant,
            "n": n,
            "seed": seed,
            "next_hands": res.next_hands,
            "chunk": chunk,
        },
    )
    plain = SOLITAIRES[variant].best == "win"
    for c in run(job, where or Local(jobs), progress, checkpoint):
        won, ub = c["best"], c["bound"]
        res.wins += int(won.sum())
        if not plain:
            res.win_policy_wins += int(c["win"].sum())
            res.gain_sq += int((won != c["win"]).sum())
        res.clairvoyant_wins += int(c["clairvoyant"].sum())
        res.bound_sum += float(ub.sum())
        res.bound_sq += float((ub * ub).sum())
        res.path_sum += float(c["path"].sum())
        res.path_sq += float((c["path"] ** 2).sum())
        res.gap_sq += float(((ub - c["path"]) ** 2).sum())
    return res
