"""Throws and cards weighed by the board: each choice's P(win) of the game (or expected game
points), for ``--my-score``, the hints near the end and the expert's throw there (board_for;
docs/odds.md, "Near the end"). Each choice is played out on the same shuffles of the unseen
cards (deal.play_deal, then greedy play, as the odds table's players), and each played deal is
valued as the odds table values one (reach.after_deal); standard errors are over the shuffles.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import format_cards
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.cribbage.deals.deal import NP, part_count, play_deal, trace_length
from cribsolve.games.cribbage.deals.game import NO_BOARD, flags
from cribsolve.games.cribbage.deals.odds import NO_SKUNKS
from cribsolve.games.cribbage.deals.roster import SEARCHERS
from cribsolve.games.cribbage.players.policies import GREEDY, play
from cribsolve.games.cribbage.rules.pegging import MAX_EVENTS, lay, log_points
from cribsolve.games.cribbage.rules.reach import SKUNK, after_deal, reach_times
from cribsolve.games.cribbage.rules.spec import ODDS_LENGTH_MAX, PLAYERS
from cribsolve.games.cribbage.throw.values import show_points
from cribsolve.infra.jit import njit, threaded, variant

POLICY = "greedy"  # the rollouts' policy: the odds table's own
LONGEST = ODDS_LENGTH_MAX  # the longest game weighed (spec.py says why)


@dataclass
class BoardThrow:
    discard: list[int]
    keep: list[int]
    mine: float  # my expected points this deal (the play, my hand, my crib)
    theirs: float  # theirs
    win: float  # P(I win the game)
    se: float  # its standard error over the shuffles
    per: np.ndarray | None = field(default=None, repr=False, compare=False)  # by shuffle

    def as_dict(self) -> dict:
        return {
            "discard": format_cards(self.discard),
            "keep": format_cards(self.keep),
            "mine": self.mine,
            "theirs": self.theirs,
            "margin": self.mine - self.theirs,
            "win": self.win,
            "se": self.se,
        }


@njit(cache=True)
def seat_deck(hand, rest, seat, deck, seats):
    """Fill ``deck`` for a play_deal of ``seats`` players: ``hand`` dealt to ``seat`` (seat s
    gets deck[sh:sh + h]), the others' hands from ``rest`` in seat order, then the rest of it."""
    h = hand.shape[0]
    j = 0
    for s in range(seats):
        if s == seat:
            deck[s * h : s * h + h] = hand
        else:
            deck[s * h : s * h + h] = rest[j : j + h]
            j += h
    deck[seats * h :] = rest[j:]


@njit(cache=True, nogil=True)
def deal_rollouts(rows, hand, unseen, seat, seeds, policies, table, pr, expert):
    """Each row i of ``rows``: throw o = i // n (option of deal_options) on shuffle
    s = i % n (n shuffles: seeds), as rows of parts (deal.part_count) and traces; ``hand``
    dealt to ``seat``, the other seats' hands and the deck from the shuffle."""
    n, h, seats = seeds.shape[0], hand.shape[0], pr[PLAYERS]
    parts = np.zeros((rows.shape[0], part_count(seats)), dtype=np.int64)
    traces = np.zeros((rows.shape[0], trace_length(pr)), dtype=np.int64)
    for r in range(rows.shape[0]):
        i = rows[r]
        o, s = i // n, i % n
        np.random.seed(seeds[s])
        rest = np.random.permutation(unseen)
        deck = np.empty(h + rest.shape[0], dtype=np.int64)
        seat_deck(hand, rest, seat, deck, seats)
        forced = np.full(seats, -1, dtype=np.int64)
        forced[seat] = o
        np.random.seed(seeds[s] + 1)  # the same play's chances for every throw
        play_deal(
            deck,
            policies,
            np.zeros(seats, dtype=np.int64),
            0,
            table,
            parts[r],
            pr,
            expert,
            forced,
            traces[r],
        )
    return parts, traces


@njit(cache=True)
def _wins(rows, times, reach, d, mine, theirs, length, line):
    out = np.empty(rows.shape[0])
    for i in range(rows.shape[0]):
        out[i] = after_deal(reach, d, mine, theirs, rows[i], times[i], length, line)
    return out


