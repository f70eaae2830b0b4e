"""The command line: the click group ``cli``, which imports a command's module only when that
command runs (LazyGroup), and the console entry point ``main``. Nothing heavier than click is
imported before a command runs, so single answers come back fast (docs/performance.md, "How
single answers start fast").
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from cribsolve.cli.checks import NoCommand, one_line
from cribsolve.errors import MACHINE, CribsolveError, FileFault, Interrupted
from cribsolve.infra import jit, paths, spinner

# every command, as the module and function that define it
COMMANDS = {
    "score": "cribsolve.cli.score:score",
    "distribution": "cribsolve.cli.score:distribution",
    "best-discard": "cribsolve.cli.discard:best_discard",
    "crib-table": "cribsolve.cli.discard:crib_table",
    "simulate": "cribsolve.cli.simulate:simulate",
    "variations": "cribsolve.cli.variations:variations",
    "best-play": "cribsolve.cli.best_play:best_play",
    "odds": "cribsolve.cli.odds:odds",
    "review": "cribsolve.cli.play:review",
    "shuffle": "cribsolve.cli.shuffle:shuffle",
    "best-place": "cribsolve.cli.best_place:best_place",
    "deal": "cribsolve.cli.solitaire:deal",
    "play": "cribsolve.cli.play:play",
    "bracket": "cribsolve.cli.bracket:bracket",
    "cache": "cribsolve.cli.cache:cache",
}
# click 8.4 and later suggest a close name for a mistyped command
_NO_SUCH_COMMAND = getattr(click.exceptions, "NoSuchCommand", ())


class LazyGroup(click.Group):
    """A group whose commands are named "module:function" and imported when first asked for."""

    def __init__(self, *args, lazy_commands: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        self.lazy_commands = lazy_commands

    def list_commands(self, ctx):
        return sorted([*super().list_commands(ctx), *self.lazy_commands])

    def get_command(self, ctx, cmd_name):
        if cmd_name not in self.lazy_commands:
            return super().get_command(ctx, cmd_name)
        module, name = self.lazy_commands[cmd_name].split(":")
        return getattr(importlib.import_module(module), name)

    def resolve_command(self, ctx, args):
        try:
            name, cmd, rest = super().resolve_command(ctx, args)
        except _NO_SUCH_COMMAND as e:  # click looks for close names among those loaded
            raise click.exceptions.NoSuchCommand(
                e.command_name, possibilities=self.list_commands(ctx), ctx=ctx
            ) from None
        _refuse_repeats(cmd, rest)
        return name, cmd, rest


def _refuse_repeats(cmd, args) -> None:
    """An option of one value given twice is refused: click would keep the last one silently
    (``--starter 5D --starter 6D`` answered for 6D alone)."""
    for p in cmd.params:
        if not isinstance(p, click.Option) or p.multiple or p.is_flag or p.count:
            continue
        given = 0
        for a in map(str, args):  # a caller in Python may pass numbers
            if a == "--":
                break
            given += any(a == o or a.startswith(o + "=") for o in p.opts)
        if given > 1:
            raise click.UsageError(f"{p.opts[-1]} was given {given} times: give it once")


@click.group(
    cls=LazyGroup,
    lazy_commands=COMMANDS,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
    subcommand_metavar="COMMAND [ARGS]...",
)
@click.version_option(package_name="cribsolve")
@click.pass_context
def cli(ctx):
    """cribsolve: exact, fast cribbage scoring, discards and solitaire odds."""
    if ctx.invoked_subcommand is None:
        raise NoCommand("give a command", ctx)


def main():
    """Console entry point: user mistakes become one line on stderr and exit status 2, a write
    the machine failed (a full disk) one line and exit status 1."""
    no_command = (NoCommand, getattr(click.exceptions, "NoArgsIsHelpError", NoCommand))
    # numpy's OpenBLAS starts a thread per core that spins for a while as numpy loads; no
    # command does long BLAS work (the kernels are numba's), and with the other core busy that
    # thread cost a single answer 0.06 s of 0.2 (a setting of the user's own wins)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    jit.lean()
    if "--quiet" in sys.argv[1:]:
        spinner.quiet()
    try:
        with paths.command():
            cli.main(prog_name="cribsolve", standalone_mode=False)
        sys.stdout.flush()  # output to a full disk fails here, not as Python exits
    except no_command as e:  # the usage line, not the whole help
        click.echo(e.ctx.get_usage().strip().splitlines()[0], err=True)
        click.echo(f"cribsolve: give a command (see {e.ctx.command_path} --help)", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"cribsolve: {one_line(e.format_message())}", err=True)
        sys.exit(2)
    except (click.Abort, KeyboardInterrupt) as e:
        # click turns Ctrl-C into Abort, raised from it
        why = next((x for x in (e, e.__cause__) if isinstance(x, Interrupted)), None)
        note = f"; {why}" if why is not None else ""
        click.echo(f"cribsolve: interrupted{note}", err=True)
        sys.exit(130)
    except CribsolveError as e:
        click.echo(f"cribsolve: {one_line(e)}", err=True)
        sys.exit(2)
    except FileFault as e:
        click.echo(f"cribsolve: {one_line(e)}", err=True)
        sys.exit(1)
    except OSError as e:
        if e.errno in MACHINE:  # the output (to a file on a full disk), or a file it read
            _drop_output()
            click.echo(f"cribsolve: {e.filename or 'the output'}: {e.strerror}", err=True)
            sys.exit(1)
        if e.filename is None:
            raise
        click.echo(f"cribsolve: {e.filename}: {e.strerror}", err=True)  # a file the user named
        sys.exit(2)
    except RuntimeError as e:
        if not isinstance(e, jit.NeedsCompiled):
            raise
        os.environ["CRIBSOLVE_COMPILED"] = "1"  # a table must be built: start again
        os.execv(sys.executable, [sys.executable, "-m", "cribsolve", *sys.argv[1:]])


def _drop_output() -> None:
    """What stdout still holds goes nowhere: Python would try again as it exits, and print a
    traceback of its own."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file (captured, as in tests)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)
