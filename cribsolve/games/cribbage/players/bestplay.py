"""``best-play``: the cards I may lay now, from the play written so far (docs/pegging.md). Two
players: each valued by the information-set search (infoset_search.py) over every holding the
opponent may have, weighed by its throw model; three or four players, partners and the
five-card game: by playouts of the others' cards (policies.playouts). A written play gives the
others' goes, except where the rules make them (pegging.PlayState.settle).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import format_card
from cribsolve.errors import CardError
from cribsolve.games.cribbage.players import inference, infoset_search
from cribsolve.games.cribbage.players.open_search import weighted_holdings
from cribsolve.games.cribbage.rules import pegging
from cribsolve.games.cribbage.rules.pegging import GO, PlayState
from cribsolve.games.cribbage.rules.spec import seat_names


@dataclass
class Position:
    series: list  # the ranks of the current series
    count: int
    left: list  # each seat's cards still to lay
    floors: list  # each seat's cards are worth more than this (its goes); -1: no bound
    laid: list  # the cards each seat laid, seat 0 (the dealer's left) first
    last: int  # the seat that laid the last card, -1 before any
    me: int  # my seat, whose turn it is

    @property
    def unplayed(self) -> int:
        """Two players: the opponent's cards still to lay."""
        return self.left[1 - self.me]

    @property
    def min_value(self) -> int:
        """Two players: the opponent's floor (its goes)."""
        return self.floors[1 - self.me]


class SeatMismatch(CardError):
    """The cards laid do not fit the hands with mine in this seat (another seat may fit)."""


def who(seat: int, me: int, players: int) -> str:
    """A seat as the messages name it: you, the opponent (two players), or its place."""
    if seat == me:
        return "you"
    return "the opponent" if players == 2 else f"seat {seat} ({seat_names(players)[seat]})"


def read_position(hand, played, me: int, spec) -> Position:
    """Replay a play so far (cards and GO in order; seat 0, the dealer's left, leads) with my
    unplayed ``hand``, a card laid by the seat whose turn it is. Raises CardError where the
    sequence cannot happen: a card past the limit, a go out of turn or by a seat that later
    laid a card that fit then, my turn not next, more cards than the hands hold."""
    state, n, limit = PlayState(spec), spec.players, spec.peg_limit
    said, j = [], 0  # (seat, count, cards it had laid) per go
    goes, _ = state.settle()
    while True:
        for _ in goes:  # a go the rules make may be written too
            if j < len(played) and played[j] is GO:
                j += 1
        if j == len(played):
            break
        tok, p = played[j], state.turn
        j += 1
        if tok is GO:
            if state.go_error():
                raise CardError(state.go_error())
            said.append((p, state.count, len(state.laid[p])))
            goes, _ = state.go()
        else:
            if state.card_error(tok):
                raise CardError(state.card_error(tok))
            state.lay(tok)
            goes, _ = state.settle()
    laid = state.laid
    if len(laid[me]) + len(hand) != spec.kept:
        counts = (
            f"you laid {len(laid[me])}, the opponent {len(laid[1 - me])}"
            if n == 2
            else "laid by seat: " + ", ".join(str(len(x)) for x in laid)
        )
        raise SeatMismatch(
            f"the cards played do not fit {'two' if n == 2 else n} hands of "
            f"{spec.kept} with this hand ({counts})"
        )
    floors = [-1] * n
    for p, count, k in said:
        held = (list(hand) if p == me else []) + laid[p][k:]
        fit = [c for c in held if count + VALUE[RANK[c]] <= limit]
        if fit:
            raise CardError(
                f"you said go at {count} holding {format_card(fit[0])}, which fits"
                if p == me
                else f"{who(p, me, n)} said go at {count} and later "
                f"laid {format_card(fit[0])}, which fit there"
            )
        floors[p] = max(floors[p], limit - count)
    stuck = state.turn == me and not any(state.fits(c) for c in hand)
    state.hands[me] = list(hand)  # now my hand is known: my go needs no writing
    state.settle()
    if state.over and hand:
        raise CardError("the five-card game's play is one series, and it is over")
    if state.turn != me or state.over:
        if stuck:
            raise CardError(f"no card in hand fits under {limit}: that is a go")
        whose = "the opponent's" if n == 2 else f"{who(state.turn, me, n)}'s"
        raise CardError(
            f"it is {whose} turn after that sequence (write 'go' where a player could not lay)"
        )
    return Position(
        state.series, state.count, [spec.kept - len(x) for x in laid], floors, laid, state.last, me
    )


