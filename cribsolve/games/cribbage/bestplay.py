"""best-play: the cards I may lay now, from the play written so far, each valued by the
expert's information-set search over every holding the opponent may have (infoset.py).

A position is read from what a player sees: every card laid in order, the pone first, with a
go where a player could not lay, and my unplayed hand. The opponent's hand is hidden, so its
goes must be written, except where the rules make them (play.PlayState.settle); its goes tell
that its cards are worth more than the count left, and its throw model weighs the rest.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cribsolve.core.cards import RANK, VALUE
from cribsolve.core.notation import format_card
from cribsolve.errors import CardError
from cribsolve.games.cribbage import inference, infoset, play
from cribsolve.games.cribbage.play import GO, PlayState
from cribsolve.games.cribbage.search import weighted_holdings


@dataclass
class Position:
    series: list        # the ranks of the current series
    count: int
    unplayed: int       # the opponent's cards still to lay
    min_value: int      # each of them is worth more than this (its goes); -1: no bound
    laid: list          # [the pone's cards laid, the dealer's]
    last: int           # the seat that laid the last card, -1 before any


def read_position(hand, played, me: int, spec) -> Position:
    """Replay a play so far (cards and GO in order; the pone, seat 0, leads) with my unplayed
    ``hand``, a card laid by the seat whose turn it is. Raises CardError where the sequence
    cannot happen: a card past the limit, a go out of turn or with a card that fit, my turn
    not next, more cards than two hands hold."""
    state = PlayState(spec)
    min_value, my_goes, j = -1, [], 0
    goes, _ = state.settle()
    while True:
        for _ in goes:                          # a go the rules make may be written too
            if j < len(played) and played[j] is GO:
                j += 1
        if j == len(played):
            break
        tok, p = played[j], state.turn
        j += 1
        if tok is GO:
            if state.go_error():
                raise CardError(state.go_error())
            if p == me:
                my_goes.append((state.count, len(state.laid[me])))
            else:
                min_value = max(min_value, spec.peg_limit - state.count)
            goes, _ = state.go()
        else:
            if state.card_error(tok):
                raise CardError(state.card_error(tok))
            state.lay(tok)
            goes, _ = state.settle()
    laid, them = state.laid, 1 - me
    if len(laid[me]) + len(hand) != spec.kept or len(laid[them]) > spec.kept:
        raise CardError(f"the cards played do not fit two hands of {spec.kept} with this hand "
                        f"(you laid {len(laid[me])}, the opponent {len(laid[them])})")
    for count, n in my_goes:
        fit = [c for c in list(hand) + laid[me][n:] if count + VALUE[RANK[c]] <= spec.peg_limit]
        if fit:
            raise CardError(f"you said go at {count} holding {format_card(fit[0])}, which fits")
    stuck = state.turn == me and not any(state.fits(c) for c in hand)
    state.hands[me] = list(hand)                # now my hand is known: my go needs no writing
    state.settle()
    if state.turn != me or state.over:
        if stuck:
            raise CardError(f"no card in hand fits under {spec.peg_limit}: that is a go")
        raise CardError("it is the opponent's turn after that sequence (write 'go' where a "
                        "player could not lay)")
    return Position(state.series, state.count, spec.kept - len(laid[them]), min_value,
                    laid, state.last)


def holding_weights(seen, laid, r, min_value, seat, spec):
    """The opponent's possible holdings of r unplayed cards (rows of ranks) and their
    weights: the ways the cards I have not seen (``seen``: every card I know, its laid ones
    included) make each, worth more than ``min_value`` (its goes), times its throw model's
    factor for keeping ``laid`` (the cards it has laid this play) with it in ``seat``."""
    h, w = weighted_holdings(np.bincount(seen, minlength=53).astype(np.int64),
                             np.array([RANK[c] for c in laid], dtype=np.int64), r, min_value,
                             seat, inference.throw_model(spec), spec.as_array())
    if h.shape[0] == 0:
        raise CardError("no holding of the unseen cards fits the opponent's goes")
    return h, w


def best_play(hand, played, me: int, seen=(), spec=None):
    """Every card I may lay now, best expected margin first (the least under lowball):
    [(card, E[my points], E[their points])] over the rest of the play, exact over every
    holding the opponent may have (the cards I have not seen, its goes; each weighed by the
    ways the unseen cards make it and by its throw model, holding_weights), each side then
    laying from what it knows (infoset.card_values). ``played``: every card laid in this play, in order, with GO where a
    player could not lay; ``me``: my seat (0 pone, who leads; 1 dealer); ``seen``: other
    cards I know (my discards, the cut card). Returns (rows, number of holdings)."""
    from cribsolve.games.cribbage.spec import CribbageSpec

    spec = spec or CribbageSpec()
    hand = [int(c) for c in hand]
    cards = [c for c in played if c is not GO]
    everything = hand + cards + [int(c) for c in seen]
    spec.rules().check_cards(everything)
    now = read_position(hand, played, me, spec)
    pr = spec.as_array()
    h, w = holding_weights(everything, now.laid[1 - me], now.unplayed, now.min_value, 1 - me,
                           spec)
    vals = infoset.card_values(np.array([RANK[c] for c in hand], dtype=np.int64),
                               np.array(now.series + [0], dtype=np.int64), len(now.series),
                               now.count, h, w,
                               infoset.public_ranks(np.array([RANK[c] for c in cards],
                                                             dtype=np.int64), pr), pr)
    rows = [(format_card(c), float(vals[i, 0]), float(vals[i, 1]))
            for i, c in enumerate(hand) if not np.isnan(vals[i, 0])]
    aim = float(play.aim(pr))
    return sorted(rows, key=lambda t: -aim * (t[1] - t[2])), h.shape[0]
