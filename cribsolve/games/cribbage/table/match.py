"""A whole game between a person and the computers (docs/playing.md; the rules: docs/RULES.md §3,
§8), refereed by the rules' own play-state (pegging.PlayState) and show scorer, told as players
tell it (announce.py), and written deal by deal in the record ``cribsolve review`` reads
(record_writer.py). Deal n's deck comes from [seed, n] and goes by seat, so players can swap
seats and play the same deals. The person is a ``Player`` (a terminal, or a test's script).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import RANK, VALUE, without
from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage.deals.game import FIVE_CARD_START, TIE
from cribsolve.games.cribbage.rules import announce, pegging
from cribsolve.games.cribbage.rules.pegging import GO, PlayState
from cribsolve.games.cribbage.table import record, record_writer, replay
from cribsolve.games.cribbage.table.record import PASS, Table
from cribsolve.games.cribbage.table.replay import Decision

NAMES = ("you", "they")


class Player:
    """The person's side: answers for each decision (replay.Decision: what they know then)."""

    def throw(self, d: Decision) -> list:
        raise NotImplementedError

    def lay(self, d: Decision) -> int:
        raise NotImplementedError

    def redraw(self, d: Decision) -> list:
        """Draw cribbage: the cards to throw away and draw again (none: keep them all)."""
        raise NotImplementedError

    def bid(self, d: Decision) -> int:
        """Bid cribbage: d.bid + 1 to raise the standing bid, or d.bid to pass."""
        raise NotImplementedError

    def count(self, held, cuts, crib: bool) -> int:
        """Counting yourself: the points the person claims for this show."""
        raise NotImplementedError

    def after(self, d: Decision) -> None:
        """Told each decision once made (d.choice): the coach's moment."""

    def join(self, match) -> None:
        """Told the match it plays in, once made: a full-screen table draws its board and the
        deal in play (match.deal) from it, between decisions as well as at them."""


class GameOver(Exception):
    def __init__(self, who: int):
        self.who = who  # the side that reached the game length (0: yours)


@dataclass
class Result:
    scores: list  # by side, yours first (two players: yours, theirs)
    winner: str | None  # the winning side's name ("you", "they"; or a place); None:
    deals: int  # unfinished
    skunk: int = 0  # 1 skunk, 2 double skunk
    texts: list = field(default_factory=list)  # the record, deal by deal


def deck_for(seed: int, n: int, spec):
    """Deal n's deck (n = 0: the cut for deal)."""
    return np.random.default_rng([seed, n]).permutation(spec.deck()).tolist()


def ready(spec, deck) -> None:
    """Compile now what the referee runs (the points of the play, a hand's count), from the
    first cards of ``deck``: play readies it with the players, before the first prompt."""
    from cribsolve.core.scoring import score_hand

    pegging.add_points(np.zeros(2, dtype=np.int64), 0, 1, spec.game_length, spec.as_array())
    score_hand(deck[:4], deck[4:5], spec.rules())


def decision_seed(seed: int, *public) -> int:
    """The computer's generator's seed for one decision, from public facts only."""
    return int(np.random.SeedSequence([seed, *public]).generate_state(1)[0])


def cut_for_deal(seed: int, spec):
    """(the cards cut, by place from you; the place that deals first): the lowest card deals;
    when the lowest rank is tied, everyone cuts again."""
    n = spec.players
    deck = [c for c in deck_for(seed, 0, spec) if c < 52]
    for k in range(0, len(deck) - n + 1, n):
        cut = deck[k : k + n]
        low = min(RANK[c] for c in cut)
        if sum(RANK[c] == low for c in cut) == 1:
            return cut, next(p for p, c in enumerate(cut) if RANK[c] == low)
    raise AssertionError("a deck of one rank")


