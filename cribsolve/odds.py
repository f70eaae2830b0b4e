"""The probability of winning two-player cribbage from any board position.

One deal's points come in three stages, in the order they are counted: the starter (heels,
dealer) and the play (both players), then the pone's hand, then the dealer's hand and crib.
Their distributions are measured once per rule set by simulating whole deals (EV discards,
greedy pegging on both sides, both playing the spec's rules; kept on disk), joint within each
stage and taken as independent between the play and the show (the standard game's table to
121 ships with the package). A dynamic program then runs over every position (my score, their
score, who deals) from the top down: every deal scores at least one point in the play (the
last card), so each position only needs positions with a larger total. When both players
would pass the game length during the same play, the one with the smaller share of their
play points still to go is taken to get there first (on a tie, the pone, who leads). Under
lowball, reaching the game length first loses, so the chance of winning is the chance of not
getting there first.
"""
from __future__ import annotations

from dataclasses import asdict, replace

import numpy as np

from .jit import njit
from .tables import expect, load, register
from .variants.spec import CribbageSpec

DEALS = 200_000
SEED = 121


def stage_distributions(parts: np.ndarray):
    """(play outcomes [heels, dealer pegging, pone pegging], show outcomes [pone hand, dealer
    hand + crib]) as unique rows with probabilities, from rows of twoplayer.PARTS."""
    play = parts[:, :3]
    show = np.stack([parts[:, 3], parts[:, 4] + parts[:, 5]], axis=1)
    out = []
    for rows in (play, show):
        uniq, counts = np.unique(rows, axis=0, return_counts=True)
        out += [uniq.astype(np.int64), counts / counts.sum()]
    return tuple(out)


@njit(cache=True)
def _win_tables(play, p_play, show, p_show, length):
    """win[d, a, b]: P(the player at a reaches ``length`` before the player at b), d = 1 when
    that player deals next."""
    win = np.zeros((2, length, length))
    after = np.zeros((2, length, length))     # the same, after the play, before the show
    for total in range(2 * length - 2, -1, -1):
        for a in range(max(0, total - length + 1), min(length - 1, total) + 1):
            b = total - a
            for d in range(2):                  # d = 1: I deal
                w = 0.0
                for k in range(play.shape[0]):
                    heels, dp, pp = play[k, 0], play[k, 1], play[k, 2]
                    mine, theirs = (a + heels, b) if d else (a, b + heels)
                    if d and mine >= length:
                        w += p_play[k]
                        continue
                    if not d and theirs >= length:
                        continue
                    my_peg, their_peg = (dp, pp) if d else (pp, dp)
                    m2, t2 = mine + my_peg, theirs + their_peg
                    if m2 >= length and t2 >= length:   # a tie goes to the pone, who leads
                        mine_first = (length - mine) * their_peg - (length - theirs) * my_peg
                        w += p_play[k] * (mine_first < 0 or (mine_first == 0 and not d))
                    elif m2 >= length:
                        w += p_play[k]
                    elif t2 < length:
                        w += p_play[k] * after[d, m2, t2]
                win[d, a, b] = w
            for d in range(2):
                v = 0.0
                for k in range(show.shape[0]):
                    ph, dc = show[k, 0], show[k, 1]
                    if d:                       # pone (them) counts first, then me
                        if b + ph >= length:
                            continue
                        if a + dc >= length:
                            v += p_show[k]
                            continue
                        v += p_show[k] * win[0, a + dc, b + ph]
                    else:
                        if a + ph >= length:
                            v += p_show[k]
                            continue
                        if b + dc >= length:
                            continue
                        v += p_show[k] * win[1, a + ph, b + dc]
                after[d, a, b] = v
    return win


def deal_parts(spec: CribbageSpec, deals: int = DEALS, seed: int = SEED,
               progress=None) -> np.ndarray:
    """PARTS of ``deals`` whole deals under ``spec`` (its game length plays no part)."""
    from .scoring.table import rank_table
    from .variants.twoplayer import deal_outcomes

    seeds = np.random.default_rng(seed).integers(0, 2 ** 62, size=deals)
    pol = np.array([[1, 1], [1, 1]])              # EV discards, greedy pegging
    out = []
    for start in range(0, deals, 20_000):
        out.append(deal_outcomes(seeds[start:start + 20_000], pol, rank_table(spec.target),
                                 spec.as_array()))
        if progress:
            progress(len(out[-1]))
    return np.concatenate(out)


def _check_deals(arrays, params):
    from .variants.twoplayer import NP

    parts = arrays.get("parts")
    expect(parts is not None and parts.shape == (params["deals"], NP), "not a table of deals")
    expect(int(parts.min()) >= 0 and int(parts[:, 0].max()) <= 2 * params["starters"],
           "impossible deal points")


def _check_odds(arrays, params):
    win, n = arrays.get("win"), params["game_length"]
    expect(win is not None and win.shape == (2, n, n), "not an odds table")
    expect(float(win.min()) >= -1e-9 and float(win.max()) <= 1 + 1e-9, "probabilities outside [0, 1]")
    # (a, b, I deal) is (b, a, they deal) seen from the other side: the two add to 1
    expect(float(np.abs(win[1] + win[0].T - 1).max()) < 1e-9, "the two seats do not add to 1")


register("deals", __name__, _check_deals)
register("odds", __name__, _check_odds)


def win_table(spec: CribbageSpec = CribbageSpec(), progress=None,
              deals: int = DEALS) -> np.ndarray:
    """win[d, a, b] for every position below the game length, from ``deals`` simulated deals
    under ``spec``."""
    deal_spec = asdict(replace(spec, game_length=CribbageSpec.game_length))

    def compute():
        parts = load("deals", {"deals": deals, "seed": SEED, **deal_spec},
                     lambda: {"parts": deal_parts(spec, deals, SEED, progress)})["parts"]
        reach = _win_tables(*stage_distributions(parts), spec.game_length)
        return {"win": 1.0 - reach if spec.lowball else reach}
    return load("odds", {"deals": deals, "seed": SEED, **asdict(spec)}, compute)["win"]
