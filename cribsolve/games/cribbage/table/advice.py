"""The adviser at the table: a decision's options as the commands rank them (the throws as
``best-discard --pegging``, the cards as ``best-play``; review.py's throw_options and
play_options are those same tables), with the P(win) of each (``best-discard --my-score``,
``best-play --my-score``) once the score makes it matter: when a player is within
``ENDGAME`` points of the game's end, most wins first.
"""

from __future__ import annotations

from cribsolve.core.notation import format_card, format_cards
from cribsolve.games.cribbage.table.replay import Decision
from cribsolve.infra import jit

ENDGAME = 30  # points from the end at which P(win) ranks the options
COACH_POINTS = 0.25  # a choice this many expected points worse is told
COACH_WIN = 0.01  # or this much P(win) worse (when P(win) is ranked)
MEASURE = {"throw": "value", "play": "margin"}


def endgame(d: Decision, spec) -> bool:
    return max(d.scores) >= spec.game_length - ENDGAME


def options(d: Decision, spec) -> list:
    """[(choice, {figure: value})] best first: review's rows, and "win" in the endgame."""
    if endgame(d, spec):
        from cribsolve.games.cribbage.table.review import evaluate

        jit.wait_later("the kernels of the game's end")  # play readies them (jit.later)
        rows = evaluate(d, spec)
        return sorted(rows, key=lambda r: -r[1]["win"]) if "win" in rows[0][1] else rows
    from cribsolve.games.cribbage.table.review import play_options, throw_options

    return throw_options(d, spec) if d.kind == "throw" else play_options(d, spec)


def ready(spec, deck, end: bool = False) -> None:
    """Compile now what a hint runs, the options of a throw and of a card (with P(win) as
    near the end: ``end``), from the first cards of ``deck``: a game's hints then answer at
    once."""
    h, n, t = spec.hand_size, spec.players, spec.crib_size // spec.players
    near = (spec.game_length - 10 if end else 0,) * 2
    seat = {} if n == 2 else {"seat": n - 1, "crib_mine": True}
    dealt = deck[:h]
    options(Decision("throw", 1, 0, True, near, dealt, dealt[-t:], **seat), spec)
    seat = {} if n == 2 else {"seat": 0, "crib_mine": False}
    kept = dealt[: h - t]
    options(
        Decision(
            "play",
            1,
            0,
            False,
            near,
            kept,
            kept[:1],
            seen=dealt[-t:] + [deck[h]],
            their_left=(h - t) * (n - 1),
            **seat,
        ),
        spec,
    )


def choice_key(d: Decision, cards) -> str:
    """A choice as the rows name it: the thrown cards in hand order, or the card."""
    if d.kind == "play":
        return format_card(cards[0])
    return format_cards([c for c in d.hand if c in cards])


def first_choice(d: Decision, rows) -> list:
    """The best option's cards (Enter at a prompt)."""
    names = rows[0][0].split()
    return [c for c in d.hand if format_card(c) in names][: len(names)]


def table_lines(d: Decision, rows, spec=None) -> list:
    """The hint: each option with its figures, best first."""
    win = "win" in rows[0][1]
    table = spec is not None and spec.players > 2
    if d.kind == "throw":
        head = f"  {'throw':<7} {'hand':>6} {'crib':>6} {'net':>6} {'pegging':>8} {'value':>7}"

        def cells(f):
            return (
                f"{f['hand']:6.2f} {f['crib']:6.2f} {f['net']:6.2f} "
                f"{f['pegging']:8.2f} {f['value']:7.2f}"
            )

        note = (
            "value = hand +/- crib, exact (best-discard; no pegging margin with three or four)"
            if table
            else "value = hand +/- crib + the expert's pegging margin (best-discard --pegging)"
        )
    else:
        head = f"  {'lay':<7} {'mine':>6} {'theirs':>6} {'margin':>7}"

        def cells(f):
            return f"{f['mine']:6.2f} {f['theirs']:6.2f} {f['margin']:7.2f}"

        note = (
            "expected pegging to the end of the play (best-play"
            + ", sampled: yours - the others' mean)" * table
            + ")" * (not table)
        )
    lines = [
        f"  hint: {note}" + ("; P(win) of the game ranks them near the end" if win else ""),
        head + f" {'P(win)':>7}" * win,
    ]
    for choice, f in rows:
        lines.append(f"  {choice:<7} {cells(f)}" + (f" {f['win']:7.1%}" if win else ""))
    return lines


def cost_line(d: Decision, rows, spec) -> str | None:
    """The coach's line for the choice made: None when it lost little."""
    from cribsolve.games.cribbage.table.review import lost_by

    mine = dict(rows)[choice_key(d, d.choice)]
    best = rows[0]
    lost = lost_by(rows, mine, MEASURE[d.kind], spec)
    lost_win = lost_by(rows, mine, "win", spec) if "win" in mine else 0.0
    if lost < COACH_POINTS and lost_win < COACH_WIN:
        return None
    return (
        f"  coach: {choice_key(d, d.choice)} costs {lost:.2f} expected points"
        + (f" and {lost_win:.1%} P(win)" if "win" in mine else "")
        + f" beside {best[0]}"
    )