class Match:
    def __init__(
        self,
        spec,
        player: Player,
        computer,
        say,
        write=None,
        seed: int = 0,
        you_deal: bool | None = None,
        count_yourself: bool = False,
        muggins: bool = False,
        dealer: int | None = None,
        screen=None,
    ):
        """``you_deal`` (two players) or ``dealer`` (the first dealer's place from you, 0 you):
        who deals first; neither: cut for it. ``screen`` (terminal.Screen): the board drawn
        after each score; None: the scores at the end of each line, as a transcript."""
        self.spec, self.player, self.computer, self.seed = spec, player, computer, seed
        self.say, self.write = say, write or (lambda text: None)
        self.count_yourself, self.muggins = count_yourself, muggins
        self.table = Table(spec.players, spec.partners)
        self.scores = [0] * self.table.sides
        self.backs = [0] * self.table.sides  # each side's score before its last points
        self.screen = screen
        if dealer is None and you_deal is not None:
            dealer = 0 if you_deal else 1
        if dealer is None:
            cut, dealer = cut_for_deal(seed, spec)
            names = self.table.names
            say(
                "cut for deal: "
                + ", ".join(
                    f"{names[p]} cut{'s' * (names[p] not in NAMES)} {format_card(c)}"
                    for p, c in enumerate(cut)
                )
                + f": {names[dealer]} deal{'s' * (names[dealer] not in NAMES)} first (the "
                f"{'lower' if len(cut) == 2 else 'lowest'} card deals)"
            )
        self.dealer = dealer
        self.you_deal = dealer == 0
        self.result = Result(self.scores, None, 0)
        self.deal = None  # the deal in play
        player.join(self)

    # ---- the board ----------------------------------------------------------------------

    def board_lines(self) -> list:
        """The board as the screen draws it (nothing without a screen)."""
        return self.screen.board(self.scores, self.backs) if self.screen else []

    def board(self) -> str:
        return (
            "["
            + ", ".join(f"{name} {s}" for name, s in zip(self.table.side_names, self.scores))
            + "]"
        )

    def score(self, who: int, pts: int, words: str) -> None:
        """The player at place ``who`` pegs ``pts`` for its side, told with the board, as the
        rules add points (pegging.add_points: the stink hole); the game ends the moment a score
        reaches the game length."""
        if pts <= 0:
            return
        length, name, side = self.spec.game_length, self.table.names[who], self.table.side(who)
        scores = np.array(self.scores, dtype=np.int64)
        if not pegging.add_points(scores, side, pts, length, self.spec.as_array()):
            return self.say(
                f"  {name}: {words}, but the stink hole: {length - 1} pegs nothing"
                + ("" if self.screen else "  " + self.board())
            )
        self.backs[side], self.scores[side] = self.scores[side], int(scores[side])
        self.say(f"  {name}: {words}" + ("" if self.screen else "  " + self.board()))
        for line in self.board_lines():
            self.say(line)
        if self.scores[side] >= length and not self.spec.two_cribs:  # that ends after the deal
            raise GameOver(side)

    def set_back(self, who: int, pts: int) -> None:
        """Bid cribbage: the crib's owner, short of its bid, goes back ``pts``."""
        side = self.table.side(who)
        self.backs[side], self.scores[side] = self.scores[side], self.scores[side] - pts
        self.say(
            f"  {self.table.names[who]}: set back {pts}"
            + ("" if self.screen else "  " + self.board())
        )
        for line in self.board_lines():
            self.say(line)

    # ---- the game -----------------------------------------------------------------------

    def run(self, resumed=None) -> Result:
        """Deal after deal until someone reaches the game length; ``resumed``: the replay
        (replay.ReplayedGame) of the deals a broken-off game finished, which this one goes on from
        (its seed deals the same cards and the computer decides as it would have)."""
        if resumed is None:
            header = record_writer.header_text(
                self.spec, self.dealer, self.seed, self.computer.policy, self.muggins
            )
            self.result.texts.append(header)
            self.write(header)
            n = 1
            if self.spec.five_card:  # the first pone's three for last (docs/RULES.md §8)
                self.say("")
                self.score(1 - self.dealer, FIVE_CARD_START, "three for last (the first pone's)")
        else:
            done = resumed.deals
            self.scores[:] = done[-1].scores_after if done else resumed.record.scores
            self.result.deals = len(done)  # the deals finished
            n = len(done) + 1
        while True:
            self.deal = deal = Deal(self, n, (self.dealer + n - 1) % self.table.players)
            try:
                deal.run()
            except GameOver as end:
                self._finish(deal, end.who)
                return self.result
            if self.spec.two_cribs and max(self.scores) >= self.spec.game_length:
                top = max(self.scores)
                self._finish(deal, self.scores.index(top) if self.scores.count(top) == 1 else TIE)
                return self.result
            self._record(deal)
            n += 1

    def _record(self, deal) -> None:
        text = deal.text()
        self.result.texts.append(text)
        self.result.deals = deal.number
        self.write(text)

    def _finish(self, deal, reached: int) -> None:
        """The end: side ``reached`` got to the game length first (under lowball, and lost;
        under two cribs, the most points after the deal, or TIE)."""
        self._record(deal)
        r, length, t = self.result, self.spec.game_length, self.table
        if reached == TIE:
            r.winner = "tie"
            self.say("")
            self.say(f"game over: a tie at {self.scores[0]}-{self.scores[1]} (two cribs)")
            return
        who = 1 - reached if self.spec.lowball else reached
        r.winner = t.side_names[who]
        loser, k = min((s, k) for k, s in enumerate(self.scores) if k != who)  # the last
        last = t.side_names[k]
        r.skunk = (
            0
            if self.spec.lowball
            else 2
            if loser < length - 60
            else 1
            if loser < length - 30
            else 0
        )
        if t.sides == 2:
            won = f"{r.winner} win{'s' * (who == 1)}".replace("they wins", "they win")
            score = f"{self.scores[who]}-{loser}"
        else:
            won = f"{r.winner} win{'s' * (who != 0)}:"
            score = ", ".join(f"{name} {s}" for name, s in zip(t.side_names, self.scores))
        self.say("")
        self.say(
            f"game over: {won} {score}"
            + f" ({t.side_names[reached]} reached {length}: lowball)" * self.spec.lowball
            + [
                "",
                f" (a skunk: {last} did not reach {length - 30}; the win counts as two games)",
                f" (a double skunk: {last} did not reach {length - 60}; the win counts "
                "as three games)",
            ][r.skunk]
        )


