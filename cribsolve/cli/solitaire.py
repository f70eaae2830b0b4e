"""The solitaires' commands: ``shuffle`` (Cribbage Shuffle solved, with its proof),
``best-place`` (where Cribbage Square's card goes), ``deal`` (a PySolFC game's cards) and
``bracket`` (the optimal win rate between a policy and upper bounds); and ``play``'s
solitaires with their coach (the command itself is in play.py)."""

from __future__ import annotations

import sys

import click

from cribsolve.cli.checks import (
    card,
    check_header,
    check_outputs,
    check_plot,
    no_jokers,
    one_line,
    refuse,
)
from cribsolve.cli.options import (
    GAMES_MAX,
    Number,
    PysolGame,
    checkpoint_option,
    jobs_option,
    plot,
    plot_option,
    pysol_option,
    seed_option,
    show,
    win_table_progress,
)
from cribsolve.cli.spelling import Spelled
from cribsolve.core.notation import format_card, format_cards, parse_cards
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.solitaire.facts import NEXT_HANDS
from cribsolve.infra.paths import clip

TIME_LIMIT_MAX = 86_400  # shuffle --time-limit, seconds
NEXT_HANDS_MAX = 1000  # bracket --next-hands


def _shuffle_lines(sol, rows, st):
    """The solved grid with each row's and column's points, the total, and its proof."""
    lines = [f"starter {format_card(st)}"]
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
    if pysol_game is not None:
        from cribsolve.games.solitaire.pysol import layout, talon

        if cards or starter is not None:
            raise CribsolveError("--pysol-game deals the grid and the starter: give neither")
        lay = layout("shuffle", talon(pysol_game))
        cards, starter = [format_cards(sum(lay["grid"], []))], format_card(lay["starter"])
        if not as_json:
            click.echo(f"PySolFC game {pysol_game}")
    grid = parse_cards(cards)
    if len(grid) != 16:
        raise CardError(f"give exactly 16 grid cards, not {len(grid)}")
    if starter is None:
        raise CribsolveError("give the starter with --starter CARD")
    st = card(starter, "--starter")
    from cribsolve.core.rules import ruleset

    no_jokers(grid + [st], "shuffle")
    ruleset("pysol").check_cards(grid + [st])
    from cribsolve.games.solitaire.shuffle import solve
    from cribsolve.infra.export import dumps

    sol = solve(grid, st, time_limit)
    rows = [sol.grid[4 * i : 4 * i + 4] for i in range(4)]
    if as_json:
        click.echo(
            dumps(
                {
                    **({"game": pysol_game.number} if pysol_game else {}),
                    "grid": [[format_card(c) for c in r] for r in rows],
                    "rows": sol.rows,
                    "columns": sol.columns,
                    "heels": sol.heels,
                    "total": sol.total,
                    "upper_bound": sol.upper_bound,
                    "optimal": sol.optimal,
                }
            )
        )
        return
    click.echo("\n".join(_shuffle_lines(sol, rows, st)))


EMPTY_WORDS = ("--", ".")  # an empty cell of best-place's grid
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


