"""A played game's record, a plain-text file (its format: docs/playing.md, "The game record"; three
or four players: docs/house-rules.md): read and checked into a ``Record``, the players by place
from me (``Table``), and the house rules in the words ``CribbageSpec.describe`` gives them. Scores
after the start are never written: replay.py makes them; record_writer.py writes records.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

from cribsolve.core.notation import JOKER, format_card, parse_card
from cribsolve.errors import CardError, CribsolveError, RecordError
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.rules.spec import CribbageSpec
from cribsolve.games.cribbage.table.seats import Table

HEADER_KEYS = ("game", "dealer", "scores", "rules", "seed", "opponent", "muggins")
PLACES = ("me", "them", "left", "across", "right")  # the first dealer, as a record says
# the lines a house rule adds to a deal (two players; docs/playing.md, "The game record")
HOUSE_KEYS = {
    "draw": ("draw", "their draw", "draw after", "their draw after"),
    "choose_cut": ("gift", "their gift"),
    "bid": ("bids",),
}
PASS = "pass"  # the word that ends the bidding
DRAWS = HOUSE_KEYS["draw"]  # lines whose value is (thrown away, drawn)


@dataclass
class DealRecord:
    line: int  # the 'deal' line
    fields: dict = field(default_factory=dict)  # key -> (line, cards or play tokens)


@dataclass
class Record:
    name: str
    first_dealer: str = ""  # "me" or "them" (three or four: a place)
    game_length: int = 121
    scores: tuple = (0, 0)  # by side, yours first, when it starts
    rules: CribbageSpec = CribbageSpec()  # the house rules (its game length aside)
    seed: int | None = None  # cribsolve play's: the seed that dealt it
    opponent: str = ""  # ... the computer's policy
    muggins: bool = False  # ... played under muggins
    deals: list = field(default_factory=list)
    header: dict = field(default_factory=dict)  # header key -> its line

    def fail(self, line: int, message: str):
        raise RecordError(f"{self.name}, line {line}: {message}")

    @property
    def spec(self) -> CribbageSpec:
        return replace(self.rules, game_length=self.game_length)

    @property
    def table(self) -> Table:
        return Table(self.rules.players, self.rules.partners)

    @property
    def dealer_place(self) -> int:
        """The first dealer's place from me."""
        return (
            1 if self.first_dealer == "them" else self.table.dealer_words.index(self.first_dealer)
        )

    @property
    def deal_keys(self) -> tuple:
        """The lines a deal may have under the record's rules."""
        keys = self.table.deal_keys
        if self.rules.choose_cut:  # the cut cards are the cards given
            keys = tuple(k for k in keys if k != "starter")
        for name, more in HOUSE_KEYS.items():
            keys += more * bool(getattr(self.rules, name))
        return keys + ("counts",) * self.muggins

    def size(self, key: str) -> int:
        """How many cards a deal's line ``key`` holds under the record's rules (0: any)."""
        r, t = self.rules, self.table
        sizes = {"starter": r.starters, "crib card": 1, "gift": 1, "their gift": 1}
        for p in range(t.players):
            sizes[t.hand_key(p)] = r.hand_size
            sizes[t.throw_key(p)] = r.throw * (1 + r.two_cribs)
        return sizes.get(key, 0)

    def copies(self, card: int) -> int:
        """How many of ``card`` the deck holds (two decks: two 5H)."""
        return self.rules.jokers if card == JOKER else self.rules.decks


# ---- the record ---------------------------------------------------------------------------


def parse_record(text: str, name: str = "record") -> Record:
    rec = Record(name)
    header = rec.header
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.lower().split()
        if words[0] == "deal" and len(words) <= 2:
            if words[1:] != [] and words[1:] != [str(len(rec.deals) + 1)]:
                rec.fail(n, f"expected deal {len(rec.deals) + 1} here, not {line!r}")
            if not rec.deals:
                _check_header(rec)
            rec.deals.append(DealRecord(n))
            continue
        key, sep, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not sep:
            rec.fail(n, f"expected 'key: value' or 'deal', not {line[:40]!r}")
        value = value.strip()
        if not rec.deals:
            if key not in HEADER_KEYS:
                rec.fail(
                    n,
                    f"unknown header key {key!r} (expected {', '.join(HEADER_KEYS)}; "
                    "a deal starts with a line 'deal')",
                )
            if key in header:
                rec.fail(n, f"a second '{key}' line (the first is line {header[key]})")
            header[key] = n
            _header_value(rec, n, key, value)
            continue
        fields, keys = rec.deals[-1].fields, rec.deal_keys
        if key not in keys:
            rec.fail(n, f"unknown key {key!r} in a deal (expected {', '.join(keys)})")
        if key in fields:
            rec.fail(n, f"a second '{key}' line in this deal (the first is line {fields[key][0]})")
        fields[key] = (n, _deal_value(rec, n, key, value))
    if not rec.first_dealer:
        rec.fail(
            header.get("game", 1),
            "say who deals first: a line 'dealer: me' or 'dealer: them' before the first deal",
        )
    if not rec.deals:
        rec.fail(n if text.strip() else 1, "no deal: each starts with a line 'deal'")
    return rec