def summary_lines(text: str, name: str, progress=None) -> list:
    """The review's closing lines for a game's record: the decisions not the best, the
    expected points and P(win) lost, and the result (review.text_lines)."""
    from cribsolve.games.cribbage.table.review import review, text_lines

    game = replay.replay(record.parse_record(text, name))
    return text_lines(game, review(game, progress=progress))[-2:]


class Deal:
    """One deal: the deal, any first cut card, redraws and bids, the throws (and the cards
    given), the starter, the play, the show, in play_deal's order and from its positions in
    the deck, so the computer decides as simulate's players do. Places are from the person
    (0 you); seats from the dealer's left (the engine's and the play-state's)."""

    def __init__(self, match: Match, number: int, dealer: int):
        self.m, self.number, self.dealer = match, number, dealer
        self.t = t = match.table
        self.you_deal = dealer == 0
        self.me = t.seat(0, dealer)  # my seat: 0 the dealer's left
        spec, h, n = match.spec, match.spec.hand_size, t.players
        self.deck = deck_for(match.seed, number, spec)
        self.dealt = [
            self.deck[t.seat(p, dealer) * h : (t.seat(p, dealer) + 1) * h] for p in range(n)
        ]  # by place: yours first
        self.top = n * h + spec.from_deck  # the next card of the deck
        self.crib_card = self.deck[n * h] if spec.from_deck else None
        self.hands = [list(c) for c in self.dealt]  # the cards held now
        self.seen = [list(c) for c in self.dealt]  # every card each place has seen
        self.starters, self.draws, self.draws_after, self.gifts = [], [], [], []
        self.bids, self.owner, self.price = None, dealer, 0  # the crib's owner and its bid
        self.kept, self.thrown, self.played = [None] * n, [None] * n, None
        self.away = [[] for _ in range(n)]  # the cards each place threw away to redraw
        self.claims = []  # counting yourself: your counts as you gave them (the record's)
        self.state = None  # the play's (pegging.PlayState), once it begins

    def place(self, seat: int) -> int:
        return self.t.place(seat, self.dealer)

    def text(self) -> str:
        return record_writer.deal_text(self.number, self.t, self)

    def owns(self, p: int) -> bool:
        """Whether place p throws to its own side's crib (both do under two cribs)."""
        return self.m.spec.two_cribs or self.t.side(p) == self.t.side(self.owner)

    def decision(self, kind, hand, **more) -> Decision:
        return Decision(
            kind,
            self.number,
            0,
            self.you_deal,
            tuple(self.m.scores),
            list(hand),
            [],
            seat=self.me,
            crib_mine=self.owns(0),
            cut=list(self.starters),
            known=list(self.away[0]),
            **more,
        )

    def _says(self, place: int, verb: str) -> str:
        """'you lay', 'they lay', 'left lays'."""
        name = self.t.names[place]
        return f"{name} {verb}{'s' * (name not in NAMES)}"

    def run(self) -> None:
        m, say, spec = self.m, self.m.say, self.m.spec
        say("")
        if m.screen:
            say(f"deal {self.number}: {self._says(self.dealer, 'deal')}")
            for line in m.board_lines():
                say(line)
        else:
            say(f"deal {self.number}: {self._says(self.dealer, 'deal')} {m.board()}")
        if spec.starters == 2:
            self._turn("the first cut card")
        if spec.draw:
            self.draws = self._redraw(True)
        if spec.bid:
            self._auction()
        self._throw()
        if spec.draw:
            self.draws_after = self._redraw(False)
        if spec.choose_cut:
            say(
                f"  the cards given are turned: your cut card {format_card(self.gifts[1])} "
                f"(from them), theirs {format_card(self.gifts[0])}"
            )
        else:
            self._turn("the starter" if spec.starters == 1 else "the second cut card")
        self.played = []
        self.play()
        self.show()

    def _turn(self, what: str) -> None:
        """A cut card turned from the deck: his heels for a jack (not a wild one)."""
        card = self.deck[self.top]
        self.top += 1
        self.starters.append(card)
        for p in range(self.t.players):
            self.seen[p].append(card)
        self.m.say(f"  {what}: {format_card(card)}")
        if self.m.spec.heels(card):
            self.m.score(self.dealer, 2, "his heels, two for the dealer")

    def _first(self) -> int:
        """The first cut card, turned before the throw (-1: none)."""
        return self.starters[0] if self.starters else -1

    def _redraw(self, before: bool) -> list:
        """Draw cribbage: each player, the pone first, throws away cards and draws as many
        from the deck; [(away, drawn)] by place."""
        m, t = self.m, self.t
        reserve = 0 if m.spec.choose_cut else 1  # a cut card stays in the deck
        out = [None] * t.players
        for seat in range(t.players):
            p = self.place(seat)
            held = self.hands[p] if before else self.kept[p]
            limit = min(len(self.deck) - self.top - reserve, len(held) - 1)
            if p == 0:
                d = self.decision("draw", held, before=before, limit=limit)
                d.choice = list(m.player.redraw(d))
                m.player.after(d)
                away = d.choice
            else:
                away = m.computer.redraw(
                    held,
                    before,
                    self.owns(p),
                    self._first(),
                    self.seen[p],
                    limit,
                    decision_seed(m.seed, self.number, 2 + before, p),
                )
            drawn = self.deck[self.top : self.top + len(away)]
            self.top += len(away)
            held[:] = without(held, away) + drawn
            self.away[p] += away
            self.seen[p] += drawn
            out[p] = (away, drawn)
            m.say(
                f"  you throw away {format_cards(away)} and draw {format_cards(drawn)}"
                if p == 0 and away
                else "  you keep your cards"
                if p == 0
                else f"  {self._says(p, 'throw')} away {len(away)} and draw{'s' * (p > 1)} "
                f"{len(away)}"
                if away
                else f"  {self._says(p, 'keep')} {'their' if t.players == 2 else 'its'} cards"
            )
        return out

    def _auction(self) -> None:
        """Bid cribbage: the players bid for the crib, the pone first, each raising by one or
        passing; the dealer holds it for nothing until outbid."""
        m, say = self.m, self.m.say
        wants = {
            p: m.computer.bidder(
                self.hands[p],
                self._first(),
                self.seen[p],
                decision_seed(m.seed, self.number, 4, p),
            )
            for p in range(1, self.t.players)
        }
        from cribsolve.games.cribbage.throw.draw_and_bid import BID_MAX

        self.bids, bid, turn = [], 0, 0
        while bid < BID_MAX:
            p = self.place(turn)
            if p == 0:
                d = self.decision("bid", self.hands[0], bid=bid, holder=self.owner)
                d.choice = [m.player.bid(d)]
                m.player.after(d)
                raised = d.choice[0] > bid
            else:
                raised = wants[p](bid)
            if not raised:
                break
            bid += 1
            self.bids.append(bid)
            self.owner, turn = p, 1 - turn
            say(f"  {self._says(p, 'bid')} {bid} for the crib")
        if bid < BID_MAX:
            self.bids.append(PASS)
            say(f"  {self._says(p, 'pass')}")
        self.price = bid
        say(
            f"  {self.t.whose(self.owner)} crib"
            + (f" for {bid}: it must make {bid} or be set back {bid}" if bid else ", for nothing")
        )

    def _throw(self) -> None:
        m, say, t, spec = self.m, self.m.say, self.t, self.m.spec
        d = self.decision("throw", self.hands[0])
        d.choice = list(m.player.throw(d))
        m.player.after(d)
        self._split(0, d.choice)
        for p in range(1, t.players):
            seat = t.seat(p, self.dealer)
            mine = m.scores[t.side(p)]
            _, thrown = m.computer.throw(
                self.hands[p],
                self.owns(p),
                decision_seed(m.seed, self.number, 0, *[p] * (t.players > 2)),
                seat,
                (mine, max(s for k, s in enumerate(m.scores) if k != t.side(p))),
                self._first(),
                self.away[p],
            )
            self._split(p, thrown)
        crib = "your" if self.owner == 0 else "their" if t.players == 2 else t.whose(self.owner)
        n = spec.throw
        if spec.two_cribs:
            say(
                f"  you throw {format_cards(self.thrown[0][:n])} to your crib and "
                f"{format_cards(self.thrown[0][n:])} to theirs; they throw two to each"
            )
        else:
            others = (
                "they throw two cards face down"
                if t.players == 2
                else "the others throw a card each face down"
            )
            say(
                f"  you throw {format_cards(self.thrown[0])}; {others} to {crib} crib"
                + " (and one from the deck)" * (self.crib_card is not None)
            )
        if spec.choose_cut:
            say(f"  you give them {format_card(self.gifts[0])} face down; they give you a card")

    def _split(self, p: int, cards) -> None:
        """Place p's throw: to the crib (under two cribs then to the other's), and under
        choose-a-cut the card given last."""
        spec = self.m.spec
        n = spec.throw * (1 + spec.two_cribs)
        self.thrown[p] = list(cards[:n])
        if spec.choose_cut:
            self.gifts.append(cards[n])
        self.kept[p] = without(self.hands[p], cards)

    def cuts(self, p: int) -> list:
        """Place p's cut cards: the starters, or under choose-a-cut the card given to it."""
        return [self.gifts[1 - p]] if self.m.spec.choose_cut else self.starters

    def play(self) -> None:
        m, say, t = self.m, self.m.say, self.t
        hands = [self.kept[self.place(seat)] for seat in range(t.players)]
        self.state = state = PlayState(m.spec, hands)
        while True:
            goes, points = state.settle()
            for seat in goes:  # the record has every go; the one who laid
                self.played.append(GO)  # last takes the point and says nothing
                if seat != state.last or not points:
                    say(f"  {t.names[self.place(seat)]}: go")
            for seat, pts in points:
                m.score(self.place(seat), pts, "one for last" if state.over else "one for the go")
            if state.over:
                return
            seat = state.turn
            p = self.place(seat)
            card = (
                self._your_card(state)
                if p == 0
                else m.computer.lay(
                    self.kept[p],
                    without(self.seen[p], self.kept[p]) + self._turned(p),
                    state.laid,
                    state.series,
                    state.count,
                    state.last,
                    seat,
                    decision_seed(m.seed, self.number, 1 + len(self.played)),
                    m.spec.game_length - m.scores[t.side(p)],
                )
            )
            series, count = state.series + [int(RANK[card])], state.count + int(VALUE[RANK[card]])
            pts = state.lay(card)
            self.played.append(card)
            say(f"  {self._says(p, 'lay')} {format_card(card)}, count {count}")
            if pts:
                m.score(p, pts, announce.play_words(series, count, pts, m.spec))

    def _turned(self, p: int) -> list:
        """The cards turned over that place p had not seen (the card given to it)."""
        return [self.gifts[1 - p]] if self.m.spec.choose_cut else []

    def _your_card(self, state) -> int:
        hand = state.hands[self.me]
        fits = [c for c in hand if state.fits(c)]
        if len(fits) == 1:  # no choice: laid for you, as the review has it
            return fits[0]
        d = self.decision(
            "play",
            hand,
            played=list(self.played),
            seen=self.thrown[0] + self.gifts[:1] + self.cuts(0) + self.away[0],
            count=state.count,
            series=list(state.series),
            their_left=sum(
                self.m.spec.kept - len(state.laid[s]) for s in range(self.t.players) if s != self.me
            ),
        )
        card = self.m.player.lay(d)
        d.choice = [card]
        self.m.player.after(d)
        return card

    def show(self) -> None:
        t, spec = self.t, self.m.spec
        for seat in range(t.players):  # the hands from the dealer's left round
            p = self.place(seat)
            self._count(p, self.kept[p], False)
        n = spec.throw
        if spec.two_cribs:  # the dealer's crib, then the pone's: its own two, the other's two
            for p in (self.dealer, 1 - self.dealer):
                self._count(p, self.thrown[p][:n] + self.thrown[1 - p][n:], True)
            return
        crib = [c for p in range(t.players) for c in self.thrown[p]]
        self._count(self.owner, crib + [self.crib_card] * (self.crib_card is not None), True)

    def _count(self, who: int, held, crib: bool) -> None:
        m, say = self.m, self.m.say
        cuts = self.cuts(who)
        s = replay.show_score(held, cuts, m.spec, crib)
        what = f"{self.t.whose(who)} {'crib' if crib else 'hand'}"
        say(f"  {what}: {format_cards(held)} with {format_cards(cuts)}")
        wild = [
            f"{format_card(c)} as {format_card(x)}"
            for c, x in zip(list(held) + list(cuts), s.cards)
            if c != x
        ]
        if wild:
            say(f"  wild: {', '.join(wild)}")
        words = f"{announce.cadence(s.items, m.spec.target)} for {what}"
        name = self.t.names[who]
        if crib and s.total < self.price:  # a bid the crib did not make
            lost = min(self.price, m.scores[self.t.side(who)])
            say(f"  {name}: {words}, short of the bid of {self.price}")
            return m.set_back(who, lost)
        if s.total == 0 and (who != 0 or not m.count_yourself):
            return say(f"  {name}: {words}")
        if who != 0 or not m.count_yourself:
            return m.score(who, s.total, words)
        claimed = m.player.count(held, cuts, crib)
        self.claims.append(claimed)
        if claimed == s.total:
            return m.score(0, s.total, f"{announce.number(s.total)}, right: {words}")
        say(
            f"  you counted {claimed}; the count is {s.total}: "
            f"{announce.cadence(s.items, m.spec.target)}"
        )
        if m.muggins and claimed < s.total:
            m.score(0, claimed, f"{announce.number(claimed)} as you counted")
            return m.score(1, s.total - claimed, f"muggins: the {s.total - claimed} you missed")
        m.score(0, s.total, f"{announce.number(s.total)}, corrected")
