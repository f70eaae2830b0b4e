"""What the command modules share: the bounds of the numbers a user types, the option decorators
and parameter types, and the game's rules as options (``make_spec``, ``make_rules``); the
checks of what a user typed are checks.py's. Every command module imports this one at
start-up, so it imports neither numpy nor numba at the top: what needs them comes in inside
the functions.
"""

from __future__ import annotations

import contextlib
import os

import click

from cribsolve.cli.checks import given
from cribsolve.core.rules import PRESETS
from cribsolve.errors import CardError, Interrupted
from cribsolve.games.cribbage.rules.spec import BOUNDS

# Bounds on every number the user types (documented in each option's help); the two-player
# game's own are spec.BOUNDS.
SEED_MAX = 2**32 - 1  # seeds: 0 .. 2**32 - 1 (what numpy's legacy seeding takes)
GAMES_MAX = 10**9  # simulate -n
JOBS_MAX = 256  # --jobs
SAMPLES_MAX = 10**5  # every --samples (best-discard's 1e5 takes half a minute)
TOP_MAX = 15  # best-discard --top: a 6-card hand has 15 discards


def show(x) -> str:
    """A bound as the user would type it: 1e9 rather than 1000000000."""
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if isinstance(x, int) and x >= 10**5 and str(x).rstrip("0") == "1":
        return f"1e{len(str(x)) - 1}"
    return str(x)


class Number(click.ParamType):
    """A number within bounds, typed as 1000, 1e6 or 1_000_000; whole unless ``real``.

    Unlike click's int it takes 1e6, and unlike float it refuses inf, nan, a fraction where a
    whole number is meant, and values too large to hold, all before any work starts."""

    name = "number"

    def __init__(self, lo, hi, real: bool = False):
        self.lo, self.hi, self.real = lo, hi, real

    def allowed(self) -> str:
        kind = "a number" if self.real else "a whole number"
        return f"{kind} from {show(self.lo)} to {show(self.hi)}"

    def convert(self, value, param, ctx):
        if type(value) is int and self.lo <= value <= self.hi:  # a default: no decimal
            return float(value) if self.real else value
        from decimal import Decimal, InvalidOperation

        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = repr(value)
        try:
            d = Decimal(str(value).strip())
            ok = (
                d.is_finite()
                and self.lo <= d <= self.hi
                and (self.real or d == d.to_integral_value())
            )
        except (InvalidOperation, ValueError, TypeError, ArithmeticError):
            ok = False
        if not ok:
            big = 10 ** min(6, len(str(int(self.hi))) - 1)  # an example within the bounds
            self.fail(
                f"{value!r} is not {self.allowed()} (e.g. 1000, {show(big)}, {big:_})"
                if self.hi >= 10**5
                else f"{value!r} is not {self.allowed()}",
                param,
                ctx,
            )
        return float(d) if self.real else int(d)


class PysolGame(click.ParamType):
    """A PySolFC game number: N, 1 to 1e20 (below 32000 dealt as Microsoft's), or msN."""

    name = "N"

    def convert(self, value, param, ctx):
        from cribsolve.games.solitaire.pysol import parse_game

        try:
            return parse_game(value)
        except CardError as e:
            self.fail(str(e), param, ctx)


def seed_option(f):
    return click.option(
        "--seed",
        type=click.IntRange(0, SEED_MAX),
        default=0,
        show_default=True,
        help="Random seed: the same seed gives the same answer.",
    )(f)


def jobs_option(f):
    return click.option(
        "--jobs",
        type=click.IntRange(1, JOBS_MAX),
        default=None,
        help="Threads (default: all cores); results do not depend on it.",
    )(f)


def plot_option(f):
    return click.option(
        "--plot",
        "plot_path",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help="Draw the result into FILE, .png or .svg (needs "
        "matplotlib: pip install 'cribsolve[plot]').",
    )(f)


@contextlib.contextmanager
def resumable(checkpoint):
    """Ctrl-C during a run kept in --checkpoint FILE says what is kept and how to go on."""
    try:
        yield
    except KeyboardInterrupt:
        if checkpoint is None:
            raise
        raise Interrupted(
            f"--checkpoint {checkpoint} keeps the chunks finished so far: the same command "
            "again resumes from them"
        ) from None


