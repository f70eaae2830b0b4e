"""A game record replayed card by card to the scores it makes (docs/RULES.md §3, §8), with
every decision of the player and only what it knew then: for review and for resuming a game."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import SUIT, without
from cribsolve.core.notation import JOKER, format_card
from cribsolve.games.cribbage.deals.game import FIVE_CARD_START
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.pegging import GO
from cribsolve.games.cribbage.table.record import DRAWS, PASS, Record


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
    cut: list = field(default_factory=list)  # the cut cards turned before it (two starters)
    known: list = field(default_factory=list)  # draw: the cards I threw away to redraw
    before: bool = True  # draw: before the throw (else after it, from the kept cards)
    limit: int = 0  # draw: the most cards I may draw
    bid: int = 0  # bid: the standing bid (I raise it by one or pass)
    holder: int = -1  # bid: who holds the crib at it (a place from me)

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
    cuts: list  # my cut cards: the starter(s), or under choose-a-cut the card given me
    points: dict  # each player's name -> {"heels", "pegging", "hand", "crib"} (+ "muggins")
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
    if spec.five_card and "scores" not in rec.header:  # the first pone's three for last
        scores = tuple(s + FIVE_CARD_START * (k != dealer) for k, s in enumerate(scores))
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
    """One deal of a record being replayed: the cards each place was dealt, drew, threw, gave
    and laid (where the record tells them), the scores by side, the points by place."""

    def __init__(self, rec, d, number, dealer, scores, spec):
        self.rec, self.d, self.number, self.dealer, self.spec = rec, d, number, dealer, spec
        self.t = t = rec.table
        self.others = range(1, t.players)
        self.mine, self.l_me = _cards_of(rec, d, "me")
        self.starters, self.l_starter = (
            ([], None) if spec.choose_cut else _cards_of(rec, d, "starter")
        )
        self.hands = {p: _cards_of(rec, d, t.hand_key(p), False) for p in self.others}
        self.throws = {p: _cards_of(rec, d, t.throw_key(p), False) for p in self.others}
        self.extra = _cards_of(rec, d, "crib card", False)[0] if t.players == 3 else []
        self.tokens, self.l_play = _cards_of(rec, d, "play", False)
        self.me = t.seat(0, dealer)  # my seat: 0 the dealer's left
        self.scores = tuple(scores)
        self.sc = np.array(scores, dtype=np.int64)
        parts = ("heels", "pegging", "hand", "crib") + ("muggins",) * rec.muggins
        self.parts = [dict.fromkeys(parts, 0) for _ in range(t.players)]
        claims, self.l_claims = _cards_of(rec, d, "counts", False)
        self.claims = None if claims is None else list(claims)  # muggins: my counts, in turn
        self.laid = {p: [] for p in self.others}  # each other place's cards laid
        self.played, self.decisions = [], []
        self.owner, self.price = dealer, 0  # the crib's owner (bid cribbage) and its bid
        self.away = [[] for _ in range(t.players)]  # cards thrown away to redraw
        self.drawn = [[] for _ in range(t.players)]  # ... and drawn
        self.gifts = [None] * t.players  # choose-a-cut: the card each place gave
        self.kept = None  # my cards for the play (the throw's line tells them)
        self.their_kept = {}  # another place's, where its cards are all given

    def decide(self, kind, line, hand, choice, **more) -> Decision:
        d = Decision(
            kind,
            self.number,
            line,
            self.dealer == 0,
            tuple(int(v) for v in self.sc),
            list(hand),
            list(choice),
            seat=self.me,
            crib_mine=self.spec.two_cribs or self.t.side(self.owner) == 0,
            cut=list(self.starters[: self.spec.starters - 1]),
            known=list(self.away[0]),
            **more,
        )
        self.decisions.append(d)
        return d

    def redraw(self, p: int, cards, key: str, before: bool):
        """Place p's redraw (the line ``key``, or none) from ``cards``: the cards after it."""
        line, (away, drawn) = self.d.fields.get(key, (self.d.line, ([], [])))
        try:
            after = without(cards, away) + drawn
        except ValueError:
            self.rec.fail(line, f"'{key}' throws away a card not among the cards held")
        if away and len(away) >= len(cards):
            self.rec.fail(line, f"'{key}': a player keeps at least one card")
        if p == 0:
            self.decide("draw", line, cards, away, before=before, limit=len(cards) - 1)
        self.away[p] += away
        self.drawn[p] += drawn
        return after

    def cuts(self, p: int) -> list:
        """Place p's cut cards: the starters, or under choose-a-cut the card given to it."""
        return [self.gifts[1 - p]] if self.spec.choose_cut else self.starters

    def award(self, place: int, pts: int, part: str) -> bool:
        """``place`` scores ``pts`` (as the rules add points; a bid not made: takes them
        off); True if its side reached the game length (never mid-deal under two cribs)."""
        s = self.t.side(place)
        if pts < 0:
            self.sc[s] += pts
            self.parts[place][part] += pts
            return False
        self.parts[place][part] += pegging.add_points(
            self.sc, s, pts, self.spec.game_length, self.spec.as_array()
        )
        return 0 < self.spec.game_length <= self.sc[s] and not self.spec.two_cribs

    def show(self, place: int, pts: int, part: str):
        """A hand or crib of ``pts`` counted: under muggins mine as I counted it (the
        record's 'counts'; none: in full), the points I missed to them, as the game pegged
        them. The side that reached the game length, or None."""
        claimed = pts
        if place == 0 and self.claims is not None:
            if not self.claims:
                self.rec.fail(self.l_claims, "counts: a count short (one for each show of yours)")
            claimed = min(self.claims.pop(0), pts)
        if self.award(place, claimed, part):
            return self.t.side(place)
        if claimed < pts and self.award(1, pts - claimed, "muggins"):
            return self.t.side(1)
        return None

    def done(self, reached: int):
        """The deal's replay, and the winner where side ``reached`` got to the game length
        (under lowball, two sides, the other one wins); two cribs: the most points once a
        score has reached it."""
        t, spec = self.t, self.spec
        dr = DealReplay(
            self.number,
            self.dealer == 0,
            self.scores,
            list(self.mine),
            self.cuts(0),
            {t.names[p]: self.parts[p] for p in range(t.players)},
            tuple(int(x) for x in self.sc),
            self.decisions,
            self.played,
            self.dealer,
        )
        if spec.two_cribs and max(self.sc) >= spec.game_length:
            top = int(max(self.sc))
            if list(self.sc).count(top) > 1:
                return dr, "tie"
            reached = list(self.sc).index(top)
        if self.claims:
            self.rec.fail(self.l_claims, f"counts: {len(self.claims)} more than your shows")
        if reached < 0:
            return dr, None
        return dr, t.side_names[1 - reached if spec.lowball else reached]