def _header_value(rec: Record, n: int, key: str, value: str) -> None:
    words = value.split()
    if key == "dealer":
        if value.lower() not in PLACES:
            rec.fail(
                n,
                f"dealer: give me or them (three or four players: me, left, across "
                f"or right), not {value!r}",
            )
        rec.first_dealer = value.lower()
    elif key == "game":
        from cribsolve.games.cribbage.deals.win_choices import LONGEST

        if not (value.isdigit() and 2 <= int(value) <= LONGEST):
            rec.fail(n, f"game: give the points to win (2 to {LONGEST}, e.g. 121), not {value!r}")
        rec.game_length = int(value)
    elif key == "seed":
        if not value.isdigit():
            rec.fail(n, f"seed: give the seed that dealt the game, not {value!r}")
        rec.seed = int(value)
    elif key == "opponent":
        rec.opponent = value.lower()
    elif key == "muggins":
        if value.lower() not in ("yes", "no"):
            rec.fail(n, f"muggins: give yes or no, not {value!r}")
        rec.muggins = value.lower() == "yes"
    elif key == "rules":
        try:
            rec.rules = rules_from_words(value)
        except CribsolveError as e:
            rec.fail(n, f"rules: {e}")
    elif not 2 <= len(words) <= 4 or not all(w.isdigit() for w in words):
        rec.fail(n, f"scores: give yours then theirs, e.g. 'scores: 45 60', not {value!r}")
    else:
        rec.scores = tuple(int(w) for w in words)


def _check_header(rec: Record) -> None:
    """What the header's lines say together, checked once it is read: the first dealer is a
    place at this table, and the scores are one a side."""
    t, header = rec.table, rec.header
    if rec.first_dealer and rec.first_dealer not in t.dealer_words:
        rec.fail(
            header["dealer"],
            f"dealer: give {' or '.join(t.dealer_words)} with "
            f"{t.players} players, not {rec.first_dealer!r}",
        )
    if "scores" not in header:
        rec.scores = (0,) * t.sides
    elif len(rec.scores) != t.sides:
        rec.fail(
            header["scores"],
            f"scores: give one a side, yours first, then round to "
            f"your left ({t.sides} here: "
            f"{', '.join(t.side_names)}), not {len(rec.scores)}",
        )


def _deal_value(rec: Record, n: int, key: str, value: str):
    """A deal line's value: its cards (GO for a go in 'play'); (away, drawn) for a draw;
    the bids, a whole number each, ``PASS`` last."""
    if key == "bids":
        return _bids(rec, n, value)
    if key == "counts":
        return _counts(rec, n, value)
    if key in DRAWS:
        if value.strip().lower() == "none":
            return [], []
        away, sep, drawn = f"{value.lower()} ".partition(" for ")
        if not sep:
            rec.fail(
                n,
                f"'{key}': give the cards thrown away 'for' those drawn (5H 9C for "
                f"KD 2S), or none, not {value!r}",
            )
        away = _cards(rec, n, key, away)
        drawn = _cards(rec, n, key, drawn) if drawn.strip() else []
        if len(away) != len(drawn):
            rec.fail(n, f"'{key}': {len(away)} thrown away for {len(drawn)} drawn")
        return away, drawn
    cards = _cards(rec, n, key, value)
    size = rec.size(key)
    if key == "starter" and len(cards) == 1 < size:  # his heels on the first ended the game
        return cards
    if size and len(cards) != size:
        rec.fail(n, f"'{key}' takes {size} card{'s' * (size > 1)}, not {len(cards)}")
    return cards


