"""A played game written down as a plain-text record, read and replayed card by card to the
scores it makes, with every decision of the player (each throw, each card laid where there
was a choice) and only what the player knew at that moment. Two players, or three or four
(docs/RULES.md §8), alone or as partners.

The record (README, "cribsolve review"): ``key: value`` lines, ``#`` comments, blank lines
free. A header (``game: 121``, ``dealer: me|them`` for the first deal, optional ``scores: A
B`` and ``rules:``, the house rules as ``CribbageSpec.describe`` words them, e.g. ``rules:
lowball, hand size 5``), then each deal after a ``deal`` line: ``me:`` (your cards), ``them:``
(optional: theirs), ``throw:``, ``their throw:`` (needed to count the crib unless ``them`` and
the play tell it), ``starter:``, ``play:`` (every card laid, the pone first, ``go``
optional). With three or four players (``rules: 3 players``, ``rules: 4 players, partners``)
the others are named by where they sit from you, ``left``, ``across`` (four) and ``right``:
``dealer: me|left|across|right``, ``scores:`` one a side, yours first and then round to
your left (partners: your team's, theirs), ``left:`` and ``left throw:`` (and so on) in
place of ``them:`` and ``their throw:``, and with three ``crib card:``, the deck's card in
the crib; the play is written from the dealer's left, with a go for every player who could
not lay while holding cards (needed where that player's hand is not given).
``cribsolve play`` adds ``seed:``, ``opponent:`` and ``muggins: yes`` to its records, so a
game broken off can be resumed; review reads past them. Scores are never typed: the replay
makes them, with the rules' own play (pegging.PlayState: goes, last card, 31) and show
(score_hand), and stops at the game length.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.notation import JOKER, format_card, format_cards, parse_card
from cribsolve.errors import CardError, CribsolveError, RecordError
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.rules.spec import CribbageSpec

DEAL_KEYS = ("me", "them", "throw", "their throw", "starter", "play")  # two players
HEADER_KEYS = ("game", "dealer", "scores", "rules", "seed", "opponent", "muggins")
WHO = ("you", "they")
PLACES = ("me", "them", "left", "across", "right")  # the first dealer, as a record says
# the house rules a record cannot hold yet: each changes the deal itself (copies of a card,
# a card cut before the throw, redraws, a given cut, a second crib, an auction, the
# five-card game's three for last and single series)
NOT_RECORDED = ("decks", "starters", "draw", "choose_cut", "two_cribs", "bid", "five_card")


@dataclass(frozen=True)
class Table:
    """The players of a record as its player sees them: by place from me, round to my left
    (0 me, 1 at my left, ..., the last at my right), each named; the sides the board keeps
    (one a player, or two teams: me and across, left and right). The deal passes to the
    left; a player's seat in a deal (the engine's: 0 the dealer's left, the dealer last)
    follows from the dealer's place."""

    players: int = 2
    partners: bool = False

    @property
    def names(self) -> tuple:
        return {2: WHO, 3: ("you", "left", "right"), 4: ("you", "left", "across", "right")}[
            self.players
        ]

    def whose(self, place: int) -> str:
        if self.players == 2 or place == 0:
            return ("your", "their")[place]
        return f"{self.names[place]}'s"

    @property
    def sides(self) -> int:
        return 2 if self.partners else self.players

    @property
    def side_names(self) -> tuple:
        return WHO if self.partners else self.names

    def side(self, place: int) -> int:
        return place % self.sides

    def hand_key(self, place: int) -> str:
        return "me" if place == 0 else "them" if self.players == 2 else self.names[place]

    def throw_key(self, place: int) -> str:
        return (
            "throw"
            if place == 0
            else "their throw"
            if self.players == 2
            else f"{self.names[place]} throw"
        )

    @property
    def deal_keys(self) -> tuple:
        if self.players == 2:
            return DEAL_KEYS
        others = [k for p in range(1, self.players) for k in (self.hand_key(p), self.throw_key(p))]
        return ("me", "throw", *others) + ("crib card",) * (self.players == 3) + ("starter", "play")

    @property
    def dealer_words(self) -> tuple:
        return ("me", "them") if self.players == 2 else ("me", *self.names[1:])

    def seat(self, place: int, dealer: int) -> int:
        """The seat in a deal (0 the dealer's left) of the player at ``place``."""
        return (place - dealer - 1) % self.players

    def place(self, seat: int, dealer: int) -> int:
        return (dealer + 1 + seat) % self.players


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

    def size(self, key: str) -> int:
        """How many cards a deal's line ``key`` holds under the record's rules."""
        r, t = self.rules, self.table
        sizes = {"starter": 1, "crib card": 1}
        for p in range(t.players):
            sizes[t.hand_key(p)] = r.hand_size
            sizes[t.throw_key(p)] = r.crib_size // r.players
        return sizes.get(key, 0)


