"""The expert's first two cards of a two-player deal, kept as it finds them. The pone's lead and
the dealer's reply to it are the search's costliest decisions (every holding still possible)
and its most repeated ones. The expert's card there is a function of its four ranks, the three
other cards it has seen (its throw and the starter) and the rank led, under one set of rules
(infoset_search.infoset_choice: its ranks searched in order, its holdings spread, nothing
drawn), so a slot per such set, filled the first time the set is met, lays what the search
would. Two threads may fill a slot at once; both write the same rank.
"""

import numpy as np

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.rules.pegging import TURN, N
from cribsolve.infra.jit import njit

RANKS = 14  # 0 (a joker) to 13 (a king)
FOURS, THREES = 2380, 560  # multisets of four ranks, of three: C(RANKS + 3, 4), C(RANKS + 2, 3)
SLOTS = FOURS * THREES * (1 + RANKS)  # the lead, then the reply to each rank led


def first_cards() -> np.ndarray:
    """An empty memo (-1: not met yet), 20 MB."""
    return np.full(SLOTS, -1, dtype=np.int8)


NO_MEMO = np.zeros(0, dtype=np.int8)  # nothing kept


@njit(cache=True)
def _multiset_index(ranks):
    """The place of ``ranks`` (sorted) among the multisets of as many ranks: colex order of the
    set ranks[i] + i, below C(RANKS + k - 1, k) for k ranks."""
    index = 0
    for i in range(ranks.shape[0]):
        x = ranks[i] + i
        c = 1  # C(x, i + 1), built up exactly
        for j in range(i + 1):
            c = c * (x - j) // (j + 1)
        index += c
    return index


@njit(cache=True)
def slot(hands, used, st, known):
    """This decision's slot in the memo, or -1 where it is not the pone's lead or the dealer's
    reply to it, with four cards each and three others seen (a throw of two and a starter)."""
    if hands.shape[0] != 2 or hands.shape[1] != 4:
        return -1
    me, n = st[TURN], st[N]
    if n > 1 or me != n:  # the pone (seat 0) leads, the dealer (1) replies
        return -1
    seen = known[me].copy()
    mine = np.empty(4, dtype=np.int64)
    for i in range(4):
        if used[me, i]:
            return -1
        mine[i] = RANK[hands[me, i]]
        seen[hands[me, i]] -= 1
    laid, led = 0, 0
    for i in range(4):
        if used[1 - me, i]:
            laid += 1
            led = RANK[hands[1 - me, i]]
            seen[hands[1 - me, i]] -= 1
    if laid != n or seen.min() < 0 or seen.sum() != 3:
        return -1
    others = np.empty(3, dtype=np.int64)
    j = 0
    for c in range(seen.shape[0]):
        for _ in range(seen[c]):
            others[j] = RANK[c]
            j += 1
    key = _multiset_index(np.sort(mine)) * THREES + _multiset_index(np.sort(others))
    return key * (1 + RANKS) + (1 + led if n else 0)


@njit(cache=True)
def first_of(hand, rank):
    """The place in ``hand`` of its first card of ``rank`` (the expert's card of that rank)."""
    for i in range(hand.shape[0]):
        if RANK[hand[i]] == rank:
            return i
    return -1
