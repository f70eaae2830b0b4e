"""A whole two-player game between a person and the computer (docs/RULES.md §3): dealt from a
seed, refereed by the rules' own play-state (play.PlayState) and show scorer (score_hand),
told as players tell it (announce.py), and written deal by deal, as each ends, in the record
that ``cribsolve review`` reads (record.py).

The person is a ``Player`` (a terminal, or a test's script): the match asks it for each
throw, each card where more than one fits, and (counting yourself) each count; the computer
(computer.py) sees only its own cards and what is laid. Deal n's deck is shuffled from
[seed, n] and its cards go by seat (the pone's six, the dealer's six, the starter), so one
seed gives the same deals to both seats: players can swap seats and play them again.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import JACK, RANK, VALUE
from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage import announce, play, record
from cribsolve.games.cribbage.play import GO, PlayState
from cribsolve.games.cribbage.record import WHO, Decision

NAMES = ("you", "they")


class Player:
    """The person's side: answers for each decision (record.Decision: what they know then)."""

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
        self.who = who          # 0 you, 1 they: who reached the game length


@dataclass
class Result:
    scores: list                # (yours, theirs)
    winner: str | None          # "you", "they", None: unfinished
    deals: int
    skunk: int = 0              # 1 skunk, 2 double skunk
    texts: list = field(default_factory=list)   # the record, deal by deal


def deck_for(seed: int, n: int, spec):
    """Deal n's deck (n = 0: the cut for deal)."""
    return np.random.default_rng([seed, n]).permutation(spec.deck()).tolist()


def decision_seed(seed: int, *public) -> int:
    """The computer's generator's seed for one decision, from public facts only."""
    return int(np.random.SeedSequence([seed, *public]).generate_state(1)[0])


def cut_for_deal(seed: int, spec):
    """(your card, theirs, you deal): the lower card deals; equal ranks cut again."""
    deck = [c for c in deck_for(seed, 0, spec) if c < 52]
    for a, b in zip(deck[0::2], deck[1::2]):
        if RANK[a] != RANK[b]:
            return a, b, RANK[a] < RANK[b]
    raise AssertionError("a deck of one rank")


