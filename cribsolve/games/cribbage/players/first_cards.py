"""The expert's first three cards of a two-player deal, kept as it finds them. The pone's lead,
the dealer's reply to it and the pone's next card are the search's costliest decisions (the
opponent's holdings most numerous, the rest of the play longest) and its most repeated ones.
The expert's card there is a function of its ranks, the three other cards it has seen (its
throw and the starter) and the ranks laid, under one set of rules
(infoset_search.infoset_choice: its ranks searched in order, its holdings spread, nothing
drawn), so a slot per such set, filled the first time the set is met, lays what the search
would. Two threads may fill a slot at once; both write the same rank. Later cards recur too
seldom to keep: each hangs on one more card of the opponent's.
"""

import numpy as np

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.rules.pegging import TURN, N
from cribsolve.infra.jit import njit

RANKS = 14  # 0 (a joker) to 13 (a king)
FOURS, THREES = 2380, 560  # multisets of four ranks, of three: C(RANKS + 3, 4), C(RANKS + 2, 3)
TWO = FOURS * THREES * (1 + RANKS)  # the lead, then the reply to each rank led
SLOTS = TWO + THREES * THREES * RANKS * RANKS  # then the pone's next card, by the two laid


def first_cards() -> np.ndarray:
    """An empty memo (-1: not met yet), 82 MB."""
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
    """This decision's slot in the memo, or -1 where it is not the pone's lead, the dealer's
    reply to it or the pone's next card, with four cards each and three others seen (a throw of
    two and a starter)."""
    if hands.shape[0] != 2 or hands.shape[1] != 4:
        return -1
    me, n = st[TURN], st[N]
    if n > 2 or me != n % 2:  # the pone (seat 0) leads, the dealer (1) replies, the pone again
        return -1
    seen = known[me].copy()
    mine = np.empty(4 - n // 2, dtype=np.int64)  # unplayed
    a, led, laid, theirs = 0, 0, 0, 0
    for i in range(4):
        seen[hands[me, i]] -= 1
        if used[me, i]:
            led = RANK[hands[me, i]]
        elif a < mine.shape[0]:
            mine[a] = RANK[hands[me, i]]
            a += 1
        else:
            return -1
        if used[1 - me, i]:
            laid += 1
            theirs = RANK[hands[1 - me, i]]
            seen[hands[1 - me, i]] -= 1
    if a != mine.shape[0] or laid != (n + 1) // 2 or seen.min() < 0 or seen.sum() != 3:
        return -1
    others = np.empty(3, dtype=np.int64)
    j = 0
    for c in range(seen.shape[0]):
        for _ in range(seen[c]):
            others[j] = RANK[c]
            j += 1
    key = _multiset_index(np.sort(mine)) * THREES + _multiset_index(np.sort(others))
    if n == 2:
        return TWO + (key * RANKS + led) * RANKS + theirs
    return key * (1 + RANKS) + (1 + theirs if n else 0)


@njit(cache=True)
def first_of(hand, used, rank):
    """The place in ``hand`` of its first unplayed card of ``rank`` (the expert's card of that
    rank)."""
    for i in range(hand.shape[0]):
        if not used[i] and RANK[hand[i]] == rank:
            return i
    return -1
