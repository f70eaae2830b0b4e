"""The expert's first three cards of a two-player deal, kept as it finds them. The pone's lead,
the dealer's reply to it and the pone's next card are the search's costliest decisions (the
opponent's holdings most numerous, the rest of the play longest) and its most repeated ones.
The expert's card there is a function of its ranks, the three other cards it has seen (its
throw and the starter) and the ranks laid, under one set of rules
(infoset_search.infoset_choice: its ranks searched in order, its holdings spread, nothing
drawn), so a slot per such set, filled the first time the set is met, lays what the search
would. Two threads may fill a slot at once; both write the same rank. Later cards recur too
seldom to keep: each hangs on one more card of the opponent's.

A miss costs a search (about 1.6 ms a lead, 0.7 a reply, 0.4 a next card on this machine), a
hit nothing, and the slots a million games meet are millions, so the memo is kept on disk
between runs (memo_for, keep): a table of the filled slots under the play's rules, merged
as runs add to it, and keyed like any table by what it holds (infra/store.py) with its schema
number raised whenever the search's cards change. The package ships the standard play's,
grown by 1.26 million games (catalog.ship), so that a user's first million starts warm.
"""

import json
import time

import numpy as np

from cribsolve.core.cards import RANK
from cribsolve.games.cribbage.rules.pegging import TURN, N
from cribsolve.games.cribbage.rules.spec import PLAY_FIELDS
from cribsolve.infra import store
from cribsolve.infra.jit import njit

RANKS = 14  # 0 (a joker) to 13 (a king)
FOURS, THREES = 2380, 560  # multisets of four ranks, of three: C(RANKS + 3, 4), C(RANKS + 2, 3)
TWO = FOURS * THREES * (1 + RANKS)  # the lead, then the reply to each rank led
SLOTS = TWO + THREES * THREES * RANKS * RANKS  # then the pone's next card, by the two laid


def first_cards() -> np.ndarray:
    """An empty memo (-1: not met yet), 82 MB."""
    return np.full(SLOTS, -1, dtype=np.int8)


NO_MEMO = np.zeros(0, dtype=np.int8)  # nothing kept
KIND = "first-cards"
KEEP_EVERY = 300.0  # seconds between a run's writes of what it found

# By the play's rules: [the memo, its slots filled when last read or written, when]
_MEMOS: dict[str, list] = {}


def memo_for(spec) -> np.ndarray:
    """The memo under ``spec``'s play for this process: the slots kept filled in, those the
    package ships (the standard play's) and those the user's runs kept."""
    params = table_params(spec)
    key = json.dumps(params, sort_keys=True)
    if key not in _MEMOS:
        memo = first_cards()
        for found in store.find_each(KIND, params):
            memo[_slots(found)] = found["ranks"]
        _MEMOS[key] = [memo, int((memo >= 0).sum()), time.monotonic()]
    return _MEMOS[key][0]


def keep(spec, now: bool = False) -> None:
    """Add what this process's memo under ``spec``'s play found to the one kept in the cache
    folder (read again, as another process may have added to it too), at most every
    KEEP_EVERY seconds unless ``now``. The cache folder's then holds the package's slots too:
    a whole memo, a few MB, written in a second or two."""
    params = table_params(spec)
    entry = _MEMOS.get(json.dumps(params, sort_keys=True))
    if entry is None or not (now or time.monotonic() - entry[2] >= KEEP_EVERY):
        return
    memo = entry[0]
    filled = np.count_nonzero(memo >= 0)
    if filled > entry[1]:
        for found in store.find_each(KIND, params, shipped=False):
            slots = _slots(found)
            new = memo[slots] < 0
            memo[slots[new]] = found["ranks"][new]
        table = store.keep(KIND, params, packed(memo))
        filled = table["ranks"].size
    entry[1], entry[2] = filled, time.monotonic()


def packed(memo) -> dict:
    """A memo's filled slots as a table: their gaps (a third smaller than the slots once
    compressed) and ranks."""
    filled = np.flatnonzero(memo >= 0)
    return {"gaps": np.diff(filled, prepend=0).astype(np.uint32), "ranks": memo[filled]}


def _slots(arrays):
    """The filled slots of a kept memo: its gaps (the first slot, then the steps between)."""
    return np.cumsum(arrays["gaps"], dtype=np.int64)


def _check(arrays, params):
    gaps, ranks = arrays.get("gaps"), arrays.get("ranks")
    store.expect(
        gaps is not None and ranks is not None and gaps.ndim == 1 and gaps.shape == ranks.shape,
        "not a memo of first cards",
    )
    if gaps.size:
        store.expect(
            bool((gaps[1:] > 0).all()) and int(_slots(arrays)[-1]) < SLOTS, "slots out of order"
        )
        store.expect(0 <= int(ranks.min()) and int(ranks.max()) < RANKS, "not ranks")


store.register(KIND, 1, _check, reads=PLAY_FIELDS)  # the rules its search plays under


def table_params(spec) -> dict:
    """The key of the memo under ``spec``'s play: the rules it was filled under."""
    return store.rules_key(KIND, spec)


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