def finished(run):
    """(result, None) of ``run()``; on Ctrl-C in a run kept nowhere, (the games its finished
    chunks played, the errors.Partial that holds them), for the command to print them."""
    from cribsolve.errors import Partial

    try:
        return run(), None
    except Partial as stop:
        return stop.result, stop


def stopped(stop) -> None:
    """After the partial figures are printed: interrupted, saying what they are and how to
    keep a run's work (exit status 130)."""
    if stop is not None:
        raise Interrupted(
            f"the figures above are of the first {stop.result.n:,} of {stop.asked:,} games "
            "(partial); --checkpoint FILE keeps a run's finished games, and the same command "
            "again resumes from them"
        )


def checkpoint_option(f):
    return click.option(
        "--checkpoint",
        type=click.Path(dir_okay=False),
        default=None,
        metavar="FILE",
        help="Keep finished chunks in FILE: the same command "
        "again resumes from it (a file from other "
        "arguments is refused).",
    )(f)


def pysol_option(what: str):
    return click.option(
        "--pysol-game",
        "pysol_game",
        type=PysolGame(),
        default=None,
        metavar="N",
        help=f"PySolFC's game N, 1 to 1e20 (or msN): {what}.",
    )


def scheduler_option(f):
    return click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS|local[:WORKERS]",
        help="Run the chunks on a Dask cluster: a scheduler's address, or "
        "local[:WORKERS] for worker processes here (needs pip install "
        "'cribsolve[distributed]'); the numbers do not change.",
    )(f)


def rule_options(f):
    """The RULES.md §5 switches that change show scoring (the game's own options, declared
    once below) and the preset of the crib's flush, for the show's commands."""
    f = game_options("target", "jokers", "decks", "wild")(f)
    return click.option(
        "--rules",
        "preset",
        type=click.Choice(PRESETS),
        default="standard",
        show_default=True,
        help="standard: two-player (crib flush needs all five); "
        "pysol: the solitaires (crib scores like a hand).",
    )(f)


def _rule_options() -> dict:
    """Each rule of the game (a field of the rules object, ``--wild`` its wild rank) as its
    one option, declared here once for every command that takes it, its range the rules'
    own BOUNDS; in the order the commands' help lists them."""

    def ranged(key, default, help, show_default=True):
        return click.option(
            "--" + key.replace("_", "-"),
            type=click.IntRange(*BOUNDS[key]),
            default=default,
            show_default=show_default,
            help=help,
        )

    def flag(key, help):
        return click.option("--" + key.replace("_", "-"), is_flag=True, help=help)

    return {
        "target": ranged(
            "target", 15, "The sum that scores 2 in the show and the play (house rule: e.g. 16)."
        ),
        "peg_limit": ranged("peg_limit", 31, "The count the play may not pass."),
        "lowball": flag("lowball", "Whoever reaches the game length first loses; players aim low."),
        "jokers": ranged("jokers", 0, "Jokers in the deck (rank 0, value 0, join runs 0-1-2)."),
        "decks": ranged("decks", 1, "Copies of each card (2 = double deck)."),
        "hand_size": ranged(
            "hand_size",
            None,
            "Cards dealt to each player (default 6, one "
            "more with --choose-cut, a crib's share more with --two-cribs; 5 "
            "with 3 or 4 players and --five-card).",
            show_default=False,
        ),
        "crib_size": ranged("crib_size", 4, "Cards in the crib; each player throws half."),
        "starters": ranged(
            "starters", 1, "Cut cards; with 2 the first is turned before the throw."
        ),
        "wild": click.option(
            "--wild",
            "wild",
            default=None,
            metavar="RANK",
            help="A rank wild at the show (e.g. K): each stands for the card that scores best; "
            "in the play it is itself.",
        ),
        "stinkhole": flag(
            "stinkhole",
            "Points that would leave a player one short of the game length are not pegged.",
        ),
        "draw": flag(
            "draw",
            "Draw cribbage: before and after the throw each player may redraw cards (keeping one).",
        ),
        "choose_cut": flag(
            "choose_cut", "Each player's cut card is a card the opponent gives it from its hand."
        ),
        "two_cribs": flag(
            "two_cribs",
            "A crib each (each player throws a share to both); the "
            "deal is played out and the most points win.",
        ),
        "bid": flag(
            "bid",
            "The players bid for the crib: its owner scores it if it makes the "
            "bid, else goes back the bid.",
        ),
        "players": ranged(
            "players",
            2,
            "Players at the table, 2 to 4 (with 3 or 4: 5 cards each, one each to the crib).",
        ),
        "partners": flag(
            "partners", "Four players as two teams, partners sitting opposite (with --players 4)."
        ),
        "five_card": flag(
            "five_card",
            "The five-card game: 5 cards each, two each to the "
            "crib, the first pone takes 3, one series of play, to "
            "61.",
        ),
    }


