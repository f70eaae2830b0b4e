"""``play``: a game in the terminal. The solitaires (patience, patience2, square) with their coach
(solitaire.py), or a whole two-player game of cribbage against the computer (the game is
games/cribbage/match.py; this is its skin: options, the record's file, the closing review)."""
from __future__ import annotations

import sys

import click

from cribsolve.cli.options import (GAME_OPTIONS, SAMPLES_MAX, SEED_MAX, TOP_MAX,
                                   Number, check_outputs, game_options, given,
                                   make_spec, opt, pysol_option, refuse)
from cribsolve.cli.spelling import seat_option
from cribsolve.games.cribbage.spec import ODDS_LENGTH_MAX

SOLITAIRE_ONLY = ["pysol_game", "samples", "top"]
CRIBBAGE_ONLY = ["opponent", "dealer", "coach", "count_yourself", "muggins", "record",
                 "game_length"]


@click.command()
@click.option("--variant", type=click.Choice(["patience", "patience2", "square", "cribbage"]),
              required=True, help="The game: a solitaire, or cribbage against the computer.")
@pysol_option("play this game (solitaires)")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=None,
              help="Deal from this seed (the same seed deals the same game).")
@click.option("--samples", type=Number(2, SAMPLES_MAX), default=2000, show_default=True,
              help="Patience II's first discards: second hands sampled; Square: playouts of "
                   "each move shown (default there 200).")
@click.option("--top", type=click.IntRange(1, TOP_MAX), default=3, show_default=True,
              help="Solitaires: discards shown at each decision.")
@click.option("--opponent", type=click.Choice(["expert", "lookahead", "greedy"]),
              default="expert", show_default=True,
              help="Cribbage: the computer's policy (as simulate --policy measures it).")
@seat_option("Cribbage: you deal first (--pone: they do; default: cut for deal).")
@click.option("--coach", is_flag=True,
              help="Cribbage: the hint before every decision, and a line after a costly one.")
@click.option("--count-yourself", is_flag=True,
              help="Cribbage: type your own count of your hand and crib.")
@click.option("--muggins", is_flag=True,
              help="Cribbage, with --count-yourself: the computer takes the points you miss.")
@click.option("--record", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Cribbage: write the game's record here (default: a file named by date in "
                   "the data folder), for cribsolve review.")
@click.option("--game-length", type=click.IntRange(31, ODDS_LENGTH_MAX), default=121,
              show_default=True, help="Cribbage: points to win.")
@game_options()
@click.option("--quiet", is_flag=True, help="No progress bar.")
def play(variant, pysol_game, seed, samples, top, opponent, dealer, coach, count_yourself,
         muggins, record, game_length, quiet, **house):
    """Play a solitaire with a coach, or cribbage against the computer (--variant cribbage):
    type your cards (e.g. 5H JD) or their numbers, ? for a hint, Enter for the adviser's
    choice."""
    if variant != "cribbage":
        refuse(CRIBBAGE_ONLY + list(GAME_OPTIONS), f"--variant {variant}")
        from cribsolve.cli.solitaire import play_solitaire, play_square
        if variant == "square":
            return play_square(pysol_game, seed, samples if given("samples") else 200, top)
        return play_solitaire(variant, pysol_game, seed, samples, top, quiet)
    refuse(SOLITAIRE_ONLY, "--variant cribbage")
    for name in GAME_OPTIONS:
        if given(name):
            raise click.UsageError(
                f"{opt(name)} is not offered by play yet: the record review reads is the "
                "standard game's (--game-length alone may change)")
    if muggins and not count_yourself:
        raise click.UsageError("--muggins goes with --count-yourself (it takes the points "
                               "you miss in your own count)")
    _cribbage(make_spec(game_length=game_length), seed, opponent, dealer, coach,
              count_yourself, muggins, record, quiet)


def _record_path(record):
    import os
    import time

    from cribsolve.infra.paths import data_dir
    if record is not None:
        check_outputs(("--record", record))
        return record
    folder = os.path.join(data_dir(), "games")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, time.strftime("%Y-%m-%d-%H%M%S") + ".txt")


def _cribbage(spec, seed, opponent, dealer, coach, count_yourself, muggins, record, quiet):
    import secrets

    from cribsolve.games.cribbage.computer import Computer
    from cribsolve.games.cribbage.match import Match, summary_lines
    from cribsolve.games.cribbage.terminal import Terminal
    from cribsolve.infra.progress import bar

    seed = secrets.randbelow(SEED_MAX + 1) if seed is None else seed
    path = _record_path(record)
    say = click.echo
    say(f"cribbage to {spec.game_length} against {opponent}, seed {seed} (--seed {seed} deals "
        f"this game again); the record: {path}")
    computer = Computer(opponent, spec)
    player = Terminal(spec, sys.stdin.readline, say, coach, echo=not sys.stdin.isatty())
    with open(path, "w", encoding="utf-8") as f:
        def write(text):
            f.write(text)
            f.flush()
        match = Match(spec, player, computer, say, write, seed, dealer, count_yourself,
                      muggins)
        try:
            result = match.run()
        except (EOFError, KeyboardInterrupt) as stop:
            r = match.result
            kept = (f"{path} keeps the {r.deals} deal{'s' * (r.deals != 1)} finished; review "
                    f"them with: cribsolve review {path}" if r.deals else
                    f"no deal was finished, so {path} holds no deal to review")
            seat = "--dealer" if match.you_deal else "--pone"
            say(f"\ngame stopped in deal {r.deals + 1} at you {r.scores[0]}, they "
                f"{r.scores[1]}: {kept}; to play this game again from its start: cribsolve "
                f"play --variant cribbage --seed {seed} {seat}")
            if isinstance(stop, KeyboardInterrupt):
                sys.exit(130)
            return
    say("")
    with bar(None, "reviewing your decisions", quiet, "decision") as pb:
        lines = summary_lines("".join(result.texts), path, pb.update)
    say("\n".join(lines + [f"the whole table: cribsolve review {path}"]))
