"""The itemized count a player says aloud: each fifteen, pair and run with its cards.

Listing needs the combinations themselves, so this is only for hands of up to 9 held cards
(plus starters); the kernels give the totals for any size, and a test holds the two equal.
"""

from itertools import combinations, product

from cribsolve.core.cards import JACK, RANK, SUIT, VALUE

MAX_ITEMIZED = 9


def itemize(cards, nheld, target, full_flush, flush_points):
    """[(category, points, cards)] in the order a count is said: fifteens, pairs, runs,
    flush, nobs."""
    cards = [int(c) for c in cards]
    items = []
    for k in range(1, len(cards) + 1):
        for combo in combinations(cards, k):
            if sum(VALUE[RANK[c]] for c in combo) == target:
                items.append(("fifteen", 2, combo))
    for a, b in combinations(cards, 2):
        if RANK[a] == RANK[b]:
            items.append(("pair", 2, (a, b)))
    by_rank = {}
    for c in cards:
        by_rank.setdefault(int(RANK[c]), []).append(c)
    r = 0
    while r < 14:
        if r not in by_rank:
            r += 1
            continue
        block = []
        while r in by_rank:
            block.append(by_rank[r])
            r += 1
        if len(block) >= 3:
            for run in product(*block):
                items.append((f"run of {len(block)}", len(block), run))
    if flush_points:
        suit = SUIT[cards[0]]
        items.append(("flush", flush_points, tuple(c for c in cards if SUIT[c] == suit)))
    for j in cards[:nheld]:
        if RANK[j] == JACK:
            for s in cards[nheld:]:
                if SUIT[s] == SUIT[j]:
                    items.append(("nobs", 1, (j,)))
    return items