class Match:
    def __init__(self, spec, player: Player, computer, say, write=None, seed: int = 0,
                 you_deal: bool | None = None, count_yourself: bool = False,
                 muggins: bool = False):
        self.spec, self.player, self.computer, self.seed = spec, player, computer, seed
        self.say, self.write = say, write or (lambda text: None)
        self.count_yourself, self.muggins = count_yourself, muggins
        self.scores = [0, 0]
        if you_deal is None:
            mine, theirs, you_deal = cut_for_deal(seed, spec)
            say(f"cut for deal: you cut {format_card(mine)}, they cut {format_card(theirs)}: "
                f"{'you deal' if you_deal else 'they deal'} first (the lower card deals)")
        self.you_deal = you_deal
        self.result = Result(self.scores, None, 0)

    # ---- the board ----------------------------------------------------------------------

    def board(self) -> str:
        return f"[you {self.scores[0]}, they {self.scores[1]}]"

    def score(self, who: int, pts: int, words: str) -> None:
        """``who`` pegs ``pts`` (0 you, 1 they), told with the board, as the rules add points
        (play.add_points: the stink hole); the game ends the moment a score reaches the game
        length."""
        if pts <= 0:
            return
        length = self.spec.game_length
        scores = np.array(self.scores, dtype=np.int64)
        if not play.add_points(scores, who, pts, length, self.spec.as_array()):
            return self.say(f"  {NAMES[who]}: {words}, but the stink hole: {length - 1} "
                            "pegs nothing  " + self.board())
        self.scores[who] = int(scores[who])
        self.say(f"  {NAMES[who]}: {words}  {self.board()}")
        if self.scores[who] >= length:
            raise GameOver(who)

    # ---- the game -----------------------------------------------------------------------

    def run(self, resumed=None) -> Result:
        """Deal after deal until someone reaches the game length; ``resumed``: the replay
        (record.Game) of the deals a broken-off game finished, which this one goes on from
        (its seed deals the same cards and the computer decides as it would have)."""
        if resumed is None:
            header = record.header_text(self.spec, self.you_deal, self.seed,
                                        self.computer.policy, self.muggins)
            self.result.texts.append(header)
            self.write(header)
            n = 1
        else:
            done = resumed.deals
            self.scores[:] = done[-1].scores_after if done else resumed.record.scores
            n = self.result.deals = len(done) + 1
        you_deal = self.you_deal == (n % 2 == 1)
        while True:
            deal = Deal(self, n, you_deal)
            try:
                deal.run()
            except GameOver as end:
                self._finish(deal, end.who)
                return self.result
            self._record(deal)
            n, you_deal = n + 1, not you_deal

    def _record(self, deal) -> None:
        text = deal.text()
        self.result.texts.append(text)
        self.result.deals = deal.number
        self.write(text)

    def _finish(self, deal, reached: int) -> None:
        """The end: ``reached`` got to the game length first (under lowball, and lost)."""
        self._record(deal)
        r, length = self.result, self.spec.game_length
        who = 1 - reached if self.spec.lowball else reached
        r.winner = WHO[who]
        loser = self.scores[1 - who]
        r.skunk = 0 if self.spec.lowball else \
            2 if loser < length - 60 else 1 if loser < length - 30 else 0
        won = f"{r.winner} win{'s' * (who == 1)}".replace("they wins", "they win")
        self.say("")
        self.say(f"game over: {won} {self.scores[who]}-{loser}" +
                 f" ({NAMES[reached]} reached {length}: lowball)" * self.spec.lowball +
                 ["", f" (a skunk: {NAMES[1 - who]} did not reach {length - 30}; the win "
                      "counts as two games)",
                  f" (a double skunk: {NAMES[1 - who]} did not reach {length - 60}; the win "
                  "counts as three games)"][r.skunk])


def summary_lines(text: str, name: str, progress=None) -> list:
    """The review's closing lines for a game's record: the decisions not the best, the
    expected points and P(win) lost, and the result (review.text_lines)."""
    from cribsolve.games.cribbage.review import review, text_lines

    game = record.replay(record.parse_record(text, name))
    return text_lines(game, review(game, progress=progress))[-2:]


