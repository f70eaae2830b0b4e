"""``play``: a game in the terminal (a solitaire with its coach, or cribbage against the
computer, whose table is games/cribbage/table/match.py: this is its skin, with the record's
file and the closing review), and ``review``: a played game's record set beside the best."""

from __future__ import annotations

import sys

import click

from cribsolve.cli.checks import check_outputs, given, refuse
from cribsolve.cli.options import (
    GAME_OPTIONS,
    SEED_MAX,
    TOP_MAX,
    bars,
    game_options,
    make_spec,
    pysol_option,
)
from cribsolve.cli.spelling import Spelled, samples_option, seat_option
from cribsolve.games.cribbage.rules.spec import ODDS_LENGTH_MAX

SOLITAIRE_ONLY = ["pysol_game", "samples", "top"]
CRIBBAGE_ONLY = [
    "plain",
    "width",
    "opponent",
    "dealer",
    "coach",
    "count_yourself",
    "muggins",
    "record",
    "game_length",
    "resume",
    "web",
    "port",
]


@click.command(cls=Spelled, respelled={"--opponent": "--opponent-policy"})
@click.option(
    "--variant",
    type=click.Choice(["patience", "patience2", "square", "cribbage"]),
    required=True,
    help="The game: a solitaire, or cribbage against the computer.",
)
@pysol_option("play this game (solitaires)")
@click.option(
    "--seed",
    type=click.IntRange(0, SEED_MAX),
    default=None,
    help="Deal from this seed (the same seed deals the same game).",
)
@samples_option(
    "Patience II's first discards: second hands sampled; Square: playouts of "
    "each move shown (default there 200)"
)
@click.option(
    "--top",
    type=click.IntRange(1, TOP_MAX),
    default=3,
    show_default=True,
    help="Solitaires: discards shown at each decision.",
)
@click.option(
    "--opponent-policy",
    "opponent",
    type=click.Choice(["expert", "expert1", "lookahead", "greedy"]),
    default="expert",
    show_default=True,
    help="Cribbage: the computer's policy (as simulate --policy measures it; with "
    "three or four players expert, lookahead or greedy; in the five-card game lookahead, "
    "its default, or greedy).",
)
@seat_option(
    "Cribbage: you deal first (--pone: they do, or with three or four the player "
    "at your right; default: cut for deal)."
)
@click.option(
    "--coach",
    is_flag=True,
    help="Cribbage: the hint before every decision, and a line after a costly one.",
)
@click.option(
    "--count-yourself", is_flag=True, help="Cribbage: type your own count of your hand and crib."
)
@click.option(
    "--muggins",
    is_flag=True,
    help="Cribbage, with --count-yourself: the computer takes the points you miss.",
)
@click.option(
    "--record",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Cribbage: write the game's record here (default: a file named by date in "
    "the data folder), for cribsolve review.",
)
@click.option(
    "--game-length",
    type=click.IntRange(31, ODDS_LENGTH_MAX),
    default=121,
    show_default=True,
    help="Cribbage: points to win.",
)
@click.option(
    "--resume",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Cribbage: go on with the game broken off in this record (its seed, "
    "opponent and rules), from its first unfinished deal.",
)
@click.option(
    "--plain",
    is_flag=True,
    help="Cribbage: a transcript, one line a step, the scores at the end of each line (no "
    "board, no cards drawn).",
)
@click.option(
    "--width",
    type=click.IntRange(40, 250),
    default=None,
    help="Cribbage: the columns the table is drawn in (default: the terminal's, or 80 in a "
    "pipe); 40 to 250. Given on a terminal: the table drawn line by line, not full-screen.",
)
@click.option(
    "--web",
    is_flag=True,
    help="Cribbage: serve the full-screen table on http://127.0.0.1:PORT, a game to each "
    "browser tab (needs the table extra: pip install 'cribsolve[table]').",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="Cribbage, with --web: the port served.",
)
@game_options()
@click.option("--quiet", is_flag=True, help="No progress bar.")
def play(
    variant,
    pysol_game,
    seed,
    samples,
    top,
    opponent,
    dealer,
    coach,
    count_yourself,
    muggins,
    record,
    game_length,
    resume,
    plain,
    width,
    web,
    port,
    quiet,
    **house,
):
    """Play a solitaire with a coach, or cribbage against the computer (--variant cribbage):
    type your cards (e.g. 5H JD) or their numbers, ? for a hint, Enter for the adviser's
    choice. Cribbage on a terminal is a full-screen table (with the table extra): cards by
    1-6, the arrows and Enter, or a click; ? the hint, a the adviser's choice, q to leave."""
    if variant != "cribbage":
        refuse(CRIBBAGE_ONLY + list(GAME_OPTIONS), f"--variant {variant}")
        from cribsolve.cli.solitaire import play_solitaire, play_square

        if variant == "square":
            return play_square(pysol_game, seed, samples if given("samples") else 200, top)
        return play_solitaire(variant, pysol_game, seed, samples, top, quiet)
    refuse(SOLITAIRE_ONLY, "--variant cribbage")
    if web:
        _web_ready(plain)
        refuse(["width"], "--web", "the browser's window sizes the table")
    elif given("port"):
        raise click.UsageError("--port goes with --web (the port the table is served on)")
    if muggins and not count_yourself:
        raise click.UsageError(
            "--muggins goes with --count-yourself (it takes the points you miss in your own count)"
        )
    if resume is not None:
        refuse(
            ["seed", "opponent", "dealer", "record", "game_length", "muggins", *GAME_OPTIONS],
            "--resume",
            "the record gives the game",
        )
        resumed = _resumed(resume)  # under muggins you go on counting yourself
        return _cribbage(
            *resumed, coach, count_yourself or resumed[4], quiet, plain, width, web, port
        )
    spec = make_spec(game_length=game_length, **house)
    if spec.players > 2:
        refuse(["muggins"], f"--players {spec.players}", "muggins is the one opponent's")
    if spec.five_card:
        if opponent.startswith("expert") and given("opponent"):
            raise click.UsageError(
                f"--opponent-policy {opponent} is the two-player search; in the five-card "
                "game: lookahead or greedy"
            )
        opponent = opponent if given("opponent") else "lookahead"
    elif spec.players > 2 and opponent == "expert1" and given("opponent"):
        raise click.UsageError(
            f"--opponent-policy expert1 is the two-player search with open hands; with "
            f"{spec.players} players: expert, lookahead or greedy"
        )
    import secrets

    seed = secrets.randbelow(SEED_MAX + 1) if seed is None else seed
    first = None if dealer is None else 0 if dealer else spec.players - 1
    _cribbage(
        spec,
        seed,
        opponent,
        first,
        muggins,
        _record_path(record),
        None,
        coach,
        count_yourself,
        quiet,
        plain,
        width,
        web,
        port,
    )


def _games_folder() -> str:
    """Where play keeps each game's record unless told (--record)."""
    import os

    from cribsolve.infra.paths import data_dir

    return os.path.join(data_dir(), "games")


def _record_path(record):
    import os
    import time

    if record is not None:
        check_outputs(("--record", record))
        return record
    folder = _games_folder()
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, time.strftime("%Y-%m-%d-%H%M%S") + ".txt")


