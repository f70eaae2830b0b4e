"""Scoring many hands at once: a file of hands, one per line, the last card the starter.

Text is split into card words by numpy (no Python loop per line), each distinct word is
parsed once by ``cards.parse_card``, and a parallel kernel checks and scores every line.
"""
import numpy as np
from numba import njit, prange

from ..cards import JOKER, N_IDS, CardError, parse_card
from ..rules import RuleSet
from .kernels import best_wild, score_parts
from .table import rank_table, score5_many


@njit(cache=True)
def first_bad_line(ids, offsets, decks, jokers):
    """Index of the first line holding more copies of a card than the deck has, else -1."""
    seen = np.zeros(N_IDS, dtype=np.int64)
    for i in range(offsets.shape[0] - 1):
        bad = False
        for k in range(offsets[i], offsets[i + 1]):
            seen[ids[k]] += 1
            if seen[ids[k]] > (jokers if ids[k] == JOKER else decks):
                bad = True
        for k in range(offsets[i], offsets[i + 1]):
            seen[ids[k]] = 0
        if bad:
            return i
    return -1


@njit(cache=True, parallel=True)
def score_lines(ids, offsets, target, full_flush, wild_rank):
    """Total of each line ids[offsets[i]:offsets[i+1]], the last card being the starter."""
    n = offsets.shape[0] - 1
    out = np.empty(n, dtype=np.int64)
    for i in prange(n):
        cards = ids[offsets[i]:offsets[i + 1]]
        nheld = cards.shape[0] - 1
        parts = np.zeros(5, dtype=np.int64)
        if wild_rank:
            best = cards.copy()
            out[i] = best_wild(cards, nheld, target, full_flush, wild_rank, best)
        else:
            out[i] = score_parts(cards, nheld, target, full_flush, parts)
    return out


def tokenize(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Card ids, line offsets into them, and each line's 1-based number in the text."""
    b = np.frombuffer(data, dtype=np.uint8)
    space = (b == 32) | ((b >= 9) & (b <= 13)) | (b == 44)
    starts = np.flatnonzero(~space & np.concatenate(([True], space[:-1])))
    line_no = np.concatenate(([0], np.cumsum(b == 10)))[starts] + 1
    words = data.replace(b",", b" ").split()
    lookup = {}
    for w in set(words):
        try:
            lookup[w] = parse_card(w.decode("utf-8", "replace"))
        except CardError as e:
            line = int(line_no[words.index(w)])
            raise CardError(f"line {line}: {e}") from None
    ids = np.fromiter((lookup[w] for w in words), dtype=np.int64, count=len(words))
    lines, first = np.unique(line_no, return_index=True)
    offsets = np.append(first, len(words)).astype(np.int64)
    return ids, offsets, lines


def score_batch(data: bytes, rules: RuleSet, crib: bool = False) -> np.ndarray:
    """Show totals (heels apart) of every hand in ``data``, one per line, last card the starter."""
    ids, offsets, lines = tokenize(data)
    sizes = np.diff(offsets)
    if len(sizes) and sizes.min() < 2:
        raise CardError(f"line {int(lines[np.argmin(sizes)])}: a hand needs at least one held "
                        "card and a starter")
    bad = first_bad_line(ids, offsets, rules.decks, rules.jokers)
    if bad >= 0:
        try:
            rules.check_cards(ids[offsets[bad]:offsets[bad + 1]])
        except CardError as e:
            raise CardError(f"line {int(lines[bad])}: {e}") from None
    full = rules.full_flush(crib)
    if len(sizes) and rules.is_plain and (sizes == 5).all():
        return score5_many(rank_table(rules.target), ids.reshape(-1, 5), full).astype(np.int64)
    return score_lines(ids, offsets, rules.target, full, rules.wild_rank)
