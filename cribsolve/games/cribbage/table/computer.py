"""The computer's side of a game against a person: its throw and its cards, chosen by the kernels
``simulate`` measures (values.choose_throw, the play's policies, the board near the end), so it
plays as strongly as the measured figures say. It is given only what it has seen: the person's
cards stand as placeholders no policy reads, and each decision's generator is seeded from public
facts only, so hidden cards cannot change a choice.
"""

from __future__ import annotations

import numpy as np

from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
from cribsolve.games.cribbage.players import policies
from cribsolve.games.cribbage.rules import pegging
from cribsolve.infra.jit import wait_later

OPPONENTS = ("expert", "expert1", "lookahead", "greedy")


class Computer:
    def __init__(self, policy: str, spec):
        from cribsolve.core.scoring.table import rank_table
        from cribsolve.games.cribbage.deals.board_throw import board_throw
        from cribsolve.games.cribbage.deals.game import flags
        from cribsolve.games.cribbage.deals.roster import tables_for
        from cribsolve.games.cribbage.throw.values import choose_throw, deal_options
        from cribsolve.infra.jit import variant

        self.policy, self.spec, self.pr = policy, spec, spec.as_array()
        self.discard, self.pegging = CRIBBAGE_POLICIES[policy]
        self.table = rank_table(spec.target)
        self.expert = tables_for([policy], spec)
        self.board = None  # the odds table, loaded when first near the end (board_for)
        self.keep_idx, self.disc_idx = deal_options(spec.hand_size, self.pr)
        # its kernels as compiled for its policy and the spec only (jit.variant)
        own = flags(np.array([[self.discard, self.pegging]] * spec.players), self.pr)
        self.choose = variant(policies.choose, **own)
        self.choose_throw = variant(choose_throw, **own)
        self.board_throw = variant(
            board_throw, **flags(np.ones((2, 2), dtype=np.int64), self.pr)
        )  # its deals: greedy ones

    def ready(self, deck, end: bool = False) -> None:
        """Compile now what its throws and cards run (a first game would otherwise stop for
        them mid-deal), from the first cards of ``deck``: a throw and a lead, or (``end``) a
        throw near the end, weighed by the board."""
        h, n = self.spec.hand_size, self.spec.players
        near = self.spec.game_length - 10
        first = deck[h + 1] if self.spec.starters == 2 else -1
        scores = (near, near) if end else (0, 0)
        kept, thrown = self.throw(deck[:h], True, 0, n - 1, scores, first)
        if self.spec.draw:  # what a deal under draw or bid cribbage runs first
            self.redraw(deck[:h], True, True, first, deck[:h], h - 1, 0)
        if self.spec.bid:
            self.bidder(deck[:h], first, deck[:h], 0)
        if not end:
            self.lay(kept, thrown + [deck[h]], [[] for _ in range(n)], [], 0, -1, n - 1, 0, 10)

    def throw(
        self,
        dealt,
        owns: bool,
        seed: int,
        seat: int | None = None,
        scores: tuple[int, int] | None = None,
        first: int = -1,
        seen=(),
    ) -> tuple[list, list]:
        """(kept, thrown) from its dealt cards, as deal.play_deal has a seat choose (thrown:
        to the crib, under two cribs then to the other's, and under choose-a-cut the card
        given last): ``owns``, the crib is its side's; ``seat``, its seat (0 the dealer's
        left; two players: the dealer's when it owns the crib); ``scores``, (its, the
        person's) before the deal, for the expert's throw by the board near the end
        (board_throw.board_throw); ``first``, a first cut card; ``seen``, the other cards it
        has seen (those it threw away to redraw)."""
        from cribsolve.games.cribbage.deals.board_throw import BOARD_REACH
        from cribsolve.games.cribbage.deals.win_choices import board_for

        dealt = np.array(dealt, dtype=np.int64)
        seen = self._seen(list(dealt) + list(seen) + [first] * (first >= 0))
        seat = int(owns) if seat is None else seat
        pegging.seed_kernels(seed)
        near = scores is not None and self.spec.game_length - max(scores) <= BOARD_REACH
        if near:
            wait_later("the kernels of the game's end")  # play readies them (jit.later)
        if near and self.board is None:
            self.board = board_for([self.policy], self.spec)
        if near and self.board.shape[0]:
            o = self.board_throw(
                dealt, seat, scores[0], scores[1], self.table, self.pr, self.expert, self.board
            )
        else:
            o = self.choose_throw(
                dealt,
                int(owns),
                self.discard,
                self.table,
                self.pr,
                self.keep_idx,
                self.disc_idx,
                first,
                seen,
                seat,
                self.expert[0][int(self.pegging == policies.EXPERT)],
            )
        return (
            [int(dealt[j]) for j in self.keep_idx[o]],
            [int(dealt[j]) for j in self.disc_idx[o]],
        )

    @staticmethod
    def _seen(cards):
        return np.bincount(np.array(cards, dtype=np.int64), minlength=53).astype(np.int64)

    def redraw(self, cards, before: bool, owns: bool, first: int, seen, limit: int, seed: int):
        """Draw cribbage: the cards it throws away to draw again (draw_and_bid.redraw, as
        play_deal's players redraw), at most ``limit``; ``seen``: every card it has seen, its
        own included."""
        from cribsolve.games.cribbage.throw.draw_and_bid import redraw

        pegging.seed_kernels(seed)
        hand = np.array(cards, dtype=np.int64)
        mask = redraw(hand, before, int(owns), self.table, self.pr, first, self._seen(seen), limit)
        return [int(c) for i, c in enumerate(hand) if mask >> i & 1]

    def bidder(self, dealt, first: int, seen, seed: int):
        """Bid cribbage: whether it raises a standing bid b to b + 1, ``wants(b)``, from its
        cards' worth owning the crib and not (draw_and_bid.bid_limits, as play_deal's)."""
        from cribsolve.games.cribbage.throw.draw_and_bid import bid_limits, wants

        pegging.seed_kernels(seed)
        h, samples = bid_limits(
            np.array(dealt, dtype=np.int64),
            self.table,
            self.pr,
            self.keep_idx,
            self.disc_idx,
            first,
            self._seen(seen),
        )
        return lambda b: bool(wants(b + 1, h, samples, b))

    def lay(
        self, kept, seen, laid, series, count: int, last: int, me: int, seed: int, need: int = 0
    ) -> int:
        """The card it lays now. ``kept``: its cards for the play, in the order thrown kept
        them; ``seen``: every other card it has seen (its throw, the starter); ``laid``: the
        cards each seat has laid, in order; ``series``: the ranks of the current series;
        ``last``: the seat that laid last (-1 before any); ``me``: its seat; ``need``: the
        points its side lacks to win (the expert lays a card that scores them: policies.peg_out)."""
        k, n = len(kept), len(laid)
        others = [q for q in range(n) if q != me]
        hands = np.zeros((n, k), dtype=np.int64)
        used = np.zeros((n, k), dtype=np.bool_)
        hands[me] = kept
        mine = list(laid[me])
        for i, c in enumerate(kept):
            if c in mine:
                mine.remove(c)
                used[me, i] = True
        for q in others:  # the others' rest: placeholders never read
            hands[q, : len(laid[q])] = laid[q]
            used[q, : len(laid[q])] = True
        ser = np.zeros(n * k, dtype=np.int64)
        ser[: len(series)] = series
        st = np.array([len(series), count, me, last], dtype=np.int64)
        known = np.zeros((n, 53), dtype=np.int64)
        known[me] = np.bincount(
            np.array(
                list(kept) + list(seen) + [c for q in others for c in laid[q]], dtype=np.int64
            ),
            minlength=53,
        )
        pegging.seed_kernels(seed)
        i = self.choose(
            self.pegging, hands, used, ser, st, known, self.pr, self.expert[1], self.expert[2]
        )
        if self.pegging == policies.EXPERT and need > 0 and not self.spec.lowball:
            i = policies.peg_out(hands[me], used[me], ser, st, need, self.pr, i)
        return int(kept[i])
