"""The command line: each command parses, calls the library, and renders. No kernels here.

Start-up is kept short: nothing heavier than click is imported before a command runs, and a
command that answers one question runs the kernels as plain Python (``_quick``) instead of
waiting about a second for numba; should it need a table that has to be built, it starts again
compiled.
"""
from __future__ import annotations

import os
import sys

import click
from click.core import ParameterSource

from cribsolve.core.notation import (format_card, format_cards, parse_card,
                                     parse_cards)
from cribsolve.core.rules import PRESETS, ruleset
from cribsolve.errors import CardError, CribsolveError
from cribsolve.games.cribbage.spec import CribbageSpec
from cribsolve.games.solitaire.facts import PATIENCES, SOLITAIRES
from cribsolve.infra.export import check_output_path, dumps, write_csv

# Bounds on every number the user types (documented in each option's help).
SEED_MAX = 2 ** 32 - 1          # seeds: 0 .. 2**32 - 1 (what numpy's legacy seeding takes)
GAMES_MAX = 10 ** 9             # simulate -n
JOBS_MAX = 256                  # --jobs
SAMPLES_MAX = 10 ** 5           # best-discard --samples (1e5 takes about half a minute)
SOLITAIRE_SCORE_MAX = 1000      # best-discard --score (a solitaire is won at 80)
GAME_LENGTH_MAX = 10_000        # simulate --game-length
ODDS_LENGTH_MAX = 361           # odds --game-length: board.LONGEST, kept here to load light
TIME_LIMIT_MAX = 86_400         # shuffle --time-limit, seconds
TOP_MAX = 15                    # best-discard --top: a 6-card hand has 15 discards
JOKERS_MAX = 16
DECKS_MAX = 8
TARGET_MAX = 200                # RuleSet's own bound on the sum that scores 2
WILD_WORK_MAX = 6 * 10 ** 7     # wild-card substitutions x cards: about 5 s of kernel time


def _show(x) -> str:
    """A bound as the user would type it: 1e9 rather than 1000000000."""
    if isinstance(x, float) and x.is_integer():
        x = int(x)
    if isinstance(x, int) and x >= 10 ** 5 and str(x).rstrip("0") == "1":
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
        return f"{kind} from {_show(self.lo)} to {_show(self.hi)}"

    def convert(self, value, param, ctx):
        from decimal import Decimal, InvalidOperation

        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = repr(value)
        try:
            d = Decimal(str(value).strip())
            ok = d.is_finite() and self.lo <= d <= self.hi and (
                self.real or d == d.to_integral_value())
        except (InvalidOperation, ValueError, TypeError, ArithmeticError):
            ok = False
        if not ok:
            self.fail(f"{value!r} is not {self.allowed()} (e.g. 1000, 1e6, 1_000_000)"
                      if self.hi >= 10 ** 5 else f"{value!r} is not {self.allowed()}",
                      param, ctx)
        return float(d) if self.real else int(d)


def _seed_option(f):
    return click.option("--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
                        help="Random seed: the same seed gives the same answer.")(f)


def _jobs_option(f):
    return click.option("--jobs", type=click.IntRange(1, JOBS_MAX), default=None,
                        help="Threads (default: all cores); results do not depend on it.")(f)


def _plot_option(f):
    return click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                        metavar="FILE", help="Draw the result into FILE, .png or .svg (needs "
                                             "matplotlib: pip install 'cribsolve[plot]').")(f)


def _check_plot(path, *outputs) -> None:
    """Refuse --plot FILE before any work: a format we do not write, a path we cannot write
    (or one of ``outputs``), or no matplotlib."""
    if path is not None:
        from cribsolve.cli.plots import plot_format, require_matplotlib

        plot_format(path)
        _check_outputs(*outputs, ("--plot", path))
        require_matplotlib()


def _plot(path, draw: str, *args) -> None:
    """With --plot FILE, draw ``plots.<draw>(*args)`` into it."""
    if path is not None:
        from cribsolve.cli import plots

        plots.save(getattr(plots, draw)(*args), path)


class PysolGame(click.ParamType):
    """A PySolFC game number: N (1 <= N < 32000 deals as Microsoft's) or msN."""
    name = "N"

    def convert(self, value, param, ctx):
        from cribsolve.games.solitaire.pysol import parse_game
        try:
            return parse_game(value)
        except CardError as e:
            self.fail(str(e), param, ctx)


def _pysol_option(what: str):
    return click.option("--pysol-game", "pysol_game", type=PysolGame(), default=None,
                        metavar="N", help=f"PySolFC's game N (or msN): {what}.")


def _scheduler_option(f):
    return click.option("--scheduler", default=None, metavar="ADDRESS|local[:WORKERS]",
                        help="Run the chunks on a Dask cluster: a scheduler's address, or "
                             "local[:WORKERS] for worker processes here (needs pip install "
                             "'cribsolve[distributed]'); the numbers do not change.")(f)


def _chunks_where(scheduler, jobs):
    """Where a command's chunks run (runner.connect), closed when the command ends."""
    from cribsolve.infra.runner import connect
    return click.get_current_context().with_resource(connect(scheduler, jobs))


def _given(name: str) -> bool:
    """Whether the user gave option ``name`` (its parameter name), rather than its default."""
    src = click.get_current_context().get_parameter_source(name)
    return src is not None and src is not ParameterSource.DEFAULT


def _opt(name: str) -> str:
    """How option ``name`` is written on the command line: --csv, --dealer/--pone."""
    for p in click.get_current_context().command.params:
        if p.name == name:
            return "/".join(p.opts + list(getattr(p, "secondary_opts", [])))
    return name


def _refuse(names, where: str, hint: str = "") -> None:
    """An option given where it does not apply is an error, never silently ignored."""
    for name in names:
        if _given(name):
            raise click.UsageError(f"{_opt(name)} does not apply to {where}"
                                   + (f" ({hint})" if hint else ""))


def _bad(option: str, message: str):
    return click.BadParameter(message, param_hint=f"'{option}'")


def _cards(text: str | None, option: str) -> list[int]:
    """The cards of a CARDS option; absent (None) is no cards, an empty string is an error."""
    if text is None:
        return []
    try:
        return parse_cards([text])
    except CardError as e:
        raise CardError(f"{option}: {e}") from None


def _check_outputs(*pairs) -> None:
    """Refuse every unwritable output path (option, path) before any work starts."""
    seen = {}
    for option, path in pairs:
        if path is None:
            continue
        if not path or path.endswith(("/", os.sep)) or "\0" in path:
            raise CardError(f"{option}: {path!r} is not a file name")
        check_output_path(path, option)
        real = os.path.realpath(path)
        if real in seen:
            raise CardError(f"{option} and {seen[real]} name the same file; give two files")
        seen[real] = option


def _quick():
    """Answer this one question without numba (see jit.use_python), unless told not to."""
    if os.environ.get("CRIBSOLVE_COMPILED") != "1":
        from cribsolve.infra import jit
        jit.use_python()


def rule_options(f):
    """The RULES.md §5 switches that change show scoring, shared by every scoring command."""
    opts = [
        click.option("--rules", "preset", type=click.Choice(PRESETS), default="standard",
                     show_default=True, help="standard: two-player (crib flush needs all five); "
                                             "pysol: the solitaires (crib scores like a hand)."),
        click.option("--target", type=click.IntRange(1, TARGET_MAX), default=15,
                     show_default=True,
                     help="The sum that scores 2 (house rule: e.g. 16)."),
        click.option("--jokers", type=click.IntRange(0, JOKERS_MAX), default=0,
                     show_default=True,
                     help="Jokers in the deck (rank 0, value 0, join runs 0-1-2)."),
        click.option("--decks", type=click.IntRange(1, DECKS_MAX), default=1, show_default=True,
                     help="Copies of each card (2 = double deck)."),
        click.option("--wild", "wild", default=None, metavar="RANK",
                     help="A rank whose cards stand for any card (e.g. K); the best is scored."),
    ]
    for o in reversed(opts):
        f = o(f)
    return f


def _game_option(name):
    return {
        "target": click.option("--target", type=click.IntRange(1, TARGET_MAX), default=15,
                               show_default=True, help="The sum that scores 2 in the show and "
                                                       "the play (house rule: e.g. 16)."),
        "peg_limit": click.option("--peg-limit", type=click.IntRange(10, 200), default=31,
                                  show_default=True, help="The count the play may not pass."),
        "lowball": click.option("--lowball", is_flag=True, help="Whoever reaches the game "
                                "length first loses; players aim low."),
        "jokers": click.option("--jokers", type=click.IntRange(0, JOKERS_MAX), default=0,
                               show_default=True, help="Jokers in the deck (rank 0, value 0)."),
        "decks": click.option("--decks", type=click.IntRange(1, DECKS_MAX), default=1,
                              show_default=True, help="Copies of each card (2 = double deck)."),
        "hand_size": click.option("--hand-size", type=click.IntRange(2, 12), default=None,
                                  help="Cards dealt to each player (default 6, one more with "
                                       "--choose-cut, a crib's share more with --two-cribs)."),
        "crib_size": click.option("--crib-size", type=click.IntRange(2, 12), default=4,
                                  show_default=True,
                                  help="Cards in the crib; each player throws half."),
        "starters": click.option("--starters", type=click.IntRange(1, 2), default=1,
                                 show_default=True, help="Cut cards; with 2 the first is "
                                                         "turned before the throw."),
        "wild": click.option("--wild", "wild", default=None, metavar="RANK",
                             help="A rank wild at the show (e.g. K); in the play it is itself."),
        "stinkhole": click.option("--stinkhole", is_flag=True,
                                  help="Points that would leave a player one short of the "
                                       "game length are not pegged."),
        "draw": click.option("--draw", is_flag=True, help="Draw cribbage: before and after "
                             "the throw each player may redraw cards (keeping one)."),
        "choose_cut": click.option("--choose-cut", is_flag=True, help="Each player's cut card "
                                   "is a card the opponent gives it from its hand."),
        "two_cribs": click.option("--two-cribs", is_flag=True, help="A crib each (each player "
                                  "throws a share to both); the deal is played out and the "
                                  "most points win."),
        "bid": click.option("--bid", is_flag=True, help="The players bid for the crib: its "
                            "owner scores it if it makes the bid, else goes back the bid."),
    }[name]


