"""Best discard in the solitaires, from what the player has seen (card counting)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribsolve.core.expect import N_CLASSES, OFFSET, WIDTH, options_distribution
from cribsolve.core.hand_options import check_hand, discard_options, summarize, unseen_cards
from cribsolve.core.notation import format_card
from cribsolve.core.rules import ruleset
from cribsolve.core.scoring.table import rank_table
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.solitaire.facts import PATIENCES, SOLITAIRES

SAMPLES = 2000


@dataclass
class SampledValue:
    discard: list[int]
    keep: list[int]
    net: float  # expected points of the deal (both hands, crib, heels), sampled mean
    se: float  # its standard error
    samples: int
    win: float | None = None  # P(win), sampled mean, with a score
    win_se: float | None = None
    exact: bool = False  # every second hand taken (the last deal): se 0

    def as_dict(self):
        d = {
            "discard": [format_card(c) for c in self.discard],
            "keep": [format_card(c) for c in self.keep],
            "net": self.net,
            "se": self.se,
            "samples": self.samples,
            "exact": self.exact,
        }
        if self.win is not None:
            d["win"], d["win_se"] = self.win, self.win_se
        return d


def solitaire_discard(
    hand,
    variant: str,
    seen=(),
    crib=(),
    kept=(),
    score: int | None = None,
    deal: int | None = None,
    seed: int = 0,
    samples: int = SAMPLES,
):
    """Discards of a Patience / Patience II hand, best first.

    patience: exact E[hand + crib] over the face-down pair and the starter among unseen cards.
    patience2 with ``crib`` (the two cards already in it): exact, only the starter unknown.
    patience2 first discard: the second hand is sampled ``samples`` times from the unseen
    cards and played by its best exact discard; returns SampledValues with standard errors.
    In the last deal (seven cards unseen) every second hand is taken instead, exactly (se 0,
    samples 7).
    With ``score`` (points so far) and ``deal`` (1-based), each discard also gets P(win):
    exact over this deal's cards, with the win table (simulate.win_table) for the deals after,
    in Patience the deck value of the cards still unseen (deckvalue.py, the deck policy's).
    Patience II's second discard then needs ``kept``, the four cards kept from the first hand.
    """
    from cribsolve.games.solitaire.deckvalue import continuation
    from cribsolve.games.solitaire.patience import (
        NO_WINS,
        WIN_AT,
        last_second_hands,
        lookahead_values,
        second_discard_values,
    )
    from cribsolve.games.solitaire.simulate import deck_value, win_table

    if variant not in PATIENCES:
        raise CribsolveError(f"unknown variant {variant!r}")
    rules = ruleset("pysol")
    table = rank_table(rules.target)
    hand = [int(c) for c in hand]
    known = list(seen) + list(crib) + list(kept)
    check_hand(hand, known, sizes=(6,))
    unseen = unseen_cards(hand + known)
    seen_mask = np.ones(53, dtype=np.bool_)
    seen_mask[unseen] = False
    keeps, discs = discard_options(hand, 2)
    if variant == "patience" and (crib or kept):
        raise CribsolveError("--crib-cards and --kept are for Patience II's second discard")
    if crib and len(crib) != 2:
        raise CardError("--crib-cards takes the two cards already in the crib")
    if kept and (len(kept) != 4 or not crib):
        raise CardError("--kept takes the four cards kept from the first hand, with --crib")
    w_next = NO_WINS
    if score is not None:
        deals = SOLITAIRES[variant].deals
        if deal is None or not 1 <= deal <= deals or score < 0:
            raise CribsolveError(f"--score S needs --deal K with K from 1 to {deals}")
        if crib and not kept:
            raise CribsolveError(
                "with --score, the second discard needs --kept (the first hand's "
                "four kept cards: they score with the same starter)"
            )
        w_next = win_table(variant)[deals - deal]
        if variant == "patience":
            w_next = np.empty(WIN_AT + 1)
            continuation(win_table(variant), deck_value(), deals - deal, seen_mask, w_next)
    if variant == "patience" or crib:
        cribs = np.array([list(d) + list(crib) for d in discs], dtype=np.int64)
        uniform = np.ones(N_CLASSES)

        def distribution(heels):
            hists, means = np.zeros((15, WIDTH)), np.zeros((15, 2))
            options_distribution(
                keeps, cribs, unseen, 1, uniform, table, False, heels, hists, means
            )
            return hists, means

        hists, means = distribution(False)
        win = None
        if score is not None and variant == "patience":
            reach = np.minimum(score + np.arange(WIDTH) - OFFSET, WIN_AT).clip(0)
            win = distribution(True)[0] @ w_next[reach]
        elif score is not None:
            win = second_discard_values(
                np.array(kept, dtype=np.int64),
                np.array(hand),
                np.array(crib, dtype=np.int64),
                seen_mask,
                score,
                w_next,
                table,
            )[1]
        return summarize(keeps, discs, hists, means, win)
    if len(unseen) < 7:
        raise CardError("too few unseen cards left for a second hand and a starter")
    exact = len(unseen) == 7  # the last deal: every second hand
    if exact:
        draws = last_second_hands(np.array(unseen, dtype=np.int64))
    else:
        rng = np.random.default_rng(seed)
        draws = np.array([rng.choice(unseen, 6, replace=False) for _ in range(samples)])
    h1 = np.array(hand, dtype=np.int64)

    def sampled(s, w):
        vals = lookahead_values(h1, seen_mask, draws, s, w, table)
        se = np.zeros(15) if exact else vals.std(axis=0, ddof=1) / np.sqrt(len(draws))
        return vals.mean(axis=0), se

    mean, se = sampled(0, NO_WINS)
    win, win_se = sampled(score, w_next) if score is not None else (None, None)
    out = [
        SampledValue(
            discs[o].tolist(),
            keeps[o].tolist(),
            float(mean[o]),
            float(se[o]),
            len(draws),
            None if win is None else float(win[o]),
            None if win is None else float(win_se[o]),
            exact,
        )
        for o in range(15)
    ]
    return sorted(out, key=lambda v: (-(v.win or 0.0), -v.net))