def unweighed(spec) -> str | None:
    """Why the odds table cannot weigh a board under ``spec`` (a rule it does not model), or
    None."""
    if spec.players > 2 or spec.five_card:
        return (
            "the scores cannot be weighed with three or four players or in the five-card "
            "game: the board is weighed in the two-player game only"
        )
    for name in ("stinkhole", "two_cribs", "bid"):
        if getattr(spec, name):
            return (
                f"the scores cannot be weighed under {name.replace('_', ' ')}: the odds "
                "table does not model it"
            )
    return None


def check_board(spec, mine, theirs, objective="win"):
    """Refuse a board the odds table cannot weigh, before anything is built for it."""
    if unweighed(spec):
        raise CribsolveError(unweighed(spec))
    if objective == "game-points" and spec.lowball:
        raise CribsolveError(NO_SKUNKS)
    if not (0 <= mine < spec.game_length and 0 <= theirs < spec.game_length):
        raise CribsolveError(f"scores must be below the game length ({spec.game_length})")


def _win_rates(parts, traces, d, mine, theirs, spec, n_choices, samples, objective="win"):
    """(each choice's value by ``objective``: P(win), or expected game points (odds.py's
    objective_table); its standard error; the dealer's and the pone's mean points; the values
    shuffle by shuffle, [choice, shuffle], whose paired differences compare two choices) from
    its ``samples`` rollouts (rows choice by choice)."""
    from cribsolve.games.cribbage.deals.odds import odds_table, skunk_table

    win = odds_table(spec, policy=POLICY)
    reach = 1.0 - win if spec.lowball else win
    rows, _, times = reach_times(parts, traces, 2)
    length = spec.game_length
    p = _wins(rows, times, reach, d, mine, theirs, length, length)
    p = 1.0 - p if spec.lowball else p
    if objective == "game-points":
        p = 2.0 * p + _wins(
            rows, times, skunk_table(spec, policy=POLICY), d, mine, theirs, length, length - SKUNK
        )
    p = p.reshape(n_choices, samples)
    dealer_pts = (rows[:, 0] + rows[:, 1]).reshape(n_choices, samples).mean(axis=1)
    pone_pts = rows[:, 2].reshape(n_choices, samples).mean(axis=1)
    return p.mean(axis=1), p.std(axis=1, ddof=1) / np.sqrt(samples), dealer_pts, pone_pts, p


def throw_odds(
    hand,
    dealer: bool,
    mine: int,
    theirs: int,
    spec,
    known=(),
    samples: int = 1000,
    seed: int = 0,
    objective: str = "win",
) -> list[BoardThrow]:
    """Every throw of ``hand`` from the scores (``mine``, ``theirs``; ``dealer``: mine is the
    crib), the most likely to win first (the most game points, by ``objective``; ``win``
    then holds them)."""
    check_board(spec, mine, theirs, objective)
    seat = 1 if dealer else 0
    parts, traces, keep_idx, disc_idx = played_throws(hand, seat, spec, known, samples, seed)
    p, se, dealer_pts, pone_pts, per = _win_rates(
        parts, traces, seat, mine, theirs, spec, len(keep_idx), samples, objective
    )
    my_pts, their_pts = (dealer_pts, pone_pts) if dealer else (pone_pts, dealer_pts)
    return board_throws(hand, keep_idx, disc_idx, my_pts, their_pts, p, se, per)


def played_throws(hand, seat, spec, known, samples, seed):
    """(parts, traces, keep_idx, disc_idx): every throw of ``hand``, dealt to ``seat``, played
    out on ``samples`` shuffles of the unseen cards (deal_rollouts), every player POLICY."""
    from cribsolve.core.hand_options import unseen_cards
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.deals.deal import NO_EXPERT
    from cribsolve.games.cribbage.deals.roster import CRIBBAGE_POLICIES
    from cribsolve.games.cribbage.throw.values import deal_options

    hand = [int(c) for c in hand]
    if len(hand) != spec.hand_size:
        raise CardError(f"give {spec.hand_size} cards, not {len(hand)}")
    rules = spec.rules()
    rules.check_cards(hand + [int(c) for c in known])
    unseen = np.array(unseen_cards(hand + [int(c) for c in known], rules), dtype=np.int64)
    n = spec.players
    if len(unseen) < (n - 1) * spec.hand_size + spec.crib_size % n + spec.starters:
        others = "the opponent's hand" if n == 2 else "the others' hands, the crib's card"
        raise CardError(f"too few unseen cards for {others} and the cut card")
    pr = spec.as_array()
    keep_idx, disc_idx = deal_options(len(hand), pr)
    pol = np.array([CRIBBAGE_POLICIES[POLICY]] * n)
    seeds = np.random.default_rng(seed).integers(0, 2**62, size=samples)
    parts, traces = threaded(
        variant(deal_rollouts, **flags(pol, pr)),
        np.arange(len(keep_idx) * samples),
        np.array(hand, dtype=np.int64),
        unseen,
        seat,
        seeds,
        pol,
        rank_table(spec.target),
        pr,
        NO_EXPERT,
    )
    return parts, traces, keep_idx, disc_idx


