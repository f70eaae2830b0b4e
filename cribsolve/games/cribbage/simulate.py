"""Whole two-player games played out by the engine (game.py), seeded and chunked as every
simulation is (infra/runner.py): a chunk is a pure function of its index, so the numbers are
the same for any thread count or chunk order.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from cribsolve.errors import CribsolveError
from cribsolve.games.cribbage.spec import CribbageSpec
from cribsolve.infra.runner import Job, Local, chunks, run
from cribsolve.infra.stats import wilson

CRIBBAGE_POLICIES = {"greedy": (1, 1), "lookahead": (1, 2), "expert": (2, 4), "expert1": (2, 3),
                     "random": (0, 0)}
CRIBBAGE_CHUNK = 2_000


@dataclass
class CribbageResult:
    """Whole two-player games: player 0 plays ``policy``, player 1 ``opponent_policy``."""
    policy: str
    opponent_policy: str
    n: int
    seed: int
    spec: CribbageSpec
    rows: np.ndarray            # one row per game, game.play_game's ``out``

    def as_dict(self) -> dict:
        from cribsolve.games.cribbage.game import NP, TIE

        r = self.rows
        first_wins = int((r[:, 0] == r[:, 1]).sum())
        deals = r[:, 5].sum()
        per_deal = r[:, 6:6 + NP].sum(axis=0) / max(deals, 1)
        heels, dpeg, ppeg, phand, dhand, crib, pcrib = per_deal.tolist()
        lo, hi = wilson(first_wins, self.n)
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
        """The win-rate table's row; its variant names the house rules (the JSON's "rules"),
        so rows of different games never share a key."""
        d = self.as_dict()
        rules = "" if self.spec.is_standard else f" ({self.spec.describe()})"
        return [f"cribbage{rules}", f"{self.policy}/{self.opponent_policy}", self.n, self.seed,
                d["wins"], d["win_rate"], *d["win_rate_ci"], None, None]


def cribbage_games(policies: tuple[str, str], spec: CribbageSpec, seed, games: int,
                   start=(0, 0, -1)) -> np.ndarray:
    """play_game's rows of ``games`` games from ``start`` (game.play_game), each game's
    seed drawn from numpy's generator seeded with ``seed``."""
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.game import play_games

    seeds = np.random.default_rng(seed).integers(0, 2 ** 62, size=games)
    pol = np.array([CRIBBAGE_POLICIES[p] for p in policies])
    return play_games(seeds, pol, rank_table(spec.target), spec.as_array(),
                      tables_for(policies, spec), start)


def tables_for(policies, spec: CribbageSpec) -> tuple:
    """expert_tables where one of ``policies`` is an expert, else none (game.NO_EXPERT)."""
    from cribsolve.games.cribbage.game import NO_EXPERT

    return expert_tables(spec) if any(p.startswith("expert") for p in policies) else NO_EXPERT


def expert_tables(spec: CribbageSpec) -> tuple:
    """What the expert player reads in the game engine (game.play_deal's ``expert``):
    its pegging table and its throw model."""
    from cribsolve.games.cribbage.inference import throw_model
    from cribsolve.games.cribbage.search import peg_table

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
            raise CribsolveError(f"unknown policy {p!r} for cribbage "
                                 f"(expected {', '.join(CRIBBAGE_POLICIES)})")
    if n < 1:
        raise CribsolveError("-n must be at least 1")
    parts = chunks(n, CRIBBAGE_CHUNK)
    job = Job(cribbage_chunk, [((policy, opponent_policy), spec, seed, i, games)
                               for i, games in parts], [games for _, games in parts],
              {"variant": "cribbage", "policy": policy, "opponent_policy": opponent_policy,
               "n": n, "seed": seed, "spec": asdict(spec), "chunk": CRIBBAGE_CHUNK})
    rows = [c["rows"] for c in run(job, where or Local(jobs), progress, checkpoint)]
    return CribbageResult(policy, opponent_policy, n, seed, spec, np.concatenate(rows))
