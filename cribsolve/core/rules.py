"""One RuleSet for every scorer, solver and simulator (docs/RULES.md §2, §5).

The presets differ only in the crib flush: two-player cribbage counts a crib flush only when
all crib cards and the starter share a suit; the PySolFC solitaires score the crib like a hand.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from cribsolve.core.notation import JOKER, format_card
from cribsolve.errors import CardError, CribsolveError

PRESETS = ("standard", "pysol")


@dataclass(frozen=True)
class RuleSet:
    preset: str = "standard"
    target: int = 15  # the sum that scores 2 at the show
    jokers: int = 0  # jokers in the deck (rank 0, value 0, no suit)
    decks: int = 1  # copies of each of the 52 cards
    wild_rank: int = 0  # a rank 1..13 whose cards stand for any card; 0 = none
    crib_full_flush: bool = True  # crib flush needs all crib cards and the starter(s)

    def __post_init__(self):
        if self.preset not in PRESETS:
            raise CribsolveError(
                f"unknown rules {self.preset!r} (expected one of {', '.join(PRESETS)})"
            )
        if not 1 <= self.target <= 200:
            raise CribsolveError(f"target sum must be between 1 and 200, not {self.target}")
        if self.jokers < 0 or self.decks < 1:
            raise CribsolveError("jokers must be >= 0 and decks >= 1")
        if not 0 <= self.wild_rank <= 13:
            raise CribsolveError(f"wild rank must be a rank A..K, not {self.wild_rank}")

    @property
    def is_plain(self) -> bool:
        """True when the 5-card table fast path applies (no wild cards)."""
        return self.wild_rank == 0

    def full_flush(self, crib: bool) -> bool:
        return crib and self.crib_full_flush

    def check_cards(self, cards) -> None:
        """Raise CardError if the cards could not all come from the deck in play."""
        for cid, n in Counter(int(c) for c in cards).items():
            limit = self.jokers if cid == JOKER else self.decks
            if n > limit:
                if cid == JOKER:
                    raise CardError(
                        f"{n} jokers given but only {self.jokers} in play (use --jokers)"
                    )
                raise CardError(
                    f"card {format_card(cid)} given {n} times but only {self.decks} deck(s) in play"
                )


def ruleset(preset: str = "standard", **switches) -> RuleSet:
    """A preset with switches applied: ``ruleset('pysol', target=16)``."""
    if preset not in PRESETS:
        raise CribsolveError(f"unknown rules {preset!r} (expected one of {', '.join(PRESETS)})")
    base = RuleSet(preset=preset, crib_full_flush=(preset == "standard"))
    return replace(base, **{k: v for k, v in switches.items() if v is not None})
