"""The solitaires' deals: ``deal`` shows a PySolFC game's cards, and ``play``'s solitaires
(the command itself is in play.py) deal them with a coach that sees only the face-up cards."""

from __future__ import annotations

import sys

import click

from cribsolve.cli.checks import one_line
from cribsolve.cli.options import PysolGame, win_table_progress
from cribsolve.core.notation import format_card, format_cards
from cribsolve.errors import CardError
from cribsolve.infra.paths import clip


@click.command()
@click.option(
    "--variant",
    type=click.Choice(
        [
            "patience",
            "patience2",
            "shuffle",
            "square",
            "square-waste",
            "square-reserve1",
            "square-reserve2",
        ]
    ),
    required=True,
    help="The solitaire whose layout to show.",
)
@click.option(
    "--pysol-game",
    "pysol_game",
    type=PysolGame(),
    required=True,
    metavar="N",
    help="PySolFC's game N, 1 to 1e20: below 32000 (and msN) Microsoft-compatible deals, "
    "from 32000 the Mersenne Twister's.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(variant, pysol_game, as_json):
    """The cards of a PySolFC game number, as they are dealt."""
    from cribsolve.api.solitaires import deal as deal_api
    from cribsolve.games.solitaire.pysol import deal_lines
    from cribsolve.infra.export import dumps

    r = deal_api(variant=variant, pysol_game=pysol_game)
    if as_json:
        click.echo(dumps(r.to_dict()))
    else:
        click.echo("\n".join(deal_lines(variant, pysol_game)))


def _ask(prompt: str) -> str | None:
    """One line typed at ``prompt`` (echoed, clipped, when the input is not a terminal); None
    when the input ends."""
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        return None
    if not sys.stdin.isatty():  # within 80 columns, the prompt's included
        click.echo(clip(line.rstrip("\n"), max(20, 80 - len(prompt))))
    return line


def _read_discard(walk, view, advice):
    """The discard the player types (Enter: the advice), asked again until it is one of the
    hand's; None when the input ends."""
    while True:
        line = _ask(f"your discard [{format_cards(advice[0].discard)}]: ")
        if line is None:
            return None
        try:
            return (
                advice[0].discard
                if line.strip().lower() in ("", "y", "yes")
                else walk.parse(line, view)
            )
        except CardError as e:
            from cribsolve.games.solitaire.coach import fit

            said = f"{clip(one_line(e))}: type two of its cards, or Enter for the advice"
            click.echo("\n".join(fit(said.split(" "))))


def play_solitaire(variant, pysol_game, seed, samples, top, quiet):
    """``play --variant patience|patience2``: a solitaire with a coach, each discard advised
    from the face-up cards only."""
    from cribsolve.games.solitaire.coach import (
        Walk,
        advise,
        result_line,
        seeded_talon,
        summary_lines,
        view_lines,
    )
    from cribsolve.games.solitaire.facts import SOLITAIRES
    from cribsolve.games.solitaire.pysol import talon

    if pysol_game is not None and seed is not None:
        raise click.UsageError("give one deal: --pysol-game N or --seed S, not both")
    if pysol_game is None and seed is None:
        raise click.UsageError("give the deal: --pysol-game N or --seed S")
    win_table_progress(variant, quiet)
    walk = Walk(variant, talon(pysol_game) if seed is None else seeded_talon(seed))
    click.echo(
        f"{SOLITAIRES[variant].name}, "
        + (f"PySolFC game {pysol_game}" if seed is None else f"seed {seed}")
        + ": 80 points to win"
        + ("; 7 cards removed unseen" if variant == "patience" else "")
    )
    while not walk.over:
        view = walk.view()
        advice = advise(view, samples)
        click.echo("\n".join([""] + view_lines(view, advice, top)))
        discard = _read_discard(walk, view, advice)
        if discard is None:
            click.echo(f"\ninput ended at deal {view.deal} with {walk.score} points")
            return
        res = walk.choose(discard, advice)
        if res is not None:
            click.echo(result_line(res))
    click.echo("\n".join([""] + summary_lines(walk)))


def _square_view(walk, advice, top):
    """The grid, the card in hand and the best ``top`` cells."""
    out = [f"Card {len(walk.moves) + 1} of 16: {format_card(walk.card)}"]
    out += [
        "  "
        + "  ".join(
            f"{'--' if c is None else format_card(c):>3}" for c in walk.grid[4 * i : 4 * i + 4]
        )
        for i in range(4)
    ]
    out.append("  cell   expected    ahead  P(win)")
    for i, p in enumerate(advice[:top]):
        out.append(
            f"  {p.name:<6} {p.expected:8.3f} {p.ahead:8.3f}  {p.win:6.4f}"
            + ("   best" if i == 0 else "")
        )
    return out


def _read_cell(walk, advice):
    """The cell the player types (r2c3, or row and column: 2 3; Enter: the advice), asked again
    until it is an empty cell; None when the input ends."""
    import re

    from cribsolve.games.solitaire.coach import fit

    while True:
        line = _ask(f"your cell [{advice[0].name}]: ")
        if line is None:
            return None
        text = line.strip().lower()
        if text in ("", "y", "yes"):
            return advice[0].cell
        m = re.fullmatch(r"r?([1-4])[ ,c]*([1-4])", text)
        if m and walk.grid[4 * int(m.group(1)) + int(m.group(2)) - 5] is None:
            return 4 * int(m.group(1)) + int(m.group(2)) - 5
        said = (
            f"{clip(text, 30)!r} is not an empty cell: type its row and column (r2c3 or 2 3), "
            "or Enter for the advice"
        )
        click.echo("\n".join(fit(said.split(" "))))


def play_square(pysol_game, seed, samples, top):
    """``play --variant square``: Cribbage Square card by card, each cell advised from the
    face-up grid and card only (square_advice.Walk)."""
    from cribsolve.games.solitaire.coach import fit, seeded_talon
    from cribsolve.games.solitaire.pysol import layout, talon
    from cribsolve.games.solitaire.square import WIN_AT
    from cribsolve.games.solitaire.square_advice import ADVICE_SEED, Walk, best_place

    if pysol_game is not None and seed is not None:
        raise click.UsageError("give one deal: --pysol-game N or --seed S, not both")
    if pysol_game is None and seed is None:
        raise click.UsageError("give the deal: --pysol-game N or --seed S")
    cards = talon(pysol_game) if seed is None else seeded_talon(seed)
    lay = layout("square", cards)
    walk = Walk(lay["talon"], lay["starter"])
    click.echo(
        "Cribbage Square, "
        + (f"PySolFC game {pysol_game}" if seed is None else f"seed {seed}")
        + f": {WIN_AT} points to win; each card "
        "goes into an empty cell"
    )
    said = (
        "(expected: the final score with the other cells filled at random, exact; "
        "ahead: the same once the next card is placed as ev places it, exact; best: "
        f"the lookahead policy's cell; P(win): {samples:,} playouts, ev playing on)"
    )
    click.echo("\n".join(fit(said.split(" "), indent="", more="  ")))
    while not walk.over:
        advice = best_place(walk.grid, walk.card, samples=samples, seed=ADVICE_SEED, top=top)
        click.echo("\n".join([""] + _square_view(walk, advice, top)))
        cell = _read_cell(walk, advice)
        if cell is None:
            click.echo(f"\ninput ended at card {len(walk.moves) + 1} of 16")
            return
        walk.choose(cell, advice)
    lines = walk.lines()
    out = ["", f"starter {format_card(walk.starter)}"]
    for i in range(4):
        out.append(
            "  "
            + "  ".join(f"{format_card(c):>3}" for c in walk.grid[4 * i : 4 * i + 4])
            + f"   | {lines[i]:>3}"
        )
    out += ["  " + "-" * 19, "  " + "  ".join(f"{p:>3}" for p in lines[4:])]
    out.append(
        f"Game over: rows {sum(lines[:4])} + columns {sum(lines[4:])} + heels "
        f"{walk.heels} = {walk.score}, {'won' if walk.score >= WIN_AT else 'lost'} "
        f"({WIN_AT} to win)"
    )
    out.append(f"  {'card':<5} {'you':<5} {'best':<5} {'points lost (ahead)':>20}")
    for card_id, chosen, best in walk.moves:
        out.append(
            f"  {format_card(card_id):<5} {chosen.name:<5} {best.name:<5} "
            f"{best.ahead - chosen.ahead:20.3f}"
        )
    click.echo("\n".join(out))
