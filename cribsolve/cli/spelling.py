"""One language for every command's options: the seat spelled --dealer or --pone alike
everywhere, --samples one count with one range wherever it is taken, and the spellings of
earlier releases still taken, each with a note."""

from __future__ import annotations

import click

from cribsolve.cli.options import SAMPLES_MAX, Number, show


def samples_option(what: str):
    """--samples: the draws of a sampled analysis, with the same bounds, default and range
    wording in every command that samples (``what``: the draws, as this command makes them)."""
    return click.option(
        "--samples",
        type=Number(2, SAMPLES_MAX),
        default=2000,
        show_default=True,
        help=f"{what}, 2 to {show(SAMPLES_MAX)}.",
    )


def objective_option(what: str):
    """--objective: what a board-aware answer maximizes, the same choice in every command that
    weighs the scores (``what``: where it applies here)."""
    return click.option(
        "--objective",
        type=click.Choice(["win", "game-points"]),
        default="win",
        show_default=True,
        help=f"{what}: P(win), or expected game points by the American "
        "Cribbage Congress's tournament scoring (2 a win, 3 a skunk).",
    )


def seat_option(help: str):
    """The seat, spelled --dealer or --pone by every command: the parameter ``dealer`` is True,
    False, or None when neither is given; both at once is refused (not the last one winning)."""

    def pick(ctx, param, value):
        if not value:
            ctx.params.setdefault("dealer", None)
        elif ctx.params.get("dealer") is not None:
            raise click.UsageError("give --dealer or --pone, not both")
        else:
            ctx.params["dealer"] = param.name == "dealer"

    def decorate(f):
        f = click.option(
            "--pone",
            "pone",
            is_flag=True,
            expose_value=False,
            callback=pick,
            help="The other seat: the pone, who leads the play.",
        )(f)
        return click.option(
            "--dealer", "dealer", is_flag=True, expose_value=False, callback=pick, help=help
        )(f)

    return decorate


def three_board_options(you: str):
    """--scores A,B,C and --dealer-player N: a three-player board, read alike by every command
    that weighs one (``you``: who player 1 is here, or empty)."""

    def decorate(f):
        f = click.option(
            "--dealer-player",
            type=click.IntRange(1, 3),
            default=None,
            help="With --players 3: the player who deals (1, 2 or 3).",
        )(f)
        return click.option(
            "--scores",
            default=None,
            metavar="A,B,C",
            help="With --players 3: the three players' scores, players 1, 2 and 3, each "
            f"sitting at the left of the one before{you}.",
        )(f)

    return decorate


class Spelled(click.Command):
    """A command that still takes the spellings its options had before every command spoke
    one language (``respelled``: old -> new; '' makes the value a positional argument; a dict
    maps the old option's values to new options), each with a one-line note on stderr when
    the command has done its work."""

    def __init__(self, *args, respelled: dict, **kwargs):
        super().__init__(*args, **kwargs)
        self.respelled = respelled

    def parse_args(self, ctx, args):
        out, i = [], 0
        while i < len(args):
            arg = args[i]
            if not isinstance(arg, str):  # a caller in Python may pass numbers
                out.append(arg)
                i += 1
                continue
            if arg == "--":
                out += args[i:]
                break
            i += 1
            name, eq, value = arg.partition("=")
            new = self.respelled.get(name)
            if isinstance(new, dict) and not eq and i < len(args) and args[i].lower() in new:
                value, i = args[i], i + 1
            elif isinstance(new, dict) and value.lower() not in new:
                new = None  # today's flag of the same name
            elif new == "" and not eq and i < len(args):
                value, i = args[i], i + 1
            if new is None:
                out.append(arg)
                continue
            if isinstance(new, dict):
                said, word = f"{name} {value}", new[value.lower()]
                out.append(word)
            elif new:
                said, word = name, new
                out.append(new + eq + value)
            else:
                said, word = f"{name} CARDS", "CARDS alone"
                out.append(value)
            ctx.meta.setdefault("respelled", []).append(
                f"cribsolve: {said} is now spelled {word}; the old spelling will go in a "
                "later release"
            )
        return super().parse_args(ctx, out)

    def invoke(self, ctx):
        """Run the command, then say what was respelled (an error stays one line)."""
        rv = super().invoke(ctx)
        for note in ctx.meta.get("respelled", ()):
            click.echo(note, err=True)
        return rv