def board_throws(hand, keep_idx, disc_idx, mine, theirs, p, se, per=None) -> list[BoardThrow]:
    """The throws of ``hand`` with their points (``mine``, ``theirs``), P(win) ``p`` and its
    standard error, by option of deal_options, the most likely to win first."""
    h = np.array(hand)
    out = [
        BoardThrow(
            h[disc_idx[o]].tolist(),
            h[keep_idx[o]].tolist(),
            float(mine[o]),
            float(theirs[o]),
            float(p[o]),
            float(se[o]),
            None if per is None else per[o],
        )
        for o in range(len(keep_idx))
    ]
    return sorted(out, key=lambda t: -t.win)


@njit(cache=True, nogil=True)
def _play_rollouts(
    rows, hands, used, series, st, options, pool, min_value, crib, starter, seeds, table, pr
):
    """For each row i of ``rows``, the card hands[me, options[o]] laid now on shuffle s of
    ``pool`` (o = i // n, s = i % n, n shuffles: seeds): the rest of the deal from here, as
    rows of PARTS (this deal's points from now) and traces. The opponent's unplayed cards (its
    slots in hands are -1) are the first cards of the shuffle worth more than ``min_value``
    (its goes); the crib's unknown cards (-1 in ``crib``, whose last slot is the starter's)
    the first others."""
    me, n = st[2], seeds.shape[0]
    k = hands.shape[1]
    parts = np.zeros((rows.shape[0], NP), dtype=np.int64)
    traces = np.zeros((rows.shape[0], MAX_EVENTS + 1), dtype=np.int64)
    pol = np.array([GREEDY, GREEDY])
    for r in range(rows.shape[0]):
        i = rows[r]
        o, s = i // n, i % n
        np.random.seed(seeds[s])
        rest = np.random.permutation(pool)
        h, u, ser, t, c = hands.copy(), used.copy(), series.copy(), st.copy(), crib.copy()
        taken = np.zeros(rest.shape[0], dtype=np.bool_)
        j = 0
        for q in range(k):
            if h[1 - me, q] < 0:
                while VALUE[RANK[rest[j]]] <= min_value:
                    j += 1
                h[1 - me, q] = rest[j]
                taken[j] = True
                j += 1
        j = 0
        c[c.shape[0] - 1] = starter
        for q in range(c.shape[0] - 1):
            if c[q] < 0:
                while taken[j]:
                    j += 1
                c[q] = rest[j]
                taken[j] = True
        pts = np.zeros(2, dtype=np.int64)
        known = np.zeros((2, 53), dtype=np.int64)
        lay(h, u, ser, t, options[o], pts, np.zeros(2, dtype=np.int64), 0, known, pr)
        log_points(traces[r], me, pts[me], 2)
        # no throw model, no memo (NO_MODEL, NO_MEMO, made here: numba types a global array
        # as read-only, and would compile play again for it)
        play(
            h,
            u,
            ser,
            t,
            pol,
            known,
            pts,
            np.zeros(2, dtype=np.int64),
            0,
            pr,
            traces[r],
            np.zeros((0, 1, 1)),
            np.zeros(0, np.int8),
        )
        show = np.empty(k + 1, dtype=np.int64)
        show[k] = starter
        for seat in range(2):
            show[:k] = h[seat]
            parts[r, 3 + seat] = show_points(show, k, table, False, pr)
        parts[r, 5] = show_points(c, c.shape[0] - 1, table, True, pr)
        parts[r, 1] = pts[1]
        parts[r, 2] = pts[0]
    return parts, traces


