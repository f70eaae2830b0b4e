"""The show scorer: one entry point for a hand, plus the batch, table and distribution paths."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.rules import RuleSet
from cribsolve.core.scoring.breakdown import MAX_ITEMIZED, itemize
from cribsolve.core.scoring.kernels import (
    FIFTEENS,
    FLUSH,
    NOBS,
    PAIRS,
    RUNS,
    best_wild,
    heels_points,
    score_parts,
)

CATEGORIES = ("fifteens", "pairs", "runs", "flush", "nobs")


@dataclass
class Score:
    total: int  # the hand's show points; heels is not part of it
    breakdown: dict  # category -> points, plus "heels"
    cards: list  # the cards scored (wild cards replaced by their best stand-in)
    nheld: int
    items: list = field(default_factory=list)  # itemized count for hands up to 9 held cards


def score_hand(
    held, starters=(), rules: RuleSet = RuleSet(), crib: bool = False, itemized: bool = True
) -> Score:
    """Score held cards with their starter(s) under ``rules``; checks the cards fit the deck."""
    rules.check_cards(list(held) + list(starters))
    cards = np.array(list(held) + list(starters), dtype=np.int64)
    nheld = len(held)
    full = rules.full_flush(crib)
    if rules.wild_rank:
        best = cards.copy()
        best_wild(cards, nheld, rules.target, full, rules.wild_rank, best)
        scored = best
    else:
        scored = cards
    parts = np.zeros(5, dtype=np.int64)
    total = int(score_parts(scored, nheld, rules.target, full, parts))
    breakdown = {
        name: int(parts[i]) for i, name in zip((FIFTEENS, PAIRS, RUNS, FLUSH, NOBS), CATEGORIES)
    }
    breakdown["heels"] = int(heels_points(cards, nheld))
    items = (
        itemize(scored, nheld, rules.target, full, breakdown["flush"])
        if itemized and nheld <= MAX_ITEMIZED
        else []
    )
    return Score(total, breakdown, [int(c) for c in scored], nheld, items)
