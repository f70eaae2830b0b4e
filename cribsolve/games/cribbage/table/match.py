"""A whole game between a person and the computers (docs/playing.md; the rules: docs/RULES.md §3,
§8), refereed by the rules' own play-state (pegging.PlayState) and show scorer, told as players
tell it (announce.py), and written deal by deal in the record ``cribsolve review`` reads
(record_writer.py). Deal n's deck comes from [seed, n] and goes by seat, so players can swap
seats and play the same deals. The person is a ``Player`` (a terminal, or a test's script).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import JACK, RANK, VALUE
from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage.rules import announce, pegging
from cribsolve.games.cribbage.rules.pegging import GO, PlayState
from cribsolve.games.cribbage.table import record, record_writer, replay
from cribsolve.games.cribbage.table.record import Table
from cribsolve.games.cribbage.table.replay import Decision

NAMES = ("you", "they")


class Player:
    """The person's side: answers for each decision (replay.Decision: what they know then)."""

    def throw(self, d: Decision) -> list:
        raise NotImplementedError

    def lay(self, d: Decision) -> int:
        raise NotImplementedError

    def count(self, held, starter, crib: bool) -> int:
        """Counting yourself: the points the person claims for this show."""
        raise NotImplementedError

    def after(self, d: Decision) -> None:
        """Told each decision once made (d.choice): the coach's moment."""


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
        if self.scores[side] >= length:
            raise GameOver(side)

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
        else:
            done = resumed.deals
            self.scores[:] = done[-1].scores_after if done else resumed.record.scores
            self.result.deals = len(done)  # the deals finished
            n = len(done) + 1
        while True:
            deal = Deal(self, n, (self.dealer + n - 1) % self.table.players)
            try:
                deal.run()
            except GameOver as end:
                self._finish(deal, end.who)
                return self.result
            self._record(deal)
            n += 1

    def _record(self, deal) -> None:
        text = deal.text()
        self.result.texts.append(text)
        self.result.deals = deal.number
        self.write(text)

    def _finish(self, deal, reached: int) -> None:
        """The end: side ``reached`` got to the game length first (under lowball, and lost)."""
        self._record(deal)
        r, length, t = self.result, self.spec.game_length, self.table
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
    """One deal: the deal, the throws, the starter, the play, the show. Places are from the
    person (0 you); seats from the dealer's left (the engine's and the play-state's)."""

    def __init__(self, match: Match, number: int, dealer: int):
        self.m, self.number, self.dealer = match, number, dealer
        self.t = t = match.table
        self.you_deal = dealer == 0
        self.me = t.seat(0, dealer)  # my seat: 0 the dealer's left
        spec, h, n = match.spec, match.spec.hand_size, t.players
        deck = deck_for(match.seed, number, spec)
        self.dealt = [
            deck[t.seat(p, dealer) * h : (t.seat(p, dealer) + 1) * h] for p in range(n)
        ]  # by place: yours first
        self.crib_card = deck[n * h] if spec.from_deck else None
        self.starter = deck[n * h + spec.from_deck]
        self.kept, self.thrown, self.played = [None] * n, [None] * n, None

    def place(self, seat: int) -> int:
        return self.t.place(seat, self.dealer)

    def text(self) -> str:
        return record_writer.deal_text(
            self.number, self.t, self.dealt, self.thrown, self.starter, self.played, self.crib_card
        )

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
            crib_mine=self.t.side(self.dealer) == 0,
            **more,
        )

    def _says(self, place: int, verb: str) -> str:
        """'you lay', 'they lay', 'left lays'."""
        name = self.t.names[place]
        return f"{name} {verb}{'s' * (name not in NAMES)}"

    def run(self) -> None:
        m, say, t = self.m, self.m.say, self.t
        say("")
        if m.screen:
            say(f"deal {self.number}: {self._says(self.dealer, 'deal')}")
            for line in m.board_lines():
                say(line)
        else:
            say(f"deal {self.number}: {self._says(self.dealer, 'deal')} {m.board()}")
        d = self.decision("throw", self.dealt[0])
        d.choice = list(m.player.throw(d))
        m.player.after(d)
        self.thrown[0] = d.choice
        self.kept[0] = [c for c in self.dealt[0] if c not in d.choice]
        for p in range(1, t.players):
            seat = t.seat(p, self.dealer)
            mine = m.scores[t.side(p)]
            self.kept[p], self.thrown[p] = m.computer.throw(
                self.dealt[p],
                t.side(p) == t.side(self.dealer),
                decision_seed(m.seed, self.number, 0, *[p] * (t.players > 2)),
                seat,
                (mine, max(s for k, s in enumerate(m.scores) if k != t.side(p))),
            )
        crib = "your" if self.you_deal else "their" if t.players == 2 else t.whose(self.dealer)
        others = (
            "they throw two cards face down"
            if t.players == 2
            else "the others throw a card each face down"
        )
        say(
            f"  you throw {format_cards(self.thrown[0])}; {others} to {crib} crib"
            + " (and one from the deck)" * (self.crib_card is not None)
        )
        say(f"  the starter: {format_card(self.starter)}")
        if RANK[self.starter] == JACK and m.spec.wild_rank != JACK:
            m.score(self.dealer, 2, "his heels, two for the dealer")
        self.played = []
        self.play()
        self.show()

    def play(self) -> None:
        m, say, t = self.m, self.m.say, self.t
        hands = [self.kept[self.place(seat)] for seat in range(t.players)]
        state = PlayState(m.spec, hands)
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
                    self.thrown[p] + [self.starter],
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

    def _your_card(self, state) -> int:
        hand = state.hands[self.me]
        fits = [c for c in hand if state.fits(c)]
        if len(fits) == 1:  # no choice: laid for you, as the review has it
            return fits[0]
        d = self.decision(
            "play",
            hand,
            played=list(self.played),
            seen=self.thrown[0] + [self.starter],
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
        t = self.t
        for seat in range(t.players):  # the hands from the dealer's left round
            p = self.place(seat)
            self._count(p, self.kept[p], False)
        crib = [c for p in range(t.players) for c in self.thrown[p]]
        if t.players == 2:
            crib = self.thrown[0] + self.thrown[1]
        self._count(self.dealer, crib + [self.crib_card] * (self.crib_card is not None), True)

    def _count(self, who: int, held, crib: bool) -> None:
        from cribsolve.core.scoring import score_hand

        m, say = self.m, self.m.say
        s = score_hand(held, [self.starter], m.spec.rules(), crib)
        what = f"{self.t.whose(who)} {'crib' if crib else 'hand'}"
        say(f"  {what}: {format_cards(held)} with {format_card(self.starter)}")
        wild = [
            f"{format_card(c)} as {format_card(x)}"
            for c, x in zip(list(held) + [self.starter], s.cards)
            if c != x
        ]
        if wild:
            say(f"  wild: {', '.join(wild)}")
        words = f"{announce.cadence(s.items, m.spec.target)} for {what}"
        name = self.t.names[who]
        if s.total == 0 and (who != 0 or not m.count_yourself):
            return say(f"  {name}: {words}")
        if who != 0 or not m.count_yourself:
            return m.score(who, s.total, words)
        claimed = m.player.count(held, self.starter, crib)
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