def show_score(held, cuts, spec, crib: bool, itemized: bool = True):
    """The show of ``held`` with its cut cards under ``spec`` (core.scoring.score_hand), with
    the five-card game's flush of a three-card hand (values.three_flush) where it counts."""
    from cribsolve.core.scoring import score_hand
    from cribsolve.games.cribbage.throw.values import three_flush

    s = score_hand(held, cuts, spec.rules(), crib, itemized)
    pts = 0
    if spec.five_card and len(held) == 3 and not crib:
        pts = int(three_flush(np.array(list(held) + list(cuts), dtype=np.int64)))
    if pts:
        s.total += pts
        s.breakdown["flush"] += pts
        suit = SUIT[held[0]]
        if itemized:
            s.items.append(("flush", pts, tuple(c for c in s.cards if SUIT[c] == suit)))
    return s


def _replay_deal(rec, d, number, dealer, scores, spec):
    if not spec.jokers:
        for key, (line, value) in d.fields.items():
            cards = [] if key == "bids" else value[0] + value[1] if key in DRAWS else value
            if JOKER in cards:
                rec.fail(
                    line,
                    f"a joker in '{key}', but this game has none (a line 'rules: "
                    "jokers 1' lets one in)",
                )
    x = _Deal(rec, d, number, dealer, scores, spec)
    t, n = x.t, spec.throw
    heels = [] if spec.choose_cut else list(x.starters)
    if len(x.starters) < spec.starters and not spec.choose_cut:  # his heels on the first
        if not spec.heels(x.starters[0]):
            rec.fail(x.l_starter, f"'starter' takes {spec.starters} cards, not 1")
        if not x.award(dealer, 2, "heels"):
            rec.fail(
                x.l_starter, "'starter' takes 2 cards: his heels on the first did not end the game"
            )
        _check_copies(
            x, [(x.mine, x.l_me), *(x.hands[p] for p in x.others), (x.starters, x.l_starter)]
        )
        return x.done(t.side(dealer))
    if spec.starters == 2:
        heels = heels[1:]
        if spec.heels(x.starters[0]):
            if x.award(dealer, 2, "heels"):
                rec.fail(
                    x.l_starter,
                    "the game ended with his heels on the first cut card: give it alone",
                )
    complete = (
        spec.draw
        or spec.bid
        or spec.choose_cut
        or spec.two_cribs
        or spec.five_card
        or (spec.decks > 1 or spec.jokers > 1)
    )  # rules whose deal needs every hand told
    hand = x.redraw(0, x.mine, "draw", True) if spec.draw else list(x.mine)
    held = {0: hand}
    for p in x.others:
        theirs, l_hand = x.hands[p]
        if theirs is None and complete:
            rec.fail(d.line, f"give '{t.hand_key(p)}': under these rules every hand is told")
        if theirs is not None:
            held[p] = x.redraw(p, theirs, "their draw", True) if spec.draw else list(theirs)
    if spec.bid:
        _auction(x, hand)
    throw, x.l_throw = _cards_of(rec, d, "throw")
    gift = _gift(x, 0, "gift", hand, throw)
    x.kept = _kept(x, 0, hand, throw, gift, x.l_throw)
    x.decide("throw", x.l_throw, hand, throw + gift)
    x.throw = throw
    thrown = {0: throw}
    for p in x.others:
        their_throw, l_tt = x.throws[p]
        if p in held and their_throw is not None:
            g = _gift(x, p, "their gift", held[p], their_throw)
            x.their_kept[p] = _kept(x, p, held[p], their_throw, g, l_tt)
        elif complete and their_throw is None:
            rec.fail(d.line, f"give '{t.throw_key(p)}': under these rules every throw is told")
        thrown[p] = their_throw
    if spec.draw:
        x.kept = x.redraw(0, x.kept, "draw after", False)
        for p in x.their_kept:
            x.their_kept[p] = x.redraw(p, x.their_kept[p], "their draw after", False)
    dealt = [(x.mine, x.l_me)]
    for p in x.others:
        (cards, l_hand), (their_throw, l_tt) = x.hands[p], x.throws[p]
        dealt += [(cards or (), l_hand), (() if cards else their_throw or (), l_tt)]
    if x.extra:
        dealt.append((x.extra, d.fields["crib card"][0]))
    dealt += [(x.drawn[p], d.line) for p in range(t.players)] + [(x.starters, x.l_starter)]
    _check_copies(x, dealt)
    for c in heels:  # his heels: 2 to the dealer
        if spec.heels(c) and x.award(dealer, 2, "heels"):
            if x.tokens is not None:
                rec.fail(x.l_play, "the game ended with his heels at the cut: nothing is played")
            return x.done(t.side(dealer))
    if x.tokens is None:
        rec.fail(d.line, "this deal has no 'play' line")
    x.seen = throw + gift + x.cuts(0) + x.away[0]  # what I know in the play besides my hand
    won = _replay_play(x)
    if won is not None:  # the play ended the game
        return x.done(won)
    for p in x.others:
        if thrown[p] is None and x.hands[p][0] and len(x.laid[p]) == spec.kept:
            thrown[p] = [c for c in x.hands[p][0] if c not in x.laid[p]]
    for seat in range(t.players):  # the hands from the dealer's left round
        p = t.place(seat, dealer)
        cards = x.kept if p == 0 else x.their_kept.get(p, x.laid[p])
        reached = x.show(p, show_score(cards, x.cuts(p), spec, False, itemized=False).total, "hand")
        if reached is not None:
            return x.done(reached)
    for p in x.others:
        if thrown[p] is None:
            rec.fail(d.line, f"give '{t.throw_key(p)}' (or '{t.hand_key(p)}') to count the crib")
    if t.players == 3 and not x.extra:
        rec.fail(d.line, "give 'crib card' (the deck's card in the crib) to count the crib")
    if spec.two_cribs:  # the dealer's crib, then the pone's: its own two, the other's two
        cribs = [(p, thrown[p][:n] + thrown[1 - p][n:]) for p in (dealer, 1 - dealer)]
    else:
        cribs = [(x.owner, [c for p in range(t.players) for c in thrown[p]] + list(x.extra or []))]
    for p, crib in cribs:
        pts = show_score(crib, x.cuts(p), spec, True, itemized=False).total
        if pts < x.price:  # a bid the crib did not make: set back
            x.award(p, -min(x.price, int(x.sc[t.side(p)])), "crib")
            continue
        reached = x.show(p, pts, "crib")
        if reached is not None:
            return x.done(reached)
    return x.done(-1)


