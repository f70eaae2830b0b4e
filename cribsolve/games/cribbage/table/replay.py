"""A game record replayed card by card to the scores it makes (docs/RULES.md §3, §8), with
every decision of the player and only what it knew then: for review and for resuming a game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import JACK, RANK
from cribsolve.core.notation import JOKER, format_card
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.table.record import Record


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
class ReplayedGame:
    record: Record
    deals: list
    winner: str | None  # the winning side's name, or None: the record ends first


def replay(rec: Record, spec=None) -> ReplayedGame:
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
    return ReplayedGame(rec, deals, winner)


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