@dataclass
class Decision:
    """One choice of the player, with only what it knew then (never the opponent's hidden
    cards, nor the starter before it was turned)."""

    kind: str  # "throw" or "play"
    deal: int
    line: int  # the record's line of the choice
    i_deal: bool  # the player deals this deal
    scores: tuple  # (yours, theirs) just before the decision
    hand: list  # throw: the six dealt; play: my unplayed cards
    choice: list  # the cards thrown, or [the card laid]
    played: list = field(default_factory=list)  # play: every card laid so far, GO where one
    seen: list = field(default_factory=list)  # play: my throw, then the starter
    count: int = 0  # play: the count before my card
    series: list = field(default_factory=list)  # play: the ranks of the current series
    their_left: int = 0  # play: cards the others still hold
    seat: int = -1  # my seat in the deal (0 the dealer's left); -1: two players'
    crib_mine: bool | None = None  # the crib is my side's (None: two players, i_deal)

    @property
    def my_seat(self) -> int:
        return self.seat if self.seat >= 0 else int(self.i_deal)

    @property
    def owns_crib(self) -> bool:
        return self.i_deal if self.crib_mine is None else self.crib_mine


@dataclass
class DealReplay:
    number: int
    i_deal: bool
    scores_before: tuple
    hand: list
    starter: int
    points: dict  # each player's name -> {"heels", "pegging", "hand", "crib"}
    scores_after: tuple  # by side, as scores_before
    decisions: list
    play: list  # every card laid, GO where a player could not lay
    dealer: int = -1  # the dealer's place from me (-1: i_deal tells)


@dataclass
class Game:
    record: Record
    deals: list
    winner: str | None  # the winning side's name, or None: the record ends first


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
        fields, keys = rec.deals[-1].fields, rec.table.deal_keys
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
    words = value.replace(",", " ").split()
    if not words:
        rec.fail(n, f"'{key}' gives no cards")
    try:
        cards = [GO if key == "play" and w.lower() == "go" else parse_card(w) for w in words]
    except CardError as e:
        rec.fail(n, str(e))
    size = rec.size(key)
    if size and len(cards) != size:
        rec.fail(n, f"'{key}' takes {size} card{'s' * (size > 1)}, not {len(cards)}")
    if len(set(c for c in cards if c is not GO)) < len([c for c in cards if c is not GO]):
        rec.fail(n, f"a card appears twice in '{key}'")
    return cards


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


def not_recorded(spec) -> str | None:
    """The first house rule of ``spec`` a record cannot hold (NOT_RECORDED, or jokers that
    repeat a card), as describe words it, or None."""
    default = CribbageSpec()
    for name in NOT_RECORDED + ("jokers",) * (spec.jokers > 1):
        if getattr(spec, name) != getattr(default, name):
            return replace(default, **{name: getattr(spec, name)}).describe()
    return None


