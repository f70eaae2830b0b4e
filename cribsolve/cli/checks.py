"""The checks of what a user typed, each failing in one clear line (exit status 2): cards,
options given together or not at all, output files that can be written."""

from __future__ import annotations

import os

import click
from click.core import ParameterSource

from cribsolve.errors import CribsolveError


class NoCommand(click.UsageError):
    """A group was run without a command: main() prints its usage and one line of advice."""


def one_line(message) -> str:
    """A message as one line, whatever the user typed into it."""
    return " ".join(part.strip() for part in str(message).splitlines() if part.strip())


def given(name: str) -> bool:
    """Whether the user gave option ``name`` (its parameter name), rather than its default
    (``dealer``: either seat)."""
    ctx = click.get_current_context()
    sources = [
        ctx.get_parameter_source(n) for n in (("dealer", "pone") if name == "dealer" else (name,))
    ]
    return any(s is not None and s is not ParameterSource.DEFAULT for s in sources)


def opt(name: str) -> str:
    """How option ``name`` is written on the command line: --csv, --dealer/--pone."""
    if name == "dealer":
        return "--dealer/--pone"
    for p in click.get_current_context().command.params:
        if p.name == name:
            return "/".join(p.opts + list(getattr(p, "secondary_opts", [])))
    return name


def refuse(names, where: str, hint: str = "") -> None:
    """An option given where it does not apply is an error, never silently ignored."""
    for name in names:
        if given(name):
            raise click.UsageError(
                f"{opt(name)} does not apply to {where}" + (f" ({hint})" if hint else "")
            )


def bad(option: str, message: str):
    return click.BadParameter(message, param_hint=f"'{option}'")


def check_outputs(*pairs) -> None:
    """Refuse every unwritable output path (option, path) before any work starts."""
    from cribsolve.infra.export import check_output_path

    seen = {}
    for option, path in pairs:
        if path is None:
            continue
        if not path or path.endswith(("/", os.sep)) or "\0" in path:
            raise CribsolveError(f"{option}: {path!r} is not a file name")
        check_output_path(path, option)
        real = os.path.realpath(path)
        if real in seen:
            raise CribsolveError(f"{option} and {seen[real]} name the same file; give two files")
        seen[real] = option


def check_header(path: str, header, option: str, older=()) -> None:
    """A table appended to must already have our header, or one of the ``older`` ones
    (checked before the work, not after)."""
    import csv
    import io

    try:
        with open(path, "rb") as f:
            first = f.readline(4096)
    except FileNotFoundError:
        return
    except OSError as e:
        raise CribsolveError(f"{option}: cannot read {path} ({e.strerror})") from None
    if not first:
        return

    def line(h):
        buf = io.StringIO()
        csv.writer(buf).writerow(h)
        return buf.getvalue().rstrip("\r\n")

    want = line(header)
    found = first.decode("utf-8", "replace").rstrip("\r\n")
    if found not in (want, *map(line, older)):
        raise CribsolveError(
            f"{option}: {path} has a different header ({found[:80]!r}, not "
            f"{want!r}); use another file"
        )


def check_plot(path, *outputs) -> None:
    """Refuse --plot FILE before any work: a format we do not write, a path we cannot write
    (or one of ``outputs``), or no matplotlib."""
    if path is not None:
        from cribsolve.cli.plots import plot_format, require_matplotlib

        plot_format(path)
        check_outputs(*outputs, ("--plot", path))
        require_matplotlib()