def holding_weights(seen, laid, r, min_value, seat, spec):
    """The opponent's possible holdings of r unplayed cards (rows of ranks) and their
    weights: the ways the cards I have not seen (``seen``: every card I know, its laid ones
    included) make each, worth more than ``min_value`` (its goes), times its throw model's
    factor for keeping ``laid`` (the cards it has laid this play) with it in ``seat``."""
    h, w = weighted_holdings(
        np.bincount(seen, minlength=53).astype(np.int64),
        np.array([RANK[c] for c in laid], dtype=np.int64),
        r,
        min_value,
        seat,
        inference.throw_model(spec),
        spec.as_array(),
    )
    if h.shape[0] == 0:
        raise CardError("no holding of the unseen cards fits the opponent's goes")
    return h, w


def best_play(hand, played, me: int, seen=(), spec=None):
    """Every card I may lay now, best expected margin first (the least under lowball):
    [(card, E[my points], E[their points])] over the rest of the play, exact over every
    holding the opponent may have (the cards I have not seen, its goes; each weighed by the
    ways the unseen cards make it and by its throw model, holding_weights), each side then
    laying from what it knows (infoset_search.card_values). ``played``: every card laid in this
    play, in order, with GO where a player could not lay; ``me``: my seat (0 pone, who
    leads; 1 dealer); ``seen``: other cards I know (my discards, the cut card). Returns
    (rows, number of holdings)."""
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    spec = spec or CribbageSpec()
    hand = [int(c) for c in hand]
    cards = [c for c in played if c is not GO]
    everything = hand + cards + [int(c) for c in seen]
    spec.rules().check_cards(everything)
    now = read_position(hand, played, me, spec)
    pr = spec.as_array()
    h, w = holding_weights(everything, now.laid[1 - me], now.unplayed, now.min_value, 1 - me, spec)
    vals = infoset_search.card_values(
        np.array([RANK[c] for c in hand], dtype=np.int64),
        np.array(now.series + [0], dtype=np.int64),
        len(now.series),
        now.count,
        h,
        w,
        infoset_search.public_ranks(np.array([RANK[c] for c in cards], dtype=np.int64), pr),
        pr,
    )
    rows = [
        (format_card(c), float(vals[i, 0]), float(vals[i, 1]))
        for i, c in enumerate(hand)
        if not np.isnan(vals[i, 0])
    ]
    aim = float(pegging.aim(pr))
    return sorted(rows, key=lambda t: -aim * (t[1] - t[2])), h.shape[0]


@dataclass
class SampledPlay:
    card: str
    mine: float  # E[my side's points] over the rest of the play
    theirs: float  # E[the other sides' points], averaged over them
    se: float  # the standard error of the margin's mean
    per: np.ndarray | None = field(default=None, repr=False, compare=False)  # margin by deal


def play_arrays(now: Position, hand, me: int, public, mine_only, spec):
    """A position as the play's kernels read it (policies.playouts, policies.search_values):
    (hands, used, series, st, known), the others' unplayed places -1; ``public``: the cards
    every seat saw, ``mine_only``: those only I saw (my hand among them)."""
    n, k = spec.players, spec.kept
    hands = np.full((n, k), -1, dtype=np.int64)
    used = np.zeros((n, k), dtype=np.bool_)
    for p in range(n):
        mine = now.laid[p] + (hand if p == me else [])
        hands[p, : len(mine)] = mine
        used[p, : len(now.laid[p])] = True
    series = np.zeros(n * k + 1, dtype=np.int64)
    series[: len(now.series)] = now.series
    st = np.array([len(now.series), now.count, me, now.last], dtype=np.int64)
    known = np.zeros((n, 53), dtype=np.int64)
    for c in public:
        known[:, c] += 1
    for c in mine_only:
        known[me, c] += 1
    return hands, used, series, st, known