def rules_from_words(text: str) -> CribbageSpec:
    """The house rules written as ``CribbageSpec.describe`` words them (the game length
    aside: a record gives it on its 'game' line), checked as a whole and against what a
    record can hold."""
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
    rules = CribbageSpec(**changes)
    if not_recorded(rules):
        raise CribsolveError(
            f"{not_recorded(rules)} is not recorded yet (a record holds "
            "distinct cards, one cut card, each player's throw once)"
        )
    return rules


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


def header_text(spec, dealer: int, seed: int, opponent: str, muggins: bool) -> str:
    """The header of a record cribsolve play writes: the game, and what resumes it;
    ``dealer``: the first dealer's place from me (0: me)."""
    rules = replace(spec, game_length=CribbageSpec.game_length)
    table = Table(spec.players, spec.partners)
    return (
        f"# cribsolve play --variant cribbage: a game against {opponent}\n"
        f"game: {spec.game_length}\ndealer: {table.dealer_words[dealer]}\n"
        + ("" if rules.is_standard else f"rules: {rules.describe()}\n")
        + f"seed: {seed}\nopponent: {opponent}\n"
        + "muggins: yes\n" * muggins
    )


def deal_text(number: int, table: Table, dealt, thrown, starter, played, crib_card=None) -> str:
    """One deal as the record has it, every card dealt included (so the crib is counted):
    ``dealt`` and ``thrown`` by place from me; ``crib_card``: the deck's card in the crib
    (three players); ``played``: every card laid and GO, or None where his heels ended the
    game first."""
    line = lambda key, cards: f"{key}: {format_cards(cards)}\n"  # noqa: E731
    places = range(table.players)
    text = (
        f"\ndeal {number}\n"
        + "".join(line(table.hand_key(p), dealt[p]) for p in places)
        + "".join(line(table.throw_key(p), thrown[p]) for p in places)
        + (line("crib card", [crib_card]) if crib_card is not None else "")
        + line("starter", [starter])
    )
    if played is not None:
        text += "play: " + " ".join("go" if t is GO else format_card(t) for t in played) + "\n"
    return text


# ---- the replay ---------------------------------------------------------------------------


def replay(rec: Record, spec=None) -> Game:
    """Play the record out: every deal's points and scores, the player's decisions, checked
    that each card and each play could happen, and stopped at the game length."""
    spec = spec or rec.spec
    table = rec.table
    for s, who in zip(rec.scores, table.side_names):
        if s >= rec.game_length:
            rec.fail(
                rec.header["scores"],
                f"scores: {who} cannot start at {s} in a game to {rec.game_length}",
            )
    scores, deals, winner = tuple(rec.scores), [], None
    dealer = rec.dealer_place
    for k, d in enumerate(rec.deals, 1):
        if winner:
            rec.fail(d.line, f"the game was over ({winner} won) before this deal")
        dr, winner = _replay_deal(rec, d, k, dealer, scores, spec)
        deals.append(dr)
        scores, dealer = dr.scores_after, (dealer + 1) % table.players
    return Game(rec, deals, winner)


def _cards_of(rec, d, key, required=True):
    if key not in d.fields:
        if required:
            rec.fail(d.line, f"this deal has no '{key}' line")
        return None, None
    line, cards = d.fields[key]
    return cards, line


