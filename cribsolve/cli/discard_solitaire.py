"""``best-discard`` for the solitaires (Cribbage Patience and Patience II) at the command line:
every option that does not apply is refused before the API (api/patience.py) checks the rest
and builds the win table (once) or samples; then the discards' table."""

from __future__ import annotations

import click

from cribsolve.cli.checks import refuse
from cribsolve.cli.discard_rows import DISCARD_HEADER, discard_rows, exact_lines
from cribsolve.cli.options import bars, plot
from cribsolve.core.notation import format_cards


def rank_solitaire(o):
    """Rank the discards of a solitaire's hand."""
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
        refuse(
            ["seen", "kept"],
            "--pysol-game",
            "the game's earlier deals are seen, and the kept cards are the rest of the first hand",
        )
    elif o.variant == "patience":  # with --pysol-game, the game's deal says it
        refuse(
            ["crib_cards", "kept"],
            "--variant patience",
            "they are for Patience II's second discard",
        )
    if o.variant == "patience2" and o.crib_cards is None:
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
    from cribsolve.api.throw import best_discard

    r = best_discard(
        o.cards,
        variant=o.variant,
        seen=o.seen,
        crib_cards=o.crib_cards,
        kept=o.kept,
        score=o.points,
        deal=o.deal_number,
        pysol_game=o.pysol_game,
        samples=o.samples,
        seed=o.seed,
        top=o.top,
        distribution=o.with_dist,
        progress=bars(o.quiet),
    )
    _output(o, r)


def _output(o, r):
    """The discards' table (and --csv, --plot), the best first."""
    from cribsolve.infra.export import dumps, write_csv

    hand, values, sampled = (r._extra[k] for k in ("hand", "values", "sampled"))
    shown = o.shown(values)
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
                [row + (v.win,) for row, v in zip(discard_rows(shown), shown)],
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
        click.echo(dumps(r.to_dict()))
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
