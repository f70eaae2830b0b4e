"""Best discard in the solitaires, from what the player has seen (card counting)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import CardError, format_card
from ..rules import ruleset
from ..scoring.table import rank_table
from .discard import check_hand, discard_options, summarize, unseen_cards
from .expect import WIDTH, options_distribution
from .opponent import pair_weights

SAMPLES = 2000


@dataclass
class SampledValue:
    discard: list[int]
    keep: list[int]
    net: float       # mean over the sampled second hands
    se: float        # its standard error
    samples: int

    def as_dict(self):
        return {"discard": [format_card(c) for c in self.discard],
                "keep": [format_card(c) for c in self.keep], "net": self.net, "se": self.se,
                "samples": self.samples}


def solitaire_discard(hand, variant: str, seen=(), crib=(), seed: int = 0,
                      samples: int = SAMPLES):
    """Discards of a Patience / Patience II hand, best first.

    patience: exact E[hand + crib] over the face-down pair and the starter among unseen cards.
    patience2 with ``crib`` (the two cards already in it): exact, only the starter unknown.
    patience2 first discard: the second hand is sampled ``samples`` times from the unseen
    cards and played by its best exact discard; returns SampledValues with standard errors.
    """
    rules = ruleset("pysol")
    hand = [int(c) for c in hand]
    check_hand(hand, list(seen) + list(crib), sizes=(6,))
    unseen = unseen_cards(hand + list(seen) + list(crib))
    keeps, discs = discard_options(hand, 2)
    if variant == "patience" or crib:
        if variant == "patience" and crib:
            raise CardError("--crib is for Patience II's second discard")
        if variant == "patience2" and len(crib) != 2:
            raise CardError("--crib takes the two cards already in the crib")
        cribs = np.array([list(d) + list(crib) for d in discs], dtype=np.int64)
        hists = np.zeros((15, WIDTH))
        means = np.zeros((15, 2))
        uniform = pair_weights("uniform", "dealer", rules)
        options_distribution(keeps, cribs, unseen, 1, uniform, rank_table(rules.target), False,
                             hists, means)
        return summarize(keeps, discs, hists, means)
    if variant != "patience2":
        raise CardError(f"unknown variant {variant!r}")
    from ..variants.patience import lookahead_values

    if len(unseen) < 7:
        raise CardError("too few unseen cards left for a second hand and a starter")
    rng = np.random.default_rng(seed)
    draws = np.array([rng.choice(unseen, 6, replace=False) for _ in range(samples)])
    seen_mask = np.ones(53, dtype=np.bool_)
    seen_mask[unseen] = False
    vals = lookahead_values(np.array(hand, dtype=np.int64), seen_mask, draws,
                            rank_table(rules.target))
    mean = vals.mean(axis=0)
    se = vals.std(axis=0, ddof=1) / np.sqrt(samples)
    out = [SampledValue(discs[o].tolist(), keeps[o].tolist(), float(mean[o]), float(se[o]),
                        samples) for o in range(15)]
    return sorted(out, key=lambda v: -v.net)