def _kept(x: _Deal, p: int, hand, throw, gift, line) -> list:
    """Place p's cards after its throw (and the card it gave), each thrown card checked to be
    one it held."""
    try:
        return without(hand, throw + gift)
    except ValueError:
        t = x.t
        c = next(c for c in throw if throw.count(c) > hand.count(c))
        x.rec.fail(
            line,
            f"you throw {format_card(c)}, which is not among your cards"
            if p == 0
            else f"they throw {format_card(c)}, which is not among their cards"
            if t.players == 2
            else f"{t.names[p]} throws {format_card(c)}, which is not among {t.whose(p)} cards",
        )


def _gift(x: _Deal, p: int, key: str, hand, throw) -> list:
    """Choose-a-cut: the card place p gave (its line ``key``), checked to be among its cards
    besides its throw; [] under the other rules."""
    if not x.spec.choose_cut:
        return []
    (card,), line = _cards_of(x.rec, x.d, key)
    try:
        without(hand, throw + [card])
    except ValueError:
        x.rec.fail(
            line, f"'{key}': {format_card(card)} is not among the cards left after the throw"
        )
    x.gifts[p] = card
    return [card]


def _auction(x: _Deal, hand) -> None:
    """Bid cribbage: the bids, the pone first; my turns (with ``hand``, my cards) are
    decisions; the crib's owner and its price."""
    line, bids = x.d.fields.get("bids", (x.d.line, None))
    if bids is None:
        x.rec.fail(x.d.line, "this deal has no 'bids' line (bid cribbage)")
    raises = [b for b in bids if b != PASS]
    for k, b in enumerate(bids):  # turn k: seat k % 2, the pone first
        if k % 2 == x.me:
            choice = k + 1 if b != PASS else k
            holder = x.dealer if k == 0 else x.t.place((k - 1) % 2, x.dealer)
            x.decide("bid", line, hand, [choice], bid=k, holder=holder)
    if raises:
        x.owner = x.t.place((len(raises) - 1) % 2, x.dealer)
    x.price = len(raises)


