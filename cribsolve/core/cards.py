"""Cards as small integers for the kernels: per-id rank, suit and value arrays, and decks.

A card id is ``(rank - 1) * 4 + suit`` for the 52 ordinary cards (rank 1 = A .. 13 = K,
suit 0..3 = C D H S) and ``JOKER`` (52) for a joker, which has rank 0 and no suit. How cards
look as text is notation.py's business.
"""

from __future__ import annotations

import numpy as np

from cribsolve.core.notation import JOKER

NO_SUIT = 4
JACK = 11

# Per-id lookup arrays shared by every kernel.
RANK = np.array([i // 4 + 1 for i in range(52)] + [0], dtype=np.int64)
SUIT = np.array([i % 4 for i in range(52)] + [NO_SUIT], dtype=np.int64)
VALUE = np.array([min(r, 10) for r in range(14)], dtype=np.int64)  # by rank; joker 0


def deck(decks: int = 1, jokers: int = 0) -> np.ndarray:
    """Every card id in play, each ordinary card ``decks`` times, plus the jokers."""
    return np.array(list(range(52)) * decks + [JOKER] * jokers, dtype=np.int64)


def without(cards, removed) -> list:
    """``cards`` less one copy of each card of ``removed``, in order: a double deck holds two
    5H, and throwing one keeps the other. ValueError where a card of ``removed`` is not left."""
    out = [int(c) for c in cards]
    for c in removed:
        out.remove(int(c))
    return out