def _resumed(path):
    """(spec, seed, opponent, the first dealer's place, muggins, path, the replay of its
    deals) of a broken-off game's record."""
    from cribsolve.errors import CribsolveError
    from cribsolve.games.cribbage.table.computer import OPPONENTS
    from cribsolve.games.cribbage.table.record import load_record
    from cribsolve.games.cribbage.table.replay import replay

    rec = load_record(path)
    if rec.seed is None or rec.opponent not in OPPONENTS:
        raise CribsolveError(
            f"{path}: not a game cribsolve play wrote (it has no 'seed' and "
            "'opponent' lines), so it cannot be resumed"
        )
    if rec.muggins and not any("counts" in d.fields for d in rec.deals):
        # every deal finished holds your counts ('counts: 6 4') since records keep them
        raise CribsolveError(
            f"{path}: a game under --muggins whose record has no 'counts' lines (an older "
            "cribsolve's) cannot be resumed: the scores it replays to are not the game's"
        )
    check_outputs(("--resume", path))
    game = replay(rec)
    if game.winner:
        raise CribsolveError(
            f"{path}: the game is over ({game.winner} won); review it with: cribsolve review {path}"
        )
    return rec.spec, rec.seed, rec.opponent, rec.dealer_place, rec.muggins, path, game


def _web_ready(plain) -> None:
    """--web: refused with --plain, and without the table extra."""
    import importlib.util

    if plain:
        raise click.UsageError("--web serves the full-screen table; --plain is the transcript")
    if not all(importlib.util.find_spec(m) for m in ("textual", "textual_serve")):
        raise click.UsageError(
            "--web needs the table extra (Textual and textual-serve): pip install "
            "'cribsolve[table]'"
        )


def _full_screen(plain) -> bool:
    """Whether the game is the full-screen table (cribsolve.tui): on a terminal (stdin and
    stdout), or where a Textual driver is named (textual-serve names its web driver for the
    command it serves), with Textual installed; else the transcript, as in a pipe."""
    import importlib.util
    import os

    if plain or importlib.util.find_spec("textual") is None:
        return False
    return "TEXTUAL_DRIVER" in os.environ or (sys.stdin.isatty() and sys.stdout.isatty())


def _served_command() -> list:
    """This command as --web serves it to each browser tab: the same options, less --web and
    --port."""
    args, skip = [], False
    for a in sys.argv[1:]:
        if skip or a == "--web":
            skip = False
            continue
        skip = a == "--port"
        if not skip and not a.startswith("--port="):
            args.append(a)
    return [sys.executable, "-m", "cribsolve", *args]