RULE_OPTIONS = _rule_options()
GAME_OPTIONS = tuple(RULE_OPTIONS)  # every rule, as the commands' parameters name them


def game_options(*names):
    """The house rules of the two-player game (docs/RULES.md §5) that ``names`` take (all
    that the engines play, by default)."""

    def decorate(f):
        for name in reversed(names or GAME_OPTIONS):
            f = RULE_OPTIONS[name](f)
        return f

    return decorate


def make_spec(game_length=121, wild=None, hand_size=None, **rules):
    """The CribbageSpec of the game options given (validated as a whole); with no hand size,
    the deal that leaves each player four cards (three in the five-card game, whose game is
    61 unless --game-length says otherwise)."""
    from cribsolve.core.notation import parse_rank
    from cribsolve.games.cribbage.rules.spec import CribbageSpec

    if hand_size is None:
        hand_size = CribbageSpec.natural_hand(
            rules.get("crib_size", 4),
            rules.get("choose_cut", False),
            rules.get("two_cribs", False),
            rules.get("players", 2),
            rules.get("five_card", False),
        )
    if rules.get("five_card") and not given("game_length"):
        game_length = 61
    return CribbageSpec(
        game_length=game_length,
        wild_rank=parse_rank(wild) if wild else 0,
        hand_size=hand_size,
        **rules,
    )


def make_rules(preset, target, jokers, decks, wild):
    """The show-scoring RuleSet of the rule options (--wild RANK read as a rank)."""
    from cribsolve.core.notation import parse_rank
    from cribsolve.core.rules import ruleset

    try:
        wild_rank = parse_rank(wild) if wild is not None else 0
    except CardError as e:
        raise CardError(f"--wild: {e}") from None
    return ruleset(preset, target=target, jokers=jokers, decks=decks, wild_rank=wild_rank)


def plot(path, draw: str, *args) -> None:
    """With --plot FILE, draw ``plots.<draw>(*args)`` into it, and say where."""
    if path is not None:
        from cribsolve.cli import plots

        plots.save(getattr(plots, draw)(*args), path)
        wrote("the picture", path)


def wrote(what: str, path) -> None:
    """One line on stderr saying where ``what`` was written (unless the command's --quiet): a
    file is often a command's only output, and a command that prints nothing looks broken."""
    ctx = click.get_current_context(silent=True)
    if not (ctx is not None and ctx.params.get("quiet")):
        from cribsolve.infra.paths import say

        say(f"wrote {what} to {path}")


def quick():
    """Answer this one question without numba (see jit.use_python), unless told not to."""
    if os.environ.get("CRIBSOLVE_COMPILED") != "1":
        from cribsolve.infra import jit

        jit.use_python()


def bars(quiet):
    """The API's ``progress`` as a command draws it: its bars on stderr (none with --quiet)."""
    from cribsolve.infra.progress import bar

    return lambda total, desc, unit: bar(total, desc, quiet, unit)


def chunks_where(scheduler, jobs):
    """Where a command's chunks run (runner.connect), closed when the command ends."""
    from cribsolve.infra.runner import connect

    return click.get_current_context().with_resource(connect(scheduler, jobs))


def win_table_progress(variant, quiet):
    """Build (once) the table of P(win) by score and deals left, and Patience's deck value,
    with a progress bar."""
    from cribsolve.games.solitaire.simulate import (
        DECK_VALUE_GAMES,
        WIN_TABLE_GAMES,
        deck_value,
        win_table,
    )
    from cribsolve.infra.progress import bar

    with bar(WIN_TABLE_GAMES, f"win table for {variant} (once)", quiet, "game", lazy=True) as pb:
        win_table(variant, pb.update)
    if variant == "patience":
        with bar(
            DECK_VALUE_GAMES, "deck value for patience (once)", quiet, "game", lazy=True
        ) as pb:
            deck_value(pb.update)