def game_options(*names):
    """The house rules of the two-player game (docs/RULES.md §5) that ``names`` take (all
    that the engines play, by default)."""
    def decorate(f):
        for name in reversed(names or GAME_OPTIONS):
            f = _game_option(name)(f)
        return f
    return decorate


GAME_OPTIONS = ("target", "peg_limit", "lowball", "jokers", "decks", "hand_size", "crib_size",
                "starters", "wild", "stinkhole", "draw", "choose_cut", "two_cribs", "bid")


def make_spec(game_length=121, wild=None, hand_size=None, **rules):
    """The CribbageSpec of the game options given (validated as a whole); with no hand size,
    the deal that leaves each player four cards."""
    from cribsolve.core.notation import parse_rank

    if hand_size is None:
        hand_size = CribbageSpec.natural_hand(
            rules.get("crib_size", 4), rules.get("choose_cut", False),
            rules.get("two_cribs", False))
    return CribbageSpec(game_length=game_length, wild_rank=parse_rank(wild) if wild else 0,
                        hand_size=hand_size, **rules)


class _TextOut:
    """A byte writer over a text stream (stdout captured as text, as in tests)."""
    def __init__(self, stream):
        self.stream = stream

    def write(self, data: bytes):
        self.stream.write(data.decode())


def make_rules(preset, target, jokers, decks, wild):
    from cribsolve.core.notation import parse_rank

    try:
        wild_rank = parse_rank(wild) if wild is not None else 0
    except CardError as e:
        raise CardError(f"--wild: {e}") from None
    return ruleset(preset, target=target, jokers=jokers, decks=decks, wild_rank=wild_rank)


class NoCommand(click.UsageError):
    """A group was run without a command: main() prints its usage and one line of advice."""


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True, subcommand_metavar="COMMAND [ARGS]...")
@click.version_option(package_name="cribsolve")
@click.pass_context
def cli(ctx):
    """cribsolve: exact, fast cribbage scoring, discards and solitaire odds."""
    if ctx.invoked_subcommand is None:
        raise NoCommand("give a command", ctx)


def _one_line(message: str) -> str:
    """A message as one line, whatever the user typed into it."""
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


def main():
    """Console entry point: user mistakes become one line on stderr and exit status 2."""
    from cribsolve.infra.jit import NeedsCompiled

    no_command = (NoCommand, getattr(click.exceptions, "NoArgsIsHelpError", NoCommand))
    try:
        cli.main(prog_name="cribsolve", standalone_mode=False)
    except no_command as e:     # the usage line, not the whole help
        click.echo(e.ctx.get_usage().strip().splitlines()[0], err=True)
        click.echo(f"cribsolve: give a command (see {e.ctx.command_path} --help)", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"cribsolve: {_one_line(e.format_message())}", err=True)
        sys.exit(2)
    except (click.Abort, KeyboardInterrupt):
        click.echo("cribsolve: interrupted", err=True)
        sys.exit(130)
    except NeedsCompiled:        # a table must be built: start again with numba
        os.environ["CRIBSOLVE_COMPILED"] = "1"
        os.execv(sys.executable, [sys.executable, "-m", "cribsolve", *sys.argv[1:]])
    except CribsolveError as e:
        click.echo(f"cribsolve: {_one_line(e)}", err=True)
        sys.exit(2)


def _check_unseen(n_known: int, need: int, what: str, option: str, deck: int = 52) -> None:
    """Enough of the deck's cards must be left unseen to deal what is still hidden."""
    left = deck - n_known
    if left < need:
        raise CardError(f"{option}: only {left} cards are left unseen, fewer than the {need} "
                        f"needed for {what}")


def _card(text: str, option: str) -> int:
    try:
        return parse_card(text)
    except CardError as e:
        raise CardError(f"{option}: {e}") from None


def _check_score_size(held, starters, rules) -> None:
    """Refuse a hand the show kernels cannot score exactly and soon.

    They count in 64-bit integers: past 2**63 (a whole deck of several decks, with jokers or a
    large --target) they would wrap around and print a wrong total, so an upper bound of every
    count is worked out here in Python's unbounded integers first. Wild cards are tried one
    substitution at a time, so their number is bounded too.
    """
    from math import comb

    from cribsolve.core.cards import RANK, VALUE

    cards = list(held) + list(starters)
    n = len(cards)
    wild = rules.wild_rank
    kh = sum(1 for c in held if wild and RANK[c] == wild)
    ks = sum(1 for c in starters if wild and RANK[c] == wild)
    if kh or ks:
        work = comb(12 + kh, kh) * 4 * 52 ** ks * (n + 4)
        if work > WILD_WORK_MAX:
            raise CardError(f"--wild: {kh + ks} wild cards among {n} would take too long to "
                            f"try every substitution (use fewer wild cards or a smaller hand)")
    if n <= 60:       # at most 2**60 subsets: every count fits
        return
    counts = [0] * 14
    for c in cards:
        if not (wild and RANK[c] == wild):
            counts[int(RANK[c])] += 1
    kw = kh + ks
    t = rules.target
    ways = [1] + [0] * t          # subsets by value sum, each wild card taking any value
    factors = [(int(VALUE[r]), counts[r]) for r in range(14)] + [(None, 1)] * kw
    for v, k in factors:
        for _ in range(k):
            if v is None:
                ways = [sum(ways[max(0, s - 10):s + 1]) for s in range(t + 1)]
            elif v == 0:
                ways = [2 * w for w in ways]
            else:
                ways = [ways[s] + (ways[s - v] if s >= v else 0) for s in range(t + 1)]
    runs = 14
    for r in range(14):
        runs *= max(1, counts[r] + kw)
    bound = 2 * max(ways) + runs + 3 * n * n
    if bound >= 2 ** 63:
        raise CardError(f"{n} cards under these rules score past what can be counted exactly "
                        f"(2**63): use fewer --decks or --jokers, or a smaller --target")


def _say_aloud(score) -> list[str]:
    lines = []
    running = 0
    for cat, pts, cards in score.items:
        running += pts
        lines.append(f"  {cat:<10} {pts:>3}  {running:>4}   {format_cards(cards)}")
    return lines


@cli.command()
@click.argument("cards", nargs=-1)
@click.option("--starter", "starters", multiple=True, metavar="CARD",
              help="The cut card; give it twice for the two-cut-cards variation.")