class _Deal:
    """One deal of a record being replayed: the cards each place was dealt, threw and laid
    (where the record tells them), the scores by side, the points by place."""

    def __init__(self, rec, d, number, dealer, scores, spec):
        self.rec, self.d, self.number, self.dealer, self.spec = rec, d, number, dealer, spec
        self.t = t = rec.table
        self.others = range(1, t.players)
        self.mine, self.l_me = _cards_of(rec, d, "me")
        self.throw, self.l_throw = _cards_of(rec, d, "throw")
        (self.starter,), self.l_starter = _cards_of(rec, d, "starter")
        self.hands = {p: _cards_of(rec, d, t.hand_key(p), False) for p in self.others}
        self.throws = {p: _cards_of(rec, d, t.throw_key(p), False) for p in self.others}
        self.extra = _cards_of(rec, d, "crib card", False)[0] if t.players == 3 else []
        self.tokens, self.l_play = _cards_of(rec, d, "play", False)
        self.me = t.seat(0, dealer)  # my seat: 0 the dealer's left
        self.scores = tuple(scores)
        self.sc = np.array(scores, dtype=np.int64)
        self.parts = [dict(heels=0, pegging=0, hand=0, crib=0) for _ in range(t.players)]
        self.kept = [c for c in self.mine if c not in self.throw]
        self.laid = {p: [] for p in self.others}  # each other place's cards laid
        self.played = []
        self.decisions = [
            Decision(
                "throw",
                number,
                self.l_throw,
                dealer == 0,
                self.scores,
                list(self.mine),
                list(self.throw),
                seat=self.me,
                crib_mine=t.side(dealer) == 0,
            )
        ]

    def award(self, place: int, pts: int, part: str) -> bool:
        """``place`` scores ``pts`` (as the rules add points); True if its side reached the
        game length."""
        s = self.t.side(place)
        self.parts[place][part] += pegging.add_points(
            self.sc, s, pts, self.spec.game_length, self.spec.as_array()
        )
        return 0 < self.spec.game_length <= self.sc[s]

    def done(self, reached: int):
        """The deal's replay, and the winner where side ``reached`` got to the game length
        (under lowball, two sides, the other one wins)."""
        t = self.t
        dr = DealReplay(
            self.number,
            self.dealer == 0,
            self.scores,
            list(self.mine),
            self.starter,
            {t.names[p]: self.parts[p] for p in range(t.players)},
            tuple(int(x) for x in self.sc),
            self.decisions,
            self.played,
            self.dealer,
        )
        if reached < 0:
            return dr, None
        return dr, t.side_names[1 - reached if self.spec.lowball else reached]


def _replay_deal(rec, d, number, dealer, scores, spec):
    from cribsolve.core.scoring import score_hand

    if not spec.jokers:
        for key, (line, cards) in d.fields.items():
            if JOKER in cards:
                rec.fail(
                    line,
                    f"a joker in '{key}', but this game has none (a line 'rules: "
                    "jokers 1' lets one in)",
                )
    x = _Deal(rec, d, number, dealer, scores, spec)
    t = x.t
    for c in x.throw:
        if c not in x.mine:
            rec.fail(x.l_throw, f"you throw {format_card(c)}, which is not among your cards")
    for p in x.others:
        (hand, _), (thrown, l_tt) = x.hands[p], x.throws[p]
        if hand and thrown:
            for c in thrown:
                if c not in hand:
                    rec.fail(
                        l_tt,
                        f"they throw {format_card(c)}, which is not among their cards"
                        if t.players == 2
                        else f"{t.names[p]} throws {format_card(c)}, which is not among "
                        f"{t.whose(p)} cards",
                    )
    where = {}  # every card dealt, once: the line it is on
    dealt = [(x.mine, x.l_me)]
    for p in x.others:
        (hand, l_hand), (thrown, l_tt) = x.hands[p], x.throws[p]
        dealt += [(hand or (), l_hand), (() if hand else thrown or (), l_tt)]
    if x.extra:
        dealt.append((x.extra, x.d.fields["crib card"][0]))
    for cards, line in dealt + [((x.starter,), x.l_starter)]:
        for c in cards:
            if c in where:
                rec.fail(line, f"{format_card(c)} is dealt twice (also line {where[c]})")
            where[c] = line
    if RANK[x.starter] == JACK and spec.wild_rank != JACK:  # his heels: 2 to the dealer
        if x.award(dealer, 2, "heels"):
            if x.tokens is not None:
                rec.fail(x.l_play, "the game ended with his heels at the cut: nothing is played")
            return x.done(t.side(dealer))
    if x.tokens is None:
        rec.fail(d.line, "this deal has no 'play' line")
    won = _replay_play(x)
    if won is not None:  # the play ended the game
        return x.done(won)
    for p in x.others:
        (hand, _), (thrown, _) = x.hands[p], x.throws[p]
        if thrown is None and hand and len(x.laid[p]) == spec.kept:
            x.throws[p] = ([c for c in hand if c not in x.laid[p]], None)
    for seat in range(t.players):  # the hands from the dealer's left round
        p = t.place(seat, dealer)
        held = x.kept if p == 0 else x.laid[p]
        pts = score_hand(held, [x.starter], spec.rules(), False, itemized=False).total
        if x.award(p, pts, "hand"):
            return x.done(t.side(p))
    crib = list(x.throw) + list(x.extra or [])
    for p in x.others:
        if x.throws[p][0] is None:
            rec.fail(d.line, f"give '{t.throw_key(p)}' (or '{t.hand_key(p)}') to count the crib")
        crib += x.throws[p][0]
    if t.players == 3 and not x.extra:
        rec.fail(d.line, "give 'crib card' (the deck's card in the crib) to count the crib")
    pts = score_hand(crib, [x.starter], spec.rules(), True, itemized=False).total
    if x.award(dealer, pts, "crib"):
        return x.done(t.side(dealer))
    return x.done(-1)