def _cards(rec: Record, n: int, key: str, value: str) -> list:
    """The cards of a line (the two cribs' parts may be split by '/'), no card more often
    than the deck holds it."""
    words = value.replace(",", " ").replace("/", " ").split()
    if not words:
        rec.fail(n, f"'{key}' gives no cards")
    try:
        cards = [GO if key == "play" and w.lower() == "go" else parse_card(w) for w in words]
    except CardError as e:
        rec.fail(n, str(e))
    for c in set(cards) - {GO}:
        if cards.count(c) > max(rec.copies(c), 1):
            rec.fail(
                n,
                f"{format_card(c)} appears {cards.count(c)} times in '{key}'"
                + (f" (the deck holds {rec.copies(c)})" if rec.copies(c) > 1 else ""),
            )
    return cards


def _bids(rec: Record, n: int, value: str) -> list:
    """The bidding for the crib, the pone first, each raising by one: 1 2 3 pass."""
    from cribsolve.games.cribbage.throw.draw_and_bid import BID_MAX

    words = value.lower().replace(",", " ").split()
    bids = [int(w) if w.isdigit() else w for w in words]
    raises = bids[:-1] if bids and bids[-1] == PASS else bids
    if raises != list(range(1, len(raises) + 1)) or (raises == bids and len(bids) < BID_MAX):
        rec.fail(
            n,
            f"bids: give the bids in turn from the pone, each one more, then pass "
            f"(1 2 pass; pass: the dealer keeps the crib for nothing), not {value!r}",
        )
    return bids


def _counts(rec: Record, n: int, value: str) -> list:
    """Muggins: your counts of your hand, then of your crib, as you gave them (a count short
    of the right one is pegged as given, the rest by them)."""
    words = value.split()
    if not 1 <= len(words) <= 2 or not all(w.isdigit() and int(w) <= 99 for w in words):
        rec.fail(
            n, f"counts: give your counts of your hand then your crib (e.g. 8 4), not {value!r}"
        )
    return [int(w) for w in words]


def load_record(path: str) -> Record:
    """The record in the file ``path``; an unreadable file is one clear line too."""
    try:
        with open(path, encoding="utf-8-sig") as f:  # a byte-order mark is no text
            text = f.read()
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text record (it is not UTF-8)") from None
    except OSError as e:
        raise RecordError(f"{path}: cannot read it ({e.strerror})") from None
    return parse_record(text, path)


def rules_from_words(text: str) -> CribbageSpec:
    """The house rules written as ``CribbageSpec.describe`` words them (the game length
    aside: a record gives it on its 'game' line), checked as a whole."""
    changes = {}
    for item in (" ".join(w.split()) for w in text.lower().split(",")):
        if not item or item == "standard rules":
            continue
        name, value = _rule(item)
        if name in changes:
            raise CribsolveError(f"{item!r} is given twice")
        changes[name] = value
    if "hand_size" not in changes and (changes.get("players", 2) > 2 or changes.get("five_card")):
        changes["hand_size"] = CribbageSpec.natural_hand(
            players=changes.get("players", 2), five_card=changes.get("five_card", False)
        )
    return CribbageSpec(**changes)


def _rule(item: str):
    """(field, value) of one house rule as describe words it: 'lowball', 'peg limit 41',
    'wild k'."""
    from cribsolve.core.notation import RANK_CHARS

    *head, last = item.split()
    if last == "players" and len(head) == 1 and head[0].isdigit():  # "3 players"
        return "players", int(head[0])
    if item in ("partners", "five-card"):  # flags no spec takes alone (four; a hand of 5)
        return item.replace("-", "_"), True
    for f in fields(CribbageSpec):
        if f.name == "game_length":
            continue
        if f.type in (bool, "bool"):
            value = True
        elif f.name == "wild_rank":
            value = RANK_CHARS.find(last.upper()) + 1 if len(last) == 1 else -1
        else:
            value = int(last) if last.isdigit() else -1
        named = " ".join(head) == ("wild" if f.name == "wild_rank" else f.name.replace("_", " "))
        if named and value == getattr(CribbageSpec, f.name):
            return f.name, value  # the standard game's, said anyway
        try:
            if CribbageSpec(**{f.name: value}).describe().lower() == item:
                return f.name, value
        except CribsolveError:
            if named:
                raise  # the rule named, its value out of range
    raise CribsolveError(
        f"unknown house rule {item!r} (write them as the commands list "
        "them, e.g. 'lowball, hand size 5, peg limit 41')"
    )