def _grid_cells(words) -> list:
    """16 cells from words that may each hold several: a card, or -- / . for an empty cell."""
    from cribsolve.core.notation import parse_card

    cells = []
    for w in words:
        tokens = w.replace(",", " ").split()
        if not tokens:
            raise CardError(
                "an empty grid argument was given (expected cards like 5H, or -- for an empty cell)"
            )
        cells += [None if t in EMPTY_WORDS else parse_card(t) for t in tokens]
    return cells


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
    from cribsolve.cli.checks import cards as option_cards
    from cribsolve.games.solitaire.square import WIN_AT
    from cribsolve.games.solitaire.square import best_place as analyse
    from cribsolve.infra.export import dumps

    grid = _grid_cells(cards)
    placed = card(card_text, "--card")
    waste = option_cards(waste_text, "--waste")
    seen = option_cards(seen_text, "--seen")
    moves = analyse(grid, placed, variant, waste, seen, samples, seed)
    if as_json:
        click.echo(
            dumps(
                {
                    "variant": variant,
                    "card": format_card(placed),
                    "samples": samples,
                    "seed": seed,
                    "moves": [
                        {
                            "move": m.name,
                            "expected": m.expected,
                            "ahead": m.ahead,
                            "mean": m.mean,
                            "se": m.se,
                            "win": m.win,
                            "ev": m.ev,
                            "lookahead": m.lookahead,
                        }
                        for m in moves
                    ],
                }
            )
        )
        return
    empty = sum(c is None for c in grid)
    click.echo(
        f"{variant}: where {format_card(placed)} goes, {16 - empty} cells filled, "
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
    for m in moves:
        row = f"  {m.name:<6} {m.expected:8.3f} {m.ahead:8.3f}"
        if samples:
            row += f"  {m.mean:15.3f}  {m.se:5.3f}  {m.win:6.4f}"
        marks = [name for name, on in (("ev's", m.ev), ("lookahead's", m.lookahead)) if on]
        click.echo(row + (f"   {' and '.join(marks)} move" if marks else ""))
    click.echo("expected: the final score's mean with the other cells filled at random (exact)")
    click.echo("ahead: the same once the next card, whichever it is, is placed as ev places it")
    click.echo("lookahead's move: of ev's best 3 moves, the best by ahead")
    if samples:
        click.echo("playouts: ev plays on; every move sees the same cards dealt")


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
    help="PySolFC's game N (1 to 31999 and msN: Microsoft-compatible deals).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(variant, pysol_game, as_json):
    """The cards of a PySolFC game number, as they are dealt."""
    from cribsolve.games.solitaire.pysol import deal_lines, deal_record
    from cribsolve.infra.export import dumps

    if as_json:
        click.echo(dumps(deal_record(variant, pysol_game)))
    else:
        click.echo("\n".join(deal_lines(variant, pysol_game)))


def _ask(prompt: str) -> str | None:
    """One line typed at ``prompt`` (echoed, clipped, when the input is not a terminal); None
    when the input ends."""
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        return None
    if not sys.stdin.isatty():
        click.echo(clip(line.rstrip("\n")))
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
            click.echo(f"  {clip(one_line(e))}: type two of its cards, or Enter for the advice")


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
        click.echo(
            f"  {clip(text)!r} is not an empty cell: type its row and column (r2c3 or "
            f"2 3), or Enter for the advice"
        )


def play_square(pysol_game, seed, samples, top):
    """``play --variant square``: Cribbage Square card by card, each cell advised from the
    face-up grid and card only (square.Walk)."""
    from cribsolve.games.solitaire.coach import seeded_talon
    from cribsolve.games.solitaire.pysol import layout, talon
    from cribsolve.games.solitaire.square import ADVICE_SEED, WIN_AT, Walk, best_place

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
    click.echo(
        "(expected: the final score with the other cells filled at random, exact; "
        "ahead: the same once the next card is placed as ev places it, exact; best: "
        f"the lookahead policy's cell; P(win): {samples:,} playouts, ev playing on)"
    )
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
@click.option("--quiet", is_flag=True, help="No progress bar.")
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
    with bar(n, f"bracket {variant}", quiet, "deck") as pb:
        res = run_bracket(variant, n, seed, jobs, pb.update, next_hands, checkpoint=checkpoint)
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
        ("width (upper - best)", "width"),
    ]
    if "gain" in d:
        rows.insert(1, ("  gain over win", "gain"))
    if "charged_rate" in d:  # Patience: the width is counted from this rate
        rows.insert(1, ("best policy, charged", "charged_rate"))
        rows[-1] = ("width (upper - charged)", "width")
    for name, key in rows:
        lo, hi = d[key + "_ci"]
        click.echo(f"  {name:<24} {d[key]:8.4%}  95% CI [{lo:.4%}, {hi:.4%}]")


def _square_bracket(n, seed, jobs, as_json, quiet):
    """bracket --variant square: the best policy below, the clairvoyant bound above, on the
    same decks, and ev's paired gap."""
    from cribsolve.cli.checks import refuse
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
        ("width (upper - best)", "width"),
    ]:
        lo, hi = d[key + "_ci"]
        click.echo(f"  {name:<24} {d[key]:8.4%}  95% CI [{lo:.4%}, {hi:.4%}]")