def _replay_play(x: _Deal):
    """The play card by card through the rules' play-state (pegging.PlayState), every card and
    go appended to x.played, the cards each other place laid to x.laid. A hand the record
    does not give is hidden: its cards are laid in its turns, its goes written. Returns the
    side that reached the game length, or None."""
    rec, t, spec, tokens, dealer = x.rec, x.t, x.spec, x.tokens, x.dealer
    fail = lambda message: rec.fail(x.l_play, message)  # noqa: E731
    owner = _owners(x, fail)
    hands = [None] * t.players
    for p in range(t.players):
        seat = t.seat(p, dealer)
        if p == 0:
            hands[seat] = x.kept
        elif x.hands[p][0] is not None:  # its kept cards, or those it lays
            hand, thrown = x.hands[p][0], x.throws[p][0]
            hands[seat] = (
                [c for c in hand if c not in thrown]
                if thrown is not None
                else [c for c in tokens if c is not GO and owner.get(c) == p]
            )
        elif t.players == 2:  # two: every other card is theirs
            hands[seat] = [c for c in tokens if c is not GO and c not in x.kept]
    state = pegging.PlayState(spec, hands)
    whose = lambda seat: t.whose(t.place(seat, dealer))  # noqa: E731
    j, c = 0, 0
    goes, points = state.settle()
    while True:
        won = next(
            (
                t.side(t.place(s, dealer))
                for s, pts in points
                if x.award(t.place(s, dealer), pts, "pegging")
            ),
            None,
        )
        n_go = 0
        while j < len(tokens) and tokens[j] is GO and n_go < len(goes):
            n_go, j = n_go + 1, j + 1
        x.played += [GO] * len(goes)
        over = state.over or won is not None
        p = state.turn
        if (
            j < len(tokens)
            and tokens[j] is GO
            and (over or hands[p] is not None or state.go_error())
        ):
            fail(
                state.go_error()
                if state.over and won is None
                else f"a go at count {c} cannot happen there"
                + ("" if over else f" ({whose(p)} turn, and a card fits)")
            )
        if over:
            break
        c = state.count
        if j == len(tokens):
            fail(
                f"the play stops early: {whose(p)} turn at count {c}, and "
                + (
                    "you hold a card that fits"
                    if p == x.me
                    else "they hold a card that fits"
                    if t.players == 2
                    else f"{t.names[t.place(p, dealer)]} holds a card that fits"
                    if hands[p] is not None
                    else f"{t.names[t.place(p, dealer)]} has not said go"
                )
            )
        if tokens[j] is GO:  # a hidden hand's go
            j += 1
            x.played.append(GO)
            goes, points = state.go()
            continue
        card = tokens[j]
        who = owner.get(card)
        if (t.seat(who, dealer) if who is not None else None) != p and (
            who is not None or hands[p] is not None
        ):
            fail(
                f"{format_card(card)} cannot be laid at count {c}: it is {whose(p)} turn "
                "(a player who can lay must; write go where one could not)"
            )
        if not state.fits(card):
            fail(f"{format_card(card)} does not fit: the count is {c}")
        if state.card_error(card):
            fail(state.card_error(card))
        mine = state.hands[x.me]
        if p == x.me and sum(state.fits(y) for y in mine) > 1:
            x.decisions.append(
                Decision(
                    "play",
                    x.number,
                    x.l_play,
                    dealer == 0,
                    tuple(int(v) for v in x.sc),
                    list(mine),
                    [card],
                    list(x.played),
                    list(x.throw) + [x.starter],
                    c,
                    list(state.series),
                    sum(spec.kept - len(state.laid[s]) for s in range(t.players) if s != x.me),
                    seat=x.me,
                    crib_mine=t.side(dealer) == 0,
                )
            )
        place = t.place(p, dealer)
        pts = state.lay(card)
        x.played.append(card)
        if place:
            x.laid[place].append(card)
        j += 1
        if pts and x.award(place, pts, "pegging"):
            won = t.side(place)
            break
        c = state.count
        goes, points = state.settle()
    if won is not None:
        if any(tok is not GO for tok in tokens[j:]):
            fail(
                f"the game ended with {format_card(x.played[-1])} "
                f"({t.side_names[won]} reached {spec.game_length}): nothing is laid "
                "after it"
            )
        return won
    if j < len(tokens):
        fail("the play is over before the end of this line")
    for p in x.others:
        if len(x.laid[p]) < spec.kept:
            fail(
                f"they lay {len(x.laid[p])} cards: every card is laid unless the game ends"
                if t.players == 2
                else f"{t.names[p]} lays {len(x.laid[p])} cards: every "
                "card is laid unless the game ends"
            )
    return None