@click.option("--crib", is_flag=True, help="Score as the crib (matters for the flush).")
@rule_options
@click.option("--whole-deck", is_flag=True, help="Score every card of the deck(s) as one hand.")
@click.option("--batch", type=click.File("rb"), default=None, metavar="FILE",
              help="Score one hand per line of FILE ('-' = stdin); the last card is the starter.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def score(cards, starters, crib, preset, target, jokers, decks, wild, whole_deck, batch, as_json):
    """Score a hand at the show: CARDS are the held cards."""
    if batch is not None:
        _refuse(["as_json"], "--batch", "it prints one total per line")
    if batch is None and wild is None:
        _quick()
    from cribsolve.core.cards import deck
    from cribsolve.core.scoring import CATEGORIES, score_hand

    rules = make_rules(preset, target, jokers, decks, wild)
    if batch is not None:
        if cards or starters or whole_deck:
            raise CardError("--batch takes the hands from the file: give no cards or --starter")
        from cribsolve.core.scoring.batch import score_stream
        score_stream(batch, getattr(sys.stdout, "buffer", None) or _TextOut(sys.stdout), rules,
                     crib)
        return
    if whole_deck:
        if cards or starters:
            raise CardError("--whole-deck scores the deck alone: give no cards or --starter")
        held, st = deck(decks, jokers).tolist(), []
    else:
        held = parse_cards(cards)
        st = [_card(s, "--starter") for s in starters]
        if not held:
            raise CardError("give the held cards, e.g. cribsolve score 5H 5S JD QC --starter 5C")
        if not st:
            raise CardError("give the starter with --starter CARD (or use --whole-deck)")
    rules.check_cards(held + st)
    _check_score_size(held, st, rules)
    s = score_hand(held, st, rules, crib)
    if as_json:
        click.echo(dumps({"total": s.total, "breakdown": s.breakdown,
                          "cards": [format_card(c) for c in s.cards[:s.nheld]],
                          "starters": [format_card(c) for c in s.cards[s.nheld:]]}))
        return
    shown = format_cards(s.cards[:s.nheld]) if s.nheld <= 20 else f"{s.nheld} cards"
    head = shown + (f"  starter {format_cards(s.cards[s.nheld:])}" if s.cards[s.nheld:] else "")
    if rules.wild_rank and s.cards != held + st:
        head += "  (wild cards as shown)"
    click.echo(head + ("  [crib]" if crib else ""))
    click.echo("\n".join(_say_aloud(s)))
    parts = ", ".join(f"{c} {s.breakdown[c]}" for c in CATEGORIES)
    click.echo(f"total {s.total}  ({parts})")
    if s.breakdown["heels"]:
        click.echo(f"his heels {s.breakdown['heels']} (to the dealer, not part of the hand)")


@cli.command()
@click.option("--crib", is_flag=True, help="Score the hands as cribs.")
@click.option("--rules", "preset", type=click.Choice(PRESETS), default="standard",
              show_default=True, help="standard: a crib flush needs all five cards; pysol: "
                                      "the crib scores like a hand.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write score,count,probability to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_plot_option
def distribution(crib, preset, csv_path, as_json, plot_path):
    """Exact histogram of the show score over all 12,994,800 four-card + starter hands."""
    _check_outputs(("--csv", csv_path))
    _check_plot(plot_path, ("--csv", csv_path))
    import numpy as np

    from cribsolve.core.scoring.table import distribution as dist

    rules = ruleset(preset)
    hist = dist(crib=crib, full_flush=rules.crib_full_flush)
    n = int(hist.sum())
    scores = np.arange(len(hist))
    mean = float((scores * hist).sum() / n)
    std = float(np.sqrt(((scores - mean) ** 2 * hist).sum() / n))
    rows = [(int(s), int(c), int(c) / n) for s, c in zip(scores, hist)]
    if csv_path:
        write_csv(csv_path, ["score", "count", "probability"], rows)
    _plot(plot_path, "distribution_figure", hist, crib, preset)
    if as_json:
        click.echo(dumps({"counts": {str(s): c for s, c, _ in rows}, "hands": n,
                          "mean": mean, "std": std}))
        return
    click.echo(f"{'score':>5} {'count':>9} {'probability':>12}")
    for s, c, p in rows:
        click.echo(f"{s:>5} {c:>9} {p:>12.8f}")
    click.echo(f"hands {n}  mean {mean:.5f}  std {std:.5f}")


def _opponent_progress(quiet):
    """Report the one-time best-response solve of the opponent model (it takes ~20 s)."""
    from cribsolve.infra.progress import bar

    state = {}

    def report(iteration, change):
        if "bar" not in state:
            state["bar"] = bar(None, "solving the opponent model (once)", quiet, "iter")
        state["bar"].update(1)
        state["bar"].set_postfix(change=f"{change:.4f}")
    return report


def _discard_rows(values):
    return [(format_cards(v.discard), format_cards(v.keep), v.hand, v.crib, v.net, v.std, v.min,
             v.max) for v in values]


DISCARD_HEADER = ["discard", "keep", "hand", "crib", "net", "std", "min", "max"]


@cli.command("best-discard")
@click.argument("cards", nargs=-1)
@click.option("--dealer/--pone", "dealer", default=None,
              help="Whose crib it is (two-player; required there).")
@click.option("--known", default=None, metavar="CARDS",
              help="Two-player: other cards you have seen.")
@click.option("--opponent", type=click.Choice(["uniform", "optimal"]), default=None,
              help="How the opponent's two crib cards are weighted (default: optimal; uniform "
                   "with jokers or several decks, where the fitted model does not apply).")
@game_options("target", "jokers", "decks", "crib_size", "wild", "draw", "choose_cut",
              "two_cribs", "bid")
@click.option("--cut", default=None, metavar="CARD",
              help="Two-player, two cut cards: the first, turned before the throw.")
@click.option("--rules", "preset", type=click.Choice(["standard"]), default="standard",
              show_default=True, help="Two-player: the standard rules (a crib flush needs all "
                                      "five cards); the solitaires use their own.")
@click.option("--top", type=click.IntRange(1, TOP_MAX), default=None,
              help="Show only the best N discards.")
@click.option("--distribution", "with_dist", is_flag=True,
              help="Also give the probability of each net value (exact analyses only).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write the table (or, with --batch, one row per hand) to this file.")
@click.option("--batch", type=click.File("rb"), default=None, metavar="FILE",
              help="Two-player: analyse one hand per line of FILE ('-' = stdin) into CSV rows.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_plot_option
@click.option("--variant", type=click.Choice(["cribbage", "patience", "patience2"]),
              default="cribbage", show_default=True, help="Two-player, or a solitaire.")
@click.option("--seen", default=None, metavar="CARDS",
              help="Solitaires: every card of earlier deals (card counting).")
@click.option("--crib", "crib_cards", default=None, metavar="CARDS",
              help="Patience II second discard: the two cards already in the crib.")
@click.option("--samples", type=Number(2, SAMPLES_MAX), default=2000, show_default=True,
              help=f"Sampled analyses (Patience II's first discard: second hands; two-player "
                   f"house-rule deals: crib draws), 2 to {_show(SAMPLES_MAX)}.")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=0, show_default=True,
              help="Seed of a sampled analysis.")
@click.option("--kept", default=None, metavar="CARDS",
              help="Patience II second discard with --score: the 4 cards kept from hand one.")
@click.option("--score", type=click.IntRange(0, SOLITAIRE_SCORE_MAX), default=None,
              help="Solitaires, with --deal: points so far; adds P(win).")
@click.option("--deal", type=click.IntRange(1, max(SOLITAIRES[v].deals for v in PATIENCES)), default=None,
              help="Solitaires, with --score: this deal's number (1 to 5 in Patience, 1 to 4 "
                   "in Patience II).")
@_pysol_option("the solitaires' hand of deal 1 (or --deal K), the earlier deals seen")
@click.option("--pegging", "with_pegs", is_flag=True,
              help="Two-player, standard deal: add the expected pegging margin of the kept "
                   "cards (the expert's table) and rank by hand + crib + pegging.")
@click.option("--my-score", type=click.IntRange(0, 120), default=None,
              help="Two-player: your score; with --their-score, rank by P(win) of the game.")
@click.option("--their-score", type=click.IntRange(0, 120), default=None,
              help="Two-player: the opponent's score.")
def best_discard_cmd(cards, dealer, known, opponent, target, jokers, decks, crib_size, wild, cut,
                     preset, top, with_dist, as_json, csv_path, batch, quiet, plot_path, variant,
                     seen, crib_cards, samples, seed, kept, score, deal, pysol_game, with_pegs,
                     my_score, their_score, **house):
    """Rank every discard of a hand: exact expected points for the standard deals (6 cards,
    or 5 with one to the crib), sampled for other house-rule deals."""
    _check_outputs(("--csv", csv_path))
    _check_plot(plot_path, ("--csv", csv_path))
    if variant != "cribbage":
        _refuse(["dealer", "known", "opponent", "preset", "batch", "target", "jokers", "decks",
                 "crib_size", "wild", "cut", "with_pegs", *house],
                f"--variant {variant}", "it is for the two-player game, --variant cribbage")
        if pysol_game is not None:
            cards, seen, kept, deal = _pysol_position(pysol_game, variant, cards, crib_cards,
                                                      score, deal)
        return _solitaire_discard(cards, variant, seen, crib_cards, kept, score, deal, samples,
                                  seed, top, with_dist, as_json, csv_path, quiet, plot_path)
    _refuse(["seen", "crib_cards", "kept", "score", "deal", "pysol_game"],
            "--variant cribbage", "it is for the solitaires, --variant patience or patience2")
    hand = parse_cards(cards) if cards else []
    if (my_score is None) != (their_score is None):
        raise click.UsageError("give both --my-score and --their-score")
    if my_score is not None:
        _refuse(["batch", "opponent", "with_dist", "plot_path", "cut", "preset", "with_pegs"],
                "--my-score", "the P(win) of each throw comes from played-out deals")
        spec = make_spec(target=target, jokers=jokers, decks=decks, hand_size=len(hand) or None,
                         crib_size=crib_size, wild=wild, **house)
        return _board_discard(hand, dealer, known, spec, my_score, their_score, samples, seed,
                              top, as_json, csv_path, quiet)
    if cut is not None or wild is not None or _given("crib_size") or any(house.values()) or \
            len(hand) not in (0, 5, 6):
        _refuse(["batch", "opponent", "with_dist", "plot_path", "with_pegs"],
                "a sampled house-rule deal",
                "the opponent's throw is drawn uniformly")
        spec = make_spec(target=target, jokers=jokers, decks=decks, hand_size=len(hand),
                         crib_size=crib_size, starters=1 if cut is None else 2, wild=wild,
                         **house)
        return _sampled_discard(hand, dealer, known, spec, cut, samples, seed, top, as_json,
                                csv_path)
    _refuse(["samples", "seed"], "an exact two-player analysis",
            "it is for sampled analyses: --cut, --wild, --crib-size, house rules or other hand "
            "sizes")
    if batch is not None:
        _refuse(["known", "top", "with_dist", "as_json", "plot_path", "with_pegs"], "--batch",
                "it writes the best discard of each hand as CSV rows")
        if cards:
            raise CardError("--batch takes the hands from the file: give no cards")
    if dealer is None:
        raise CardError("say whose crib it is: --dealer or --pone")
    if batch is None:
        _quick()
    from cribsolve.core.options import check_hand
    from cribsolve.games.cribbage.discard import (best_discard,
                                                  best_discard_batch)
    from cribsolve.games.cribbage.opponent import pair_weights

    rules = ruleset(preset, target=target, jokers=jokers, decks=decks)
    opponent = opponent or ("uniform" if jokers or decks > 1 else "optimal")
    seat = "dealer" if dealer else "pone"
    other = "pone" if dealer else "dealer"
    if batch is not None:
        from cribsolve.core.scoring.batch import tokenize
        from cribsolve.infra.progress import bar
        ids, offsets, lines = tokenize(batch.read())
        hands = [ids[a:b].tolist() for a, b in zip(offsets[:-1], offsets[1:])]
        for h, line in zip(hands, lines):
            try:
                check_hand(h, ())
            except CardError as e:
                raise CardError(f"line {line}: {e}") from None
        if opponent == "optimal":
            pair_weights("optimal", other, rules, _opponent_progress(quiet))
        with bar(len(hands), "hands", quiet, "hand") as pb:
            results = best_discard_batch(hands, seat, opponent, rules, progress=pb.update)
        rows = []
        for h, res in zip(hands, results):
            margin = res[0].net - res[1].net
            rows.append((format_cards(h),) + _discard_rows(res[:1])[0] + (margin,))
        header = ["hand"] + DISCARD_HEADER + ["margin"]
        if csv_path:
            write_csv(csv_path, header, rows)
        else:
            import csv
            w = csv.writer(sys.stdout)
            w.writerow(header)
            w.writerows(rows)
        return
    known_cards = _cards(known, "--known")
    check_hand(hand, known_cards, rules=rules)
    _check_unseen(len(hand) + len(known_cards), 9 - len(hand),
                  "the starter and the other crib cards", "--known", 52 * decks + jokers)
    if opponent == "optimal":
        pair_weights("optimal", other, rules, _opponent_progress(quiet))
    values = best_discard(hand, seat, known_cards, opponent, rules)
    pegs = {}
    if with_pegs:
        if len(hand) != 6 or target != 15 or jokers or decks > 1:
            raise CardError("--pegging is for the standard six-card deal")
        from cribsolve.games.cribbage.search import kept_margin
        from cribsolve.games.cribbage.spec import CribbageSpec
        pegs = {id(v): kept_margin(v.keep, dealer, CribbageSpec()) for v in values}
        values = sorted(values, key=lambda v: -(v.net + pegs[id(v)]))
    shown = values[:top] if top else values
    if csv_path:
        rows = _discard_rows(shown)
        if pegs:
            rows = [r + (pegs[id(v)], v.net + pegs[id(v)]) for r, v in zip(rows, shown)]
        write_csv(csv_path, DISCARD_HEADER + ["pegging", "value"] * bool(pegs), rows)
    house = [f"target {target}"] * (target != 15) + [f"jokers {jokers}"] * bool(jokers) + \
        [f"decks {decks}"] * (decks > 1)
    head = f"{format_cards(hand)} as {seat}, opponent {opponent}" + (
        f" ({', '.join(house)})" if house else "")
    _plot(plot_path, "discard_figure", values[:top or 4], head,
          f"net points (hand {'+' if dealer else '-'} crib)")
    if as_json:
        click.echo(dumps({"discards": [
            {**v.as_dict(with_dist), **({"pegging": pegs[id(v)], "value": v.net + pegs[id(v)]}
                                        if pegs else {})} for v in shown]}))
        return
    click.echo(f"{head}: net = hand {'+' if dealer else '-'} crib" +
               "; value = net + pegging, the expert's expected pegging margin of the kept "
               "cards" * bool(pegs))
    click.echo(f"  {'discard':<8} {'keep':<12} {'hand':>6} {'crib':>6} {'net':>7} {'std':>6} "
               f"{'min':>4} {'max':>4}" + f" {'pegging':>7} {'value':>7}" * bool(pegs))
    for v in shown:
        click.echo(f"  {format_cards(v.discard):<8} {format_cards(v.keep):<12} {v.hand:6.3f} "
                   f"{v.crib:6.3f} {v.net:7.3f} {v.std:6.3f} {v.min:4d} {v.max:4d}" +
                   (f" {pegs[id(v)]:7.3f} {v.net + pegs[id(v)]:7.3f}" if pegs else ""))
        if with_dist:
            click.echo("    " + "  ".join(f"{k}:{p:.4f}" for k, p in v.distribution.items()))


def _board_discard(hand, dealer, known, spec, mine, theirs, samples, seed, top, as_json,
                   csv_path, quiet):
    from cribsolve.games.cribbage.board import POLICY, throw_odds
    from cribsolve.games.cribbage.odds import DEALS
    from cribsolve.infra.progress import bar

    if dealer is None:
        raise CardError("say whose crib it is: --dealer or --pone")
    with bar(DEALS[POLICY], "simulating deals for the odds table (once)", quiet, "deal") as pb:
        from cribsolve.games.cribbage.odds import odds_table
        odds_table(spec, pb.update, policy=POLICY)
    rows = throw_odds(hand, dealer, mine, theirs, spec, _cards(known, "--known"), samples, seed)
    by_points = max(rows, key=lambda r: r.mine - r.theirs)
    shown = rows[:top] if top else rows
    header = ["discard", "keep", "mine", "theirs", "margin", "win", "se"]
    if csv_path:
        write_csv(csv_path, header, [list(r.as_dict().values()) for r in shown])
    if as_json:
        click.echo(dumps({"my_score": mine, "their_score": theirs, "samples": samples,
                          "seed": seed, "discards": [r.as_dict() for r in shown]}))
        return
    seat = "dealer" if dealer else "pone"
    click.echo(f"{format_cards(hand)} as {seat} at {mine} to {theirs}: P(win) of the game, "
               f"best first, over {samples:,} deals played out from each throw (seed {seed}; "
               f"both {POLICY}, then the odds table)")
    click.echo(f"  {'discard':<8} {'keep':<12} {'mine':>6} {'theirs':>6} {'margin':>7} "
               f"{'P(win)':>7} {'± se':>6}")
    for r in shown:
        click.echo(f"  {format_cards(r.discard):<8} {format_cards(r.keep):<12} {r.mine:6.2f} "
                   f"{r.theirs:6.2f} {r.mine - r.theirs:7.2f} {r.win:7.2%} {r.se:6.2%}")
    if by_points is not rows[0]:
        click.echo(f"  the most points ({format_cards(by_points.discard)} away, margin "
                   f"{by_points.mine - by_points.theirs:.2f}) is not the most wins here")


def _sampled_discard(hand, dealer, known, spec, cut, samples, seed, top, as_json, csv_path):
    from cribsolve.games.cribbage.discard import (bid_ceiling, redraw_advice,
                                                  sampled_discard)

    if dealer is None and not spec.two_cribs:
        raise CardError("say whose crib it is: --dealer or --pone" +
                        " (with --bid: who would own it)" * spec.bid)
    seat = "dealer" if dealer or spec.two_cribs else "pone"
    known, cut = _cards(known, "--known"), None if cut is None else _card(cut, "--cut")
    values = sampled_discard(hand, seat, spec, known, cut, samples, seed)
    shown = values[:top] if top else values
    extra = {}
    if spec.draw:
        extra["redraw"] = format_cards(redraw_advice(hand, seat, spec, known, cut, seed))
    if spec.bid:
        extra["bid_ceiling"] = bid_ceiling(hand, spec, known, cut, seed)
    header = ["discard", "keep", "hand", "crib", "net", "se", "samples"]
    rows = [[format_cards(v.discard), format_cards(v.keep), v.hand, v.crib, v.net, v.se,
             v.samples] for v in shown]
    if spec.two_cribs:
        header[1:1] = ["their_crib_cards"]
        header.insert(5, "their_crib")
        for r, v in zip(rows, shown):
            r[1:1] = [format_cards(v.other_crib)]
            r.insert(5, v.their_crib)
    if spec.choose_cut:
        header[-3:-3] = ["give", "gift"]
        for r, v in zip(rows, shown):
            r[-3:-3] = [format_card(v.give), v.gift]
    if csv_path:
        write_csv(csv_path, header, rows)
    if as_json:
        click.echo(dumps({"sampled": True, **extra, "discards": [v.as_dict() for v in shown]}))
        return
    cuts = "" if cut is None else f", first cut {format_card(cut)}"
    whose = "with a crib each" if spec.two_cribs else f"as {seat}"
    net = ("hand + my crib - their crib" if spec.two_cribs else
           f"hand {'+' if seat == 'dealer' else '-'} crib") + " - gift" * spec.choose_cut
    click.echo(f"{format_cards(hand)} {whose} ({spec.describe()}{cuts}): net = {net}")
    click.echo(f"  sampled: the hand exact over the cut card, the rest over {samples:,} draws "
               f"of the opponent's cards and the cut card (seed {seed}); ± is the standard "
               f"error")
    if spec.draw:
        click.echo(f"  redraw before the throw: {extra['redraw'] or 'nothing'}")
    if spec.bid:
        click.echo(f"  bid for the crib up to {extra['bid_ceiling']} (the rows: if you own "
                   f"it)" if seat == "dealer" else
                   f"  bid for the crib up to {extra['bid_ceiling']} (the rows: if they own it)")
    names = ["discard"] + ["to theirs"] * spec.two_cribs + ["keep", "hand", "crib"] + \
        ["theirs"] * spec.two_cribs + ["give", "gift"] * spec.choose_cut + ["net", "± se"]
    cells = [[r[i] for i in range(len(r) - 1)] for r in rows]        # without samples
    widths = [max(len(n), *(len(c) if isinstance(c, str) else 7 for c in col))
              for n, col in zip(names, zip(*cells))]
    fmt = lambda c, w: f"{c:<{w}}" if isinstance(c, str) else f"{c:>{w}.3f}"
    click.echo("  " + " ".join(f"{n:<{w}}" if isinstance(c, str) else f"{n:>{w}}"
                               for n, w, c in zip(names, widths, cells[0])))
    for r in cells:
        click.echo("  " + " ".join(fmt(c, w) for c, w in zip(r, widths)))


def _pysol_position(game, variant, cards, crib_cards, score, deal):
    """The hand (and seen and kept cards) of a PySolFC game's decision, as CARDS texts."""
    from cribsolve.games.solitaire.pysol import discard_position

    if cards:
        raise CardError("--pysol-game deals the hand: give no cards")
    _refuse(["seen", "kept"], "--pysol-game", "the game's earlier deals are seen, and the "
            "kept cards are the rest of the first hand")
    hand, seen, kept = discard_position(variant, game, deal or 1,
                                        _cards(crib_cards, "--crib") if crib_cards else None)
    return ([format_cards(hand)], format_cards(seen) if seen else None,
            format_cards(kept) if kept else None, deal if score is not None else None)


def _win_table_progress(variant, quiet):
    """Build (once) the table of P(win) by score and deals left, with a progress bar."""
    from cribsolve.games.solitaire.simulate import WIN_TABLE_GAMES, win_table
    from cribsolve.infra.progress import bar

    with bar(WIN_TABLE_GAMES, f"win table for {variant} (once)", quiet, "game") as pb:
        win_table(variant, pb.update)


def _solitaire_discard(cards, variant, seen, crib_cards, kept, score, deal, samples, seed, top,
                       with_dist, as_json, csv_path, quiet, plot_path):
    """Everything is checked here, before the win table (built once) or the sampling starts."""
    if variant == "patience":
        _refuse(["crib_cards", "kept"], "--variant patience",
                "they are for Patience II's second discard")
    sampled = variant == "patience2" and crib_cards is None
    if sampled:
        _refuse(["kept"], "Patience II's first discard", "it goes with --crib, for the second")
        _refuse(["with_dist", "plot_path"], "Patience II's first discard",
                "its values are sampled; give --crib for the exact second discard")
    else:
        _refuse(["samples", "seed"], f"the exact analysis of --variant {variant}"
                + (" with --crib" if crib_cards is not None else ""),
                "they are for Patience II's sampled first discard")
    if (score is None) != (deal is None):
        raise click.UsageError("--score and --deal go together: the points so far and this "
                               "deal's number")
    deals = SOLITAIRES[variant].deals
    if deal is not None and deal > deals:
        raise _bad("--deal", f"{deal} is not a deal of {variant}: give 1 to {deals}")
    hand = parse_cards(cards)
    seen_c, crib_c, kept_c = (_cards(seen, "--seen"), _cards(crib_cards, "--crib"),
                              _cards(kept, "--kept"))
    if crib_cards is not None and len(crib_c) != 2:
        raise _bad("--crib", f"give the two cards already in the crib, not {len(crib_c)}")
    if kept is not None and len(kept_c) != 4:
        raise _bad("--kept", f"give the four cards kept from the first hand, not {len(kept_c)}")
    if score is not None and crib_cards is not None and kept is None:
        raise click.UsageError("with --score, the second discard needs --kept (the first "
                               "hand's four kept cards: they score with the same starter)")
    from cribsolve.core.options import check_hand
    from cribsolve.games.solitaire.discard import solitaire_discard

    check_hand(hand, seen_c + crib_c + kept_c, sizes=(6,))
    if sampled:
        need, what = 7, "a second hand and the starter"
    elif variant == "patience":
        need, what = 3, "the face-down pair and the starter"
    else:
        need, what = 1, "the starter"
    _check_unseen(len(hand + seen_c + crib_c + kept_c), need, what, "--seen")
    if score is not None:
        _win_table_progress(variant, quiet)
    values = solitaire_discard(hand, variant, seen_c, crib_c, kept_c, score, deal, seed, samples)
    shown = values[:top] if top else values
    sampled = hasattr(shown[0], "se")
    win = score is not None
    if csv_path:
        if sampled:
            write_csv(csv_path, ["discard", "keep", "net", "se", "samples", "win", "win_se"],
                      [(format_cards(v.discard), format_cards(v.keep), v.net, v.se, v.samples,
                        v.win, v.win_se) for v in shown])
        else:
            write_csv(csv_path, DISCARD_HEADER + ["win"],
                      [r + (v.win,) for r, v in zip(_discard_rows(shown), shown)])
    head = f"{format_cards(hand)}, {variant}"
    if win:
        head += f", {score} points before deal {deal}: best P(win) first"
    if not sampled:
        _plot(plot_path, "discard_figure", values[:top or 4], head,
              "points of this deal (hand + crib, heels apart)")
    if as_json:
        click.echo(dumps({"discards": [v.as_dict() if sampled else v.as_dict(with_dist)
                                       for v in shown]}))
        return
    if sampled:
        click.echo(f"{head}; first discard: expected points of the deal (both hands, crib, "
                   f"heels), second hand sampled {samples} times (seed {seed})")
        click.echo(f"  {'discard':<8} {'keep':<12} {'points':>7} {'± se':>6}"
                   + (f" {'P(win)':>7} {'± se':>6}" if win else ""))
        for v in shown:
            click.echo(f"  {format_cards(v.discard):<8} {format_cards(v.keep):<12} "
                       f"{v.net:7.3f} {v.se:6.3f}"
                       + (f" {v.win:7.4f} {v.win_se:6.4f}" if win else ""))
        return
    click.echo(f"{head}: exact expected points of this deal (hand + crib, heels apart)")
    click.echo(f"  {'discard':<8} {'keep':<12} {'hand':>6} {'crib':>6} {'total':>7} {'std':>6} "
               f"{'min':>4} {'max':>4}" + (f" {'P(win)':>7}" if win else ""))
    for v in shown:
        click.echo(f"  {format_cards(v.discard):<8} {format_cards(v.keep):<12} {v.hand:6.3f} "
                   f"{v.crib:6.3f} {v.net:7.3f} {v.std:6.3f} {v.min:4d} {v.max:4d}"
                   + (f" {v.win:7.4f}" if win else ""))
        if with_dist:
            click.echo("    " + "  ".join(f"{k}:{p:.4f}" for k, p in v.distribution.items()))


@cli.command("crib-table")
@click.option("--dealer/--pone", "dealer", default=None, help="Whose discards are valued.")
@click.option("--opponent", type=click.Choice(["uniform", "optimal"]), default="optimal",
              show_default=True, help="How the other player's two crib cards are weighted.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write rank1,rank2,suited,crib to this file.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_plot_option
def crib_table_cmd(dealer, opponent, csv_path, as_json, quiet, plot_path):
    """Expected crib points of every two-card discard, by ranks, suited and offsuit."""
    _check_outputs(("--csv", csv_path))
    _check_plot(plot_path, ("--csv", csv_path))
    from cribsolve.games.cribbage.opponent import crib_table_rows

    if dealer is None:
        raise CardError("say whose discards: --dealer or --pone")
    seat = "dealer" if dealer else "pone"
    rows = crib_table_rows(seat, opponent, ruleset("standard"), _opponent_progress(quiet))
    if csv_path:
        write_csv(csv_path, ["rank1", "rank2", "suited", "crib"], rows)
    _plot(plot_path, "crib_table_figure", rows, seat, opponent)
    if as_json:
        click.echo(dumps({"seat": seat, "opponent": opponent,
                          "rows": [dict(zip(["rank1", "rank2", "suited", "crib"], r))
                                   for r in rows]}))
        return
    from cribsolve.core.notation import RANK_CHARS
    grid = {(r[0], r[1], r[2]): r[3] for r in rows}
    click.echo(f"expected crib points, {seat}'s discard, opponent {opponent}: "
               "upper right suited, lower left offsuit, diagonal pairs")
    click.echo("    " + "".join(f"{c:>6}" for c in RANK_CHARS))
    for i, a in enumerate(RANK_CHARS):
        cells = []
        for j, b in enumerate(RANK_CHARS):
            lo, hi = (a, b) if i <= j else (b, a)
            cells.append(f"{grid[(lo, hi, i < j)]:6.2f}")
        click.echo(f"{a:>4}" + "".join(cells))


def _check_header(path: str, header, option: str) -> None:
    """A table appended to must already have our header (checked before the work, not after)."""
    import csv
    import io

    try:
        with open(path, "rb") as f:
            first = f.readline(4096)
    except FileNotFoundError:
        return
    except OSError as e:
        raise CardError(f"{option}: cannot read {path} ({e.strerror})") from None
    if not first:
        return
    buf = io.StringIO()
    csv.writer(buf).writerow(header)
    want = buf.getvalue().rstrip("\r\n")
    found = first.decode("utf-8", "replace").rstrip("\r\n")
    if found != want:
        raise CardError(f"{option}: {path} has a different header ({found[:80]!r}, not "
                        f"{want!r}); use another file")


@cli.command()
@click.option("--variant", type=click.Choice(["patience", "patience2", "shuffle", "cribbage"]),
              default="patience2", show_default=True,
              help="Cribbage Patience (PySolFC 955), Patience II (980), Shuffle (809), or "
                   "two-player cribbage.")
@click.option("-n", "n", type=Number(1, GAMES_MAX), default="1e5", show_default=True,
              help=f"Games to play, 1 to {_show(GAMES_MAX)} (1e6 and 1_000_000 work).")
@click.option("--policy", type=click.Choice(["ev", "win", "random", "clairvoyant", "optimal",
                                             "heuristic", "greedy", "lookahead", "expert"]),
              default=None,
              help="Patience: ev (default; exact expected points with card counting), win (the "
                   "most likely to reach 80), random, clairvoyant (sees the hidden cards: an "
                   "upper bound). Shuffle: optimal (default; proven best grid) or heuristic. "
                   "Cribbage: greedy (default), lookahead, expert (the play searched exactly) "
                   "or random pegging (EV discards, random discards with random).")
@click.option("--opponent-policy", type=click.Choice(["greedy", "lookahead", "expert",
                                                      "random"]),
              default=None, help="Cribbage: the other player's policy (default: the same).")
@click.option("--game-length", type=click.IntRange(2, GAME_LENGTH_MAX), default=121,
              show_default=True,
              help="Cribbage: points to win (61, 121, ...).")
@game_options()
@click.option("--win-only", is_flag=True,
              help="Shuffle: only decide whether 61 is reachable (faster; no score histogram).")
@_seed_option
@_jobs_option
@_scheduler_option
@click.option("--checkpoint", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Keep finished chunks in FILE: the same command again resumes from it (a "
                   "file from other arguments is refused).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Append one summary row to this CSV (a win-rate table across runs).")
@click.option("--histogram-csv", type=click.Path(dir_okay=False), default=None,
              help="Solitaires and Shuffle: write score,count of the final scores.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_plot_option
def simulate(variant, n, policy, opponent_policy, game_length, win_only, seed, jobs, scheduler,
             checkpoint, as_json, csv_path, histogram_csv, quiet, plot_path, **rules):
    """Play many seeded games and report the win rate."""
    from cribsolve.games.cribbage.simulate import CRIBBAGE_POLICIES
    from cribsolve.games.solitaire.facts import SOLITAIRES
    from cribsolve.games.solitaire.simulate import CSV_HEADER
    from cribsolve.games.solitaire.simulate import simulate as run_sim
    from cribsolve.infra.progress import bar

    _check_outputs(("--csv", csv_path), ("--histogram-csv", histogram_csv),
                   ("--checkpoint", checkpoint))
    _check_plot(plot_path, ("--csv", csv_path), ("--histogram-csv", histogram_csv))
    if csv_path is not None:
        _check_header(csv_path, CSV_HEADER, "--csv")
    policies = tuple(CRIBBAGE_POLICIES) if variant == "cribbage" else SOLITAIRES[variant].policies
    if policy is not None and policy not in policies:
        raise _bad("--policy", f"{policy} is not a policy of --variant {variant} (expected "
                               f"{', '.join(policies)})")
    if variant != "shuffle":
        _refuse(["win_only"], f"--variant {variant}", "it is for --variant shuffle")
    elif win_only and policy not in (None, "optimal"):
        raise click.UsageError("--win-only needs the optimal policy (it proves 61 reachable)")
    if variant != "cribbage":
        _refuse(["game_length", "opponent_policy", *GAME_OPTIONS], f"--variant {variant}",
                "it is for --variant cribbage")
    else:
        _refuse(["histogram_csv"], "--variant cribbage",
                "it writes the final scores of the solitaires and Shuffle")
    if histogram_csv is not None and win_only:
        raise click.UsageError("--histogram-csv needs exact scores: drop --win-only")
    if plot_path is not None and win_only:
        raise click.UsageError("--plot needs exact scores: drop --win-only")
    if variant == "cribbage":
        spec = make_spec(game_length, **rules)
        return _simulate_cribbage(n, policy, opponent_policy, spec, seed,
                                  _chunks_where(scheduler, jobs), checkpoint, as_json, csv_path,
                                  quiet, plot_path)
    where = _chunks_where(scheduler, jobs)
    if policy in ("win", "lookahead") and variant != "shuffle":
        _win_table_progress(variant, quiet)
    with bar(n, f"{variant} {policy or ''}", quiet, "game") as pb:
        res = run_sim(variant, policy, n, seed, jobs, pb.update, win_only, where, checkpoint)
    if csv_path:
        write_csv(csv_path, CSV_HEADER, [res.csv_row()], append=True)
    if histogram_csv:
        write_csv(histogram_csv, ["score", "count"], sorted(res.histogram.items()),
                  option_name="--histogram-csv")
    _plot(plot_path, "simulate_figure", res)
    if as_json:
        click.echo(dumps(res.as_dict()))
        return
    lo, hi = res.win_rate_ci
    click.echo(f"{variant}, policy {res.policy}, {n:,} games, seed {seed}")
    click.echo(f"win rate (>= {res.win_at}): {res.win_rate:.4%}  95% CI [{lo:.4%}, {hi:.4%}]  "
               f"({res.wins:,} wins)")
    if not res.exact_scores:
        return
    click.echo(f"final score: mean {res.mean:.3f}  std {res.std:.3f}")
    if len(res.mean_per_deal) > 1:
        click.echo("mean per deal: " + "  ".join(f"{x:.3f}" for x in res.mean_per_deal))
    bins = {}
    for k, v in res.histogram.items():
        bins[k // 10 * 10] = bins.get(k // 10 * 10, 0) + v
    peak = max(bins.values())
    for lo_s in range(min(bins), max(bins) + 1, 10):
        c = bins.get(lo_s, 0)
        click.echo(f"  {lo_s:>3}-{lo_s + 9:<3} {c:>9,} {'#' * round(40 * c / peak)}")


def _simulate_cribbage(n, policy, opponent_policy, spec, seed, where, checkpoint, as_json,
                       csv_path, quiet, plot_path):
    from cribsolve.games.cribbage.simulate import simulate_cribbage
    from cribsolve.games.solitaire.simulate import CSV_HEADER
    from cribsolve.infra.progress import bar

    with bar(n, "cribbage games", quiet, "game") as pb:
        res = simulate_cribbage(n, policy or "greedy", opponent_policy, seed, None, pb.update,
                                spec, where, checkpoint)
    d = res.as_dict()
    if csv_path:
        write_csv(csv_path, CSV_HEADER, [res.csv_row()], append=True)
    _plot(plot_path, "cribbage_figure", res)
    if as_json:
        click.echo(dumps(d))
        return
    lo, hi = d["win_rate_ci"]
    rules = "" if spec.is_standard else f" ({spec.describe()})"
    click.echo(f"cribbage to {spec.game_length}{rules}, {d['policy']} (player 1) vs "
               f"{d['opponent_policy']} (player 2), {n:,} games, seed {seed}")
    click.echo(f"first dealer wins {d['win_rate']:.2%}  95% CI [{lo:.2%}, {hi:.2%}]; player 1 "
               f"wins {d['player_win_rate']:.2%}")
    click.echo(f"per deal: dealer {d['dealer_points']:.2f} (pegging {d['dealer_pegging']:.2f}, "
               f"hand {d['dealer_hand']:.2f}, crib {d['crib']:.2f}, heels {d['heels']:.2f}); "
               f"pone {d['pone_points']:.2f} (pegging {d['pone_pegging']:.2f}, hand "
               f"{d['pone_hand']:.2f}" + (f", crib {d['pone_crib']:.2f}" if spec.two_cribs or
                                          spec.bid else "") + ")")
    if spec.two_cribs:
        click.echo(f"ties {d['ties']:,} ({d['ties'] / n:.2%}; the first dealer's wins exclude "
                   f"them)")
    skunks = ("" if spec.lowball else f"; skunks {d['skunk_rate']:.2%}, double skunks "
              f"{d['double_skunk_rate']:.3%}")
    click.echo(f"deals per game {d['deals_per_game']:.2f}{skunks}; largest hand "
               f"{d['largest_hand']}")


@cli.command()
@click.option("-n", "n", type=Number(1, GAMES_MAX), default="1e4", show_default=True,
              help="Games per rule.")
@click.option("--policy", type=click.Choice(["greedy", "lookahead", "random"]), default="greedy",
              show_default=True, help="Both players' pegging (EV discards).")
@_seed_option
@_jobs_option
@_scheduler_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Write the table, one row per rule.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@_plot_option
def variations(n, policy, seed, jobs, scheduler, as_json, csv_path, quiet, plot_path):
    """The house rules side by side: the same seeded games under each rule alone."""
    _check_outputs(("--csv", csv_path))
    _check_plot(plot_path, ("--csv", csv_path))
    from cribsolve.games.cribbage.house_rules import COLUMNS, RULES
    from cribsolve.games.cribbage.house_rules import variations as run
    from cribsolve.infra.progress import bar

    where = _chunks_where(scheduler, jobs)
    with bar(n * len(RULES), "games under each rule", quiet, "game") as pb:
        rows = run(n, seed, policy, jobs, pb.update, where)
    if csv_path:
        write_csv(csv_path, COLUMNS, [list(r.values()) for r in rows])
    _plot(plot_path, "variations_figure", rows, n, seed, policy)
    if as_json:
        click.echo(dumps({"n": n, "seed": seed, "policy": policy, "rows": rows}))
        return
    click.echo(f"{n:,} games per rule, seed {seed}, {policy} pegging, EV discards; points per "
               "deal")
    click.echo(f"  {'rule':<16} {'dealer wins':>17} {'dealer':>6} {'peg':>5} {'hand':>5} "
               f"{'crib':>5} {'pone':>5} {'peg':>5} {'hand':>5} {'crib':>5} {'deals':>5} "
               f"{'skunk':>6} {'top':>4} {'ties':>5}")
    for r in rows:
        skunk = "-" if r["skunk_rate"] is None else f"{r['skunk_rate']:.1%}"
        click.echo(f"  {r['rule']:<16} {r['first_dealer_wins']:6.1%} "
                   f"[{r['ci_low']:5.1%},{r['ci_high']:5.1%}] {r['dealer_points']:6.2f} "
                   f"{r['dealer_pegging']:5.2f} {r['dealer_hand']:5.2f} {r['crib']:5.2f} "
                   f"{r['pone_points']:5.2f} {r['pone_pegging']:5.2f} {r['pone_hand']:5.2f} "
                   f"{r['pone_crib']:5.2f} {r['deals_per_game']:5.2f} {skunk:>6} "
                   f"{r['largest_hand']:4d} {r['ties'] / r['games']:5.1%}")


@cli.command("best-play")
@click.option("--hand", required=True, metavar="CARDS", help="Your unplayed cards.")
@click.option("--played", default=None, metavar="CARDS",
              help="Every card laid in this play so far, in order, with 'go' where a player "
                   "could not lay (e.g. \"TH 5S KD go 6C\").")
@click.option("--go", "opp_go", is_flag=True,
              help="The opponent has just said go (the same as a last 'go' in --played).")
@click.option("--count", type=click.IntRange(0, 199), default=None,
              help="The running count, checked against --played.")
@click.option("--seen", default=None, metavar="CARDS",
              help="Other cards you know: your discards, the starter.")
@click.option("--dealer/--pone", "dealer", default=None,
              help="Your seat: the pone leads (default: the seat the sequence allows).")
@game_options("target", "peg_limit", "lowball", "jokers", "decks", "hand_size", "crib_size",
              "starters", "choose_cut", "two_cribs")
@click.option("--my-score", type=click.IntRange(0, 120), default=None,
              help="Your score now (this play's points so far included): with --their-score, "
                   "--starter and --thrown, rank by P(win) of the game.")
@click.option("--their-score", type=click.IntRange(0, 120), default=None,
              help="The opponent's score.")
@click.option("--starter", default=None, metavar="CARD", help="With the scores: the cut card.")
@click.option("--thrown", default=None, metavar="CARDS",
              help="With the scores: the cards you put in the crib.")
@click.option("--samples", type=Number(2, SAMPLES_MAX), default=2000, show_default=True,
              help="With the scores: rests of the deal played out per card.")
@_seed_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def best_play_cmd(hand, played, opp_go, count, seen, dealer, my_score, their_score, starter,
                  thrown, samples, seed, as_json, **rules):
    """Which card to lay: expected pegging points for you and the opponent, best margin first,
    exact over every holding the opponent may have; with the scores, P(win) of the game."""
    from cribsolve.games.cribbage.search import GO

    spec = make_spec(**rules)
    mine, known = _cards(hand, "--hand"), _cards(seen, "--seen")
    if played is not None and not played.strip():
        raise _bad("--played", "give the cards laid, or leave the option out")
    tokens = [GO if t.lower() == "go" else _card(t, "--played")
              for t in (played or "").replace(",", " ").split()] + [GO] * opp_go
    laid = [t for t in tokens if t is not GO]
    _check_unseen(len(mine + laid + known), max(0, spec.kept - len(laid) + spec.kept -
                                                len(mine)), "the opponent's unplayed cards",
                  "--seen", spec.decks * 52 + spec.jokers)
    from cribsolve.games.cribbage.search import best_play, read_play

    seats = [1 if dealer else 0] if dealer is not None else [0, 1]
    fits = []
    for me in seats:
        try:
            fits.append((me, read_play(mine, tokens, me, spec)))
        except CardError as e:
            error = e
    if not fits:
        raise error
    if len(fits) > 1:
        raise CardError("the sequence fits either seat: say --dealer or --pone")
    me, (_, now, _, _) = fits[0]
    if count is not None and count != now:
        raise _bad("--count", f"{count} is not the count of --played ({now})")
    board = (my_score, their_score, starter, thrown)
    if any(v is not None for v in board) and None in board:
        raise click.UsageError("P(win) needs all of --my-score, --their-score, --starter and "
                               "--thrown")
    if my_score is None:
        _refuse(["samples", "seed"], "a play without the scores", "they go with --my-score")
    cut, crib = (None, []) if starter is None else (_card(starter, "--starter"),
                                                    _cards(thrown, "--thrown"))
    known = [c for c in known if c != cut and c not in crib]     # --seen may repeat them
    rows, n_holdings = best_play(mine, tokens, me, known + crib + [cut] * (cut is not None),
                                 spec)
    wins = {}
    if my_score is not None:
        from cribsolve.games.cribbage.board import play_odds
        wins = {format_card(c): (p, se) for c, p, se in play_odds(
            mine, tokens, me, cut, crib, my_score, their_score, known, spec, samples, seed)}
        rows = sorted(rows, key=lambda r: -wins[r[0]][0])
    if as_json:
        click.echo(dumps({"seat": "dealer" if me else "pone", "count": now,
                          "holdings": n_holdings,
                          "plays": [{"card": c, "mine": m, "theirs": t, "margin": m - t,
                                     **({"win": wins[c][0], "se": wins[c][1]} if wins else {})}
                                    for c, m, t in rows]}))
        return
    rules = "" if spec.is_standard else f" ({spec.describe()}; least margin first)" \
        if spec.lowball else f" ({spec.describe()})"
    click.echo(f"count {now} as {'dealer' if me else 'pone'}{rules}: expected pegging over the "
               f"rest of the play, exact over the opponent's {n_holdings:,} possible holdings "
               f"(by rank), both then laying their best")
    if wins:
        click.echo(f"  P(win) of the game at {my_score} to {their_score}: the rest of the deal "
                   f"played out {samples:,} times from each card (both greedy; seed {seed}), "
                   f"then the odds table; most wins first")
    click.echo(f"  {'card':<5} {'mine':>6} {'theirs':>7} {'margin':>7}" +
               f" {'P(win)':>7} {'± se':>6}" * bool(wins))
    for c, m, t in rows:
        click.echo(f"  {c:<5} {m:6.3f} {t:7.3f} {m - t:7.3f}" +
                   (f" {wins[c][0]:7.2%} {wins[c][1]:6.2%}" if wins else ""))


@cli.command()
@click.option("--my-score", type=click.IntRange(0, ODDS_LENGTH_MAX - 1), default=None,
              help="Your points (below the game length).")
@click.option("--their-score", type=click.IntRange(0, ODDS_LENGTH_MAX - 1), default=None,
              help="Their points (below the game length).")
@click.option("--dealer", "who_deals", type=click.Choice(["me", "them"]), default=None,
              help="Who deals next.")
@click.option("--table", "whole", is_flag=True,
              help="Every position (with --csv or --plot).")
@click.option("--game-length", type=click.IntRange(2, ODDS_LENGTH_MAX), default=121,
              show_default=True, help="Points to win (with --lowball: to lose).")
@game_options()
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="With --table: write my_score,their_score,dealer,win_probability here.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--policy", type=click.Choice(["greedy", "lookahead", "expert"]),
              default="greedy", show_default=True,
              help="The policy both players follow (a table each, built once and cached).")
@click.option("--play-out", type=Number(1, GAMES_MAX), default=None, metavar="N",
              help="Also play N games out from the position, as a direct check.")
@_seed_option
@_plot_option
def odds(my_score, their_score, who_deals, whole, game_length, csv_path, as_json, quiet,
         policy, play_out, seed, plot_path, **rules):
    """Probability of winning two-player cribbage from a board position."""
    _check_outputs(("--csv", csv_path))
    _check_plot(plot_path, ("--csv", csv_path))
    spec = make_spec(game_length, **rules)
    for name, why in (("stinkhole", "it adds points by stages"),
                      ("two_cribs", "its deals are played out and compared"),
                      ("bid", "the crib may be either player's")):
        if rules[name]:
            raise click.UsageError(f"{_opt(name)} is not modelled by the odds table yet "
                                   f"({why}); simulate --variant cribbage plays it")
    if whole:
        _refuse(["my_score", "their_score", "who_deals", "as_json", "play_out"], "--table",
                "it writes every position to --csv or --plot")
        if csv_path is None and plot_path is None:
            raise click.UsageError("--table writes every position: give --csv FILE or --plot "
                                   "FILE")
    else:
        _refuse(["csv_path", "plot_path"], "a single position", "it goes with --table")
        if my_score is None or their_score is None or who_deals is None:
            raise click.UsageError("give --my-score, --their-score and --dealer me|them "
                                   "(or --table)")
        for option, v in (("--my-score", my_score), ("--their-score", their_score)):
            if v >= game_length:
                raise _bad(option, f"{v} is not a score below the game length: give 0 to "
                                   f"{game_length - 1}")
        if not play_out:            # games played out want the compiled engine
            _quick()
    from cribsolve.games.cribbage.odds import (DEALS, SEED, odds_table,
                                               played_out)
    from cribsolve.infra.progress import bar

    with bar(DEALS[policy], "simulating deals for the odds table (once)", quiet, "deal") as pb:
        win = odds_table(spec, pb.update, policy=policy)
    if whole:
        rows = [(a, b, dealer, float(win[1 if dealer == "me" else 0, a, b]))
                for dealer in ("me", "them") for a in range(game_length)
                for b in range(game_length)]
        if csv_path:
            write_csv(csv_path, ["my_score", "their_score", "dealer", "win_probability"], rows)
        _plot(plot_path, "odds_figure", win, spec, DEALS[policy], SEED, policy)
        return
    p = float(win[1 if who_deals == "me" else 0, my_score, their_score])
    out = {"my_score": my_score, "their_score": their_score, "dealer": who_deals,
           "game_length": game_length, "rules": spec.describe(), "policy": policy,
           "win_probability": p}
    if play_out:
        from cribsolve.infra.stats import wilson

        with bar(play_out, "playing the position out", quiet, "game") as pb:
            wins = played_out(spec, my_score, their_score, who_deals == "me", play_out, seed,
                              policy, pb.update)
        out["played_out"] = {"games": play_out, "seed": seed, "win_rate": wins / play_out,
                             "win_rate_ci": wilson(wins, play_out)}
    if as_json:
        click.echo(dumps(out))
        return
    by = "" if policy == "greedy" else f" (both {policy})"
    click.echo(f"{my_score} to {their_score}, {'you' if who_deals == 'me' else 'they'} deal "
               f"next: you win {p:.2%}{by}")
    if play_out:
        lo, hi = out["played_out"]["win_rate_ci"]
        click.echo(f"  played out: {wins / play_out:.2%} of {play_out:,} games "
                   f"[{lo:.2%}, {hi:.2%}] (seed {seed})")


@cli.command()
@click.argument("cards", nargs=-1)
@click.option("--starter", required=False, default=None, metavar="CARD",
              help="The fixed starter card.")
@click.option("--time-limit", type=Number(0, TIME_LIMIT_MAX, real=True), default=None,
              metavar="S", help="Stop after S seconds (0 to 86400) with the best grid so far "
                                "and the gap to the bound.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@_pysol_option("its dealt grid and starter, instead of CARDS and --starter")
def shuffle(cards, starter, time_limit, as_json, pysol_game):
    """Cribbage Shuffle: the best arrangement of 16 grid cards, with its proof."""
    if pysol_game is not None:
        from cribsolve.games.solitaire.pysol import layout, talon
        if cards or starter is not None:
            raise CardError("--pysol-game deals the grid and the starter: give neither")
        lay = layout("shuffle", talon(pysol_game))
        cards, starter = [format_cards(sum(lay["grid"], []))], format_card(lay["starter"])
        if not as_json:
            click.echo(f"PySolFC game {pysol_game}")
    grid = parse_cards(cards)
    if len(grid) != 16:
        raise CardError(f"give exactly 16 grid cards, not {len(grid)}")
    if starter is None:
        raise CardError("give the starter with --starter CARD")
    st = _card(starter, "--starter")
    ruleset("pysol").check_cards(grid + [st])
    if any(c >= 52 for c in grid + [st]):
        raise CardError("jokers are not dealt in Cribbage Shuffle")
    from cribsolve.games.solitaire.shuffle import solve

    sol = solve(grid, st, time_limit)
    rows = [sol.grid[4 * i:4 * i + 4] for i in range(4)]
    if as_json:
        click.echo(dumps({**({"game": pysol_game.number} if pysol_game else {}),
                          "grid": [[format_card(c) for c in r] for r in rows],
                          "rows": sol.rows, "columns": sol.columns, "heels": sol.heels,
                          "total": sol.total, "upper_bound": sol.upper_bound,
                          "optimal": sol.optimal}))
        return
    click.echo(f"starter {format_card(st)}")
    for r, pts in zip(rows, sol.rows):
        click.echo("  " + "  ".join(f"{format_card(c):>3}" for c in r) + f"   | {pts:>3}")
    click.echo("  " + "-" * 19)
    click.echo("  " + "  ".join(f"{p:>3}" for p in sol.columns))
    click.echo(f"rows {sum(sol.rows)} + columns {sum(sol.columns)} + heels {sol.heels} = "
               f"{sol.total}")
    if sol.optimal:
        click.echo(f"proven optimal ({sol.seconds * 1000:.0f} ms; the heuristic start was "
                   f"{sol.heuristic})")
    else:
        click.echo(f"time limit reached: best {sol.total}, upper bound {sol.upper_bound} "
                   f"(gap {sol.upper_bound - sol.total})")


@cli.command()
@click.option("--variant", type=click.Choice(["patience", "patience2", "shuffle"]),
              required=True, help="The solitaire whose layout to show.")
@click.option("--pysol-game", "pysol_game", type=PysolGame(), required=True, metavar="N",
              help="PySolFC's game N (1 to 31999 and msN: Microsoft-compatible deals).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def deal(variant, pysol_game, as_json):
    """The cards of a PySolFC game number, as they are dealt."""
    from cribsolve.games.solitaire.pysol import deal_lines, deal_record

    if as_json:
        click.echo(dumps(deal_record(variant, pysol_game)))
    else:
        click.echo("\n".join(deal_lines(variant, pysol_game)))


@cli.command()
@click.option("--variant", type=click.Choice(["patience", "patience2"]), required=True,
              help="The solitaire to play.")
@_pysol_option("play this game")
@click.option("--seed", type=click.IntRange(0, SEED_MAX), default=None,
              help="Play a deal of our own, shuffled from this seed.")
@click.option("--samples", type=Number(2, SAMPLES_MAX), default=2000, show_default=True,
              help="Patience II's first discards: second hands sampled.")
@click.option("--top", type=click.IntRange(1, TOP_MAX), default=3, show_default=True,
              help="Discards shown at each decision.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def play(variant, pysol_game, seed, samples, top, quiet):
    """Play a solitaire with a coach: each discard advised from the face-up cards only;
    type yours (e.g. 5H JD), or Enter to take the advice."""
    from cribsolve.games.solitaire.coach import (Walk, advise, result_line,
                                                 seeded_talon, summary_lines,
                                                 view_lines)
    from cribsolve.games.solitaire.facts import SOLITAIRES
    from cribsolve.games.solitaire.pysol import talon

    if (pysol_game is None) == (seed is None):
        raise click.UsageError("give the deal: --pysol-game N or --seed S")
    _win_table_progress(variant, quiet)
    walk = Walk(variant, talon(pysol_game) if seed is None else seeded_talon(seed))
    click.echo(f"{SOLITAIRES[variant].name}, " + (f"PySolFC game {pysol_game}" if seed is None else
                                        f"seed {seed}") + ": 80 points to win"
               + ("; 7 cards removed unseen" if variant == "patience" else ""))
    while not walk.over:
        view = walk.view()
        options = advise(view, samples)
        click.echo("\n".join([""] + view_lines(view, options, top)))
        while True:
            click.echo(f"your discard [{format_cards(options[0].discard)}]: ", nl=False)
            line = sys.stdin.readline()
            if not line:
                click.echo(f"\ninput ended at deal {view.deal} with {walk.score} points")
                return
            if not sys.stdin.isatty():
                click.echo(line.rstrip("\n"))
            try:
                discard = (options[0].discard if line.strip().lower() in ("", "y", "yes")
                           else walk.parse(line, view))
                break
            except CardError as e:
                click.echo(f"  {_one_line(e)}: type two of its cards, or Enter for the advice")
        res = walk.choose(discard, options)
        if res is not None:
            click.echo(result_line(res))
    click.echo("\n".join([""] + summary_lines(walk)))


@cli.command()
@click.option("--variant", type=click.Choice(["patience", "patience2"]), default="patience",
              show_default=True, help="The solitaire.")
@click.option("-n", "n", type=Number(1, GAMES_MAX), default="1e4", show_default=True,
              help=f"Decks, 1 to {_show(GAMES_MAX)} (accepts 1e5).")
@click.option("--samples", type=click.IntRange(0, 1000), default=8, show_default=True,
              help="Patience: next hands drawn per deal for the look-ahead charge (0: none).")
@_seed_option
@_jobs_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def bracket(variant, n, samples, seed, jobs, as_json, quiet):
    """How good is optimal play: the best policy's win rate, and upper bounds on every policy
    (the information-relaxation bound, and clairvoyance), on the same decks."""
    from cribsolve.games.solitaire.bracket import bracket as run_bracket
    from cribsolve.infra.progress import bar

    _win_table_progress(variant, quiet)
    with bar(n, f"bracket {variant}", quiet, "deck") as pb:
        d = run_bracket(variant, n, seed, jobs, pb.update, samples).as_dict()
    if as_json:
        click.echo(dumps(d))
        return
    click.echo(f"{variant}, {n:,} decks, seed {seed}: the optimal win rate (>= 80) lies in")
    rows = [(f"best policy ({d['policy']})", "win_rate"), ("upper bound (penalised)",
                                                             "upper_bound"),
            ("clairvoyant bound", "clairvoyant"), ("width (upper - best)", "width")]
    if "gain" in d:
        rows.insert(1, ("  gain over win", "gain"))
    for name, key in rows:
        lo, hi = d[key + "_ci"]
        click.echo(f"  {name:<24} {d[key]:8.4%}  95% CI [{lo:.4%}, {hi:.4%}]")


@cli.command("review")
@click.argument("game", metavar="GAME")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
def review_cmd(game, as_json, quiet):
    """Replay a played game from its record (GAME, a text file: see the README) and set each
    of your throws and plays beside the best, from what you knew then."""
    from cribsolve.games.cribbage.review import (as_dict, count_decisions,
                                                 load_record, replay, review,
                                                 text_lines)
    from cribsolve.infra.progress import bar

    played = replay(load_record(game))
    with bar(count_decisions(played), "reviewing decisions", quiet, "decision") as pb:
        reviews = review(played, progress=pb.update)
    click.echo(dumps(as_dict(played, reviews)) if as_json else
               "\n".join(text_lines(played, reviews)))


@cli.group(invoke_without_command=True, subcommand_metavar="COMMAND [ARGS]...")
@click.pass_context
def cache(ctx):
    """The tables and compiled kernels cribsolve keeps."""
    if ctx.invoked_subcommand is None:
        raise NoCommand("give a command", ctx)


@cache.command("info")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def cache_info(as_json):
    """Where everything is kept, its size, and which files are stale or damaged."""
    _quick()
    from cribsolve.catalog import inventory
    from cribsolve.infra.paths import cache_dir

    rows = inventory()
    if as_json:
        click.echo(dumps({"cache_dir": cache_dir(), "files": rows}))
        return
    click.echo(f"cache folder {cache_dir()}")
    for r in rows:
        where = "shipped" if r["shipped"] else "cache"
        click.echo(f"  {r['bytes'] / 1e6:8.2f} MB  {where:<7} {r['state']:<10}  {r['what']}  "
                   f"{r['path']}")
    click.echo(f"total {sum(r['bytes'] for r in rows) / 1e6:.2f} MB in {len(rows)} entries")


@cache.command("clear")
def cache_clear():
    """Remove every table and compiled kernel in the cache folder (they are rebuilt on use)."""
    _quick()
    from cribsolve.catalog import clear
    from cribsolve.infra.paths import cache_dir

    removed = clear()
    click.echo(f"removed {len(removed)} entries from {cache_dir()}")


if __name__ == "__main__":
    main()
