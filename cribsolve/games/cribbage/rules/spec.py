"""Cribbage as one parameterized game: the house rules of docs/RULES.md §5 and the three- and
four-handed, partnership and five-card games of §8 are fields of ``CribbageSpec``, whose
defaults are the standard two-player game. Built once and validated as a whole, it is passed to
everything that plays or analyses the game, so no engine carries a constant of its own; kernels
read its integer form, ``as_array()``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from numbers import Integral

from cribsolve.errors import CribsolveError

# positions of the fields in the integer form the kernels read
FIELDS = (
    "target",
    "peg_limit",
    "game_length",
    "lowball",
    "decks",
    "jokers",
    "hand_size",
    "crib_size",
    "starters",
    "wild_rank",
    "stinkhole",
    "draw",
    "choose_cut",
    "two_cribs",
    "bid",
    "players",
    "partners",
    "five_card",
)
(
    TARGET,
    PEG_LIMIT,
    GAME_LENGTH,
    LOWBALL,
    DECKS,
    JOKERS,
    HAND_SIZE,
    CRIB_SIZE,
    STARTERS,
    WILD_RANK,
    STINKHOLE,
    DRAW,
    CHOOSE_CUT,
    TWO_CRIBS,
    BID,
    PLAYERS,
    PARTNERS,
    FIVE_CARD,
) = range(len(FIELDS))

# The ranges of a spec's numbers, (low, high) inclusive: the spec checks them, and the command
# line's options offer the same. A hand's low bound needs no check of its own: a crib of two
# or more and one card kept make it.
BOUNDS = {
    "target": (1, 200),
    "peg_limit": (10, 200),
    "game_length": (2, 10_000),
    "decks": (1, 8),
    "jokers": (0, 16),
    "hand_size": (2, 12),
    "crib_size": (2, 12),
    "starters": (1, 2),
    "players": (2, 4),
}
# what a number out of its range is told, before ", not <value>"
_RANGED = (
    ("target", "the target sum must be {} to {}"),
    ("peg_limit", "the peg limit must be {} (a king must fit) to {}"),
    ("game_length", "the game length must be {} to {}"),
    ("decks", "decks must be {} to {}"),
    ("jokers", "jokers must be {} to {}"),
)
TABLE_FIELDS = ("players", "partners", "five_card")  # the fields beyond the two-player game
# the fields the two-player play reads (its searches, and the tables made from them)
PLAY_FIELDS = ("target", "peg_limit", "lowball", "decks", "jokers", "wild_rank")
ODDS_LENGTH_MAX = 361  # the longest game the odds table weighs: its positions grow as its
# square (a table to 301 in about a minute on 2 busy cores)


def seat_names(players: int) -> list[str]:
    """The seats of a deal from the dealer's left round to the dealer."""
    return {
        2: ["pone"],
        3: ["dealer's left", "dealer's right"],
        4: ["dealer's left", "across", "dealer's right"],
    }[players] + ["dealer"]


