"""``variations``: the house rules side by side, the same seeded games under each."""

from __future__ import annotations

import click

from cribsolve.cli.checks import check_outputs, check_plot
from cribsolve.cli.options import (
    GAMES_MAX,
    Number,
    bars,
    jobs_option,
    plot,
    plot_option,
    scheduler_option,
    seed_option,
    show,
)


@click.command()
@click.option(
    "-n",
    "n",
    type=Number(1, GAMES_MAX),
    default="1e4",
    show_default=True,
    help=f"Games per rule, 1 to {show(GAMES_MAX)}.",
)
@click.option(
    "--policy",
    type=click.Choice(["greedy", "lookahead", "random"]),
    default="greedy",
    show_default=True,
    help="Both players' pegging (EV discards).",
)
@seed_option
@jobs_option
@scheduler_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option(
    "--csv",
    "csv_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Write the table, one row per rule.",
)
@click.option(
    "--quiet", is_flag=True, help="No progress bar, nor the line saying where --plot wrote."
)
@plot_option
def variations(n, policy, seed, jobs, scheduler, as_json, csv_path, quiet, plot_path):
    """The house rules side by side: the same seeded games under each rule alone."""
    check_outputs(("--csv", csv_path))
    check_plot(plot_path, ("--csv", csv_path))
    from cribsolve.api.variations import variations as run
    from cribsolve.games.cribbage.deals.variations import COLUMNS
    from cribsolve.infra.export import dumps, write_csv

    res = run(
        n=n,
        policy=policy,
        seed=seed,
        jobs=jobs,
        scheduler=scheduler,
        progress=bars(quiet),
    )
    rows = res.rows
    if csv_path:
        write_csv(csv_path, COLUMNS, [list(row.values()) for row in rows])
    plot(plot_path, "variations_figure", rows, n, seed, policy)
    if as_json:
        click.echo(dumps(res.to_dict()))
        return
    click.echo(f"{n:,} games per rule, seed {seed}, {policy} pegging, EV discards; points per deal")
    click.echo(
        f"  {'rule':<16} {'dealer wins':>17} {'dealer':>6} {'peg':>5} {'hand':>5} "
        f"{'crib':>5} {'pone':>5} {'peg':>5} {'hand':>5} {'crib':>5} {'deals':>5} "
        f"{'skunk':>6} {'top':>4} {'ties':>5}"
    )
    for r in rows:
        skunk = "-" if r["skunk_rate"] is None else f"{r['skunk_rate']:.1%}"
        click.echo(
            f"  {r['rule']:<16} {r['first_dealer_wins']:6.1%} "
            f"[{r['ci_low']:5.1%},{r['ci_high']:5.1%}] {r['dealer_points']:6.2f} "
            f"{r['dealer_pegging']:5.2f} {r['dealer_hand']:5.2f} {r['crib']:5.2f} "
            f"{r['pone_points']:5.2f} {r['pone_pegging']:5.2f} {r['pone_hand']:5.2f} "
            f"{r['pone_crib']:5.2f} {r['deals_per_game']:5.2f} {skunk:>6} "
            f"{r['largest_hand']:4d} {r['ties'] / r['games']:5.1%}"
        )
