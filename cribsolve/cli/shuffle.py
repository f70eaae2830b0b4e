"""``shuffle``: Cribbage Shuffle's 16 cards solved, the grid printed with its points and its
proof (games/solitaire/shuffle.py; rules: docs/RULES.md §4)."""

from __future__ import annotations

import click

from cribsolve.cli.options import Number, pysol_option
from cribsolve.core.notation import format_card

TIME_LIMIT_MAX = 86_400  # shuffle --time-limit, seconds


def _shuffle_lines(sol, st):
    """The solved grid with each row's and column's points, the total, and its proof."""
    lines = [f"starter {format_card(st)}"]
    rows = [sol.grid[4 * i : 4 * i + 4] for i in range(4)]
    for r, pts in zip(rows, sol.rows):
        lines.append("  " + "  ".join(f"{format_card(c):>3}" for c in r) + f"   | {pts:>3}")
    lines.append("  " + "-" * 19)
    lines.append("  " + "  ".join(f"{p:>3}" for p in sol.columns))
    lines.append(
        f"rows {sum(sol.rows)} + columns {sum(sol.columns)} + heels {sol.heels} = {sol.total}"
    )
    if sol.optimal:
        lines.append(
            f"proven optimal ({sol.seconds * 1000:.0f} ms; the heuristic start was {sol.heuristic})"
        )
    else:
        lines.append(
            f"time limit reached: best {sol.total}, upper bound {sol.upper_bound} "
            f"(gap {sol.upper_bound - sol.total})"
        )
    return lines


@click.command()
@click.argument("cards", nargs=-1)
@click.option(
    "--starter", required=False, default=None, metavar="CARD", help="The fixed starter card."
)
@click.option(
    "--time-limit",
    type=Number(0, TIME_LIMIT_MAX, real=True),
    default=None,
    metavar="S",
    help="Stop after S seconds (0 to 86400) with the best grid so far and the gap to the bound.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@pysol_option("its dealt grid and starter, instead of CARDS and --starter")
def shuffle(cards, starter, time_limit, as_json, pysol_game):
    """Cribbage Shuffle: the best arrangement of 16 grid cards, with its proof."""
    from cribsolve.api.solitaires import shuffle as solve
    from cribsolve.infra.export import dumps

    r = solve(cards, starter=starter, time_limit=time_limit, pysol_game=pysol_game)
    if as_json:
        click.echo(dumps(r.to_dict()))
        return
    if pysol_game is not None:
        click.echo(f"PySolFC game {pysol_game}")
    click.echo("\n".join(_shuffle_lines(r._extra["solution"], r._extra["starter"])))
