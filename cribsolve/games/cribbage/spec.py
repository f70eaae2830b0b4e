"""Two-player cribbage as one parameterized game: the house rules of docs/RULES.md §5 are
fields of ``CribbageSpec``, whose defaults are the standard game.

The spec is built once (from the command line or by a program), validated as a whole, and
passed to everything that plays or analyses the game, so no engine carries a constant of its
own. Kernels read the plain integer form ``spec.as_array()``. The rules: the target sum,
the peg limit, the game length, lowball, the number of decks and jokers, hand and crib
sizes, two cut cards, a wild rank, the stink hole, draw cribbage, choose-a-cut, two cribs
and bidding for the crib.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from cribsolve.errors import CribsolveError

# positions of the fields in the integer form the kernels read
FIELDS = ("target", "peg_limit", "game_length", "lowball", "decks", "jokers", "hand_size",
          "crib_size", "starters", "wild_rank", "stinkhole", "draw", "choose_cut", "two_cribs",
          "bid")
(TARGET, PEG_LIMIT, GAME_LENGTH, LOWBALL, DECKS, JOKERS, HAND_SIZE, CRIB_SIZE,
 STARTERS, WILD_RANK, STINKHOLE, DRAW, CHOOSE_CUT, TWO_CRIBS, BID) = range(len(FIELDS))


@dataclass(frozen=True)
class CribbageSpec:
    target: int = 15            # the sum that scores 2, in the show and in the play
    peg_limit: int = 31         # the count the play may not pass
    game_length: int = 121      # points to win (or, with lowball, to lose)
    lowball: bool = False       # whoever reaches game_length first loses
    decks: int = 1              # copies of each of the 52 cards
    jokers: int = 0             # jokers in the deck: rank 0, value 0, no suit
    hand_size: int = 6          # cards dealt to each player
    crib_size: int = 4          # cards in the crib: each player throws half of them
    starters: int = 1           # cut cards; with 2 the first is turned before the throw
    wild_rank: int = 0          # a rank (1-13) wild at the show; 0 = none
    stinkhole: bool = False     # points that would end one short of the game are forfeited
    draw: bool = False          # before and after the throw, cards may be redrawn
    choose_cut: bool = False    # each player's cut card is a card its opponent gives it
    two_cribs: bool = False     # each player has a crib; the most points after the deal win
    bid: bool = False           # the players bid for the crib

    @staticmethod
    def natural_hand(crib_size: int = 4, choose_cut: bool = False, two_cribs: bool = False):
        """The deal that leaves each player 4 cards: 6, one more to give under choose-a-cut,
        another crib's share under two cribs."""
        return 4 + crib_size // 2 * (1 + two_cribs) + choose_cut

    def __post_init__(self):
        problems = []
        if not 1 <= self.target <= 200:
            problems.append(f"the target sum must be 1 to 200, not {self.target}")
        if not 10 <= self.peg_limit <= 200:
            problems.append(f"the peg limit must be 10 (a king must fit) to 200, not "
                            f"{self.peg_limit}")
        if not 2 <= self.game_length <= 10_000:
            problems.append(f"the game length must be 2 to 10000, not {self.game_length}")
        if not 1 <= self.decks <= 8:
            problems.append(f"decks must be 1 to 8, not {self.decks}")
        if not 0 <= self.jokers <= 16:
            problems.append(f"jokers must be 0 to 16, not {self.jokers}")
        if not 0 <= self.wild_rank <= 13:
            problems.append(f"the wild rank must be A..K, not {self.wild_rank}")
        if self.starters not in (1, 2):
            problems.append(f"starters must be 1 or 2, not {self.starters}")
        if not 2 <= self.crib_size <= 12 or self.crib_size % 2:
            problems.append(f"the crib size must be even, 2 to 12 (each player throws half), "
                            f"not {self.crib_size}")
        elif not 1 <= self.kept <= 8 or self.hand_size > 12:
            problems.append(f"the hand size must be at most 12 and keep 1 to 8 cards after the "
                            f"throw (hand {self.hand_size}, crib {self.crib_size}"
                            + ", two cribs" * self.two_cribs + ", a card given" * self.choose_cut
                            + ")")
        if self.choose_cut and self.starters == 2:
            problems.append("under choose-a-cut each player's cut card is given by the "
                            "opponent: it does not combine with two cut cards")
        if self.two_cribs and (self.bid or self.stinkhole):
            problems.append("two cribs is played to the end of the deal, with a crib each: "
                            "it does not combine with bidding or the stink hole")
        if self.bid and self.lowball:
            problems.append("bidding for the crib is for games won by reaching the game "
                            "length, not lowball")
        dealt = 2 * self.hand_size + (0 if self.choose_cut else self.starters)
        if not problems and dealt > 52 * self.decks + self.jokers:
            problems.append(f"a deal needs {dealt} cards but the deck has "
                            f"{52 * self.decks + self.jokers}")
        if problems:
            raise CribsolveError("; ".join(problems))

    @property
    def kept(self) -> int:
        """Cards each player keeps for the play and the show."""
        return self.hand_size - self.crib_size // 2 * (1 + self.two_cribs) - self.choose_cut

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

    def describe(self) -> str:
        """The switches that differ from the standard game, as a player would list them."""
        from cribsolve.core.notation import RANK_CHARS
        shown = {"wild_rank": lambda r: f"wild {RANK_CHARS[r - 1]}",
                 "choose_cut": lambda _: "choose-a-cut", "bid": lambda _: "bid for the crib"}
        changed = [shown[f.name](getattr(self, f.name)) if f.name in shown else
                   f.name.replace('_', ' ') if f.type in (bool, "bool") else
                   f"{f.name.replace('_', ' ')} {getattr(self, f.name)}" for f in fields(self)
                   if getattr(self, f.name) != f.default]
        return ", ".join(changed) or "standard rules"
