"""PySolFC's game numbers: the deal a PySolFC player sees for game N, in our card ids. How PySolFC
deals (its two generators, its card order, each game's positions): docs/RULES.md §4. The facts
are PySolFC's (pysollib/pysolrandom.py, pysollib/game/__init__.py,
pysollib/games/special/cribbage.py); the code here is our own.

``talon(game)`` gives the 52 card ids in the order they leave the talon, top first: the deck
array the Patience kernels read; Shuffle reads ``talon[35:]`` and Square deals after its
``SQUARES[v].set_aside`` cards, both with ``talon[51]`` as the starter.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from cribsolve.core.notation import card_id
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.solitaire.facts import SOLITAIRES, SQUARES

MS_BELOW = 32000  # plain numbers below this use the Microsoft generator
MS_MAX = (1 << 33) - 1  # the largest seed the Microsoft generator takes
GAME_MAX = 10**20  # PySolFC's largest game number
_SUIT = (0, 3, 2, 1)  # PySolFC suit order C S H D -> our suit (C D H S)
_NUMBER = re.compile(r"(ms)?([0-9]+)", re.IGNORECASE)


@dataclass(frozen=True)
class GameNumber:
    """A game number as PySolFC reads it: ``ms`` says which generator deals it."""

    number: int
    ms: bool

    def __str__(self):
        return f"ms{self.number}" if self.ms and self.number >= MS_BELOW else str(self.number)


def parse_game(text) -> GameNumber:
    """'123', 'ms123' or 123; 0, negatives and anything else are refused (CardError)."""
    m = _NUMBER.fullmatch(str(text).strip())
    if not m:
        raise CribsolveError(
            f"{text!r} is not a PySolFC game number (expected e.g. 1, 40000 or ms1)"
        )
    n, explicit = int(m.group(2)), bool(m.group(1))
    top = MS_MAX if explicit else GAME_MAX
    if not 1 <= n <= top:
        raise CribsolveError(
            f"{text!r} is not a PySolFC game number: give 1 to {top}"
            + (" (2**33 - 1) after ms" if explicit else " (1e20)")
        )
    return GameNumber(n, explicit or n < MS_BELOW)


class _Microsoft:
    """LCRandom31: the C runtime's rand() for seeds below 2**31, PySolFC's widening above."""

    def __init__(self, seed: int):
        self.seed = seed
        self.x = seed if seed < 1 << 32 else seed - (1 << 32)

    def randint(self, a: int, b: int) -> int:
        self.x = (self.x * 214013 + 2531011) & MS_MAX
        if self.seed < 1 << 32:
            r = (self.x >> 16) & 0x7FFF
            if self.seed >= 1 << 31:
                r |= 0x8000
        else:
            r = ((self.x >> 16) & 0xFFFF) + 1
        return a + r % (b + 1 - a)


class _Mersenne:
    """MTRandom: Python's Mersenne Twister seeded with N, randint by scaling random()."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def randint(self, a: int, b: int) -> int:
        return a + int(self.r.random() * (b + 1 - a))


def pysol_order() -> list[int]:
    """Our ids of PySolFC's new deck: clubs, spades, hearts, diamonds, each ace to king."""
    return [card_id(r, _SUIT[s]) for s in range(4) for r in range(1, 14)]


def _ms_order(cards: list[int]) -> list[int]:
    """FreeCell's order from PySolFC's: rank by rank, suits clubs, diamonds, hearts, spades."""
    return [cards[r + 13 * s] for r in range(13) for s in (0, 3, 2, 1)]


def talon(game) -> list[int]:
    """The 52 card ids of game ``game`` (a GameNumber, or text for parse_game), top of the talon
    first: the order in which they are dealt."""
    g = game if isinstance(game, GameNumber) else parse_game(game)
    cards = pysol_order()
    if g.ms:
        cards, rng = _ms_order(cards), _Microsoft(g.number)
    else:
        rng = _Mersenne(g.number)
    for n in range(len(cards) - 1, 0, -1):
        j = rng.randint(0, n)
        cards[n], cards[j] = cards[j], cards[n]
    return cards[::-1]