@dataclass(frozen=True)
class CribbageSpec:
    target: int = 15  # the sum that scores 2, in the show and in the play
    peg_limit: int = 31  # the count the play may not pass
    game_length: int = 121  # points to win (or, with lowball, to lose)
    lowball: bool = False  # whoever reaches game_length first loses
    decks: int = 1  # copies of each of the 52 cards
    jokers: int = 0  # jokers in the deck: rank 0, value 0, no suit
    hand_size: int = 6  # cards dealt to each player
    crib_size: int = 4  # cards in the crib: each player throws half of them
    starters: int = 1  # cut cards; with 2 the first is turned before the throw
    wild_rank: int = 0  # a rank (1-13) wild at the show; 0 = none
    stinkhole: bool = False  # points that would end one short of the game are forfeited
    draw: bool = False  # before and after the throw, cards may be redrawn
    choose_cut: bool = False  # each player's cut card is a card its opponent gives it
    two_cribs: bool = False  # each player has a crib; the most points after the deal win
    bid: bool = False  # the players bid for the crib
    players: int = 2  # 2, 3 or 4 at the table; seats in order from the dealer's left
    partners: bool = False  # four players as two teams, partners sitting opposite
    five_card: bool = False  # the five-card game: pone takes 3 at the start, one series

    @staticmethod
    def natural_hand(
        crib_size: int = 4,
        choose_cut: bool = False,
        two_cribs: bool = False,
        players: int = 2,
        five_card: bool = False,
    ):
        """The deal that leaves each player 4 cards: 6, one more to give under choose-a-cut,
        another crib's share under two cribs; 5 with three or four players (one each to the
        crib) and in the five-card game (which keeps 3)."""
        if five_card:
            return 5
        return 4 + crib_size // players * (1 + two_cribs) + choose_cut

    def __post_init__(self):
        for f in fields(self):  # a rule is a whole number or a switch, whoever built it
            value = getattr(self, f.name)
            switch = isinstance(value, bool) or getattr(value, "dtype", None) == "bool"
            if f.type == "bool" and not switch:
                raise CribsolveError(f"{f.name} is on or off (True or False), not {value!r}")
            if f.type == "int" and (switch or not isinstance(value, Integral)):
                raise CribsolveError(f"{f.name} must be a whole number, not {value!r}")
        problems = []
        for name, rule in _RANGED:
            (lo, hi), value = BOUNDS[name], getattr(self, name)
            if not lo <= value <= hi:
                problems.append(f"{rule.format(lo, hi)}, not {value}")
        if not 0 <= self.wild_rank <= 13:
            problems.append(f"the wild rank must be A..K, not {self.wild_rank}")
        lo, hi = BOUNDS["starters"]
        if self.starters not in range(lo, hi + 1):
            problems.append(f"starters must be {lo} or {hi}, not {self.starters}")
        lo, hi = BOUNDS["players"]
        if not lo <= self.players <= hi:
            problems.append(f"players must be {lo} to {hi}, not {self.players}")
        elif self.players > 2:
            problems += self._table_problems()
        if self.partners and self.players != 4:
            problems.append("partners are four players, two against two")
        if self.five_card:
            problems += self._five_card_problems()
        lo, hi = BOUNDS["crib_size"]
        if self.players != 2:
            pass  # the table's own checks above
        elif not lo <= self.crib_size <= hi or self.crib_size % 2:
            problems.append(
                f"the crib size must be even, {lo} to {hi} (each player throws "
                f"half), not {self.crib_size}"
            )
        elif not 1 <= self.kept <= 8 or self.hand_size > BOUNDS["hand_size"][1]:
            problems.append(
                f"the hand size must be at most {BOUNDS['hand_size'][1]} and keep "
                f"1 to 8 cards after the throw (hand {self.hand_size}, crib "
                f"{self.crib_size}"
                + ", two cribs" * self.two_cribs
                + ", a card given" * self.choose_cut
                + ")"
            )
        if self.choose_cut and self.starters == 2:
            problems.append(
                "under choose-a-cut each player's cut card is given by the "
                "opponent: it does not combine with two cut cards"
            )
        if self.two_cribs and (self.bid or self.stinkhole):
            problems.append(
                "two cribs is played to the end of the deal, with a crib each: "
                "it does not combine with bidding or the stink hole"
            )
        if self.bid and self.lowball:
            problems.append(
                "bidding for the crib is for games won by reaching the game length, not lowball"
            )
        if problems:  # the deal's count below divides by the players
            raise CribsolveError("; ".join(problems))
        dealt = (
            self.players * self.hand_size
            + self.from_deck
            + (0 if self.choose_cut else self.starters)
        )
        if dealt > 52 * self.decks + self.jokers:
            raise CribsolveError(
                f"a deal needs {dealt} cards but the deck has {52 * self.decks + self.jokers}"
            )

    def _table_problems(self) -> list:
        """What three or four players do not combine with: one card each to a crib of four
        (with three, one more from the deck), one cut card, none of the two-player house
        rules of the deal."""
        out = []
        if self.crib_size != 4:
            out.append(
                f"with {self.players} players each throws one card to a crib of 4, "
                f"not {self.crib_size}"
            )
        if not 2 <= self.hand_size <= 9:
            out.append(
                f"with {self.players} players the hand size must be 2 to 9, not {self.hand_size}"
            )
        house = [
            name
            for name, on in (
                ("two cut cards", self.starters == 2),
                ("draw", self.draw),
                ("choose-a-cut", self.choose_cut),
                ("two cribs", self.two_cribs),
                ("bid", self.bid),
                ("five-card", self.five_card),
            )
            if on
        ]
        if house:
            out.append(
                f"{self.players} players do not combine with {', '.join(house)} (two-player rules)"
            )
        if self.lowball and not self.partners:
            out.append("lowball is for two sides: two players or partners")
        return out

    def _five_card_problems(self) -> list:
        """The five-card game is two players, 5 cards each, two each to the crib, one cut
        card, the deal's other house rules off."""
        house = [
            name
            for name, on in (
                ("two cut cards", self.starters == 2),
                ("draw", self.draw),
                ("choose-a-cut", self.choose_cut),
                ("two cribs", self.two_cribs),
                ("bid", self.bid),
                ("a wild rank", self.wild_rank),
            )
            if on
        ]
        if self.hand_size != 5 or self.crib_size != 4 or house:
            return [
                "the five-card game deals 5 cards each, two each to a crib of 4, one cut "
                "card" + (f" (not {', '.join(house)})" if house else "")
            ]
        return []

    def heels(self, card: int) -> bool:
        """Whether ``card`` turned as a cut card gives the dealer his heels: a jack, not a
        wild one."""
        from cribsolve.core.cards import JACK, RANK

        return RANK[card] == JACK and self.wild_rank != JACK

    @property
    def throw(self) -> int:
        """Cards each player throws to the (or each) crib."""
        return self.crib_size // self.players

    @property
    def from_deck(self) -> int:
        """Crib cards dealt from the deck (one with three players)."""
        return self.crib_size - self.players * self.throw

    @property
    def sides(self) -> int:
        """Scores on the board: one per player, or one per team."""
        return 2 if self.partners else self.players

    @property
    def kept(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.hand_size - self.throw * (1 + self.two_cribs) - self.choose_cut

    @property
    def is_standard(self) -> bool:
        return self == CribbageSpec()

    def as_array(self):
        """The spec as an int64 numpy array in FIELDS order, for kernels."""
        import numpy as np

        d = asdict(self)
        return np.array([int(d[f]) for f in FIELDS], dtype=np.int64)

    def deck(self):
        """Every card id in play: each ordinary card ``decks`` times, then the jokers."""
        from cribsolve.core.cards import deck

        return deck(self.decks, self.jokers)

    def play_rules(self) -> dict:
        """The spec's PLAY_FIELDS: the rules its two-player play is played under."""
        return {f: getattr(self, f) for f in PLAY_FIELDS}

    def rules(self):
        """The show's rules for this game (target, wild rank, its decks and jokers), which
        also check a deal's cards and list the unseen ones."""
        from cribsolve.core.rules import RuleSet

        return RuleSet(
            target=self.target, jokers=self.jokers, decks=self.decks, wild_rank=self.wild_rank
        )

    def after_length(self) -> str:
        """The house rules in brackets for a line that names the game length already
        ("cribbage to 61 (lowball)", where describe() would say the length again); "" in the
        standard game at any length."""
        rules = replace(self, game_length=CribbageSpec().game_length)
        return "" if rules.is_standard else f" ({rules.describe()})"

    def describe(self) -> str:
        """The switches that differ from the standard game, as a player would list them."""
        from cribsolve.core.notation import RANK_CHARS

        shown = {
            "wild_rank": lambda r: f"wild {RANK_CHARS[r - 1]}",
            "choose_cut": lambda _: "choose-a-cut",
            "bid": lambda _: "bid for the crib",
            "five_card": lambda _: "five-card",
            "players": lambda n: f"{n} players",
        }
        natural = self.players > 2 or self.five_card  # their hand of 5 goes without saying
        changed = [
            shown[f.name](getattr(self, f.name))
            if f.name in shown
            else f.name.replace("_", " ")
            if f.type in (bool, "bool")
            else f"{f.name.replace('_', ' ')} {getattr(self, f.name)}"
            for f in fields(self)
            if getattr(self, f.name) != f.default
            and not (natural and f.name == "hand_size" and self.hand_size == 5)
        ]
        return ", ".join(changed) or "standard rules"
