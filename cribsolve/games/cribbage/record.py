"""A played two-player game written down as a plain-text record, read and replayed card by
card to the scores it makes, with every decision of the player (each throw, each card laid
where there was a choice) and only what the player knew at that moment.

The record (README, "cribsolve review"): ``key: value`` lines, ``#`` comments, blank lines
free. A header (``game: 121``, ``dealer: me|them`` for the first deal, optional ``scores: A
B`` and ``rules:``, the house rules as ``CribbageSpec.describe`` words them, e.g. ``rules:
lowball, hand size 5``), then each deal after a ``deal`` line: ``me:`` (your cards), ``them:``
(optional: theirs), ``throw:``, ``their throw:`` (needed to count the crib unless ``them`` and
the play tell it), ``starter:``, ``play:`` (every card laid, the pone first, ``go``
optional). ``cribsolve play`` adds ``seed:``, ``opponent:`` and ``muggins: yes`` to its
records, so a game broken off can be resumed; review reads past them. Scores are never typed: the replay makes them, with the rules' own play
(play.PlayState: goes, last card, 31) and show (score_hand), and stops at the game length.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.notation import format_card, format_cards, parse_card
from cribsolve.errors import CardError, CribsolveError, RecordError
from cribsolve.games.cribbage import play
from cribsolve.games.cribbage.play import GO
from cribsolve.games.cribbage.spec import CribbageSpec

DEAL_KEYS = ("me", "them", "throw", "their throw", "starter", "play")
HEADER_KEYS = ("game", "dealer", "scores", "rules", "seed", "opponent", "muggins")
WHO = ("you", "they")
# the house rules a record cannot hold yet: each changes the deal itself (copies of a card,
# a card cut before the throw, redraws, a given cut, a second crib, an auction)
NOT_RECORDED = ("decks", "starters", "draw", "choose_cut", "two_cribs", "bid")


@dataclass
class DealRecord:
    line: int                                   # the 'deal' line
    fields: dict = field(default_factory=dict)  # key -> (line, cards or play tokens)


@dataclass
class Record:
    name: str
    first_dealer: str = ""                      # "me" or "them"
    game_length: int = 121
    scores: tuple = (0, 0)                      # yours, theirs, when the record starts
    rules: CribbageSpec = CribbageSpec()        # the house rules (its game length aside)
    seed: int | None = None                     # cribsolve play's: the seed that dealt it
    opponent: str = ""                          # ... the computer's policy
    muggins: bool = False                       # ... played under muggins
    deals: list = field(default_factory=list)
    header: dict = field(default_factory=dict)  # header key -> its line

    def fail(self, line: int, message: str):
        raise RecordError(f"{self.name}, line {line}: {message}")

    @property
    def spec(self) -> CribbageSpec:
        return replace(self.rules, game_length=self.game_length)

    def size(self, key: str) -> int:
        """How many cards a deal's line ``key`` holds under the record's rules."""
        r = self.rules
        return {"me": r.hand_size, "them": r.hand_size, "throw": r.crib_size // 2,
                "their throw": r.crib_size // 2, "starter": 1}.get(key, 0)


@dataclass
class Decision:
    """One choice of the player, with only what it knew then (never the opponent's hidden
    cards, nor the starter before it was turned)."""
    kind: str                   # "throw" or "play"
    deal: int
    line: int                   # the record's line of the choice
    i_deal: bool                # the player deals this deal
    scores: tuple               # (yours, theirs) just before the decision
    hand: list                  # throw: the six dealt; play: my unplayed cards
    choice: list                # the cards thrown, or [the card laid]
    played: list = field(default_factory=list)   # play: every card laid so far, GO where one
    seen: list = field(default_factory=list)     # play: my throw, then the starter
    count: int = 0                                # play: the count before my card
    series: list = field(default_factory=list)   # play: the ranks of the current series
    their_left: int = 0                           # play: cards the opponent still holds


@dataclass
class DealReplay:
    number: int
    i_deal: bool
    scores_before: tuple
    hand: list
    starter: int
    points: dict                # "you"/"they" -> {"heels", "pegging", "hand", "crib"}
    scores_after: tuple
    decisions: list
    play: list                  # every card laid, GO where a player could not lay


@dataclass
class Game:
    record: Record
    deals: list
    winner: str | None          # "you", "they", or None: the record ends first


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
            rec.deals.append(DealRecord(n))
            continue
        key, sep, value = line.partition(":")
        key = " ".join(key.lower().split())
        if not sep:
            rec.fail(n, f"expected 'key: value' or 'deal', not {line[:40]!r}")
        value = value.strip()
        if not rec.deals:
            if key not in HEADER_KEYS:
                rec.fail(n, f"unknown header key {key!r} (expected {', '.join(HEADER_KEYS)}; "
                            "a deal starts with a line 'deal')")
            if key in header:
                rec.fail(n, f"a second '{key}' line (the first is line {header[key]})")
            header[key] = n
            _header_value(rec, n, key, value)
            continue
        fields = rec.deals[-1].fields
        if key not in DEAL_KEYS:
            rec.fail(n, f"unknown key {key!r} in a deal (expected {', '.join(DEAL_KEYS)})")
        if key in fields:
            rec.fail(n, f"a second '{key}' line in this deal (the first is line "
                        f"{fields[key][0]})")
        fields[key] = (n, _deal_value(rec, n, key, value))
    if not rec.first_dealer:
        rec.fail(header.get("game", 1), "say who deals first: a line 'dealer: me' or "
                                        "'dealer: them' before the first deal")
    if not rec.deals:
        rec.fail(n if text.strip() else 1, "no deal: each starts with a line 'deal'")
    return rec


def _header_value(rec: Record, n: int, key: str, value: str) -> None:
    words = value.split()
    if key == "dealer":
        if value.lower() not in ("me", "them"):
            rec.fail(n, f"dealer: give me or them, not {value!r}")
        rec.first_dealer = value.lower()
    elif key == "game":
        from cribsolve.games.cribbage.board import LONGEST
        if not (value.isdigit() and 2 <= int(value) <= LONGEST):
            rec.fail(n, f"game: give the points to win (2 to {LONGEST}, e.g. 121), not "
                        f"{value!r}")
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
    elif len(words) != 2 or not all(w.isdigit() for w in words):
        rec.fail(n, f"scores: give yours then theirs, e.g. 'scores: 45 60', not {value!r}")
    else:
        rec.scores = (int(words[0]), int(words[1]))


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
        with open(path, encoding="utf-8-sig") as f:       # a byte-order mark is no text
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
    rules = CribbageSpec(**changes)
    if not_recorded(rules):
        raise CribsolveError(f"{not_recorded(rules)} is not recorded yet (a record holds "
                             "distinct cards, one cut card, each player's throw once)")
    return rules


def _rule(item: str):
    """(field, value) of one house rule as describe words it: 'lowball', 'peg limit 41',
    'wild k'."""
    from cribsolve.core.notation import RANK_CHARS
    *head, last = item.split()
    for f in fields(CribbageSpec):
        if f.name == "game_length":
            continue
        if f.type in (bool, "bool"):
            value = True
        elif f.name == "wild_rank":
            value = RANK_CHARS.find(last.upper()) + 1 if len(last) == 1 else -1
        else:
            value = int(last) if last.isdigit() else -1
        named = " ".join(head) == ("wild" if f.name == "wild_rank" else
                                   f.name.replace("_", " "))
        if named and value == getattr(CribbageSpec, f.name):
            return f.name, value                       # the standard game's, said anyway
        try:
            if CribbageSpec(**{f.name: value}).describe().lower() == item:
                return f.name, value
        except CribsolveError:
            if named:
                raise                                  # the rule named, its value out of range
    raise CribsolveError(f"unknown house rule {item!r} (write them as the commands list "
                         "them, e.g. 'lowball, hand size 5, peg limit 41')")


def header_text(spec, i_deal: bool, seed: int, opponent: str, muggins: bool) -> str:
    """The header of a record cribsolve play writes: the game, and what resumes it."""
    rules = replace(spec, game_length=CribbageSpec.game_length)
    return (f"# cribsolve play --variant cribbage: a game against {opponent}\n"
            f"game: {spec.game_length}\ndealer: {'me' if i_deal else 'them'}\n" +
            ("" if rules.is_standard else f"rules: {rules.describe()}\n") +
            f"seed: {seed}\nopponent: {opponent}\n" + "muggins: yes\n" * muggins)


def deal_text(number: int, mine, theirs, throw, their_throw, starter, played) -> str:
    """One deal as the record has it, every card dealt included (so the crib is counted);
    ``played``: every card laid and GO, or None where his heels ended the game first."""
    line = lambda key, cards: f"{key}: {format_cards(cards)}\n"     # noqa: E731
    text = (f"\ndeal {number}\n" + line("me", mine) + line("them", theirs) + line("throw", throw)
            + line("their throw", their_throw) + line("starter", [starter]))
    if played is not None:
        text += "play: " + " ".join("go" if t is GO else format_card(t) for t in played) + "\n"
    return text


# ---- the replay ---------------------------------------------------------------------------

def replay(rec: Record, spec=None) -> Game:
    """Play the record out: every deal's points and scores, the player's decisions, checked
    that each card and each play could happen, and stopped at the game length."""
    spec = spec or rec.spec
    for s, who in zip(rec.scores, WHO):
        if s >= rec.game_length:
            rec.fail(rec.header["scores"], f"scores: {who} cannot start at {s} in a game to "
                                           f"{rec.game_length}")
    scores, deals, winner = tuple(rec.scores), [], None
    i_deal = rec.first_dealer == "me"
    for k, d in enumerate(rec.deals, 1):
        if winner:
            rec.fail(d.line, f"the game was over ({winner} won) before this deal")
        dr, winner = _replay_deal(rec, d, k, i_deal, scores, spec)
        deals.append(dr)
        scores, i_deal = dr.scores_after, not i_deal
    return Game(rec, deals, winner)


def _cards_of(rec, d, key, required=True):
    if key not in d.fields:
        if required:
            rec.fail(d.line, f"this deal has no '{key}' line")
        return None, None
    line, cards = d.fields[key]
    return cards, line


def _replay_deal(rec, d, number, i_deal, scores, spec):
    from cribsolve.core.scoring import score_hand

    mine6, l_me = _cards_of(rec, d, "me")
    throw, l_throw = _cards_of(rec, d, "throw")
    (starter,), l_starter = _cards_of(rec, d, "starter")
    them, l_them = _cards_of(rec, d, "them", False)
    their_throw, l_tt = _cards_of(rec, d, "their throw", False)
    tokens, l_play = _cards_of(rec, d, "play", False)
    for c in throw:
        if c not in mine6:
            rec.fail(l_throw, f"you throw {format_card(c)}, which is not among your cards")
    if them and their_throw:
        for c in their_throw:
            if c not in them:
                rec.fail(l_tt, f"they throw {format_card(c)}, which is not among their cards")
    where = {}                                # every card dealt, once: the line it is on
    for cards, line in ((mine6, l_me), (them or (), l_them),
                        (() if them else their_throw or (), l_tt), ((starter,), l_starter)):
        for c in cards:
            if c in where:
                rec.fail(line, f"{format_card(c)} is dealt twice (also line {where[c]})")
            where[c] = line
    me = 1 if i_deal else 0                   # engine seats: 0 the pone, 1 the dealer
    sc = np.zeros(2, dtype=np.int64)
    sc[me], sc[1 - me] = scores
    parts = [dict(heels=0, pegging=0, hand=0, crib=0) for _ in range(2)]
    kept = [c for c in mine6 if c not in throw]
    decisions = [Decision("throw", number, l_throw, i_deal, scores, list(mine6), list(throw))]
    target = spec.game_length

    played = []

    pr = spec.as_array()

    def done(reached):
        """The deal's replay, and the winner where seat ``reached`` got to the game length
        (under lowball the other one wins)."""
        after = (int(sc[me]), int(sc[1 - me]))
        dr = DealReplay(number, i_deal, scores, list(mine6), starter,
                        {WHO[0]: parts[me], WHO[1]: parts[1 - me]}, after, decisions, played)
        return dr, None if reached < 0 else WHO[(reached != me) != spec.lowball]

    if RANK[starter] == JACK and spec.wild_rank != JACK:    # his heels: 2 to the dealer
        parts[1]["heels"] = play.add_points(sc, 1, 2, target, pr)
        if sc[1] >= target:
            if tokens is not None:
                rec.fail(l_play, "the game ended with his heels at the cut: nothing is played")
            return done(1)
    if tokens is None:
        rec.fail(d.line, "this deal has no 'play' line")
    theirs = _replay_play(rec, l_play, tokens, kept, throw, starter, them, their_throw, me, sc,
                          parts, decisions, number, spec, played)
    if isinstance(theirs, int):               # the play ended the game
        return done(theirs)
    if their_throw is None and them and len(theirs) == spec.kept:
        their_throw = [c for c in them if c not in theirs]
    shows = [(0, [kept, theirs][me], "hand"), (1, [theirs, kept][me], "hand")]
    for seat, held, part in shows + [(1, None, "crib")]:
        if part == "crib":
            if their_throw is None:
                rec.fail(d.line, "give 'their throw' (or 'them') to count the crib")
            held = list(throw) + list(their_throw)
        pts = score_hand(held, [starter], spec.rules(), part == "crib", itemized=False).total
        parts[seat][part] += play.add_points(sc, seat, pts, target, pr)
        if sc[seat] >= target:
            return done(seat)
    return done(-1)


def _replay_play(rec, line, tokens, kept, throw, starter, them, their_throw, me, sc, parts,
                 decisions, number, spec, played):
    """The play card by card through the rules' play-state (play.PlayState), every card and
    go appended to ``played``. Returns the opponent's kept cards as far as they are known, or
    the engine seat that won the game."""
    fail = lambda message: rec.fail(line, message)          # noqa: E731
    theirs = _their_cards(fail, tokens, kept, throw, starter, them, their_throw, spec.kept)
    their_kept = None if them is None or their_throw is None else \
        [c for c in them if c not in their_throw]
    hands = [None, None]
    hands[me], hands[1 - me] = kept, their_kept or theirs    # theirs never laid nor told: none
    state = play.PlayState(spec, hands)
    whose = lambda p: "your" if p == me else "their"          # noqa: E731
    before, j = sc.copy(), 0
    pr, target = spec.as_array(), spec.game_length

    def award(p, pts):
        play.add_points(sc, p, pts, target, pr)
        return 0 < target <= sc[p]

    winner = -1
    while winner < 0:
        c = state.count
        goes, points = state.settle()
        winner = next((p for p, pts in points if award(p, pts)), -1)
        n_go = 0
        while j < len(tokens) and tokens[j] is GO:
            n_go, j = n_go + 1, j + 1
        if n_go > len(goes):
            fail(state.go_error() if state.over and winner < 0 else
                 f"a go at count {c} cannot happen there" +
                 ("" if state.over or winner >= 0 else
                  f" ({whose(state.turn)} turn, and a card fits)"))
        played += [GO] * len(goes)
        if state.over or winner >= 0:
            break
        p, c = state.turn, state.count
        if j == len(tokens):
            fail(f"the play stops early: {whose(p)} turn at count {c}, and "
                 f"{'you hold' if p == me else 'they hold'} a card that fits")
        card = tokens[j]
        if (me if card in kept else 1 - me) != p:
            fail(f"{format_card(card)} cannot be laid at count {c}: it is {whose(p)} turn "
                 "(a player who can lay must; write go where one could not)")
        if not state.fits(card):
            fail(f"{format_card(card)} does not fit: the count is {c}")
        mine = state.hands[me]
        if p == me and sum(state.fits(x) for x in mine) > 1:
            decisions.append(Decision(
                "play", number, line, me == 1, (int(sc[me]), int(sc[1 - me])), list(mine),
                [card], list(played), list(throw) + [starter], c, list(state.series),
                spec.kept - len(state.laid[1 - me])))
        pts = state.lay(card)
        played.append(card)
        j += 1
        if pts and award(p, pts):
            winner = p
    for seat in range(2):
        parts[seat]["pegging"] += int(sc[seat] - before[seat])
    if winner >= 0:
        if any(tok is not GO for tok in tokens[j:]):
            fail(f"the game ended with {format_card(played[-1])} "
                 f"({'you' if winner == me else 'they'} reached {target}): nothing is laid "
                 "after it")
        return winner
    if j < len(tokens):
        fail("the play is over before the end of this line")
    if len(theirs) < spec.kept:
        fail(f"they lay {len(theirs)} cards: every card is laid unless the game ends")
    return theirs


def _their_cards(fail, tokens, kept, throw, starter, them, their_throw, k):
    """The cards of the play line that are theirs, each checked to be theirs to lay."""
    theirs = []
    for c in tokens:
        if c is GO or c in kept:
            continue
        what = ("your throw" if c in throw else "the starter" if c == starter else
                "their throw" if their_throw and c in their_throw else None)
        if what:
            fail(f"{format_card(c)} is {what}: it is not laid in the play")
        if them is not None and c not in them:
            fail(f"{format_card(c)} is neither yours nor among their cards")
        theirs.append(c)
    if len(theirs) > k:
        fail(f"they lay {len(theirs)} cards: a hand holds {k}")
    return theirs