class Deal:
    """One deal: the deal, the throws, the starter, the play, the show."""

    def __init__(self, match: Match, number: int, you_deal: bool):
        self.m, self.number, self.you_deal = match, number, you_deal
        self.me = 1 if you_deal else 0              # engine seats: 0 the pone, 1 the dealer
        spec, h = match.spec, match.spec.hand_size
        deck = deck_for(match.seed, number, spec)
        seats = [deck[:h], deck[h:2 * h]]
        self.dealt = [seats[self.me], seats[1 - self.me]]       # yours, theirs
        self.starter = deck[2 * h]
        self.kept, self.thrown, self.played = [None, None], [None, None], None

    def text(self) -> str:
        return record.deal_text(self.number, self.dealt[0], self.dealt[1], self.thrown[0],
                                self.thrown[1], self.starter, self.played)

    def decision(self, kind, hand, **more) -> Decision:
        return Decision(kind, self.number, 0, self.you_deal, tuple(self.m.scores), list(hand),
                        [], **more)

    def run(self) -> None:
        m, say = self.m, self.m.say
        say("")
        say(f"deal {self.number}: {'you deal' if self.you_deal else 'they deal'} "
            f"{m.board()}")
        d = self.decision("throw", self.dealt[0])
        d.choice = list(m.player.throw(d))
        m.player.after(d)
        self.thrown[0] = d.choice
        self.kept[0] = [c for c in self.dealt[0] if c not in d.choice]
        self.kept[1], self.thrown[1] = m.computer.throw(
            self.dealt[1], not self.you_deal, decision_seed(m.seed, self.number, 0))
        say(f"  you throw {format_cards(self.thrown[0])}; they throw two cards face down to "
            f"{'your' if self.you_deal else 'their'} crib")
        say(f"  the starter: {format_card(self.starter)}")
        if RANK[self.starter] == JACK and m.spec.wild_rank != JACK:
            m.score(0 if self.you_deal else 1, 2, "his heels, two for the dealer")
        self.played = []
        self.play()
        self.show()

    def play(self) -> None:
        m, say = self.m, self.m.say
        hands = [None, None]
        hands[self.me], hands[1 - self.me] = self.kept
        state = PlayState(m.spec, hands)
        who = lambda seat: 0 if seat == self.me else 1          # noqa: E731
        while True:
            goes, points = state.settle()
            for seat in goes:                   # the record has every go; the one who laid
                self.played.append(GO)          # last takes the point and says nothing
                if seat != state.last or not points:
                    say(f"  {NAMES[who(seat)]}: go")
            for seat, pts in points:
                m.score(who(seat), pts, "one for last" if state.over else "one for the go")
            if state.over:
                return
            seat = state.turn
            card = self._your_card(state) if seat == self.me else m.computer.lay(
                self.kept[1], self.thrown[1] + [self.starter], state.laid, state.series,
                state.count, state.last, seat, decision_seed(m.seed, self.number,
                                                             1 + len(self.played)))
            series, count = state.series + [int(RANK[card])], state.count + int(VALUE[RANK[card]])
            pts = state.lay(card)
            self.played.append(card)
            say(f"  {NAMES[who(seat)]} lay {format_card(card)}, count {count}")
            if pts:
                m.score(who(seat), pts, announce.play_words(series, count, pts, m.spec))

    def _your_card(self, state) -> int:
        hand = state.hands[self.me]
        fits = [c for c in hand if state.fits(c)]
        if len(fits) == 1:                  # no choice: laid for you, as the review has it
            return fits[0]
        d = self.decision("play", hand, played=list(self.played),
                          seen=self.thrown[0] + [self.starter], count=state.count,
                          series=list(state.series),
                          their_left=self.m.spec.kept - len(state.laid[1 - self.me]))
        card = self.m.player.lay(d)
        d.choice = [card]
        self.m.player.after(d)
        return card

    def show(self) -> None:
        pone, dealer = (1, 0) if self.you_deal else (0, 1)          # 0 you, 1 they
        for who, held, crib in ((pone, self.kept[pone], False),
                                (dealer, self.kept[dealer], False),
                                (dealer, self.thrown[0] + self.thrown[1], True)):
            self._count(who, held, crib)

    def _count(self, who: int, held, crib: bool) -> None:
        from cribsolve.core.scoring import score_hand

        m, say = self.m, self.m.say
        s = score_hand(held, [self.starter], m.spec.rules(), crib)
        what = f"{'your' if who == 0 else 'their'} {'crib' if crib else 'hand'}"
        say(f"  {what}: {format_cards(held)} with {format_card(self.starter)}")
        wild = [f"{format_card(c)} as {format_card(x)}" for c, x in
                zip(list(held) + [self.starter], s.cards) if c != x]
        if wild:
            say(f"  wild: {', '.join(wild)}")
        words = f"{announce.cadence(s.items, m.spec.target)} for {what}"
        if s.total == 0 and (who == 1 or not m.count_yourself):
            return say(f"  {NAMES[who]}: {words}")
        if who == 1 or not m.count_yourself:
            return m.score(who, s.total, words)
        claimed = m.player.count(held, self.starter, crib)
        if claimed == s.total:
            return m.score(0, s.total, f"{announce.number(s.total)}, right: {words}")
        say(f"  you counted {claimed}; the count is {s.total}: "
            f"{announce.cadence(s.items, m.spec.target)}")
        if m.muggins and claimed < s.total:
            m.score(0, claimed, f"{announce.number(claimed)} as you counted")
            return m.score(1, s.total - claimed, f"muggins: the {s.total - claimed} you missed")
        m.score(0, s.total, f"{announce.number(s.total)}, corrected")