def _check_copies(x: _Deal, groups) -> None:
    """No card of the deal (dealt, drawn, cut: (cards, line) pairs) more often than the deck
    holds it."""
    where = {}  # each card: the lines it is on
    for cards, line in groups:
        for c in cards:
            lines = where.setdefault(c, [])
            if len(lines) >= max(x.rec.copies(c), 1):
                copies = x.rec.copies(c)
                x.rec.fail(
                    line,
                    f"{format_card(c)} is dealt {'twice' if copies < 2 else f'{copies + 1} times'}"
                    f" (also line {', '.join(str(n) for n in lines)})"
                    + (f"; the deck holds {copies}" if copies > 1 else ""),
                )
            lines.append(line)


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
        elif p in x.their_kept:
            hands[seat] = list(x.their_kept[p])
        elif x.hands[p][0] is not None:  # the cards it lays
            hands[seat] = [c for c in tokens if c is not GO and owner.get(c) == p]
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
        if (
            card not in state.hands[p]
            if state.hands[p] is not None
            else who is not None and t.seat(who, dealer) != p
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
            x.decide(
                "play",
                x.l_play,
                mine,
                [card],
                played=list(x.played),
                seen=list(x.seen),
                count=c,
                series=list(state.series),
                their_left=sum(
                    spec.kept - len(state.laid[s]) for s in range(t.players) if s != x.me
                ),
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
        if len(x.laid[p]) < spec.kept and not spec.five_card:  # five-card: one series
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
    held = list(x.kept) + [c for p in x.their_kept for c in x.their_kept[p]]
    for c in x.tokens:
        if c is GO or c in held:
            continue
        what = (
            "your throw"
            if c in x.throw
            else "the starter"
            if c in x.starters
            else "the crib card"
            if c in (x.extra or ())
            else f"{t.whose(thrown[c])} throw"
            if c in thrown
            else "a card given"
            if c in x.gifts
            else "a card thrown away to redraw"
            if any(c in a for a in x.away)
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
