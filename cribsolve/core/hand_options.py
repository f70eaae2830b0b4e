"""The options of a hand: every way to put cards away, the cards still unseen, and the value of
each option as every analysis reports it (DiscardValue), for the two-player game and the
solitaires alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from cribsolve.core.expect import OFFSET, WIDTH
from cribsolve.core.notation import JOKER, N_IDS, format_card
from cribsolve.core.rules import RuleSet
from cribsolve.errors import CardError


@dataclass
class DiscardValue:
    discard: list[int]
    keep: list[int]
    hand: float  # expected points of the kept hand
    crib: float  # expected points of the crib
    net: float  # hand + crib (dealer) or hand - crib (pone)
    std: float
    min: int
    max: int
    probabilities: np.ndarray  # P(net = v) at index v + OFFSET
    win: float | None = None  # solitaires with a score: P(finishing at the target or more)

    @property
    def distribution(self) -> dict:
        """Net value -> probability, for the values that can happen."""
        return {
            int(i) - OFFSET: float(self.probabilities[i])
            for i in np.flatnonzero(self.probabilities)
        }

    def as_dict(self, with_distribution=False):
        d = {
            "discard": [format_card(c) for c in self.discard],
            "keep": [format_card(c) for c in self.keep],
            "hand": self.hand,
            "crib": self.crib,
            "net": self.net,
            "std": self.std,
            "min": self.min,
            "max": self.max,
        }
        if self.win is not None:
            d["win"] = self.win
        if with_distribution:
            d["distribution"] = {str(k): v for k, v in self.distribution.items()}
        return d


def option_indices(size, n_discard):
    """(kept, discarded) positions for every way to put ``n_discard`` of ``size`` cards away."""
    discs = list(combinations(range(size), n_discard))
    keeps = [[i for i in range(size) if i not in d] for d in discs]
    return np.array(keeps, dtype=np.int64), np.array(discs, dtype=np.int64)


def discard_options(hand, n_discard):
    """(keeps, discards) card arrays for every way to put ``n_discard`` of ``hand`` away."""
    keep_idx, disc_idx = option_indices(len(hand), n_discard)
    hand = np.asarray(hand, dtype=np.int64)
    return hand[keep_idx], hand[disc_idx]


def unseen_cards(seen, rules: RuleSet = RuleSet()) -> np.ndarray:
    """The cards of the rules' deck not among ``seen`` (a list of cards), copies repeated, in
    id order: what the game engine's kernel play.unseen_cards gives from counts and a spec."""
    counts = np.bincount(np.asarray(list(seen), dtype=np.int64), minlength=N_IDS)
    copies = np.full(N_IDS, rules.decks)
    copies[JOKER] = rules.jokers
    return np.repeat(np.arange(N_IDS, dtype=np.int64), np.maximum(copies - counts, 0))


def summarize(keeps, discs, hists, means, win=None) -> list[DiscardValue]:
    """Turn per-option distributions into DiscardValues, best first: by ``win`` (a probability
    per option) when given, else by expected net."""
    values = np.arange(WIDTH) - OFFSET
    net = hists @ values
    std = np.sqrt(np.maximum(0.0, hists @ values**2 - net**2))
    possible = hists > 0
    lo = values[possible.argmax(axis=1)]
    hi = values[WIDTH - 1 - possible[:, ::-1].argmax(axis=1)]
    order = np.lexsort((-net, -win)) if win is not None else np.argsort(-net, kind="stable")
    return [
        DiscardValue(
            discs[o].tolist(),
            keeps[o].tolist(),
            float(means[o, 0]),
            float(means[o, 1]),
            float(net[o]),
            float(std[o]),
            int(lo[o]),
            int(hi[o]),
            hists[o],
            None if win is None else float(win[o]),
        )
        for o in order
    ]


def check_hand(hand, known, sizes=(5, 6), rules: RuleSet = RuleSet()) -> None:
    """The hand has a size the analysis takes, and it and the known cards fit the deck."""
    if len(hand) not in sizes:
        raise CardError(f"give {' or '.join(map(str, sizes))} cards, not {len(hand)}")
    rules.check_cards(list(hand) + list(known))