def _owners(x: _Deal, fail) -> dict:
    """The place each card of the play line belongs to where the record tells it (mine; a
    hand it gives; with two players every other card is theirs), each checked to be a card
    that can be laid."""
    t, k = x.t, x.spec.kept
    owner = {c: 0 for c in x.kept}
    for p in x.others:
        for c in x.hands[p][0] or ():
            owner[c] = p
    thrown = {c: p for p in x.others for c in x.throws[p][0] or ()}
    count = {p: 0 for p in x.others}
    for c in x.tokens:
        if c is GO or c in x.kept:
            continue
        what = (
            "your throw"
            if c in x.throw
            else "the starter"
            if c == x.starter
            else "the crib card"
            if c in (x.extra or ())
            else f"{t.whose(thrown[c])} throw"
            if c in thrown
            else None
        )
        if what:
            fail(f"{format_card(c)} is {what}: it is not laid in the play")
        if t.players == 2:
            if x.hands[1][0] is not None and c not in x.hands[1][0]:
                fail(f"{format_card(c)} is neither yours nor among their cards")
            owner[c] = 1
        elif c not in owner and all(x.hands[p][0] is not None for p in x.others):
            fail(f"{format_card(c)} is neither yours nor among the others' cards")
        if c in owner:
            count[owner[c]] = count.get(owner[c], 0) + 1
            if owner[c] and count[owner[c]] > k:
                fail(
                    f"they lay {count[owner[c]]} cards: a hand holds {k}"
                    if t.players == 2
                    else f"{t.names[owner[c]]} lays {count[owner[c]]} cards: a hand holds {k}"
                )
    return owner