def play_odds(
    hand,
    played,
    me: int,
    starter: int,
    thrown,
    mine: int,
    theirs: int,
    seen=(),
    spec=None,
    samples: int = 1000,
    seed: int = 0,
    objective: str = "win",
    per_sample: bool = False,
) -> list[tuple]:
    """Every card I may lay now (``played``: the play so far, as bestplay.best_play takes it;
    ``thrown``: my cards in the crib) from the scores: [(card, P(win), its standard error)],
    the most likely to win first (by ``objective``, as throw_odds); ``per_sample``: each with
    its values shuffle by shuffle as well (BoardThrow.per)."""
    from cribsolve.core.hand_options import unseen_cards
    from cribsolve.core.scoring.table import rank_table
    from cribsolve.games.cribbage.players.bestplay import read_position
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    spec = spec or CribbageSpec()
    check_board(spec, mine, theirs, objective)
    if spec.starters != 1 or spec.choose_cut:
        raise CribsolveError("the P(win) of a card is weighed with one cut card")
    hand, thrown = [int(c) for c in hand], [int(c) for c in thrown]
    if len(thrown) != spec.crib_size // 2:
        raise CardError(f"give the {spec.crib_size // 2} cards you threw to the crib")
    r = read_position(hand, played, me, spec)
    laid = r.laid
    everything = hand + laid[0] + laid[1] + thrown + [int(starter)] + [int(c) for c in seen]
    rules = spec.rules()
    rules.check_cards(everything)
    k = spec.kept
    hands = np.full((2, k), -1, dtype=np.int64)
    used = np.zeros((2, k), dtype=np.bool_)
    for seat, cards in ((me, laid[me] + hand), (1 - me, laid[1 - me])):
        hands[seat, : len(cards)] = cards
        used[seat, : len(laid[seat])] = True
    series = np.zeros(2 * k, dtype=np.int64)
    series[: len(r.series)] = r.series
    st = np.array([len(r.series), r.count, me, r.last], dtype=np.int64)
    options = np.array(
        [
            len(laid[me]) + i
            for i, c in enumerate(hand)
            if r.count + VALUE[RANK[c]] <= spec.peg_limit
        ],
        dtype=np.int64,
    )
    pool = np.array(unseen_cards(everything, rules), dtype=np.int64)
    crib = np.full(spec.crib_size + 1, -1, dtype=np.int64)
    crib[: len(thrown)] = thrown
    fits = int((VALUE[RANK[pool]] > r.min_value).sum())
    if fits < r.unplayed or len(pool) < r.unplayed + spec.crib_size - len(thrown):
        raise CardError("too few unseen cards for the opponent's hand and throw")
    seeds = np.random.default_rng(seed).integers(0, 2**62, size=samples)
    pr = spec.as_array()
    kernel = variant(_play_rollouts, **flags(np.full((2, 2), GREEDY), pr))
    parts, traces = threaded(
        kernel,
        np.arange(len(options) * samples),
        hands,
        used,
        series,
        st,
        options,
        pool,
        r.min_value,
        crib,
        int(starter),
        seeds,
        rank_table(spec.target),
        pr,
    )
    p, se, _, _, per = _win_rates(
        parts, traces, me, mine, theirs, spec, len(options), samples, objective
    )
    cards = [int(hands[me, i]) for i in options]
    rows = zip(cards, p.tolist(), se.tolist(), *([list(per)] if per_sample else []))
    return sorted(rows, key=lambda t: -t[1])


def board_for(policies, spec, objective: str = "win") -> np.ndarray:
    """What the expert weighs its throws by near the end of a game (board_throw.py): the
    odds table, and for game points the skunk table beside it (odds.objective_table); none
    (game.NO_BOARD) where no player is the expert or the odds table does not model the deal
    (unweighed, lowball, a first cut card, redraws, a cut card given, a game longer
    than it weighs)."""
    if not set(policies) & set(SEARCHERS) or not board_weighed(spec):
        return NO_BOARD
    from cribsolve.games.cribbage.deals.odds import odds_table, skunk_table

    tables = [odds_table(spec)] + ([skunk_table(spec)] if objective == "game-points" else [])
    return np.stack(tables)


def board_weighed(spec) -> bool:
    """Whether the expert weighs the board under ``spec`` (board_for)."""
    return not (
        unweighed(spec)
        or spec.lowball
        or spec.starters != 1
        or spec.draw
        or spec.choose_cut
        or spec.game_length > LONGEST
    )