def _cribbage(
    spec,
    seed,
    opponent,
    dealer,
    muggins,
    path,
    resumed,
    coach,
    count_yourself,
    quiet,
    plain,
    width,
    web=False,
    port=None,
):
    """The game at its front end: the full-screen table (served to a browser with --web), or
    the transcript, each driving the same referee (_game)."""
    from functools import partial

    game = partial(_game, spec, seed, opponent, dealer, muggins, count_yourself, path, resumed)
    if web:
        from cribsolve.tui.serve import serve

        return serve(_served_command(), port)
    if width is None and _full_screen(plain):
        from cribsolve.tui.app import play_table

        return play_table(spec, game, coach, path, _games_folder())
    from cribsolve.games.cribbage.table.terminal import Terminal

    screen = None if plain else _screen(spec, width)
    say = (
        click.echo
        if plain
        else lambda text="", nl=True: click.echo("\n".join(screen.fit(text)), nl=nl)
    )
    player = Terminal(spec, sys.stdin.readline, say, coach, not sys.stdin.isatty(), screen)
    game(say, player, quiet, screen)


def _game(
    spec,
    seed,
    opponent,
    dealer,
    muggins,
    count_yourself,
    path,
    resumed,
    say,
    player,
    quiet,
    screen=None,
):
    """A game against the computer from its first line to its review: the person is
    ``player`` (match.Player), and what happens is told through ``say``."""
    from dataclasses import replace

    from cribsolve.games.cribbage.table import advice
    from cribsolve.games.cribbage.table.computer import Computer
    from cribsolve.games.cribbage.table.match import Match, deck_for, ready, summary_lines
    from cribsolve.infra.export import growing
    from cribsolve.infra.jit import later
    from cribsolve.infra.progress import bar

    rules = replace(spec, game_length=121)
    rules = "" if rules.is_standard else f" ({rules.describe()})"
    say(
        f"cribbage to {spec.game_length}{rules} against {opponent}, seed {seed} (--seed {seed} "
        f"deals this game again); the record: {path}"
        + (f" (resumed at deal {len(resumed.deals) + 1})" if resumed else "")
    )
    computer = Computer(opponent, spec)
    deck = deck_for(seed, 0, spec)
    # What a deal runs is compiled once, before the first prompt, so that no step of the game
    # waits on the compiler; what the end of a game runs, while the person plays the first deal
    computer.ready(deck)
    advice.ready(spec, deck)
    ready(spec, deck)
    later(lambda: (computer.ready(deck, end=True), advice.ready(spec, deck, end=True)))

    def kept():  # what the record holds when the machine fails its write (not the deal written)
        n = max(match.result.deals - 1, 0)
        if not n:
            return f"it holds no deal: free space and run the same command with --seed {seed}"
        return (
            f"it keeps the {n} deal{'s' * (n != 1)} finished: free space and go on with: "
            f"cribsolve play --variant cribbage --resume {path}"
        )

    with growing(path, not resumed, kept) as write:
        match = Match(
            spec, player, computer, say, write, seed, None, count_yourself, muggins, dealer, screen
        )
        try:
            match.run(resumed)
        except (EOFError, KeyboardInterrupt) as stop:
            r = match.result
            seat = (
                " --dealer"
                if match.you_deal
                else " --pone"
                if match.dealer == spec.players - 1
                else ""
            )  # else: the seed's cut
            # each command on a line of its own, to be copied whole
            how = (
                f"{path} keeps the {r.deals} deal{'s' * (r.deals != 1)} finished; go on "
                f"with:\n  cribsolve play --variant cribbage --resume {path}\nor review "
                f"them:\n  cribsolve review {path}"
                if r.deals
                else f"no deal was finished, so {path} holds no deal to review; to play this "
                f"game from its start, the same command with:\n  --seed {seed}{seat}"
            )
            say(f"\ngame stopped in deal {r.deals + 1} at {match.board()[1:-1]}: {how}")
            if isinstance(stop, KeyboardInterrupt):
                sys.exit(130)
            return
    say("")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with bar(None, "reviewing your decisions", quiet, "decision") as pb:
        lines = summary_lines(text, path, pb.update)
    say("\n".join(lines + [f"the whole table: cribsolve review {path}"]))


@click.command()
@click.argument("game", metavar="GAME")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def review(game, as_json, quiet):
    """Replay a played game from its record (GAME, a text file as play writes it; the format
    is in the documentation, "The game record") and set each of your throws and plays beside
    the best, from what you knew then."""
    from cribsolve.api.review import review as review_api
    from cribsolve.games.cribbage.table.review import text_lines
    from cribsolve.infra.export import dumps

    r = review_api(game, progress=bars(quiet))
    played, reviews = r._extra["played"], r._extra["reviews"]
    click.echo(dumps(r.to_dict()) if as_json else "\n".join(text_lines(played, reviews)))


def _screen(spec, width):
    """The table drawn within ``width`` columns (the terminal's, or 80 in a pipe); colour on
    a terminal only, and not where NO_COLOR is set."""
    import os
    import shutil

    from cribsolve.games.cribbage.table.record import Table
    from cribsolve.games.cribbage.table.terminal import Screen

    tty = sys.stdout.isatty()
    if width is None:
        width = min(250, max(40, shutil.get_terminal_size().columns)) if tty else 80
    names = Table(spec.players, spec.partners).side_names
    colour = tty and "NO_COLOR" not in os.environ
    return Screen(names, spec.game_length, spec.lowball, width, colour)
