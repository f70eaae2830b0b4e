"""``cache``: the tables and compiled kernels cribsolve keeps, listed (``info``) or removed
(``clear``)."""

from __future__ import annotations

import click

from cribsolve.cli.checks import NoCommand
from cribsolve.cli.options import quick

WIDTH = 100  # cache info's lines: a table's parameters and file name wrap beneath it


@click.group(invoke_without_command=True, subcommand_metavar="COMMAND [ARGS]...")
@click.pass_context
def cache(ctx):
    """The tables and compiled kernels cribsolve keeps."""
    if ctx.invoked_subcommand is None:
        raise NoCommand("give a command", ctx)


@cache.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def info(as_json):
    """Where everything is kept, its size, and which files are stale or damaged."""
    quick()
    from cribsolve.catalog import inventory
    from cribsolve.infra.export import dumps
    from cribsolve.infra.paths import cache_dir

    rows = inventory()
    if as_json:
        click.echo(dumps({"cache_dir": cache_dir(), "files": rows}))
        return
    import os
    import textwrap

    click.echo(f"cache folder {cache_dir()}")
    for r in rows:
        where = "shipped" if r["shipped"] else "cache"
        name = os.path.basename(r["path"])  # a table's file name repeats its parameters
        line = f"{r['bytes'] / 1e6:8.2f} MB  {where:<7} {r['state']}  {r['what']}" + (
            f"  ({name})" if os.path.isdir(r["path"]) else ""
        )
        click.echo(
            textwrap.fill(
                line, WIDTH, initial_indent="  ", subsequent_indent=" " * 14, break_on_hyphens=False
            )
        )
    click.echo(f"total {sum(r['bytes'] for r in rows) / 1e6:.2f} MB in {len(rows)} entries")


@cache.command()
def clear():
    """Remove every table and compiled kernel in the cache folder (they are rebuilt on use)."""
    quick()
    from cribsolve import catalog
    from cribsolve.infra.paths import cache_dir

    removed = catalog.clear()
    click.echo(f"removed {len(removed)} entries from {cache_dir()}")
