"""Throws that count the board: each throw's probability of winning the game from the scores.

Near the end of a game the throw with the most expected points is not always the one that
wins most: what matters is who gets to the game length first, and the play counts before the
show, the pone's hand before the dealer's. So each throw is played out on ``samples``
shuffles of the unseen cards, the same shuffles for every throw (the opponent's cards, its
throw by its policy, the cut card, the play and the show: twoplayer.play_deal, both players
following the policy after my throw), and each played deal is valued as the odds table
values one (odds.after_deal): whoever reaches the game length first in it, card by card, has
won; otherwise the table's chance from the scores after it. The mean over the shuffles is
the throw's P(win); its standard error is over the shuffles.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .cards import CardError, format_cards
from .jit import njit, prange
from .odds import after_deal
from .pegging import MAX_EVENTS
from .variants.twoplayer import NP, play_deal

POLICY = "greedy"          # the rollouts' policy: the odds table's own


@dataclass
class BoardThrow:
    discard: list[int]
    keep: list[int]
    mine: float        # my expected points this deal (the play, my hand, my crib)
    theirs: float      # theirs
    win: float         # P(I win the game)
    se: float          # its standard error over the shuffles

    def as_dict(self) -> dict:
        return {"discard": format_cards(self.discard), "keep": format_cards(self.keep),
                "mine": self.mine, "theirs": self.theirs, "margin": self.mine - self.theirs,
                "win": self.win, "se": self.se}


@njit(cache=True, parallel=True)
def _rollouts(hand, unseen, seat, n_options, seeds, policies, table, pr, pegs):
    """Every throw (option of deal_options) on every shuffle: rows of PARTS and traces, the
    throw's rows together, shuffle by shuffle."""
    n, h = seeds.shape[0], hand.shape[0]
    parts = np.zeros((n_options * n, NP), dtype=np.int64)
    traces = np.zeros((n_options * n, MAX_EVENTS + 1), dtype=np.int64)
    for i in prange(n_options * n):
        o, s = i // n, i % n
        np.random.seed(seeds[s])
        rest = np.random.permutation(unseen)
        deck = np.empty(h + rest.shape[0], dtype=np.int64)
        deck[seat * h:seat * h + h] = hand            # seat 0 is dealt deck[0:h], seat 1 next
        deck[(1 - seat) * h:(1 - seat) * h + h] = rest[:h]
        deck[2 * h:] = rest[h:]
        forced = np.full(2, -1, dtype=np.int64)
        forced[seat] = o
        np.random.seed(seeds[s] + 1)                  # the same play's chances for every throw
        play_deal(deck, policies, np.zeros(2, dtype=np.int64), 0, table, parts[i], pr, pegs,
                  forced, traces[i])
    return parts, traces


@njit(cache=True)
def _wins(totals, times, reach, d, mine, theirs, length):
    out = np.empty(totals.shape[0])
    for i in range(totals.shape[0]):
        out[i] = after_deal(reach, d, mine, theirs, totals[i], times[i], length)
    return out


def throw_odds(hand, dealer: bool, mine: int, theirs: int, spec, known=(), samples: int = 1000,
               seed: int = 0) -> list[BoardThrow]:
    """Every throw of ``hand`` from the scores (``mine``, ``theirs``; ``dealer``: mine is the
    crib), the most likely to win first."""
    from .odds import reach_times, win_table
    from .pegsearch import peg_table
    from .rules import RuleSet
    from .scoring.table import rank_table
    from .simulate import CRIBBAGE_POLICIES
    from .variants.throws import deal_options
    from .variants.twoplayer import NO_PEGS
    from .analysis.discard import unseen_cards

    for name in ("stinkhole", "two_cribs", "bid"):
        if getattr(spec, name):
            raise CardError(f"the scores cannot be weighed under {name.replace('_', ' ')}: "
                            "the odds table does not model it")
    length = spec.game_length
    if not (0 <= mine < length and 0 <= theirs < length):
        raise CardError(f"scores must be below the game length ({length})")
    hand = [int(c) for c in hand]
    if len(hand) != spec.hand_size:
        raise CardError(f"give {spec.hand_size} cards, not {len(hand)}")
    rules = RuleSet(decks=spec.decks, jokers=spec.jokers)
    rules.check_cards(hand + [int(c) for c in known])
    unseen = np.array(unseen_cards(hand + [int(c) for c in known], rules), dtype=np.int64)
    if len(unseen) < spec.hand_size + spec.starters:
        raise CardError("too few unseen cards for the opponent's hand and the cut card")
    pr = spec.as_array()
    keep_idx, disc_idx = deal_options(len(hand), pr)
    seat = 1 if dealer else 0
    pol = np.array([CRIBBAGE_POLICIES[POLICY]] * 2)
    pegs = peg_table(spec) if POLICY == "expert" else NO_PEGS
    seeds = np.random.default_rng(seed).integers(0, 2 ** 62, size=samples)
    parts, traces = _rollouts(np.array(hand, dtype=np.int64), unseen, seat, len(keep_idx),
                              seeds, pol, rank_table(spec.target), pr, pegs)
    win = win_table(spec, policy=POLICY)
    reach = 1.0 - win if spec.lowball else win
    totals, times = reach_times(parts, traces)
    p = _wins(totals, times, reach, seat, mine, theirs, length).reshape(len(keep_idx), samples)
    if spec.lowball:
        p = 1.0 - p
    dealer_pts = (totals[:, 0] + totals[:, 3]).reshape(len(keep_idx), samples).mean(axis=1)
    pone_pts = (totals[:, 1] + totals[:, 2]).reshape(len(keep_idx), samples).mean(axis=1)
    my_pts, their_pts = (dealer_pts, pone_pts) if dealer else (pone_pts, dealer_pts)
    h = np.array(hand)
    out = [BoardThrow(h[disc_idx[o]].tolist(), h[keep_idx[o]].tolist(), float(my_pts[o]),
                      float(their_pts[o]), float(p[o].mean()),
                      float(p[o].std(ddof=1) / np.sqrt(samples)))
           for o in range(len(keep_idx))]
    return sorted(out, key=lambda t: -t.win)

