"""A deliberately slow scorer straight from the definitions in RULES.md §2, for tests only.

It walks every subset of the cards and shares no code with the package but the card ids.
"""

from itertools import combinations

RANK_OF = lambda c: 0 if c == 52 else c // 4 + 1  # noqa: E731
SUIT_OF = lambda c: None if c == 52 else c % 4  # noqa: E731
VALUE_OF = lambda c: min(RANK_OF(c), 10)  # noqa: E731


def is_run(cards):
    ranks = sorted(RANK_OF(c) for c in cards)
    return len(cards) >= 3 and all(b - a == 1 for a, b in zip(ranks, ranks[1:]))


def slow_score(held, starters, target=15, full_flush=False):
    cards = list(held) + list(starters)
    idx = range(len(cards))
    subsets = [s for k in range(1, len(cards) + 1) for s in combinations(idx, k)]
    fifteens = 2 * sum(1 for s in subsets if sum(VALUE_OF(cards[i]) for i in s) == target)
    pairs = 2 * sum(1 for a, b in combinations(cards, 2) if RANK_OF(a) == RANK_OF(b))
    runs_sets = [set(s) for s in subsets if is_run([cards[i] for i in s])]
    runs = sum(len(r) for r in runs_sets if not any(r < o for o in runs_sets))
    flush = 0
    suits = {SUIT_OF(c) for c in held}
    if len(held) >= 4 and len(suits) == 1 and None not in suits:
        (suit,) = suits
        extra = sum(1 for s in starters if SUIT_OF(s) == suit)
        if not full_flush or extra == len(starters):
            flush = len(held) + extra
    nobs = sum(1 for j in held for s in starters if RANK_OF(j) == 11 and SUIT_OF(j) == SUIT_OF(s))
    return {"fifteens": fifteens, "pairs": pairs, "runs": runs, "flush": flush, "nobs": nobs}


def slow_wild_score(held, starters, wild_rank, target=15, full_flush=False):
    """Best total over every card (of the 52) for each card of the wild rank."""
    cards = list(held) + list(starters)
    wild = [i for i, c in enumerate(cards) if RANK_OF(c) == wild_rank]
    best = -1
    for sub in __import__("itertools").product(range(52), repeat=len(wild)):
        trial = list(cards)
        for i, c in zip(wild, sub):
            trial[i] = c
        t = sum(slow_score(trial[: len(held)], trial[len(held) :], target, full_flush).values())
        best = max(best, t)
    return best