def layout(variant: str, cards) -> dict:
    """Where each card of a talon (top first) goes in ``variant``, as lists of card ids.

    patience: 'removed' (7 unseen), then 'deals' of {'crib' (2 face down), 'hand', 'starter'};
    patience2: 'deals' of {'hand', 'second_hand', 'starter'};
    shuffle: 'set_aside' (35), 'grid' (4 rows of 4), 'starter';
    square, square-waste, square-reserve1|2: 'set_aside', 'talon' (the cards that may be dealt,
    in order), 'starter'."""
    t = [int(c) for c in cards]
    if variant == "patience":
        return {
            "removed": t[:7],
            "deals": [
                {"crib": t[p : p + 2], "hand": t[p + 2 : p + 8], "starter": t[p + 8]}
                for p in range(7, 52, 9)
            ],
        }
    if variant == "patience2":
        return {
            "deals": [
                {"hand": t[p : p + 6], "second_hand": t[p + 6 : p + 12], "starter": t[p + 12]}
                for p in range(0, 52, 13)
            ]
        }
    if variant == "shuffle":
        return {
            "set_aside": t[:35],
            "grid": [t[35 + 4 * i : 39 + 4 * i] for i in range(4)],
            "starter": t[51],
        }
    if variant in SQUARES:
        n = SQUARES[variant].set_aside
        return {"set_aside": t[:n], "talon": t[n:51], "starter": t[51]}
    raise CribsolveError(f"unknown variant {variant!r} (expected {', '.join(SOLITAIRES)})")


def deal_record(variant: str, game) -> dict:
    """The deal of ``game`` as JSON: the talon (top first) and the layout, cards spelled."""
    from cribsolve.core.notation import format_card

    g = game if isinstance(game, GameNumber) else parse_game(game)
    t = talon(g)

    def spell(x):
        return (
            [spell(y) for y in x]
            if isinstance(x, list)
            else ({k: spell(v) for k, v in x.items()} if isinstance(x, dict) else format_card(x))
        )

    return {
        "variant": variant,
        "game": g.number,
        "generator": "microsoft" if g.ms else "mersenne",
        "talon": spell(t),
        **spell(layout(variant, t)),
    }


def deal_lines(variant: str, game) -> list[str]:
    """The deal as a PySolFC player would lay it out, one line per deal (or grid row)."""
    from cribsolve.core.notation import format_card, format_cards

    g = game if isinstance(game, GameNumber) else parse_game(game)
    lay = layout(variant, talon(g))
    out = [
        f"{SOLITAIRES[variant].name}, PySolFC game {g} ("
        f"{'Microsoft-compatible' if g.ms else 'Mersenne Twister'} deal)"
    ]
    if variant == "patience":
        out.append(f"  removed unseen: {format_cards(lay['removed'])}")
        out += [
            f"  deal {k + 1}: crib face down {format_cards(d['crib'])} | hand "
            f"{format_cards(d['hand'])} | starter {format_card(d['starter'])}"
            for k, d in enumerate(lay["deals"])
        ]
    elif variant == "patience2":
        out += [
            f"  deal {k + 1}: hand {format_cards(d['hand'])} | second hand "
            f"{format_cards(d['second_hand'])} | starter {format_card(d['starter'])}"
            for k, d in enumerate(lay["deals"])
        ]
    elif variant == "shuffle":
        out.append(f"  set aside unseen: {len(lay['set_aside'])} cards")
        out += ["  " + "  ".join(f"{format_card(c):>3}" for c in row) for row in lay["grid"]]
        out.append(f"  starter {format_card(lay['starter'])}")
    else:
        sq = SQUARES[variant]
        out.append(f"  set aside unseen: {sq.set_aside} cards")
        out.append(f"  talon, one card at a time: {format_cards(lay['talon'])}")
        if sq.piles:
            out.append(
                f"  (16 for the grid and up to {sq.dealt - 16} for the "
                f"{'waste' if sq.waste else 'reserves' if sq.piles > 1 else 'reserve'}; "
                f"the game ends when the grid is full)"
            )
        out.append(f"  starter, the talon's last card: {format_card(lay['starter'])}")
    return out


def discard_position(variant: str, game, deal: int = 1, crib=None):
    """What best-discard needs for a decision of ``game``: (hand, seen, kept), card ids.

    Deal ``deal`` (1-based); every card of the earlier deals has been seen. In Patience II
    without ``crib`` it is the first discard; with ``crib`` (the two cards thrown from the
    first hand) the second: the hand is the second hand and the rest of the first is kept."""
    lay = layout(variant, talon(game))
    deals = lay["deals"]
    if not 1 <= deal <= len(deals):
        raise CribsolveError(f"--deal: {variant} has deals 1 to {len(deals)}, not {deal}")
    d = deals[deal - 1]
    seen = [
        c
        for e in deals[: deal - 1]
        for part in e.values()
        for c in (part if isinstance(part, list) else [part])
    ]
    if crib is None:
        return d["hand"], seen, []
    if variant != "patience2":
        raise CribsolveError("--crib-cards is for Patience II's second discard")
    if len(set(crib)) != 2 or not set(crib) <= set(d["hand"]):
        from cribsolve.core.notation import format_cards

        raise CardError(
            f"--crib-cards: give two cards of the first hand of deal {deal} "
            f"({format_cards(d['hand'])})"
        )
    return d["second_hand"], seen, [c for c in d["hand"] if c not in crib]