@dataclass
class SampledPosition:
    """A position of the play as the sampling kernels read it (play_arrays), with the cards
    I may draw the others' from and the places in my hand of the cards I may lay now."""

    now: Position
    hands: np.ndarray
    used: np.ndarray
    series: np.ndarray
    st: np.ndarray
    known: np.ndarray
    pool: np.ndarray
    options: np.ndarray


def sampled_position(hand, played, me: int, seen, spec, starter=None) -> SampledPosition:
    """sampled_play's position. Raises CardError where the unseen cards cannot fill the
    others' unplayed cards as their goes allow."""
    from cribsolve.core.hand_options import unseen_cards

    hand = [int(c) for c in hand]
    cards = [c for c in played if c is not GO]
    public = cards + ([] if starter is None else [int(starter)])  # what every seat saw
    mine_only = hand + [int(c) for c in seen]
    everything = mine_only + public
    rules = spec.rules()
    rules.check_cards(everything)
    now = read_position(hand, played, me, spec)
    n = spec.players
    hands, used, series, st, known = play_arrays(now, hand, me, public, mine_only, spec)
    pool = np.array(unseen_cards(everything, rules), dtype=np.int64)
    values = VALUE[RANK[pool]]
    need = 0
    for f in sorted({now.floors[p] for p in range(n) if p != me}, reverse=True):
        need += sum(now.left[p] for p in range(n) if p != me and now.floors[p] == f)
        if (values > f).sum() < need:
            raise CardError(
                "too few unseen cards for the others' unplayed cards" + " and their goes" * (f >= 0)
            )
    options = np.array(
        [
            len(now.laid[me]) + i
            for i, c in enumerate(hand)
            if now.count + VALUE[RANK[c]] <= spec.peg_limit
        ],
        dtype=np.int64,
    )
    return SampledPosition(now, hands, used, series, st, known, pool, options)


def sampled_play(
    hand,
    played,
    me: int,
    seen=(),
    spec=None,
    samples: int = 2000,
    seed: int = 0,
    policy: str = "greedy",
    starter=None,
):
    """Three or four players, partners, the five-card game: every card I may lay now, best
    expected margin first (the least under lowball): [SampledPlay] over the rest of the play,
    from ``samples`` deals of the others' unplayed cards from the cards I have not seen (each
    seat's goes respected: its cards are worth more than the count left at each), the same
    deals for every card, each seat then laying by ``policy`` (greedy or lookahead) from the
    cards it has seen (its own, every card laid, the ``starter`` when given; not its throw).
    ``played`` and ``seen`` as best_play's; ``me``: my seat (0 the dealer's left, who leads,
    to the dealer, the last). Returns (rows, the number of unseen cards)."""
    from cribsolve.games.cribbage.players.policies import POLICIES, playouts

    at = sampled_position(hand, played, me, seen, spec, starter)
    hands, options = at.hands, at.options
    seeds = np.random.default_rng(seed).integers(0, 2**62, size=samples)
    out = playouts(
        hands,
        at.used,
        at.series,
        at.st,
        options,
        at.pool,
        np.array(at.now.floors, dtype=np.int64),
        at.known,
        seeds,
        POLICIES[policy],
        spec.as_array(),
    )
    margin = out[:, :, 0] - out[:, :, 1]
    se = margin.std(axis=1, ddof=1) / np.sqrt(samples)
    rows = [
        SampledPlay(
            format_card(hands[me, i]),
            float(out[o, :, 0].mean()),
            float(out[o, :, 1].mean()),
            float(se[o]),
            margin[o],
        )
        for o, i in enumerate(options)
    ]
    aim = float(pegging.aim(spec.as_array()))
    return sorted(rows, key=lambda r: -aim * (r.mine - r.theirs)), len(at.pool)
