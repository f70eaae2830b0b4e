"""``best-discard`` for the solitaires (Cribbage Patience and Patience II): given the command's
``DiscardRequest``, every check is made before the win table (built once) or the sampling
starts; then each discard's expected points of the deal (exact, or sampled for Patience II's
first discard), and with --score and --deal its P(win)."""

from __future__ import annotations

import dataclasses

import click

from cribsolve.cli.checks import bad, cards, check_unseen, no_jokers, refuse
from cribsolve.cli.discard_rows import DISCARD_HEADER, discard_rows, exact_lines
from cribsolve.cli.options import plot, win_table_progress
from cribsolve.core.notation import format_cards, parse_cards
from cribsolve.errors import CribsolveError

HANDS_PER_DEAL = {"patience": 2, "patience2": 3}  # docs/RULES.md §4: the crib included


def rank_solitaire(o, deals: int):
    """Rank the discards of a solitaire of ``deals`` deals."""
    refuse(
        [
            "dealer",
            "opponent",
            "preset",
            "batch",
            "target",
            "lowball",
            "jokers",
            "decks",
            "hand_size",
            "crib_size",
            "starters",
            "wild",
            "starter",
            "with_pegs",
            "my_score",
            "their_score",
            "game_length",
            *o.house,
        ],
        f"--variant {o.variant}",
        "it is for the two-player game, --variant cribbage",
    )
    if o.pysol_game is not None:
        o = _pysol_position(o)
    hand, seen, crib, kept, sampled = _checked(o, deals)
    from cribsolve.games.solitaire.discard import solitaire_discard

    if o.points is not None:
        win_table_progress(o.variant, o.quiet)
    values = solitaire_discard(
        hand, o.variant, seen, crib, kept, o.points, o.deal_number, o.seed, o.samples
    )
    _output(o, hand, values)


def _pysol_position(o):
    """The request with the hand (and seen and kept cards) of a PySolFC game's decision."""
    from cribsolve.games.solitaire.pysol import discard_position

    if o.cards:
        raise CribsolveError("--pysol-game deals the hand: give no cards")
    refuse(
        ["seen", "kept"],
        "--pysol-game",
        "the game's earlier deals are seen, and the kept cards are the rest of the first hand",
    )
    hand, seen, kept = discard_position(
        o.variant,
        o.pysol_game,
        o.deal_number or 1,
        cards(o.crib_cards, "--crib-cards") if o.crib_cards else None,
    )
    return dataclasses.replace(
        o,
        cards=(format_cards(hand),),
        seen=format_cards(seen) if seen else None,
        kept=format_cards(kept) if kept else None,
        deal_number=o.deal_number if o.points is not None else None,
    )


def _checked(o, deals):
    """The hand, seen, crib and kept cards, and whether the analysis is sampled, once every
    option has been checked against the others."""
    if o.variant == "patience":
        refuse(
            ["crib_cards", "kept"],
            "--variant patience",
            "they are for Patience II's second discard",
        )
    sampled = o.variant == "patience2" and o.crib_cards is None
    if sampled:
        refuse(["kept"], "Patience II's first discard", "it goes with --crib-cards, for the second")
        refuse(
            ["with_dist", "plot_path"],
            "Patience II's first discard",
            "its values are sampled; give --crib-cards for the exact second discard",
        )
    else:
        refuse(
            ["samples", "seed"],
            f"the exact analysis of --variant {o.variant}"
            + (" with --crib-cards" if o.crib_cards is not None else ""),
            "they are for Patience II's sampled first discard",
        )
    if (o.points is None) != (o.deal_number is None):
        raise click.UsageError(
            "--score and --deal go together: the points so far and this deal's number"
        )
    if o.deal_number is not None and o.deal_number > deals:
        raise bad("--deal", f"{o.deal_number} is not a deal of {o.variant}: give 1 to {deals}")
    if o.points is not None:
        hands = HANDS_PER_DEAL[o.variant]
        most = (o.deal_number - 1) * (29 * hands + 2)
        if o.points > most:
            raise bad(
                "--score",
                f"{o.points} points cannot be made before deal "
                f"{o.deal_number}: at most {most} ({hands} hands of at most "
                f"29 and heels 2 a deal)",
            )
    hand = parse_cards(o.cards)
    seen, crib, kept = (
        cards(o.seen, "--seen"),
        cards(o.crib_cards, "--crib-cards"),
        cards(o.kept, "--kept"),
    )
    if o.crib_cards is not None and len(crib) != 2:
        raise bad("--crib-cards", f"give the two cards already in the crib, not {len(crib)}")
    if o.kept is not None and len(kept) != 4:
        raise bad("--kept", f"give the four cards kept from the first hand, not {len(kept)}")
    if o.points is not None and o.crib_cards is not None and o.kept is None:
        raise click.UsageError(
            "with --score, the second discard needs --kept (the first "
            "hand's four kept cards: they score with the same starter)"
        )
    from cribsolve.core.hand_options import check_hand

    no_jokers(hand + seen + crib + kept, o.variant)
    check_hand(hand, seen + crib + kept, sizes=(6,))
    if sampled:
        need, what = 7, "a second hand and the starter"
    elif o.variant == "patience":
        need, what = 3, "the face-down pair and the starter"
    else:
        need, what = 1, "the starter"
    check_unseen(len(hand + seen + crib + kept), need, what, "--seen")
    return hand, seen, crib, kept, sampled


def _output(o, hand, values):
    from cribsolve.infra.export import dumps, write_csv

    shown = o.shown(values)
    sampled = hasattr(shown[0], "se")
    win = o.points is not None
    if o.csv_path:
        if sampled:
            write_csv(
                o.csv_path,
                ["discard", "keep", "net", "se", "samples", "win", "win_se"],
                [
                    (
                        format_cards(v.discard),
                        format_cards(v.keep),
                        v.net,
                        v.se,
                        v.samples,
                        v.win,
                        v.win_se,
                    )
                    for v in shown
                ],
            )
        else:
            write_csv(
                o.csv_path,
                DISCARD_HEADER + ["win"],
                [r + (v.win,) for r, v in zip(discard_rows(shown), shown)],
            )
    head = f"{format_cards(hand)}, {o.variant}"
    if win:
        head += f", {o.points} points before deal {o.deal_number}: best P(win) first"
    if not sampled:
        plot(
            o.plot_path,
            "discard_figure",
            values[: o.top or 4],
            head,
            "points of this deal (hand + crib, heels apart)",
        )
    if o.as_json:
        click.echo(
            dumps({"discards": [v.as_dict() if sampled else v.as_dict(o.with_dist) for v in shown]})
        )
    elif sampled:
        drawn = (
            "every second hand (the last deal: exact)"
            if shown[0].exact
            else f"second hand sampled {o.samples} times (seed {o.seed})"
        )
        click.echo(
            f"{head}; first discard: expected points of the deal (both hands, crib, heels), {drawn}"
        )
        click.echo(
            f"  {'discard':<8} {'keep':<12} {'points':>7} {'± se':>6}"
            + (f" {'P(win)':>7} {'± se':>6}" if win else "")
        )
        for v in shown:
            click.echo(
                f"  {format_cards(v.discard):<8} {format_cards(v.keep):<12} "
                f"{v.net:7.3f} {v.se:6.3f}" + (f" {v.win:7.4f} {v.win_se:6.4f}" if win else "")
            )
    else:
        click.echo(f"{head}: exact expected points of this deal (hand + crib, heels apart)")
        extras = [("P(win)", lambda v: f"{v.win:7.4f}")] if win else []
        click.echo("\n".join(exact_lines(shown, "total", extras, o.with_dist)))
