"""``best-place``: where Cribbage Square's card in hand should go, every move ranked
(games/solitaire/square_advice.py; rules: docs/RULES.md §4)."""

from __future__ import annotations

import click

from cribsolve.cli.options import seed_option
from cribsolve.core.notation import format_card

PLAYOUTS_MAX = 10**4  # best-place --playouts (a first card: about 2 minutes)


class _GridCommand(click.Command):
    """A command whose arguments may be ``--`` (an empty cell): click would take the first
    one as the end of the options (and "-- 5H" as an option), so they reach click as ``.``."""

    def parse_args(self, ctx, args):
        def cell_word(a):  # "--", or several cells of which the first is "--"
            tokens = a.replace(",", " ").split()
            if tokens and tokens[0] == "--" and (a == "--" or len(tokens) > 1):
                return " ".join("." if t == "--" else t for t in tokens)
            return a

        return super().parse_args(ctx, [cell_word(a) for a in args])


@click.command("best-place", cls=_GridCommand)
@click.argument("cards", nargs=-1)
@click.option(
    "--card",
    "card_text",
    required=True,
    metavar="CARD",
    help="The card to place: the talon's top card.",
)
@click.option(
    "--variant",
    type=click.Choice(["square", "square-waste"]),
    default="square",
    show_default=True,
    help="Cribbage Square (PySolFC 805), or with a waste (806).",
)
@click.option(
    "--waste",
    "waste_text",
    default=None,
    metavar="CARDS",
    help="square-waste: the cards on the waste (at most 5).",
)
@click.option(
    "--seen",
    "seen_text",
    default=None,
    metavar="CARDS",
    help="Other cards known not to come (none in PySolFC's own games).",
)
@click.option(
    "--playouts",
    "samples",
    type=click.IntRange(0, PLAYOUTS_MAX),
    default=1000,
    show_default=True,
    help="Games played out per move, ev playing on (0: the exact expectations alone).",
)
@seed_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def best_place(cards, card_text, variant, waste_text, seen_text, samples, seed, as_json):
    """Cribbage Square: where the card in hand should go. CARDS are the grid row by row, a
    card or -- for each of the 16 cells."""
    from cribsolve.api.solitaires import best_place as analyse
    from cribsolve.games.solitaire.square import WIN_AT
    from cribsolve.infra.export import dumps

    r = analyse(
        cards,
        card=card_text,
        variant=variant,
        waste=waste_text,
        seen=seen_text,
        playouts=samples,
        seed=seed,
    )
    if as_json:
        click.echo(dumps(r.to_dict()))
        return
    grid = r._extra["grid"]
    empty = sum(c is None for c in grid)
    click.echo(
        f"{variant}: where {r.card} goes, {16 - empty} cells filled, "
        f"{WIN_AT} to win" + (f"; {samples:,} playouts, seed {seed}" if samples else "")
    )
    for i in range(4):
        click.echo(
            "  "
            + "  ".join(
                f"{'--' if c is None else format_card(c):>3}" for c in grid[4 * i : 4 * i + 4]
            )
        )
    head = "  move   expected    ahead" + ("   playouts: mean     se  P(win)" if samples else "")
    click.echo(head)
    for m in r.moves:
        row = f"  {m['move']:<6} {m['expected']:8.3f} {m['ahead']:8.3f}"
        if samples:
            row += f"  {m['mean']:15.3f}  {m['se']:5.3f}  {m['win']:6.4f}"
        marks = [f"{name}'s" for name in ("ev", "lookahead") if m[name]]
        click.echo(row + (f"   {' and '.join(marks)} move" if marks else ""))
    click.echo("expected: the final score's mean with the other cells filled at random (exact)")
    click.echo("ahead: the same once the next card, whichever it is, is placed as ev places it")
    click.echo("lookahead's move: of ev's best 3 moves, the best by ahead")
    if samples:
        click.echo("playouts: ev plays on; every move sees the same cards dealt")
