"""``bracket``: how good optimal play is, between the best policy's win rate and upper bounds
on every policy (games/solitaire/bracket.py; for Cribbage Square, square.bracket)."""

from __future__ import annotations

import click

from cribsolve.cli.checks import check_header, check_outputs, check_plot, refuse
from cribsolve.cli.options import (
    GAMES_MAX,
    Number,
    bars,
    checkpoint_option,
    jobs_option,
    plot,
    plot_option,
    resumable,
    seed_option,
    show,
)
from cribsolve.cli.spelling import Spelled
from cribsolve.games.solitaire.facts import NEXT_HANDS

NEXT_HANDS_MAX = 1000  # bracket --next-hands


@click.command(cls=Spelled, respelled={"--samples": "--next-hands"})
@click.option(
    "--variant",
    type=click.Choice(["patience", "patience2", "square"]),
    default="patience2",
    show_default=True,
    help="The solitaire (the default is simulate's).",
)
@click.option(
    "-n",
    "n",
    type=Number(2, GAMES_MAX),
    default="1e4",
    show_default=True,
    help=f"Decks, 2 to {show(GAMES_MAX)} (accepts 1e5; an interval needs two).",
)
@click.option(
    "--next-hands",
    type=Number(0, NEXT_HANDS_MAX),
    default=NEXT_HANDS,
    show_default=True,
    help=f"Patience: hands drawn per deal to charge the bound for seeing the next "
    f"hand, 0 to {show(NEXT_HANDS_MAX)} (0: no such charge).",
)
@seed_option
@jobs_option
@checkpoint_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Append the bracket to this CSV, one row per measure: each policy, bound "
    "and difference with its CI (a table across runs).",
)
@click.option(
    "--quiet", is_flag=True, help="No progress bar, nor the line saying where --plot wrote."
)
@plot_option
def bracket(variant, n, next_hands, seed, jobs, checkpoint, as_json, csv_path, quiet, plot_path):
    """How good is optimal play: the best policy's win rate, and upper bounds on every policy
    (the information-relaxation bound, and clairvoyance), on the same decks."""
    if variant == "patience2":
        refuse(
            ["next_hands"],
            "--variant patience2",
            "both of its discards are charged with both hands seen",
        )
    check_outputs(("--csv", csv_path), ("--checkpoint", checkpoint))
    check_plot(plot_path, ("--csv", csv_path), ("--checkpoint", checkpoint))
    from cribsolve.api.solitaires import bracket as run_bracket
    from cribsolve.games.solitaire.bracket import COLUMNS
    from cribsolve.infra.export import dumps, write_csv

    progress = bars(quiet)
    if variant == "square":
        refuse(
            ["next_hands", "checkpoint", "csv_path", "plot_path"],
            "--variant square",
            "its bracket is the ev policy and the clairvoyant bound, printed or --json",
        )
        res = run_bracket(variant=variant, n=n, seed=seed, jobs=jobs, progress=progress)
    else:
        if csv_path is not None:
            check_header(csv_path, COLUMNS, "--csv")
        with resumable(checkpoint):
            res = run_bracket(
                variant=variant,
                n=n,
                next_hands=next_hands if variant == "patience" else None,
                seed=seed,
                jobs=jobs,
                checkpoint=checkpoint,
                progress=progress,
            )
        if csv_path:
            write_csv(csv_path, COLUMNS, [list(row.values()) for row in res.rows], append=True)
        plot(plot_path, "bracket_figure", res.to_dict())
    d = res.to_dict()
    if as_json:
        click.echo(dumps(d))
        return
    win_at, rows = _square_lines(d) if variant == "square" else _patience_lines(d)
    click.echo(f"{variant}, {n:,} decks, seed {seed}: the optimal win rate (>= {win_at}) lies in")
    for name, key in rows:
        click.echo(_row(name, d[key], d[key + "_ci"], key in BOUNDS))


def _patience_lines(d) -> tuple:
    """The score that wins, and the lines of the table (a name and its measure)."""
    rows = [
        (f"best policy ({d['policy']})", "win_rate"),
        ("upper bound (penalised)", "upper_bound"),
        ("clairvoyant bound", "clairvoyant"),
        ("width (clairvoyant - best)", "width"),
    ]
    if "gain" in d:
        rows.insert(1, ("  gain over win", "gain"))
    if "charged_rate" in d:  # Patience: the penalised width is counted from this rate
        rows.insert(1, ("best policy, charged", "charged_rate"))
    if d["upper_side"] == "penalised":
        lower = "charged" if "charged_rate" in d else "best"
        rows[-1] = (f"width (penalised - {lower})", "width")
    return 80, rows


def _square_lines(d) -> tuple:
    """Cribbage Square's: the best policy below, the clairvoyant bound above, on the same
    decks, and ev's paired gap."""
    return 61, [
        (f"best policy ({d['policy']})", "win_rate"),
        ("ev", "ev_rate"),
        ("gain over ev", "gain"),
        ("clairvoyant bound", "clairvoyant"),
        ("width (clairvoyant - best)", "width"),
    ]


BOUNDS = ("upper_bound",)  # the penalised sum, which may pass 100%


def _row(name: str, value: float, ci, bound: bool = False) -> str:
    """A line of the table. A bound at or above 100% bounds nothing (Patience II's penalised
    sum reads 131%): the line says so, where a probability above 100% would read as a bug;
    --json keeps the figure."""
    if bound and value >= 1:
        return f"  {name:<28} no bound below 100%"
    lo, hi = ci
    return f"  {name:<28} {value:8.4%}  95% CI [{lo:.4%}, {hi:.4%}]"
