"""``bracket``: how good optimal play is, between the best policy's win rate and upper bounds
on every policy (games/solitaire/bracket.py; for Cribbage Square, square.bracket)."""

from __future__ import annotations

import click

from cribsolve.cli.checks import check_header, check_outputs, check_plot, refuse
from cribsolve.cli.options import (
    GAMES_MAX,
    Number,
    checkpoint_option,
    jobs_option,
    plot,
    plot_option,
    resumable,
    seed_option,
    show,
    win_table_progress,
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
    from cribsolve.games.solitaire.bracket import COLUMNS
    from cribsolve.games.solitaire.bracket import bracket as run_bracket
    from cribsolve.infra.export import dumps, write_csv
    from cribsolve.infra.progress import bar

    if variant == "square":
        refuse(
            ["next_hands", "checkpoint", "csv_path", "plot_path"],
            "--variant square",
            "its bracket is the ev policy and the clairvoyant bound, printed or --json",
        )
        return _square_bracket(n, seed, jobs, as_json, quiet)
    if csv_path is not None:
        check_header(csv_path, COLUMNS, "--csv")
    win_table_progress(variant, quiet)
    with resumable(checkpoint), bar(n, f"bracket {variant}", quiet, "deck") as pb:
        res = run_bracket(variant, n, seed, jobs, pb, next_hands, checkpoint=checkpoint)
    if csv_path:
        write_csv(csv_path, COLUMNS, res.csv_rows(), append=True)
    d = res.as_dict()
    plot(plot_path, "bracket_figure", d)
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(f"{variant}, {n:,} decks, seed {seed}: the optimal win rate (>= 80) lies in")
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
    for name, key in rows:
        click.echo(_row(name, d[key], d[key + "_ci"], key in BOUNDS))


BOUNDS = ("upper_bound",)  # the penalised sum, which may pass 100%


def _row(name: str, value: float, ci, bound: bool = False) -> str:
    """A line of the table. A bound at or above 100% bounds nothing (Patience II's penalised
    sum reads 131%): the line says so, where a probability above 100% would read as a bug;
    --json keeps the figure."""
    if bound and value >= 1:
        return f"  {name:<28} no bound below 100%"
    lo, hi = ci
    return f"  {name:<28} {value:8.4%}  95% CI [{lo:.4%}, {hi:.4%}]"


def _square_bracket(n, seed, jobs, as_json, quiet):
    """bracket --variant square: the best policy below, the clairvoyant bound above, on the
    same decks, and ev's paired gap."""
    from cribsolve.games.solitaire.square import bracket as square_bracket
    from cribsolve.infra.export import dumps
    from cribsolve.infra.progress import bar

    refuse(["samples"], "--variant square", "it charges Patience's look-ahead")
    with bar(n, "bracket square", quiet, "deck") as pb:
        d = square_bracket(n, seed, jobs, pb.update)
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(f"square, {n:,} decks, seed {seed}: the optimal win rate (>= 61) lies in")
    for name, key in [
        (f"best policy ({d['policy']})", "win_rate"),
        ("ev", "ev_rate"),
        ("gain over ev", "gain"),
        ("clairvoyant bound", "clairvoyant"),
        ("width (clairvoyant - best)", "width"),
    ]:
        click.echo(_row(name, d[key], d[key + "_ci"], key in BOUNDS))
